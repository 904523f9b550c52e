package server

import (
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/open-bot/memory/internal/memory"
)

// export serves GET /export?scope=shared|<teammate id>&format=json|markdown[&revisions=true]: the
// exportMemory query as a file download for the web app, which can't save a GraphQL string as a file
// without holding all of it in the page. The same service call makes the same checks (user only,
// the scope must exist, the export's size bound) and the download takes a heavy slot as the query
// does; the credential is the session cookie or a bearer token, as for /graphql. A
// GET changes nothing (RULES §4), and the response is not stored by caches: it is memory text.
func (s *server) export(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for _, values := range q {
		for _, v := range values {
			if !utf8.ValidString(v) {
				writeGraphQLError(w, http.StatusBadRequest, "BAD_USER_INPUT", "the query string is not valid UTF-8")
				return
			}
		}
	}
	o := memory.ExportOptions{Format: memory.ExportFormat(strings.ToLower(q.Get("format")))}
	if o.Format == "" {
		o.Format = memory.ExportJSON
	}
	switch scope := q.Get("scope"); scope {
	case "":
		writeExportError(w, &memory.ValidationError{Field: "scope", Reason: "is required: shared or a teammate's id"})
		return
	case memory.ScopeShared:
	default:
		o.Scope.TeammateID = &scope
	}
	switch q.Get("revisions") {
	case "", "false":
	case "true":
		o.Revisions = true
	default:
		writeExportError(w, &memory.ValidationError{Field: "revisions", Reason: "must be true or false"})
		return
	}
	// A heavy request, as exportMemory is in GraphQL: it waits for one of the process's heavy slots
	// (operations.go), held until the file is written, so that however many downloads run at once
	// no more exports than slots are in memory, and the rest of the pool stays free. Only the
	// user's downloads take one: the service refuses anyone else's at once.
	if memory.CredentialFrom(r.Context()).Kind == memory.CredentialUser {
		release, err := s.budget.admit(r.Context(), "Query", "exportMemory")
		if err != nil {
			return // the client has gone
		}
		defer release()
	}
	out, err := s.Memory.ExportMemory(r.Context(), o)
	if err != nil {
		memory.Classify(err).Log(r.Context(), s.Log, "export failed", err)
		writeExportError(w, err)
		return
	}
	h := w.Header()
	if out.Format == memory.ExportMarkdown {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
	} else {
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	h.Set("Content-Disposition", `attachment; filename="`+exportFilename(out, time.Now())+`"`)
	h.Set("Cache-Control", "no-store")
	// The slot is held while the file is written: a client that reads it slowly gets a deadline.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(exportWriteTime(len(out.Data))))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.Data)
}

// exportWriteTime is how long writing an export of n bytes may take: a minute, and a second more
// for every 64 kB.
func exportWriteTime(n int) time.Duration {
	return time.Minute + time.Duration(n/(64<<10))*time.Second
}

// exportMethodNotAllowed answers every method but GET (and HEAD) on /export: without it they would
// reach the web app's catch-all.
func exportMethodNotAllowed(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Allow", "GET, HEAD")
	writeGraphQLError(w, http.StatusMethodNotAllowed, "BAD_USER_INPUT", "only GET downloads an export")
}

// writeExportError answers a failed export with its class's status (memory.Classify) and a GraphQL-style error body
// (extensions.code, and extensions.field for bad input), never quoting memory text.
func writeExportError(w http.ResponseWriter, err error) {
	class := memory.Classify(err)
	extensions := map[string]any{"code": class.Code}
	if class.Field != "" {
		extensions["field"] = class.Field
	}
	if class.Retryable {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, class.Status, map[string]any{"errors": []map[string]any{{"message": class.Message, "extensions": extensions}}})
}

// exportFilename is memory-<shared or the teammate's name>-<date>.<json|md>, the name reduced to
// letters, digits and dashes so the header can't be broken (the id when nothing is left of it).
func exportFilename(e memory.Export, now time.Time) string {
	name := "shared"
	if e.Scope != memory.ScopeShared {
		var b strings.Builder
		for _, c := range strings.ToLower(e.Teammate) {
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
				b.WriteRune(c)
			case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
				b.WriteByte('-')
			}
		}
		name = strings.Trim(b.String(), "-")
		if name == "" {
			name = e.Scope
		}
		if len(name) > 60 {
			name = name[:60]
		}
	}
	ext := ".json"
	if e.Format == memory.ExportMarkdown {
		ext = ".md"
	}
	return "memory-" + name + "-" + now.UTC().Format("2006-01-02") + ext
}

package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/escapes"
	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Export and import of a scope's memory: a JSON file that keeps everything an item is —
// kind, key, content, pin, expiry and, optionally, its revision history — and that ImportMemory reads
// back, and a Markdown rendering for people.

// ExportFormat is the form of an export.
type ExportFormat string

// The export formats.
const (
	// ExportJSON is lossless and importable (ExportFile).
	ExportJSON ExportFormat = "json"
	// ExportMarkdown is for people: the items by kind, pinned first; not importable.
	ExportMarkdown ExportFormat = "markdown"
)

// ExportFileFormat and ExportFileVersion mark a JSON export, so an import can tell it from any other
// JSON and a later version of the format from this one.
const (
	ExportFileFormat  = "memory-export"
	ExportFileVersion = 1
)

// MaxExportItems bounds one export, which is built whole in memory.
const MaxExportItems = 10_000

// DefaultExportMaxBytes bounds one export's text unless WithExportMaxBytes says otherwise (see
// exportBytes): 32 MiB. An export is built whole in memory, a few times its size while it is
// rendered, so the bound is on what the scope holds, its revisions included when they are asked for,
// read before any row is.
const DefaultExportMaxBytes = 32 << 20

// What a row adds to an export beyond its text (ids, dates, field names, indentation), roughly.
const (
	exportItemOverhead     = 320
	exportRevisionOverhead = 256
)

// exportBytes is about how large an export of size is.
func exportBytes(size *memorydb.ExportSizeRow) int64 {
	return size.ItemBytes + int64(size.Items)*exportItemOverhead + size.RevisionBytes + size.Revisions*exportRevisionOverhead
}

// MaxImportItems bounds one import: its items are written in one transaction.
const MaxImportItems = 1_000

// MaxImportRevisions bounds the revision history an import may carry, over all its items.
const MaxImportRevisions = 10_000

// ActorImport is the actor of revisions an import wrote (RULES §2).
const ActorImport = "import"

// ExportFile is the JSON export of one scope: what ExportMemory writes and ImportMemory reads.
type ExportFile struct {
	// Format is ExportFileFormat and Version ExportFileVersion.
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Scope is "shared" or the teammate's id the file was exported from; an import ignores it.
	Scope string `json:"scope"`
	// Teammate is the exported teammate's name; empty for shared memory.
	Teammate string `json:"teammate,omitempty"`
	// MemorySwitch is the exported teammate's memory switch (switch.go); absent for shared memory.
	// An import into a teammate's scope restores it; a teammate's file without it (written before
	// the switch existed) restores both settings on.
	MemorySwitch *ExportSwitch `json:"memorySwitch,omitempty"`
	ExportedAt   time.Time     `json:"exportedAt"`
	Items        []ExportItem  `json:"items"`
}

// ExportSwitch is a teammate's memory switch in an export.
type ExportSwitch struct {
	UseMemory  bool `json:"useMemory"`
	SaveMemory bool `json:"saveMemory"`
}

// ExportItem is one active item of an export.
type ExportItem struct {
	// ID, Source, Revision, CreatedAt and UpdatedAt say where the item came from; an import gives it a
	// new id and source import, and keeps the dates. A date outside the range an import accepts is
	// left out (exportDate).
	ID        string     `json:"id,omitempty"`
	Kind      Kind       `json:"kind"`
	Key       *string    `json:"key"`
	Content   string     `json:"content"`
	Pinned    bool       `json:"pinned"`
	ExpiresAt *time.Time `json:"expiresAt"`
	Source    Source     `json:"source,omitempty"`
	Revision  int        `json:"revision,omitempty"`
	CreatedAt *time.Time `json:"createdAt,omitempty"`
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
	// Revisions is the item's history, oldest first, when the export asked for it.
	Revisions []ExportRevision `json:"revisions,omitempty"`
}

// ExportRevision is one saved state of an exported item.
type ExportRevision struct {
	Revision  int        `json:"revision"`
	Content   string     `json:"content"`
	Key       *string    `json:"key"`
	Kind      Kind       `json:"kind"`
	Pinned    bool       `json:"pinned"`
	ExpiresAt *time.Time `json:"expiresAt"`
	Action    Action     `json:"action"`
	Actor     string     `json:"actor,omitempty"`
	CreatedAt *time.Time `json:"createdAt,omitempty"`
}

// ExportOptions say what to export.
type ExportOptions struct {
	Scope     Scope
	Format    ExportFormat
	Revisions bool
}

// Export is one exported file.
type Export struct {
	// Scope is "shared" or the teammate's id; Teammate its name (empty for shared).
	Scope    string
	Teammate string
	Format   ExportFormat
	Data     []byte
}

// ExportMemory renders scope's active items (user only) as o.Format, read in one snapshot. A scope
// with more than MaxExportItems items, or more text than the export bound (WithExportMaxBytes;
// revisions counted when o.Revisions asks for them), is refused before its rows are read, rather
// than cut short.
func (s *Service) ExportMemory(ctx context.Context, o ExportOptions) (Export, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Export{}, err
	}
	if o.Format != ExportJSON && o.Format != ExportMarkdown {
		return Export{}, invalid("format", "must be json or markdown")
	}
	sc, err := s.CheckScopeReadable(ctx, o.Scope)
	if err != nil {
		return Export{}, err
	}
	file := ExportFile{Format: ExportFileFormat, Version: ExportFileVersion, Scope: sc.String(), Items: []ExportItem{}}
	var revisions []Revision
	var now time.Time
	err = s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		file.Items, revisions = []ExportItem{}, nil
		q := queries(tx)
		var err error
		now, err = q.ClockNow(ctx)
		if err != nil {
			return err
		}
		file.ExportedAt = now
		if sc.TeammateID != nil {
			if file.Teammate, err = q.TeammateName(ctx, *sc.TeammateID); err != nil {
				return err
			}
			sw, err := switchesTx(ctx, tx, *sc.TeammateID)
			if err != nil {
				return err
			}
			file.MemorySwitch = &ExportSwitch{UseMemory: sw.UseMemory, SaveMemory: sw.SaveMemory}
		}
		size, err := q.ExportSize(ctx, memorydb.ExportSizeParams{Scope: sc.String(), WithRevisions: o.Revisions})
		if err != nil {
			return err
		}
		if size.Items > MaxExportItems {
			return invalid("scope", fmt.Sprintf("holds more than %d memories, more than one export takes", MaxExportItems))
		}
		if n := exportBytes(size); n > int64(s.exportMaxBytes) {
			what, advice := "memories", "raise MEMORY_EXPORT_MAX_BYTES"
			if o.Revisions {
				what, advice = "memories and revisions", "export it without revisions, or raise MEMORY_EXPORT_MAX_BYTES"
			}
			return invalid("scope", fmt.Sprintf("holds about %d MiB of %s, more than one export takes (%d MiB); %s",
				(n+(1<<20)-1)>>20, what, s.exportMaxBytes>>20, advice))
		}
		rows, err := q.ItemsExport(ctx, memorydb.ItemsExportParams{Scope: sc.String(), MaxRows: MaxExportItems + 1})
		if err != nil {
			return err
		}
		items := mapRows(rows, itemFromRow)
		if len(items) > MaxExportItems {
			return invalid("scope", fmt.Sprintf("holds more than %d memories, more than one export takes", MaxExportItems))
		}
		ids := make([]string, len(items))
		for i, it := range items {
			ids[i] = it.ID
			file.Items = append(file.Items, ExportItem{
				ID: it.ID, Kind: it.Kind, Key: it.Key, Content: it.Content, Pinned: it.Pinned,
				ExpiresAt: exportExpiry(it.ExpiresAt), Source: it.Source, Revision: it.Revision,
				CreatedAt: exportDate(it.CreatedAt, now), UpdatedAt: exportDate(it.UpdatedAt, now),
			})
		}
		if !o.Revisions || len(ids) == 0 {
			return nil
		}
		revs, err := q.RevisionsOfItems(ctx, ids)
		if err != nil {
			return err
		}
		revisions = mapRows(revs, revisionFromRow)
		return nil
	})
	if err != nil {
		return Export{}, wrapUnlessDomain("export memory", err)
	}
	if o.Revisions {
		byItem := map[string][]ExportRevision{}
		for _, r := range revisions {
			byItem[r.ItemID] = append(byItem[r.ItemID], ExportRevision{
				Revision: r.Revision, Content: r.Content, Key: r.Key, Kind: r.Kind, Pinned: r.Pinned,
				ExpiresAt: exportExpiry(r.ExpiresAt), Action: r.Action, Actor: r.Actor, CreatedAt: exportDate(r.CreatedAt, now),
			})
		}
		for i := range file.Items {
			file.Items[i].Revisions = byItem[file.Items[i].ID]
		}
	}
	out := Export{Scope: file.Scope, Teammate: file.Teammate, Format: o.Format}
	if o.Format == ExportJSON {
		out.Data, err = json.MarshalIndent(file, "", "  ")
		if err != nil {
			return Export{}, fmt.Errorf("export memory: %w", err)
		}
		out.Data = append(out.Data, '\n')
	} else {
		out.Data = renderMarkdown(file)
	}
	s.log.InfoContext(ctx, "memory exported", "scope", file.Scope, "items", len(file.Items), "format", string(o.Format))
	return out, nil
}

// exportDate is a stored creation or change date as the file gives it: none when it is outside the
// range an import accepts (pastTime), which only SQL can have written — so that every export can be
// imported again (the import then stamps the time of the import), and no stored year beyond 0–9999,
// which JSON's RFC 3339 can't write, can fail an export.
func exportDate(t, now time.Time) *time.Time {
	if t.Before(importEpoch) || t.After(now.Add(ImportFutureSlack)) {
		return nil
	}
	return &t
}

// exportExpiry is a stored expiry as the file gives it: one before 1970 (only SQL writes those) is
// 1970, expired either way; one past the year 9999, which RFC 3339 can't write, is the last second
// of 9999, never reached either way.
func exportExpiry(t *time.Time) *time.Time {
	switch last := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC); {
	case t == nil:
		return nil
	case t.Before(importEpoch):
		epoch := importEpoch
		return &epoch
	case t.After(last):
		return &last
	}
	return t
}

// markdownKinds is the order and heading of each kind in a Markdown export.
var markdownKinds = []struct {
	kind    Kind
	heading string
}{{KindFact, "Facts"}, {KindPreference, "Preferences"}, {KindLesson, "Lessons"}, {KindNote, "Notes"}}

// renderMarkdown writes file for people: a heading per kind, pinned items first, each item a bullet
// with its key in bold and its pin and expiry after it; earlier revisions as nested bullets.
func renderMarkdown(file ExportFile) []byte {
	var b bytes.Buffer
	title := "Shared memory"
	if file.Teammate != "" {
		title = "Memory of " + oneLine(file.Teammate)
	}
	n := fmt.Sprintf("%d memories", len(file.Items))
	if len(file.Items) == 1 {
		n = "1 memory"
	}
	fmt.Fprintf(&b, "# %s\n\nExported %s: %s.\n", title, file.ExportedAt.UTC().Format(time.RFC3339), n)
	if sw := file.MemorySwitch; sw != nil && (!sw.UseMemory || !sw.SaveMemory) {
		fmt.Fprintf(&b, "\nUse memory: %s. Save to memory: %s.\n", onOff(sw.UseMemory), onOff(sw.SaveMemory))
	}
	now := file.ExportedAt
	for _, k := range markdownKinds {
		var list []ExportItem
		for _, pinned := range []bool{true, false} {
			for _, it := range file.Items {
				if it.Kind == k.kind && it.Pinned == pinned {
					list = append(list, it)
				}
			}
		}
		if len(list) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n", k.heading)
		for _, it := range list {
			b.WriteString("- ")
			if it.Key != nil {
				fmt.Fprintf(&b, "**%s:** ", oneLine(*it.Key))
			}
			b.WriteString(indentLines(it.Content, "  "))
			var notes []string
			if it.Pinned {
				notes = append(notes, "pinned")
			}
			if it.ExpiresAt != nil {
				word := "expires"
				if !it.ExpiresAt.After(now) {
					word = "expired"
				}
				notes = append(notes, word+" "+it.ExpiresAt.UTC().Format(time.RFC3339))
			}
			if len(notes) > 0 {
				fmt.Fprintf(&b, " _(%s)_", strings.Join(notes, ", "))
			}
			b.WriteString("\n")
			for j := len(it.Revisions) - 2; j >= 0; j-- { // the last one is the item itself
				r := it.Revisions[j]
				fmt.Fprintf(&b, "  - revision %d (%s", r.Revision, r.Action)
				if r.CreatedAt != nil {
					b.WriteString(", " + r.CreatedAt.UTC().Format(time.RFC3339))
				}
				b.WriteString("): ")
				if r.Key != nil {
					fmt.Fprintf(&b, "**%s:** ", oneLine(*r.Key))
				}
				b.WriteString(indentLines(r.Content, "    ") + "\n")
			}
		}
	}
	return b.Bytes()
}

// oneLine folds line breaks so a name or key can't open a new Markdown block.
// onOff is a switch's setting in words.
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// indentLines indents every line after the first, so a multi-line text stays one bullet.
func indentLines(s, indent string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n"+indent)
}

// ImportInput is a file to import into a scope.
type ImportInput struct {
	Scope  Scope
	Format ExportFormat
	Data   string
	// IdempotencyKey, when set, makes a retry return this import's answer instead of
	// importing again (idempotency.go).
	IdempotencyKey *string
}

// ImportMemoryResult is what ImportMemory wrote.
type ImportMemoryResult struct {
	Items []Item
	// Unchanged counts items of the file left out: the scope already held the same text, active (or
	// the file held it twice).
	Unchanged int
}

// importItem is one validated item of a file, ready to write.
type importItem struct {
	state     state
	createdAt time.Time
	updatedAt time.Time
	revisions []importRevision
}

type importRevision struct {
	state     state
	action    Action
	createdAt time.Time
}

// ImportMemory writes the items of a JSON export into scope (user only). The whole file is validated
// before anything is written — any error is a ValidationError naming the place in the file, and
// changes nothing. Then every item is written, in one transaction under the scope's lock, as an
// active item with source import (its history, when the file has one, as its revisions, with actor
// import), with one generation bump for the whole import (G1). An item whose text is already active
// in the scope is left out. The user's import of a text forgotten before is allowed, as the user's
// own save is (F3). An import into a teammate's scope restores the memory switch the file carries
// (a teammate's file without one: both on; a file of shared memory: none). With an idempotency key, a retry of the same import answers the first one's
// items (as they are now) and count, and writes nothing.
func (s *Service) ImportMemory(ctx context.Context, in ImportInput) (ImportMemoryResult, error) {
	c, err := require(ctx, CredentialUser)
	if err != nil {
		return ImportMemoryResult{}, err
	}
	if in.Format != ExportJSON {
		return ImportMemoryResult{}, invalid("format", "only JSON exports can be imported")
	}
	sc, err := scopeOf(in.Scope)
	if err != nil {
		return ImportMemoryResult{}, err
	}
	items, sw, err := parseImportWithSwitch(in.Data, time.Now())
	if err != nil {
		return ImportMemoryResult{}, err
	}
	if sc.TeammateID == nil {
		sw = nil // shared memory has no switch
	}
	once, err := s.idempotencyFor(c, in.IdempotencyKey, opImportMemory, struct {
		Scope string `json:"scope"`
		Data  string `json:"data"`
	}{sc.String(), in.Data})
	if err != nil {
		return ImportMemoryResult{}, err
	}
	var (
		res      ImportMemoryResult
		replayed bool
	)
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		res, replayed = ImportMemoryResult{}, false
		first, err := once.claimTx(ctx, tx)
		if err != nil || first != nil {
			if first != nil {
				if res.Items, err = replayItemsTx(ctx, tx, first); err == nil {
					res.Unchanged, replayed = first.Unchanged, true
				}
			}
			return err
		}
		if sw != nil {
			// The teammate's row before its scope (tx.go, lock order), as SetMemorySwitch takes them.
			if _, err := queries(tx).TeammateLock(ctx, *sc.TeammateID); err != nil {
				return err
			}
		}
		if err := lockScopeTx(ctx, tx, sc.String()); err != nil {
			return err
		}
		if sw != nil {
			if err := restoreSwitchTx(ctx, tx, *sc.TeammateID, *sw); err != nil {
				return err
			}
		}
		hashes, err := queries(tx).ItemsActiveHashes(ctx, sc.String())
		if err != nil {
			return err
		}
		have := map[string]bool{}
		for _, h := range hashes {
			have[string(h)] = true
		}
		b := newBatch()
		var rows []*memorydb.ItemImportRow
		for _, it := range items {
			hash := ContentHash(it.state.content)
			if have[string(hash)] {
				res.Unchanged++
				continue
			}
			have[string(hash)] = true
			rows = append(rows, queueImportItem(ctx, b, sc, it, hash))
		}
		if len(rows) == 0 {
			return once.answerTx(ctx, tx, answer{unchanged: res.Unchanged}) // nothing new: no generation change
		}
		b.q.GenerationBump(ctx, sc.String())
		if err := queueNotify(ctx, b, Event{Scope: sc.String(), Generation: true}); err != nil {
			return err
		}
		if err := b.send(ctx, tx); err != nil {
			return err
		}
		res.Items = mapRows(rows, itemFromRow)
		for _, item := range res.Items {
			if err := s.enqueueEmbedTx(ctx, tx, item); err != nil { // I1
				return err
			}
		}
		ids := make([]string, len(res.Items))
		for i, item := range res.Items {
			ids[i] = item.ID
		}
		if err := once.answerTx(ctx, tx, answer{itemIDs: ids, unchanged: res.Unchanged}); err != nil {
			return err
		}
		return refreshAboutMeIfSharedTx(ctx, tx, res.Items[0])
	})
	if err != nil {
		return ImportMemoryResult{}, wrapUnlessDomain("import memory", err)
	}
	if replayed {
		s.log.InfoContext(ctx, "memory import retried: the first answer", "scope", sc.String(), "items", len(res.Items))
		return res, nil
	}
	s.log.InfoContext(ctx, "memory imported", "scope", sc.String(), "items", len(res.Items), "unchanged", res.Unchanged)
	return res, nil
}

// queueImportItem queues the item, its revisions, its lesson row and its event, and returns the
// item's row, which is read when the batch runs.
func queueImportItem(ctx context.Context, b *batch, sc Scope, it importItem, hash []byte) *memorydb.ItemImportRow {
	id := uuid.NewString()
	st := it.state
	row, _ := b.q.ItemImport(ctx, memorydb.ItemImportParams{
		ID: id, TeammateID: sc.TeammateID, Kind: string(st.kind), Key: st.key, Content: st.content, Pinned: st.pinned,
		Revision: len(it.revisions), ExpiresAt: st.expiresAt, ContentHash: hash, CreatedAt: it.createdAt, UpdatedAt: it.updatedAt,
	})
	for n, r := range it.revisions {
		var basedOn *int
		if n > 0 {
			basedOn = &n // revision n+1 is based on revision n
		}
		rs := r.state
		b.q.RevisionImport(ctx, memorydb.RevisionImportParams{
			ItemID: id, Revision: n + 1, Content: rs.content, Key: rs.key, Kind: string(rs.kind), Pinned: rs.pinned,
			ExpiresAt: rs.expiresAt, Action: string(r.action), BasedOn: basedOn, CreatedAt: r.createdAt,
		})
	}
	item := Item{ID: id, Scope: sc.String(), TeammateID: sc.TeammateID, Kind: st.kind, Content: st.content,
		Status: StatusActive, Revision: len(it.revisions)}
	queueLessonProjection(ctx, b, item, false)
	// The event of each item, then one generation event for the whole import (queued by the caller).
	_ = queueNotify(ctx, b, Event{Scope: item.Scope, ItemID: id, Revision: item.Revision,
		Action: string(ActionCreate), Status: string(StatusActive)})
	return row
}

// importActions are the revision actions a file's history may hold: an exported item is active, so
// its history has no forget.
var importActions = []Action{ActionCreate, ActionEdit, ActionCorrect, ActionRestore, ActionUndo, ActionConfirm, ActionPin}

// importFile is an ExportFile as an import decodes it: its dates are the raw JSON values, which
// importDate parses, so that a date Go's time parser refuses (or one it accepts but RFC 3339 doesn't,
// like a +24:00 offset) is refused naming its place in the file, not as invalid JSON. The shallower
// fields hide the embedded ones of the same JSON name (encoding/json), so the fields a file may have
// stay exactly ExportFile's.
type importFile struct {
	ExportFile
	ExportedAt json.RawMessage  `json:"exportedAt"`
	Items      []importFileItem `json:"items"`
}

type importFileItem struct {
	ExportItem
	ExpiresAt json.RawMessage      `json:"expiresAt"`
	CreatedAt json.RawMessage      `json:"createdAt"`
	UpdatedAt json.RawMessage      `json:"updatedAt"`
	Revisions []importFileRevision `json:"revisions"`
}

type importFileRevision struct {
	ExportRevision
	ExpiresAt json.RawMessage `json:"expiresAt"`
	CreatedAt json.RawMessage `json:"createdAt"`
}

// rfc3339 is the form of an RFC 3339 date-time (section 5.6): time.Parse checks the ranges of its
// parts but is laxer about the form (a one-digit hour, a comma before the fraction, any offset hour).
var rfc3339 = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$`)

// importDate parses a date of an imported file: absent or null is nil; anything else must be a JSON
// string holding an RFC 3339 date-time with a zone that names a real instant (no month 13, no
// February 30, no hour 24, no leap second, which Go's time can't hold).
func importDate(field string, raw json.RawMessage) (*time.Time, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	const reason = "must be an RFC 3339 time with a zone, like 2026-01-31T09:00:00Z"
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || !rfc3339.MatchString(s) {
		return nil, invalid(field, reason)
	}
	t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
	if err != nil {
		return nil, invalid(field, reason)
	}
	return &t, nil
}

// importPastTime is importDate then pastTime.
func importPastTime(field string, raw json.RawMessage, now time.Time) (time.Time, error) {
	t, err := importDate(field, raw)
	if err != nil {
		return time.Time{}, err
	}
	return pastTime(field, t, now)
}

// parseImportWithSwitch decodes and validates a whole JSON export and says which memory switch it
// restores (parseImportFile). Nothing is written before it returns. A ValidationError it returns
// says in words where in the file the problem is (importSubject).
func parseImportWithSwitch(data string, now time.Time) ([]importItem, *Switches, error) {
	items, sw, err := parseImportFile(data, now)
	if err != nil {
		return nil, nil, withImportSubject(err)
	}
	return items, sw, nil
}

// parseImportFile decodes and validates the file, with errors naming their place in it by field
// path only, and says which memory switch the file restores: the file's, or both on for a
// teammate's file without one; nil for a file of shared memory, which restores none.
func parseImportFile(data string, now time.Time) ([]importItem, *Switches, error) {
	file, err := decodeImport(data)
	if err != nil {
		return nil, nil, err
	}
	var sw *Switches
	switch {
	case file.MemorySwitch != nil:
		sw = &Switches{UseMemory: file.MemorySwitch.UseMemory, SaveMemory: file.MemorySwitch.SaveMemory}
	case file.Scope != "" && file.Scope != ScopeShared:
		sw = &Switches{UseMemory: true, SaveMemory: true}
	}
	items, err := importItems(file, now)
	return items, sw, err
}

// decodeImport decodes a JSON export and checks its format and version.
func decodeImport(data string) (importFile, error) {
	if err := checkText("data", data, len(data), true); err != nil {
		return importFile{}, err
	}
	// The decoder would turn a lone surrogate escape into U+FFFD: not the text in the file (§6).
	if escapes.LoneSurrogate(data) {
		return importFile{}, invalid("data", "escapes a lone UTF-16 surrogate (like \\ud800), which is not text")
	}
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	var file importFile
	if err := dec.Decode(&file); err != nil {
		return importFile{}, invalid("data", "is not a memory export: "+jsonProblem(err))
	}
	if dec.More() {
		return importFile{}, invalid("data", "holds more than one JSON value")
	}
	if _, err := importDate("data.exportedAt", file.ExportedAt); err != nil {
		return importFile{}, err
	}
	if file.Format != ExportFileFormat {
		return importFile{}, invalid("data.format", fmt.Sprintf("must be %q", ExportFileFormat))
	}
	if file.Version != ExportFileVersion {
		return importFile{}, invalid("data.version", fmt.Sprintf("must be %d", ExportFileVersion))
	}
	if len(file.Items) > MaxImportItems {
		return importFile{}, invalid("data.items", fmt.Sprintf("must hold at most %d items", MaxImportItems))
	}
	return file, nil
}

// importItems validates the items of a decoded export.
func importItems(file importFile, now time.Time) ([]importItem, error) {
	out := make([]importItem, len(file.Items))
	total := 0
	for i, it := range file.Items {
		field := fmt.Sprintf("data.items[%d]", i)
		expires, err := importDate(field+".expiresAt", it.ExpiresAt)
		if err != nil {
			return nil, err
		}
		st, err := importState(field, it.Kind, it.Key, it.Content, it.Pinned, expires)
		if err != nil {
			return nil, err
		}
		created, err := importPastTime(field+".createdAt", it.CreatedAt, now)
		if err != nil {
			return nil, err
		}
		updated, err := importPastTime(field+".updatedAt", it.UpdatedAt, now)
		if err != nil {
			return nil, err
		}
		if updated.Before(created) {
			return nil, invalid(field+".updatedAt", "must not be before the date it was added (createdAt)")
		}
		out[i] = importItem{state: st, createdAt: created, updatedAt: updated}
		if len(it.Revisions) == 0 {
			out[i].revisions = []importRevision{{state: st, action: ActionCreate, createdAt: created}}
			continue
		}
		if total += len(it.Revisions); total > MaxImportRevisions {
			return nil, invalid("data.items", fmt.Sprintf("must hold at most %d revisions in all", MaxImportRevisions))
		}
		for j, r := range it.Revisions {
			rf := fmt.Sprintf("%s.revisions[%d]", field, j)
			if r.Revision != j+1 {
				return nil, invalid(rf+".revision", "must count 1, 2, 3 … in order")
			}
			if !containsAction(r.Action) {
				return nil, invalid(rf+".action", "must be create, edit, correct, restore, undo, confirm or pin")
			}
			rexpires, err := importDate(rf+".expiresAt", r.ExpiresAt)
			if err != nil {
				return nil, err
			}
			rs, err := importState(rf, r.Kind, r.Key, r.Content, r.Pinned, rexpires)
			if err != nil {
				return nil, err
			}
			at, err := importPastTime(rf+".createdAt", r.CreatedAt, now)
			if err != nil {
				return nil, err
			}
			out[i].revisions = append(out[i].revisions, importRevision{state: rs, action: r.Action, createdAt: at})
		}
		if last := out[i].revisions[len(out[i].revisions)-1]; !last.state.equal(st) {
			return nil, invalid(field+".revisions", "must end with the item as it is")
		}
	}
	return out, nil
}

// importState validates one item's (or revision's) fields as CreateMemory would, except the expiry,
// which may be past — an item that had expired arrives expired — but not before 1970.
func importState(field string, kind Kind, key *string, content string, pinned bool, expiresAt *time.Time) (state, error) {
	if !kind.valid() {
		return state{}, invalid(field+".kind", "must be fact, preference, lesson or note")
	}
	if err := checkContent(content); err != nil {
		return state{}, prefixField(field, err)
	}
	k, err := normalizeKey(key)
	if err != nil {
		return state{}, prefixField(field, err)
	}
	if expiresAt != nil && expiresAt.Before(importEpoch) {
		return state{}, invalid(field+".expiresAt", "must not be before 1970-01-01T00:00:00Z")
	}
	return state{content: content, key: k, kind: kind, pinned: pinned, expiresAt: expiresAt}, nil
}

// The dates an import accepts: none before the Unix epoch — a date of year 1, Go's zero time,
// would break every listing of its scope — and none more than a day ahead of the
// server's clock, which covers any clock skew or time zone mix-up between machines.
var importEpoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// ImportFutureSlack is how far ahead of the server's clock a date of an imported file may be.
const ImportFutureSlack = 24 * time.Hour

// pastTime is t, which must be from importEpoch to now plus ImportFutureSlack, or now when the file
// has none.
func pastTime(field string, t *time.Time, now time.Time) (time.Time, error) {
	if t == nil {
		return now, nil
	}
	if t.Before(importEpoch) {
		return time.Time{}, invalid(field, "must not be before 1970-01-01T00:00:00Z")
	}
	if t.After(now.Add(ImportFutureSlack)) {
		return time.Time{}, invalid(field, "must not be more than a day in the future")
	}
	return *t, nil
}

func containsAction(a Action) bool {
	for _, x := range importActions {
		if a == x {
			return true
		}
	}
	return false
}

// importFieldWords are the fields of an export file as a person reading an import error knows them.
var importFieldWords = map[string]string{
	"kind":       "kind",
	"key":        "key",
	"content":    "text",
	"pinned":     "pinned",
	"expiresAt":  "expiry date",
	"createdAt":  "date added",
	"updatedAt":  "date last changed",
	"revision":   "revision number",
	"revisions":  "history",
	"action":     "action",
	"format":     "format",
	"version":    "version",
	"exportedAt": "export date",
}

// importPath is a field path of an export file: data.items[1].revisions[0].createdAt.
var importPath = regexp.MustCompile(`^data(?:\.items(?:\[(\d+)\](?:\.revisions(?:\[(\d+)\])?)?)?)?(?:\.(\w+))?$`)

// withImportSubject gives a ValidationError of an import its Subject: where in the file, in words,
// with 1-based numbers ("Item 2: kind", "Item 2, entry 1 of its history: date", "The
// file's format"). Field stays the path. Any other error is returned as it is.
func withImportSubject(err error) error {
	var bad *ValidationError
	if !errors.As(err, &bad) {
		return err
	}
	if subject := importSubject(bad.Field); subject != "" {
		return &ValidationError{Field: bad.Field, Reason: bad.Reason, Subject: subject}
	}
	return err
}

// importSubject is a field path of an export file in words; empty when it is no such path.
func importSubject(field string) string {
	m := importPath.FindStringSubmatch(field)
	if m == nil {
		return ""
	}
	item, revision, name := m[1], m[2], m[3]
	words, known := importFieldWords[name]
	if name != "" && !known {
		return ""
	}
	if item == "" {
		switch {
		case strings.HasPrefix(field, "data.items"):
			return "The file"
		case name == "":
			return "The file"
		}
		return "The file's " + words
	}
	place := "Item " + oneBased(item)
	if revision != "" {
		place += ", entry " + oneBased(revision) + " of its history"
		if name == "createdAt" {
			words = "date"
		}
	} else if strings.HasSuffix(field, ".revisions") {
		return place + ": its history"
	}
	if name == "" {
		return place + ":"
	}
	return place + ": " + words
}

// oneBased is a 0-based index, as digits, counted from 1.
func oneBased(index string) string {
	n, err := strconv.Atoi(index)
	if err != nil {
		return index
	}
	return strconv.Itoa(n + 1)
}

// prefixField puts a ValidationError's field under prefix (data.items[3].content).
func prefixField(prefix string, err error) error {
	var bad *ValidationError
	if errors.As(err, &bad) {
		return invalid(prefix+"."+bad.Field, bad.Reason)
	}
	return err
}

// jsonProblem says what is wrong with a JSON document without quoting any of it (names in a file
// are the file's text too): a value of the wrong type is named by its field, in words (the decoder
// doesn't say which item), and a syntax error gives its offset.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("invalid JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		return jsonFieldWords(typ.Field) + " must be " + jsonTypeWords(typ.Type)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "it has a field the format doesn't define"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "the JSON ends too early"
	}
	return "invalid JSON"
}

// jsonFieldWords is the path of a field of an export file, as the JSON decoder gives it
// (items.revisions.revision), in words: "a history entry's revision number". The decoder names a
// field of an embedded struct by its name alone ("pinned"), which stays a name.
func jsonFieldWords(path string) string {
	parts := strings.Split(path, ".")
	name := parts[len(parts)-1]
	words, ok := importFieldWords[name]
	if !ok {
		words = name
	}
	switch {
	case len(parts) >= 3 && parts[0] == "items" && parts[1] == "revisions":
		return "a history entry's " + words
	case len(parts) == 2 && parts[0] == "items":
		return "an item's " + words
	case path == "items":
		return "items"
	}
	return words
}

// jsonTypeWords is the Go type a JSON value should have decoded into, as the JSON it must be.
func jsonTypeWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "text"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Pointer:
		return jsonTypeWords(t.Elem())
	}
	return "an object"
}

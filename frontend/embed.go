package frontend

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// dist is the built web app. dist/.gitkeep is committed so that the embed compiles before the first
// `npm run build`; the build puts it back each time it empties dist.
//
//go:embed all:dist
var dist embed.FS

// buildCommand is what a developer runs to fill dist; the 503 page names it.
const buildCommand = "make frontend"

// Built reports whether dist holds a real build (dist/index.html present).
func Built() bool {
	return built(distFS())
}

// Handler serves the built app: exact files from dist, with long-lived caching for the
// content-hashed files under /assets/ and revalidation for everything else; "/graphiql" serves
// graphiql.html, and any other GET path without a file extension serves index.html so the web app
// can route on the client. When the app isn't built it answers 503 naming the command to build it.
// It hashes every file for its ETag when called, so build it once at start-up.
func Handler() http.Handler {
	return newHandler(distFS())
}

// distFS is dist with the "dist/" prefix removed, so names match URL paths.
func distFS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		// fs.Sub fails only on an invalid directory name, and "dist" is a constant.
		panic(err)
	}
	return sub
}

func built(fsys fs.FS) bool {
	info, err := fs.Stat(fsys, "index.html")
	return err == nil && info.Mode().IsRegular()
}

// Cache-Control values. Files under /assets/ have the content hash in their name, so a browser may
// keep them for good; anything else (HTML above all) is revalidated with its ETag on every load, so a
// new binary's pages and their new asset names are seen at once.
const (
	cacheImmutable   = "public, max-age=31536000, immutable"
	cacheRevalidate  = "no-cache"
	cacheNeverStored = "no-store"
)

type handler struct {
	fsys fs.FS
	// etags holds a strong ETag for every regular file, computed once: the embedded files never
	// change while the process runs.
	etags map[string]string
}

func newHandler(fsys fs.FS) http.Handler {
	if !built(fsys) {
		return http.HandlerFunc(serveNotBuilt)
	}
	etags := make(map[string]string)
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		sum, err := fileSHA256(fsys, name)
		if err != nil {
			return err
		}
		etags[name] = `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
		return nil
	})
	if err != nil {
		// Reading an embedded file system cannot fail; a test file system that does is a bug.
		panic("frontend: reading the built app: " + err.Error())
	}
	return &handler{fsys: fsys, etags: etags}
}

func fileSHA256(fsys fs.FS, name string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := fsys.Open(name)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

func serveNotBuilt(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", cacheNeverStored)
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = io.WriteString(w, "The web app is not built into this binary. Run `"+buildCommand+"` and rebuild the server.\n")
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := h.resolve(r.URL.Path)
	if !ok {
		w.Header().Set("Cache-Control", cacheRevalidate)
		http.NotFound(w, r)
		return
	}
	h.serveFile(w, r, name)
}

// resolve maps a URL path to the name of the file in dist that answers it.
func (h *handler) resolve(urlPath string) (string, bool) {
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	switch name {
	case "":
		return "index.html", true
	case "graphiql":
		return "graphiql.html", true
	}
	for _, segment := range strings.Split(name, "/") {
		// Dot files (dist/.gitkeep) are build plumbing, not part of the app.
		if strings.HasPrefix(segment, ".") {
			return "", false
		}
	}
	if _, ok := h.etags[name]; ok {
		return name, true
	}
	// A missing file under assets/ or a path naming a file (favicon.ico, app.js) is a 404: serving
	// index.html there would hand HTML to a script or style tag.
	if strings.HasPrefix(name, "assets/") || path.Ext(name) != "" {
		return "", false
	}
	return "index.html", true
}

func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	f, err := h.fsys.Open(name)
	if err != nil {
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	content, ok := f.(io.ReadSeeker)
	if !ok {
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return
	}
	header := w.Header()
	if strings.HasPrefix(name, "assets/") {
		header.Set("Cache-Control", cacheImmutable)
	} else {
		header.Set("Cache-Control", cacheRevalidate)
	}
	header.Set("ETag", h.etags[name])
	header.Set("X-Content-Type-Options", "nosniff")
	// ServeContent picks Content-Type from the name's extension and answers If-None-Match and
	// Range requests; embedded files have no modification time, so the ETag does the revalidation.
	http.ServeContent(w, r, name, time.Time{}, content)
}

package frontend

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// get runs one request through h and returns the response with its body read.
func get(t *testing.T, h http.Handler, method, target string, header http.Header) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, target, err)
	}
	return res, string(body)
}

// fakeBuild is a small dist as Vite lays it out.
func fakeBuild() fstest.MapFS {
	return fstest.MapFS{
		".gitkeep":                 {Data: nil},
		"index.html":               {Data: []byte("<!doctype html><title>index</title>")},
		"graphiql.html":            {Data: []byte("<!doctype html><title>graphiql</title>")},
		"assets/index-abc123.js":   {Data: []byte("console.log('index')")},
		"assets/index-abc123.css":  {Data: []byte("body{margin:0}")},
		"assets/font-abc123.woff2": {Data: []byte("wOF2")},
	}
}

func TestHandlerRoutes(t *testing.T) {
	t.Parallel()
	h := newHandler(fakeBuild())

	tests := []struct {
		name        string
		target      string
		wantStatus  int
		wantBody    string // exact body, when the status is 200
		wantType    string // Content-Type prefix
		wantCaching string
	}{
		{"root is index", "/", 200, "<!doctype html><title>index</title>", "text/html", cacheRevalidate},
		{"index by name", "/index.html", 200, "<!doctype html><title>index</title>", "text/html", cacheRevalidate},
		{"graphiql", "/graphiql", 200, "<!doctype html><title>graphiql</title>", "text/html", cacheRevalidate},
		{"graphiql trailing slash", "/graphiql/", 200, "<!doctype html><title>graphiql</title>", "text/html", cacheRevalidate},
		{"graphiql by name", "/graphiql.html", 200, "<!doctype html><title>graphiql</title>", "text/html", cacheRevalidate},
		{"script asset", "/assets/index-abc123.js", 200, "console.log('index')", "text/javascript", cacheImmutable},
		{"style asset", "/assets/index-abc123.css", 200, "body{margin:0}", "text/css", cacheImmutable},
		{"font asset", "/assets/font-abc123.woff2", 200, "wOF2", "font/woff2", cacheImmutable},
		{"client route falls back", "/teammates/x", 200, "<!doctype html><title>index</title>", "text/html", cacheRevalidate},
		{"dot above the last segment", "/teammates/v1.2/items", 200, "<!doctype html><title>index</title>", "text/html", cacheRevalidate},
		{"route naming a file", "/teammates/x.json", 404, "", "", cacheRevalidate},
		{"missing asset", "/assets/index-gone.js", 404, "", "", cacheRevalidate},
		{"missing asset without extension", "/assets/chunk", 404, "", "", cacheRevalidate},
		{"missing file", "/favicon.ico", 404, "", "", cacheRevalidate},
		{"placeholder is hidden", "/.gitkeep", 404, "", "", cacheRevalidate},
		{"escape attempt stays inside", "/../index.html", 200, "<!doctype html><title>index</title>", "text/html", cacheRevalidate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, body := get(t, h, http.MethodGet, tt.target, nil)
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("GET %s: status %d, want %d (body %q)", tt.target, res.StatusCode, tt.wantStatus, body)
			}
			if got := res.Header.Get("Cache-Control"); got != tt.wantCaching {
				t.Errorf("GET %s: Cache-Control %q, want %q", tt.target, got, tt.wantCaching)
			}
			if tt.wantStatus != http.StatusOK {
				return
			}
			if body != tt.wantBody {
				t.Errorf("GET %s: body %q, want %q", tt.target, body, tt.wantBody)
			}
			if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.wantType) {
				t.Errorf("GET %s: Content-Type %q, want prefix %q", tt.target, got, tt.wantType)
			}
			if res.Header.Get("ETag") == "" {
				t.Errorf("GET %s: no ETag", tt.target)
			}
		})
	}
}

func TestHandlerRevalidatesWithETag(t *testing.T) {
	t.Parallel()
	h := newHandler(fakeBuild())

	first, _ := get(t, h, http.MethodGet, "/", nil)
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("GET /: no ETag")
	}
	again, body := get(t, h, http.MethodGet, "/", http.Header{"If-None-Match": {etag}})
	if again.StatusCode != http.StatusNotModified {
		t.Fatalf("GET / with If-None-Match: status %d, want 304 (body %q)", again.StatusCode, body)
	}
	other, _ := get(t, h, http.MethodGet, "/graphiql", nil)
	if other.Header.Get("ETag") == etag {
		t.Error("index.html and graphiql.html share an ETag")
	}
}

func TestHandlerMethods(t *testing.T) {
	t.Parallel()
	h := newHandler(fakeBuild())

	head, body := get(t, h, http.MethodHead, "/", nil)
	if head.StatusCode != http.StatusOK || body != "" {
		t.Errorf("HEAD /: status %d body %q, want 200 and no body", head.StatusCode, body)
	}
	post, _ := get(t, h, http.MethodPost, "/", nil)
	if post.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: status %d, want 405", post.StatusCode)
	}
	if got := post.Header.Get("Allow"); got != "GET, HEAD" {
		t.Errorf("POST /: Allow %q, want %q", got, "GET, HEAD")
	}
}

func TestHandlerNotBuilt(t *testing.T) {
	t.Parallel()
	unbuilt := fstest.MapFS{".gitkeep": {Data: nil}}
	if built(unbuilt) {
		t.Fatal("built reports true for a dist holding only .gitkeep")
	}
	h := newHandler(unbuilt)
	for _, target := range []string{"/", "/graphiql", "/assets/index-abc123.js", "/teammates/x"} {
		res, body := get(t, h, http.MethodGet, target, nil)
		if res.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("GET %s: status %d, want 503", target, res.StatusCode)
		}
		if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, "text/plain") {
			t.Errorf("GET %s: Content-Type %q, want text/plain", target, got)
		}
		if !strings.Contains(body, buildCommand) {
			t.Errorf("GET %s: body %q does not name %q", target, body, buildCommand)
		}
	}
}

// requireBuilt skips the test unless `make frontend` has filled dist.
func requireBuilt(t *testing.T) {
	t.Helper()
	if !Built() {
		t.Skip("frontend/dist holds no build (dist/index.html missing); run `" + buildCommand + "` to test the real app")
	}
}

// localRef matches the same-origin paths an HTML page loads.
var localRef = regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*["'](/[^"'/][^"']*)["']`)

func TestBuiltAppIsServed(t *testing.T) {
	requireBuilt(t)
	t.Parallel()
	h := Handler()
	fsys := distFS()

	index, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		t.Fatalf("reading dist/index.html: %v", err)
	}
	graphiql, err := fs.ReadFile(fsys, "graphiql.html")
	if err != nil {
		t.Fatalf("reading dist/graphiql.html: %v", err)
	}

	pages := []struct {
		target string
		want   []byte
	}{
		{"/", index},
		{"/graphiql", graphiql},
		{"/teammates/x", index},
	}
	for _, p := range pages {
		res, body := get(t, h, http.MethodGet, p.target, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: status %d, want 200", p.target, res.StatusCode)
		}
		if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, "text/html") {
			t.Errorf("GET %s: Content-Type %q, want text/html", p.target, got)
		}
		if body != string(p.want) {
			t.Errorf("GET %s: body is not the expected page", p.target)
		}
	}

	// Every script and stylesheet the pages reference is served from /assets/ with its type.
	wantTypes := map[string]string{".js": "text/javascript", ".css": "text/css"}
	seen := 0
	for _, page := range [][]byte{index, graphiql} {
		for _, m := range localRef.FindAllSubmatch(page, -1) {
			target := string(m[1])
			res, _ := get(t, h, http.MethodGet, target, nil)
			if res.StatusCode != http.StatusOK {
				t.Errorf("GET %s: status %d, want 200", target, res.StatusCode)
				continue
			}
			if want, ok := wantTypes[path.Ext(target)]; ok {
				seen++
				if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, want) {
					t.Errorf("GET %s: Content-Type %q, want %q", target, got, want)
				}
				if got := res.Header.Get("Cache-Control"); got != cacheImmutable {
					t.Errorf("GET %s: Cache-Control %q, want %q", target, got, cacheImmutable)
				}
			}
		}
	}
	if seen == 0 {
		t.Error("the built pages reference no script or stylesheet under /assets/")
	}
}

// externalRefs finds references that would make a browser fetch from another origin: src, href and
// srcset attributes, CSS @import and url(), with an absolute or protocol-relative URL.
var externalRefs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(?:src|href|srcset)\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:)?//`),
	regexp.MustCompile(`(?i)@import\s+(?:url\(\s*)?["']?\s*(?:[a-z][a-z0-9+.-]*:)?//`),
	regexp.MustCompile(`(?i)\burl\(\s*["']?\s*(?:[a-z][a-z0-9+.-]*:)?//`),
}

func findExternalRefs(text string) []string {
	var found []string
	for _, re := range externalRefs {
		for _, loc := range re.FindAllStringIndex(text, -1) {
			end := min(loc[1]+60, len(text))
			found = append(found, text[loc[0]:end])
		}
	}
	return found
}

func TestFindExternalRefs(t *testing.T) {
	t.Parallel()
	external := []string{
		`<script src="https://cdn.example.com/x.js"></script>`,
		`<link rel="stylesheet" href='http://fonts.example.com/css'>`,
		`<link href=//cdn.example.com/x.css>`,
		`<img srcset="https://example.com/a.png 2x">`,
		`@import url("https://fonts.example.com/css2?family=Roboto");`,
		`@import 'https://fonts.example.com/a.css';`,
		`@font-face{src:url(https://fonts.example.com/a.woff2)}`,
		`.a{background:url( "//example.com/a.png" )}`,
	}
	for _, s := range external {
		if len(findExternalRefs(s)) == 0 {
			t.Errorf("findExternalRefs(%q) found nothing", s)
		}
	}
	local := []string{
		`<script type="module" src="/assets/index-abc.js"></script>`,
		`<link rel="icon" href="data:,">`,
		`@font-face{src:url(data:font/woff2;base64,d09GMgAB)}`,
		`.a{background:url(/assets/a.png)}`,
		`<svg xmlns="http://www.w3.org/2000/svg"></svg>`,
	}
	for _, s := range local {
		if got := findExternalRefs(s); len(got) != 0 {
			t.Errorf("findExternalRefs(%q) = %q, want nothing", s, got)
		}
	}
}

func TestBuiltAppLoadsNothingExternal(t *testing.T) {
	requireBuilt(t)
	t.Parallel()
	fsys := distFS()

	files := []string{"index.html", "graphiql.html"}
	css, err := fs.Glob(fsys, "assets/*.css")
	if err != nil {
		t.Fatalf("listing dist/assets: %v", err)
	}
	if len(css) == 0 {
		t.Fatal("dist/assets holds no stylesheet; GraphiQL's CSS should be bundled there")
	}
	files = append(files, css...)

	for _, name := range files {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatalf("reading dist/%s: %v", name, err)
		}
		for _, ref := range findExternalRefs(string(data)) {
			t.Errorf("dist/%s references another origin: %q", name, ref)
		}
	}
}

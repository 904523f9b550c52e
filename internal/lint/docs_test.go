package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The documents: README.md at the root, the reference in docs/. The README is for a newcomer and
// stays short; each topic has one file in docs/, and docs/README.md lists them all.
const (
	readmeMaxLines = 250
	docsDir        = "docs"
)

// TestOneBenchTime: `make help` (the Makefile's comment on bench) and docs/PERFORMANCE.md give
// `make bench` one duration; a reader can't tell which to believe when they differ.
func TestOneBenchTime(t *testing.T) {
	root := moduleRoot(t)
	help := regexp.MustCompile(`(?m)^bench:.*## .*about (\d+) min`).FindStringSubmatch(readDoc(t, root, "Makefile"))
	doc := regexp.MustCompile("`make bench`\\s+\\(about\\s+(\\d+)\\s+minutes").FindStringSubmatch(readDoc(t, root, "docs/PERFORMANCE.md"))
	if help == nil || doc == nil {
		t.Fatalf("bench's time not found: Makefile %q, docs/PERFORMANCE.md %q (the patterns follow their wording)", help, doc)
	}
	if help[1] != doc[1] {
		t.Errorf("make help says make bench takes about %s min, docs/PERFORMANCE.md about %s minutes", help[1], doc[1])
	}
}

// TestREADMEIsShort: the README is what a newcomer reads before the first step; the reference
// belongs in docs/.
func TestREADMEIsShort(t *testing.T) {
	lines := strings.Count(readDoc(t, moduleRoot(t), "README.md"), "\n")
	if lines > readmeMaxLines {
		t.Errorf("README.md has %d lines, at most %d: move the reference into docs/", lines, readmeMaxLines)
	}
}

// TestDocsIndexListsEveryDoc: docs/README.md links every file of docs/, and the README links the
// index, so no document is reachable only by chance.
func TestDocsIndexListsEveryDoc(t *testing.T) {
	root := moduleRoot(t)
	index := linkTargets(readDoc(t, root, "docs/README.md"))
	entries, err := os.ReadDir(filepath.Join(root, docsDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "README.md" {
			continue
		}
		if !slices.Contains(index, e.Name()) {
			t.Errorf("docs/README.md doesn't link docs/%s", e.Name())
		}
	}
	if !slices.Contains(linkTargets(readDoc(t, root, "README.md")), "docs/README.md") {
		t.Error("README.md doesn't link the index of docs/ (docs/README.md)")
	}
}

// TestDocLinksResolve: every link between the documents names a file of the repository, and every
// #anchor a heading of its target, so that moving text from one file to another can't leave a
// link pointing nowhere.
func TestDocLinksResolve(t *testing.T) {
	root := moduleRoot(t)
	for _, name := range docFiles(t, root) {
		text := readDoc(t, root, name)
		for _, target := range linkTargets(text) {
			if isExternal(target) || strings.HasPrefix(target, "mailto:") {
				continue // TestDocsLinkNowhereOutside judges those
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := name
			if file != "" {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(name), file))
				if _, err := os.Stat(filepath.Join(root, path)); err != nil {
					t.Errorf("%s links %q: no such file", name, target)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(path, ".md") {
				t.Errorf("%s links %q: an anchor in a file that isn't Markdown", name, target)
				continue
			}
			if !slices.Contains(headingAnchors(readDoc(t, root, path)), anchor) {
				t.Errorf("%s links %q: %s has no heading with the anchor #%s", name, target, path, anchor)
			}
		}
	}
}

// TestDocsLinkNowhereOutside: the documents link only into the repository; a URL outside code is a
// loopback example (127.0.0.1, localhost and its subdomains) or nothing.
func TestDocsLinkNowhereOutside(t *testing.T) {
	root := moduleRoot(t)
	url := regexp.MustCompile(`https?://[^\s)>\]"'` + "`" + `]+`)
	for _, name := range docFiles(t, root) {
		for _, u := range url.FindAllString(withoutCode(readDoc(t, root, name)), -1) {
			if isExternal(u) {
				t.Errorf("%s links outside the repository: %s", name, u)
			}
		}
	}
}

// TestEveryVariableIsDocumented: every environment variable the Go code names (a MEMORY_* literal,
// DATABASE_URL) is in docs/CONFIGURATION.md. The API's error codes that share the prefix
// (MEMORY_CHANGED) are read from internal/memory/classify.go and left out.
func TestEveryVariableIsDocumented(t *testing.T) {
	root := moduleRoot(t)
	codes := map[string]bool{}
	for _, m := range regexp.MustCompile(`= "([A-Z_]+)"`).FindAllStringSubmatch(readDoc(t, root, "internal/memory/classify.go"), -1) {
		codes[m[1]] = true
	}
	if !codes["MEMORY_CHANGED"] {
		t.Fatal("internal/memory/classify.go doesn't declare MEMORY_CHANGED; update this test's reading of it")
	}
	literal := regexp.MustCompile(`"(MEMORY_[A-Z0-9_]*[A-Z0-9]|DATABASE_URL)[="]`)
	found := map[string]string{} // variable → a file that names it
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range literal.FindAllStringSubmatch(string(b), -1) {
			if !codes[m[1]] {
				found[m[1]], _ = filepath.Rel(root, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 40 {
		t.Fatalf("found %d variables in the Go code, want the forty-odd config reads: the pattern no longer matches how they are read", len(found))
	}
	config := readDoc(t, root, "docs/CONFIGURATION.md")
	for name, file := range found {
		if !regexp.MustCompile("`" + name + "`").MatchString(config) {
			t.Errorf("%s (named in %s) is not in docs/CONFIGURATION.md", name, file)
		}
	}
}

// TestMakeTargetsExist: every `make TARGET` the documents mention is a target of the Makefile.
func TestMakeTargetsExist(t *testing.T) {
	root := moduleRoot(t)
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z0-9-]+):`).FindAllStringSubmatch(readDoc(t, root, "Makefile"), -1) {
		targets[m[1]] = true
	}
	mention := regexp.MustCompile("`make ([a-z0-9-]+)")
	for _, name := range docFiles(t, root) {
		for _, m := range mention.FindAllStringSubmatch(readDoc(t, root, name), -1) {
			if !targets[m[1]] {
				t.Errorf("%s mentions `make %s`, which the Makefile doesn't have", name, m[1])
			}
		}
	}
}

// TestHeadingAnchors pins the anchor rule the link check relies on to GitHub's.
func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# Forgetting\n## With `DATABASE_URL`\n```\n## not a heading\n```\n" +
		"## Teammates' writes: the intent judge\n## Shapes learnt from red teams 12–23\n## Backups\n## Backups\n")
	want := []string{"forgetting", "with-database_url", "teammates-writes-the-intent-judge",
		"shapes-learnt-from-red-teams-1223", "backups", "backups-1"}
	if !slices.Equal(got, want) {
		t.Errorf("headingAnchors = %q, want %q", got, want)
	}
}

// docFiles are README.md and every Markdown file of docs/, relative to root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, docsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, n := range names {
		files = append(files, docsDir+"/"+filepath.Base(n))
	}
	if len(files) < 10 {
		t.Fatalf("found %d documents; the docs/ folder moved?", len(files))
	}
	return files
}

func readDoc(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	fence      = regexp.MustCompile("(?ms)^```.*?^```")
	codeSpan   = regexp.MustCompile("`(?:[^`\n]|\n[^`\n])*`") // a span may wrap, not cross a blank line
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading    = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
	loopbackRe = regexp.MustCompile(`^https?://(127\.0\.0\.1|localhost|[a-z0-9.-]+\.localhost)([:/]|$)`)
)

// withoutCode is text without its fenced blocks and code spans, which show commands and values,
// not links.
func withoutCode(text string) string {
	return codeSpan.ReplaceAllString(fence.ReplaceAllString(text, ""), "")
}

// linkTargets are the targets of text's Markdown links, outside code.
func linkTargets(text string) []string {
	var targets []string
	for _, m := range mdLink.FindAllStringSubmatch(withoutCode(text), -1) {
		targets = append(targets, m[1])
	}
	return targets
}

// isExternal reports whether target is a URL of another host than the loopback examples.
func isExternal(target string) bool {
	lower := strings.ToLower(target)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return false
	}
	return !loopbackRe.MatchString(lower)
}

// headingAnchors are the anchors GitHub gives text's headings, in order: lower case, the
// characters that are not letters, digits, spaces, hyphens or underscores dropped, spaces as
// hyphens, and "-1", "-2" … after a repeated one.
func headingAnchors(text string) []string {
	seen := map[string]int{}
	var anchors []string
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors = append(anchors, fmt.Sprintf("%s-%d", a, n))
		} else {
			anchors = append(anchors, a)
		}
		seen[a]++
	}
	return anchors
}

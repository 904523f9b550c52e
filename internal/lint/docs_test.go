package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestOneBenchTime: `make help` (the Makefile's comment on bench) and the README give `make bench`
// one duration; they disagreed once, and a reader can't tell which to believe.
func TestOneBenchTime(t *testing.T) {
	root := moduleRoot(t)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	help := regexp.MustCompile(`(?m)^bench:.*## .*about (\d+) min`).FindStringSubmatch(read("Makefile"))
	readme := regexp.MustCompile("`make bench` \\(about (\\d+) minutes").FindStringSubmatch(read("README.md"))
	if help == nil || readme == nil {
		t.Fatalf("bench's time not found: Makefile %q, README %q (the patterns follow their wording)", help, readme)
	}
	if help[1] != readme[1] {
		t.Errorf("make help says make bench takes about %s min, the README about %s minutes", help[1], readme[1])
	}
}

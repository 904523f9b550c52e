package lint

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fuzzScript runs every fuzz target of the repository for a short while (make test); its TARGETS
// list names each as package:target.
const fuzzScript = "scripts/fuzz-short.sh"

// TestFuzzTargetsAllRun: every func FuzzXxx(*testing.F) in the repository is in fuzz-short.sh's
// TARGETS, and every entry there is one. A target missing from the list would never be fuzzed; an
// entry whose target was renamed or moved fails the script only when it runs.
func TestFuzzTargetsAllRun(t *testing.T) {
	root := moduleRoot(t)
	script, err := os.ReadFile(filepath.Join(root, fuzzScript))
	if err != nil {
		t.Fatal(err)
	}
	listed, err := fuzzTargetsListed(string(script))
	if err != nil {
		t.Fatalf("%s: %v", fuzzScript, err)
	}
	found := fuzzTargetsIn(t, root)
	if len(found) == 0 {
		t.Fatal("no fuzz target found in the repository: the search is broken")
	}
	for _, target := range found {
		if !slices.Contains(listed, target) {
			t.Errorf("%s is not in %s's TARGETS: add it there, so that make test fuzzes it", target, fuzzScript)
		}
	}
	for _, target := range listed {
		if !slices.Contains(found, target) {
			t.Errorf("%s's TARGETS names %s, which is no func Fuzz…(*testing.F) in that package's tests: correct or remove the entry", fuzzScript, target)
		}
	}
}

// fuzzTargetsListed returns the entries of the script's TARGETS=( … ) array.
func fuzzTargetsListed(script string) ([]string, error) {
	m := regexp.MustCompile(`(?ms)^TARGETS=\((.*?)^\)`).FindStringSubmatch(script)
	if m == nil {
		return nil, errors.New("no TARGETS=( … ) array, one entry a line, closed by a ) alone on its line")
	}
	var out []string
	for _, line := range strings.Split(m[1], "\n") {
		line, _, _ = strings.Cut(line, "#")
		out = append(out, strings.Fields(line)...)
	}
	return out, nil
}

// fuzzTargetsIn returns every fuzz target under root as "package folder:FuzzName".
func fuzzTargetsIn(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", ".data", ".tools", "artifacts", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(strings.TrimPrefix(filepath.Dir(path), root+string(filepath.Separator)))
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && isFuzzTarget(fn) {
				out = append(out, dir+":"+fn.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// isFuzzTarget reports whether fn is what go test -fuzz runs: a top-level func FuzzXxx(f *testing.F).
func isFuzzTarget(fn *ast.FuncDecl) bool {
	if fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Fuzz") || len(fn.Type.Params.List) != 1 {
		return false
	}
	star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testing" && sel.Sel.Name == "F"
}

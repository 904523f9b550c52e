package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// SQL lives in .sql files: each package's queries/*.sql, compiled by sqlc into a generated package,
// and migrations/. Go code holds no SQL statement but in the places below, each for its reason.

// sqlPlaces are the files and folders (slash-separated, from the module root) whose Go code may hold
// SQL statements.
var sqlPlaces = map[string]string{
	"internal/memory/recall_queries.go": "recall's statements are assembled from fragments, which sqlc can't express",
	"internal/memory/recall.go":         "recall's statements are assembled from fragments, which sqlc can't express",
	"internal/memory/recall_vector.go":  "recall's statements are assembled from fragments, which sqlc can't express",
	"internal/db/":                      "migrates and checks the database: golang-migrate's schema_migrations table and the server's catalog, which the migrations don't define",
	"internal/pgcluster/":               "runs the embedded cluster: creates its database, before any migration",
	"internal/dbtest/":                  "the test harness: creates, clones and drops test databases",
	"cmd/bench/":                        "the benchmark seeds data in bulk and times bare SQL as the floor the service is measured against",
}

// allowMarker, in a comment on a statement's line or the line above it, lets one statement stay in
// Go; the reason follows it (a command sqlc can't express, such as VACUUM of a table list).
const allowMarker = "sqlcheck:allow"

var (
	// statement is a string that starts like an SQL statement: the keyword in capitals, as this
	// project writes SQL (a sentence that starts "Select" is not one).
	statement = regexp.MustCompile(`^\s*(?:--[^\n]*\n\s*)*(?:(?:SELECT|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|WITH\s+\S+\s+AS|` +
		`VACUUM|ANALYZE|CHECKPOINT|REINDEX|TRUNCATE|COPY|LISTEN|NOTIFY|RESET|(?:CREATE|ALTER|DROP)\s+[A-Z]+)\b|SET\s+\w+\s*(?:=|TO\b))`)
	// fragment is part of a statement: a parameter beside an SQL keyword ("id = $1 AND …").
	fragment   = regexp.MustCompile(`\$[1-9]`)
	sqlKeyword = regexp.MustCompile(`\b(?:WHERE|AND|FROM|VALUES|RETURNING|SET|JOIN)\b`)
)

// isSQL reports whether s is an SQL statement or a fragment of one.
func isSQL(s string) bool {
	return statement.MatchString(s) || (fragment.MatchString(s) && sqlKeyword.MatchString(s))
}

// TestSQLOnlyInQueryFiles fails for every string literal of a Go file that is SQL, unless the file
// is a test, generated (sqlc's own output), in sqlPlaces, or the statement carries allowMarker.
func TestSQLOnlyInQueryFiles(t *testing.T) {
	root := moduleRoot(t)
	for place := range sqlPlaces {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(place))); err != nil {
			t.Errorf("sqlPlaces lists %s, which isn't there any more: %v", place, err)
		}
	}
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "frontend", "testdata", ".data", "artifacts", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || allowedPlace(rel) {
			return nil
		}
		found = append(found, sqlLiterals(t, path, rel)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: SQL in Go: move it to the package's queries/*.sql (make sqlc), or say why it can't be with // %s <reason>", f, allowMarker)
	}
}

func allowedPlace(rel string) bool {
	for place := range sqlPlaces {
		if rel == place || (strings.HasSuffix(place, "/") && strings.HasPrefix(rel, place)) {
			return true
		}
	}
	return false
}

// sqlLiterals returns the position and start of every SQL literal of the Go file at path that has no
// allowMarker with a reason.
func sqlLiterals(t *testing.T, path, rel string) []string {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	if ast.IsGenerated(file) {
		return nil
	}
	allowed := map[int]bool{} // lines whose statements the marker covers
	for _, group := range file.Comments {
		for _, c := range group.List {
			if _, reason, ok := strings.Cut(c.Text, allowMarker); ok && strings.TrimSpace(reason) != "" {
				line := fset.Position(c.Pos()).Line
				allowed[line], allowed[line+1] = true, true
			}
		}
	}
	var out []string
	ast.Inspect(file, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || !isSQL(s) {
			return true
		}
		if pos := fset.Position(lit.Pos()); !allowed[pos.Line] {
			out = append(out, rel+":"+strconv.Itoa(pos.Line)+": "+strconv.Quote(firstLine(s)))
		}
		return true
	})
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// moduleRoot is the folder of go.mod, above this package's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's folder")
		}
		dir = parent
	}
}

// TestIsSQL pins down what counts as SQL.
func TestIsSQL(t *testing.T) {
	for s, want := range map[string]bool{
		"SELECT 1":                             true,
		"\n\t\tSELECT id FROM t WHERE x = $1":  true,
		"-- why\nSELECT 1":                     true,
		"INSERT INTO t (a) VALUES ($1)":        true,
		"UPDATE t SET a = 1":                   true,
		"DELETE FROM t":                        true,
		"WITH j AS (SELECT 1) SELECT * FROM j": true,
		"VACUUM (FULL) t":                      true,
		"SET lock_timeout = '5s'":              true,
		"SET statement_timeout TO 0":           true,
		"RESET lock_timeout":                   true,
		"CHECKPOINT":                           true,
		"CREATE DATABASE x":                    true,
		"id = $1 AND status = 'running'":       true,
		"Select mode":                          false,
		"Update the memory":                    false,
		"With everything":                      false,
		"SETTINGS":                             false,
		"memory_items":                         false,
		"$1":                                   false,
		"costs $1 and more":                    false,
		"id::text, teammate_id::text, scope":   false,
	} {
		if got := isSQL(s); got != want {
			t.Errorf("isSQL(%q) = %v, want %v", s, got, want)
		}
	}
}

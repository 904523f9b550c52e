package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// txPlaces are the files whose Go code may open a transaction itself, each for its reason. Everywhere
// else a transaction is memory's inTx (internal/memory/tx.go), which owns the retry after a deadlock
// or a serialization failure and documents the lock order.
var txPlaces = map[string]string{
	"internal/memory/tx.go":      "the one helper",
	"internal/db/setup.go":       "start-up: creates the extensions on one connection, before the service exists",
	"internal/backup/restore.go": "the restore's swap: renames databases on the cluster's admin connection, not the service's pool",
	"cmd/bench/":                 "the benchmark times bare SQL transactions as the floor the service is measured against",
}

// opensTx is a call that opens a transaction: pgx's BeginFunc and BeginTxFunc, and Begin/BeginTx
// on a pool or connection.
var opensTx = regexp.MustCompile(`\bpgx\.Begin(?:Tx)?Func\(|\.Begin(?:Tx)?\(ctx`)

// TestTransactionsThroughOneHelper fails for every Go file outside txPlaces and tests that opens a
// transaction itself.
func TestTransactionsThroughOneHelper(t *testing.T) {
	root := moduleRoot(t)
	for place := range txPlaces {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(place))); err != nil {
			t.Errorf("txPlaces lists %s, which isn't there any more: %v", place, err)
		}
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for place := range txPlaces {
			if rel == place || (strings.HasSuffix(place, "/") && strings.HasPrefix(rel, place)) {
				return nil
			}
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if trimmed := strings.TrimSpace(line); !strings.HasPrefix(trimmed, "//") && opensTx.MatchString(line) {
				t.Errorf("%s:%d opens a transaction itself; use memory's inTx (or list the file in txPlaces with its reason): %s", rel, i+1, trimmed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

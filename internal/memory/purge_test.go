package memory_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/pgcluster"
)

// privateCluster starts an embedded cluster of its own, configured as cmd/api's (not the test
// harness's fast one), and returns it with a pool on a migrated database.
func privateCluster(t *testing.T) (*pgcluster.Cluster, string, *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "memory-purge-")
	require.NoError(t, err)
	if os.Geteuid() == 0 {
		require.NoError(t, os.Chmod(dir, 0o711)) // the server runs as postgres
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cluster.Stop(context.Background()) })
	require.NoError(t, cluster.EnsureDatabase(ctx, "memory"))
	require.NoError(t, db.MigrateUp(cluster.URL("memory")))
	pool, err := db.Open(ctx, cluster.URL("memory"))
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return cluster, filepath.Join(dir, "pg"), pool
}

// filesWith returns the files under dir that contain marker, in any case, as paths relative to dir.
func filesWith(t *testing.T, dir string, marker []byte) []string {
	t.Helper()
	return filesWithEach(t, dir, map[string]string{"": string(marker)})[""]
}

// filesWithEach is filesWith for several markers at once, by name: the files that contain each one.
// The data directory (WAL segments included) is read once, not once per marker: under the race
// detector each read of it takes seconds.
func filesWithEach(t *testing.T, dir string, markers map[string]string) map[string][]string {
	t.Helper()
	lower := map[string][]byte{}
	for name, m := range markers {
		lower[name] = bytes.ToLower([]byte(m))
	}
	found := map[string][]string{}
	walkFiles(t, dir, func(rel string, b []byte) {
		b = bytes.ToLower(b)
		for name, m := range lower {
			if bytes.Contains(b, m) {
				found[name] = append(found[name], rel)
			}
		}
	})
	return found
}

// filesWhere returns the files under dir whose bytes match, as paths relative to dir.
func filesWhere(t *testing.T, dir string, match func([]byte) bool) []string {
	t.Helper()
	var out []string
	walkFiles(t, dir, func(rel string, b []byte) {
		if match(b) {
			out = append(out, rel)
		}
	})
	return out
}

// walkFiles calls visit with each file under dir, in lexical order, by its path relative to dir.
func walkFiles(t *testing.T, dir string, visit func(rel string, b []byte)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) { // removed by the server while we walk
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, path)
		visit(rel, b)
		return nil
	})
	require.NoError(t, err)
}

// F5 where the service owns the cluster: after forgets and a purge, no file of the data directory —
// tables, indexes, TOAST, statistics, WAL, server log — holds the text, nor the
// plain hashes that tombstones and import records held before keys. Before the purge they do: the
// forget alone only blanks the rows, and wrapping a hash only writes a new row version.
func TestPurgeLeavesNoTraceInTheDataDirectory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, dataDir, pool := privateCluster(t)
	f := fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}
	marker := markerPrefix(t)
	tm := f.teammate(t, "Purged")
	// Tombstones and an import record written before keys: plain SHA-256 hashes (a short text's can
	// be reversed), wrapped with the key at start; the old row versions still hold them. There are
	// enough of them to fill pages, as in an installation that has forgotten things for a while.
	var pins [][]byte
	for i := range 300 {
		h := sha256.Sum256([]byte(firstModelText(fmt.Sprintf("My bank PIN is %04d. %s", i, marker))))
		pins = append(pins, h[:])
	}
	file := sha256.Sum256([]byte("Workspace notes " + marker))
	_, err := pool.Exec(ctx, `INSERT INTO memory_tombstones (scope, content_hash) SELECT 'shared', unnest($1::bytea[])`, pins)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO memory_imports (teammate_id, outcome, content_hash) VALUES ($1, 'imported', $2)`, tm, file[:])
	require.NoError(t, err)
	require.NoError(t, f.svc.Background().UseTombstoneKey(ctx, []byte(testTombstoneKey)))
	plainHashes := func(b []byte) bool {
		for _, h := range [][]byte{pins[0], pins[150], pins[299], file[:]} {
			if bytes.Contains(b, h) {
				return true
			}
		}
		return false
	}

	// Text in every table that holds memory: content and key, revisions, a long content (TOAST),
	// the lessons and about_me projections, a suggestion.
	fact, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Key: ptr("locker " + marker), Content: "Locker code " + marker})
	require.NoError(t, err)
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: fact.ID, BaseRevision: 1, Content: ptr("Locker code " + marker + " (new)")})
	require.NoError(t, err)
	long, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: marker + " " + string(bytes.Repeat([]byte("long text with entropy 7f3a9 "), 130))})
	require.NoError(t, err)
	pref, err := f.svc.CreateMemory(user, memory.CreateInput{Kind: memory.KindPreference, Content: "Prefers " + marker + " tea"})
	require.NoError(t, err)
	run := f.startRun(t, tm, "Hello there.")
	res, err := f.svc.Tools().Remember(asRun(t, f, run.Token), memory.RememberInput{Content: "Has a " + marker + " badge"})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	lesson, err := f.svc.KeepLesson(user, run.Run.ID, "Mention "+marker+" first")
	require.NoError(t, err)

	for _, id := range []string{fact.ID, long.ID, pref.ID, lesson.ID, res.Item.ID} {
		_, err := f.svc.ForgetMemory(user, id)
		require.NoError(t, err)
	}
	due, err := f.svc.Background().PurgeDue(context.Background())
	require.NoError(t, err)
	require.True(t, due)
	for _, q := range []string{`VACUUM`, `CHECKPOINT`} {
		_, err = pool.Exec(context.Background(), q)
		require.NoError(t, err)
	}
	before := filesWith(t, dataDir, []byte(marker))
	require.NotEmpty(t, before, "before the purge, VACUUM and CHECKPOINT leave the text in the files")
	t.Logf("before the purge the text is in %v", before)
	// The search vectors' lexemes are lower case (memory_items' vectors, memory_terms).
	lexeme := []byte(strings.ToLower(marker))
	require.NotEmpty(t, filesWith(t, dataDir, lexeme), "before the purge, the files hold the text's lexemes")
	require.NotEmpty(t, filesWhere(t, dataDir, plainHashes), "before the purge, the files hold the plain hashes the key replaced")

	report, err := f.svc.Background().Purge(context.Background())
	require.NoError(t, err)
	t.Logf("purge: tables %v, statistics %v, WAL %v", report.Tables, report.Statistics, report.WAL)
	assert.Empty(t, filesWith(t, dataDir, []byte(marker)), "files of the data directory that still hold forgotten text")
	assert.Empty(t, filesWith(t, dataDir, lexeme), "files of the data directory that still hold forgotten text's lexemes")
	assert.Empty(t, filesWhere(t, dataDir, plainHashes), "files of the data directory that still hold a plain hash")
	due, err = f.svc.Background().PurgeDue(context.Background())
	require.NoError(t, err)
	assert.False(t, due)
}

// TestPurgeCost measures a purge at a size (MEMORY_PURGE_COST_ITEMS items, each with two revisions,
// in 100 teammates' scopes); skipped unless the variable is set. docs/FORGETTING.md reports it.
func TestPurgeCost(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MEMORY_PURGE_COST_ITEMS"))
	if n <= 0 {
		t.Skip("set MEMORY_PURGE_COST_ITEMS to measure a purge")
	}
	ctx := context.Background()
	_, _, pool := privateCluster(t)
	f := fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}
	for i := range 100 {
		f.teammate(t, fmt.Sprintf("T%d", i))
	}
	_, err := pool.Exec(ctx, `
		INSERT INTO memory_items (teammate_id, kind, content, status, source, content_hash, revision)
		SELECT (SELECT id FROM teammates ORDER BY id OFFSET g % 100 LIMIT 1), 'fact',
		       'Item ' || g || ' remembers ' || md5(g::text) || ' about the user and their week', 'active', 'user',
		       sha256(g::text::bytea), 2
		  FROM generate_series(1, $1) g`, n)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `
		INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor)
		SELECT id, r, content, kind, false, CASE r WHEN 1 THEN 'create' ELSE 'edit' END, 'user'
		  FROM memory_items, generate_series(1, 2) r`)
	require.NoError(t, err)
	var size string
	require.NoError(t, pool.QueryRow(ctx, `SELECT pg_size_pretty(pg_database_size(current_database()))`).Scan(&size))
	item := f.create(t, nil, "Forget me "+markerPrefix(t))
	_, err = f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err)
	r, err := f.svc.Background().Purge(ctx)
	require.NoError(t, err)
	t.Logf("purge of %d items (%s): total %v — tables %v, statistics %v, WAL %v", n, size, r.Total(), r.Tables, r.Statistics, r.WAL)
}

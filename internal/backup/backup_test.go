package backup

import (
	"archive/tar"
	"context"
	"crypto/rand"
	"encoding/json"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/pgcluster"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

var testKey = []byte("mk_backup-test-key-0123456789abcdef0123")

// service is a Service on the database at url, keyed with testKey, and a user's context.
func service(t *testing.T, url string) (*memory.Service, context.Context) {
	t.Helper()
	pool, err := db.Open(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	svc := memory.NewService(pool, nil)
	require.NoError(t, svc.Background().UseTombstoneKey(t.Context(), testKey))
	return svc, memory.WithCredential(t.Context(), memory.Credential{Kind: memory.CredentialUser})
}

// restoreInto restores the backup at path into a new database and returns its URL: what Restore
// does before the replay, without a cluster of its own.
func restoreInto(t *testing.T, path string) string {
	t.Helper()
	admin, err := pgx.Connect(t.Context(), dbtest.AdminURL(t))
	require.NoError(t, err)
	defer admin.Close(context.Background())
	// Unique per call: parallel tests restore at the same second.
	name := "memory_restore_" + strings.ToLower(rand.Text())
	_, err = admin.Exec(t.Context(), "CREATE DATABASE "+name)
	require.NoError(t, err)
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dbtest.AdminURL(t))
		if err == nil {
			_, _ = c.Exec(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)")
			_ = c.Close(context.Background())
		}
	})
	u, err := neturl.Parse(dbtest.AdminURL(t))
	require.NoError(t, err)
	u.Path = "/" + name
	url := u.String()
	dump := filepath.Join(t.TempDir(), dumpMember)
	require.NoError(t, extractDump(path, dump))
	pgRestore, err := pgcluster.Program("pg_restore")
	require.NoError(t, err)
	require.NoError(t, runPG(t.Context(), pgRestore, url, "--exit-on-error", "--no-owner", "--no-privileges", dump))
	return url
}

// A backup, then forgets — an item, and a teammate with its own item — and their entries copied to
// the ledger file; the backup restored into another database has them all back until the ledger is
// replayed: then the item is forgotten again with its tombstone, the teammate deleted again, and a
// second replay finds nothing to do. The ledger file holds no text.
func TestReplayAppliesLaterForgetsOnce(t *testing.T) {
	t.Parallel()
	url := dbtest.URL(t)
	svc, ctx := service(t, url)
	const secret = "The alarm code is HERON-2290"
	forgotten, err := svc.CreateMemory(ctx, memory.CreateInput{Content: secret})
	require.NoError(t, err)
	kept, err := svc.CreateMemory(ctx, memory.CreateInput{Content: "Keeps bees in the garden"})
	require.NoError(t, err)
	tm, err := svc.CreateTeammate(ctx, "Bob")
	require.NoError(t, err)
	_, err = svc.CreateMemory(ctx, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm.ID}, Content: "Bob's plumber is QUOKKA"})
	require.NoError(t, err)

	pgDump, err := pgcluster.Program("pg_dump")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "b.backup")
	info, err := Create(t.Context(), Source{DatabaseURL: url, PGDump: pgDump}, path, memory.KeyFingerprint(testKey))
	require.NoError(t, err)
	require.Equal(t, memory.KeyFingerprint(testKey), info.Manifest.KeyFingerprint)
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "a backup holds every text: private")

	_, err = svc.ForgetMemory(ctx, forgotten.ID)
	require.NoError(t, err)
	_, err = svc.DeleteTeammate(ctx, tm.ID)
	require.NoError(t, err)
	ledger := OpenLedger(t.TempDir())
	n, err := ledger.Flush(t.Context(), svc.Background())
	require.NoError(t, err)
	require.Equal(t, 3, n, "the item, Bob's item, Bob")
	n, err = ledger.Flush(t.Context(), svc.Background())
	require.NoError(t, err)
	require.Zero(t, n, "written once")
	raw, err := os.ReadFile(ledger.Path())
	require.NoError(t, err)
	require.NotContains(t, string(raw), "HERON")
	require.NotContains(t, string(raw), "QUOKKA")

	restored, rctx := service(t, restoreInto(t, path))
	back, err := restored.Item(rctx, forgotten.ID)
	require.NoError(t, err)
	require.Equal(t, memory.StatusActive, back.Status, "the backup has it")
	report, err := ledger.Replay(t.Context(), restored.Background())
	require.NoError(t, err)
	require.Equal(t, memory.ReplayReport{Entries: 3, Forgotten: 2, Deleted: 1, Tombstones: 2}, report)
	back, err = restored.Item(rctx, forgotten.ID)
	require.NoError(t, err)
	require.Equal(t, memory.StatusForgotten, back.Status)
	require.Empty(t, back.Content)
	was, err := restored.ForgottenBefore(rctx, memory.Scope{}, secret)
	require.NoError(t, err)
	require.True(t, was, "its tombstone is back")
	still, err := restored.Item(rctx, kept.ID)
	require.NoError(t, err)
	require.Equal(t, memory.StatusActive, still.Status)
	teammates, err := restored.Teammates(rctx)
	require.NoError(t, err)
	require.Empty(t, teammates, "Bob is deleted again")

	again, err := ledger.Replay(t.Context(), restored.Background())
	require.NoError(t, err)
	require.Zero(t, again.Entries, "a replayed entry is known")

	// The file lost after the restore: the restored database still knows the three forgets it
	// applied again, and Sync writes them back, so that a restore of the same backup still erases them.
	require.NoError(t, os.Remove(ledger.Path()))
	n, err = ledger.Sync(t.Context(), restored.Background())
	require.NoError(t, err)
	require.Equal(t, 3, n)
	rebuilt, err := ledger.Read()
	require.NoError(t, err)
	require.Len(t, rebuilt, 3)
	replayed, _ := service(t, restoreInto(t, path))
	report, err = ledger.Replay(t.Context(), replayed.Background())
	require.NoError(t, err)
	require.Equal(t, 3, report.Entries)
	require.Equal(t, 2, report.Forgotten)
	n, err = ledger.Sync(t.Context(), restored.Background())
	require.NoError(t, err)
	require.Zero(t, n, "nothing is missing any more")
}

// An entry under another tombstone key, or of an unknown kind, stops the replay before anything is
// applied.
func TestReplayRefusesAnotherInstallationsLedger(t *testing.T) {
	t.Parallel()
	svc, _ := service(t, dbtest.URL(t))
	entries := []memory.LedgerEntry{
		{ID: "5f0c7c1e-8d7e-4a55-9a41-2b1c8f2c9b10", At: time.Now(), Kind: memory.LedgerDeleteTeammate,
			Key: svc.Background().KeyFingerprint(), Teammate: "0b8f6a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b"},
		{ID: "6f0c7c1e-8d7e-4a55-9a41-2b1c8f2c9b10", At: time.Now(), Kind: memory.LedgerForget, Key: "00",
			Item: "1b8f6a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b", Scope: "shared", Actor: "user"},
	}
	r, err := svc.Background().Replay(t.Context(), entries)
	require.ErrorIs(t, err, memory.ErrLedgerKeyMismatch)
	require.Zero(t, r.Entries)
	entries[1].Key, entries[1].Kind = entries[0].Key, "erase"
	_, err = svc.Background().Replay(t.Context(), entries)
	require.ErrorContains(t, err, "unknown kind")
}

// A line a crash cut short (no newline: never acknowledged) is ignored; any other unreadable line
// is an error, never skipped.
func TestLedgerFile(t *testing.T) {
	t.Parallel()
	l := OpenLedger(t.TempDir())
	entries, err := l.Read()
	require.NoError(t, err)
	require.Empty(t, entries, "no file yet")
	e := memory.LedgerEntry{ID: "5f0c7c1e-8d7e-4a55-9a41-2b1c8f2c9b10", At: time.Now().UTC(), Kind: memory.LedgerForget,
		Key: "ab", Item: "1b8f6a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b", Scope: "shared", Actor: "user", Hashes: [][]byte{{1, 2}}}
	require.NoError(t, l.Append([]memory.LedgerEntry{e, e}))
	st, err := os.Stat(l.Path())
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	f, err := os.OpenFile(l.Path(), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"id":"7f0c7c1e-8d7e`)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	entries, err = l.Read()
	require.NoError(t, err)
	require.Len(t, entries, 2)
	require.Equal(t, e.Hashes, entries[0].Hashes)
	// The next append starts on a line of its own: the torn fragment is cut off, not glued to it.
	next := e
	next.ID = "8f0c7c1e-8d7e-4a55-9a41-2b1c8f2c9b10"
	require.NoError(t, l.Append([]memory.LedgerEntry{next}))
	entries, err = l.Read()
	require.NoError(t, err)
	require.Len(t, entries, 3)
	require.Equal(t, next.ID, entries[2].ID)

	require.NoError(t, os.WriteFile(l.Path(), []byte("{\"id\":\"x\"}\nnot json\n"), 0o600))
	_, err = l.Read()
	require.ErrorContains(t, err, "line 2")
}

// Restore checks the manifest before it touches anything: a newer schema, a newer format, another
// key and a file that isn't a backup are refused (a nil cluster proves nothing else was reached).
func TestRestoreRefusesBeforeTouchingAnything(t *testing.T) {
	t.Parallel()
	latest, err := db.LatestVersion()
	require.NoError(t, err)
	fp := memory.KeyFingerprint(testKey)
	write := func(m Manifest) string {
		path := filepath.Join(t.TempDir(), "x.backup")
		f, err := os.Create(path)
		require.NoError(t, err)
		defer f.Close()
		raw, err := json.Marshal(m)
		require.NoError(t, err)
		tw := tar.NewWriter(f)
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: manifestMember, Mode: 0o600, Size: int64(len(raw))}))
		_, err = tw.Write(raw)
		require.NoError(t, err)
		require.NoError(t, tw.Close())
		return path
	}
	ok := Manifest{Format: FormatName, Version: FormatVersion, CreatedAt: time.Now(), Migration: latest, KeyFingerprint: fp}
	o := RestoreOptions{TombstoneKey: testKey}

	newer := ok
	newer.Migration = latest + 1
	_, err = Restore(t.Context(), write(newer), o)
	require.ErrorIs(t, err, ErrNewerSchema)

	format := ok
	format.Version = FormatVersion + 1
	_, err = Restore(t.Context(), write(format), o)
	require.ErrorContains(t, err, "format version")

	key := ok
	key.KeyFingerprint = memory.KeyFingerprint([]byte("mk_another-key-0123456789abcdef0123456"))
	_, err = Restore(t.Context(), write(key), o)
	require.ErrorIs(t, err, ErrKeyMismatch)

	text := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(text, []byte("hello"), 0o600))
	_, err = Restore(t.Context(), text, o)
	require.ErrorIs(t, err, ErrNotABackup)
}

// Prune keeps the newest keep backups it named, and never touches another file.
func TestPrune(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := range 4 {
		m := Manifest{Format: FormatName, Version: FormatVersion, CreatedAt: base.Add(time.Duration(i) * time.Hour)}
		raw, err := json.Marshal(m)
		require.NoError(t, err)
		f, err := os.Create(NamedIn(dir, m.CreatedAt))
		require.NoError(t, err)
		tw := tar.NewWriter(f)
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: manifestMember, Mode: 0o600, Size: int64(len(raw))}))
		_, err = tw.Write(raw)
		require.NoError(t, err)
		require.NoError(t, tw.Close())
		require.NoError(t, f.Close())
	}
	mine := filepath.Join(dir, "keep-me.backup")
	require.NoError(t, os.WriteFile(mine, nil, 0o600))
	removed, err := Prune(dir, 2)
	require.NoError(t, err)
	require.Len(t, removed, 2)
	left, err := List(dir)
	require.NoError(t, err)
	require.Len(t, left, 2)
	require.Equal(t, base.Add(3*time.Hour), left[0].Manifest.CreatedAt.UTC(), "newest first")
	require.Equal(t, base.Add(2*time.Hour), left[1].Manifest.CreatedAt.UTC())
	require.FileExists(t, mine)
}

// An entry without hashes (a forgotten forget proposal has no text) of an item the database never
// had is recorded and nothing else.
func TestReplayEntryWithoutHashes(t *testing.T) {
	t.Parallel()
	svc, _ := service(t, dbtest.URL(t))
	r, err := svc.Background().Replay(t.Context(), []memory.LedgerEntry{{ID: "5f0c7c1e-8d7e-4a55-9a41-2b1c8f2c9b11", At: time.Now(),
		Kind: memory.LedgerForget, Key: svc.Background().KeyFingerprint(), Item: "1b8f6a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5c",
		Scope: "shared", Actor: "user"}})
	require.NoError(t, err)
	require.Equal(t, memory.ReplayReport{Entries: 1}, r)
}

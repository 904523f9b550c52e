package main

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/backup"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/pgcluster"
)

// RULES F8 end to end, as a user runs it: a backup taken while the API serves; three forgets after
// it — a teammate's, a bulk forget of the user's and a teammate's deletion; `api restore` of the
// backup with the API stopped. None of the forgotten texts comes back through the API, in a plain
// pg_dump of the restored database or in the cluster's data files, and everything else is back as
// it was: the exports before and after are equal but for the forgotten items.
func TestRestoreNeverBringsBackAForget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts PostgreSQL")
	}
	t.Parallel()
	bin := buildAPI(t)
	data := dataDir(t)
	env := apiEnv(data)
	api := startAPI(t, bin, env)
	user, worker := readToken(t, data, "user-token"), readToken(t, data, "worker-token")
	c := api.api

	teammate := func(name string) string {
		var out struct {
			CreateTeammate struct{ Teammate struct{ ID string } }
		}
		c.Must(t, user, `mutation($n: String!) { createTeammate(input: {name: $n}) { teammate { id } } }`, map[string]any{"n": name}, &out)
		return out.CreateTeammate.Teammate.ID
	}
	ada, bob := teammate("Ada"), teammate("Bob")
	create := func(scope *string, key, content string) (id string) {
		var out struct {
			CreateMemory struct{ Item struct{ ID string } }
		}
		c.Must(t, user, `mutation($tm: ID, $k: String, $c: String!) { createMemory(input: {scope: {teammateId: $tm}, key: $k, content: $c}) { item { id } } }`,
			map[string]any{"tm": scope, "k": key, "c": content}, &out)
		return out.CreateMemory.Item.ID
	}
	const (
		lockerText = "The locker code is ZEBRA-4411"      // forgotten by Ada on request
		gymText    = "My gym PIN is OKAPI-9034"           // forgotten by the user in a bulk forget
		bobText    = "Call the plumber about QUOKKA-7781" // deleted with Bob
		bobMessage = "The van's plate is MARMOT-5520"     // Bob's conversation, deleted with him
	)
	forgotten := []string{"ZEBRA-4411", "OKAPI-9034", "QUOKKA-7781", "MARMOT-5520"}
	kept := []string{"Prefers answers in bullet points", "Works from Lisbon on Fridays", "Ada writes Go with table tests"}
	lockerID := create(&ada, "locker code", lockerText)
	gymID := create(nil, "", gymText)
	create(nil, "", kept[0])
	create(nil, "", kept[1])
	create(&ada, "", kept[2])
	create(&bob, "", bobText)
	startRun := func(teammate, message string) (runToken string) {
		var out struct{ StartRun struct{ RunToken string } }
		c.Must(t, worker, `mutation($tm: ID!, $m: String!) { startRun(input: {teammateId: $tm, message: $m}) { runToken } }`,
			map[string]any{"tm": teammate, "m": message}, &out)
		return out.StartRun.RunToken
	}
	startRun(bob, bobMessage)

	exports := func() map[string]string {
		out := map[string]string{}
		for name, scope := range map[string]*string{"shared": nil, "ada": &ada} {
			var res struct{ ExportMemory string }
			c.Must(t, user, `query($tm: ID) { exportMemory(scope: {teammateId: $tm}, includeRevisions: true) }`, map[string]any{"tm": scope}, &res)
			out[name] = res.ExportMemory
		}
		return out
	}
	before := exports()

	archive := filepath.Join(t.TempDir(), "before.backup")
	runCommand(t, bin, env, "backup", "-o", archive)
	info, err := backup.Read(archive)
	require.NoError(t, err)
	latest, err := db.LatestVersion()
	require.NoError(t, err)
	require.Equal(t, latest, info.Manifest.Migration)

	// 1. Ada forgets the locker code because the user asked her to.
	run := startRun(ada, "Delete my locker code.")
	var tool struct{ ToolForgetMemory struct{ Outcome string } }
	c.Must(t, run, `mutation($id: ID!) { toolForgetMemory(input: {id: $id}) { outcome } }`, map[string]any{"id": lockerID}, &tool)
	require.Equal(t, "FORGOTTEN", tool.ToolForgetMemory.Outcome, "the user asked for it in so many words")
	// 2. The user forgets the gym PIN in a bulk forget.
	c.Must(t, user, `mutation($id: ID!) { forgetMemories(input: {items: [{id: $id, baseRevision: 1}]}) { items { id } } }`,
		map[string]any{"id": gymID}, &struct{}{})
	// 3. The user deletes Bob, with his memory and his conversation.
	c.Must(t, user, `mutation($id: ID!) { deleteTeammate(input: {id: $id}) { teammateId } }`, map[string]any{"id": bob}, &struct{}{})

	ledger := backup.OpenLedger(filepath.Join(data, "backups"))
	require.Eventually(t, func() bool {
		entries, err := ledger.Read()
		require.NoError(t, err)
		kinds := map[string]int{}
		for _, e := range entries {
			kinds[e.Kind]++
		}
		return kinds["forget"] >= 3 && kinds["delete-teammate"] == 1 // locker, gym, Bob's item; Bob
	}, 30*time.Second, 50*time.Millisecond, "the ledger file holds every forget")
	raw, err := os.ReadFile(ledger.Path())
	require.NoError(t, err)
	for _, text := range append(slices.Clone(forgotten), "locker", "plumber", "Bob") {
		require.NotContains(t, string(raw), text, "the ledger holds no text")
	}
	api.stop(t)

	// With the API stopped, the restore; then the API serves the restored database.
	out := runCommand(t, bin, env, "restore", archive)
	require.Contains(t, out, "4 entries") // locker, gym, Bob's item, Bob
	api = startAPI(t, bin, env)
	c = api.api

	after := exports()
	for name, doc := range before {
		require.Equal(t, withoutItems(t, doc, lockerID, gymID), withoutItems(t, after[name], lockerID, gymID),
			"%s: everything but the forgotten is back as it was", name)
	}
	require.Contains(t, before["ada"], lockerID, "the exports before hold what was forgotten after")
	require.Contains(t, before["shared"], gymID)
	require.NotContains(t, after["ada"], lockerID, "the exports after don't")
	require.NotContains(t, after["shared"], gymID)
	var teammates struct{ Teammates []struct{ Name string } }
	c.Must(t, user, `{ teammates { name } }`, nil, &teammates)
	require.Len(t, teammates.Teammates, 1, "Bob stays deleted")
	for _, text := range forgotten {
		for _, scope := range []*string{nil, &ada} {
			for _, status := range []string{"ACTIVE", "CANDIDATE", "DISMISSED", "FORGOTTEN"} {
				var found struct{ MemoryItems struct{ TotalCount int } }
				c.Must(t, user, `query($tm: ID, $q: String!, $s: MemoryStatus!) { memoryItems(scope: {teammateId: $tm}, status: $s, search: $q) { totalCount } }`,
					map[string]any{"tm": scope, "q": text, "s": status}, &found)
				require.Zero(t, found.MemoryItems.TotalCount, "%s is found through the API among %s", text, status)
			}
		}
	}
	var kept0 struct{ MemoryItems struct{ TotalCount int } }
	c.Must(t, user, `query($q: String!) { memoryItems(scope: {}, search: $q) { totalCount } }`, map[string]any{"q": kept[0]}, &kept0)
	require.Equal(t, 1, kept0.MemoryItems.TotalCount, "while the kept are found")

	// The restored database, dumped as plain SQL: the kept texts, none of the forgotten.
	cluster, err := pgcluster.Start(t.Context(), pgcluster.Options{Dir: data})
	require.NoError(t, err)
	dump, err := exec.CommandContext(t.Context(), cluster.Program("pg_dump"), "--format=plain", "--dbname="+cluster.URL("memory")).Output()
	require.NoError(t, err)
	requireHolds(t, "pg_dump", dump, kept, forgotten)
	api.stop(t)

	// The cluster's files, stopped: every file of the data directory, the WAL included.
	var files bytes.Buffer
	require.NoError(t, filepath.WalkDir(filepath.Join(data, "pg"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		files.Write(b)
		return err
	}))
	requireHolds(t, "the data directory", files.Bytes(), kept, forgotten)
}

// requireHolds requires every text of kept in b (so that the search could find them) and none of
// forgotten.
func requireHolds(t *testing.T, what string, b []byte, kept, forgotten []string) {
	t.Helper()
	for _, text := range kept {
		require.True(t, bytes.Contains(b, []byte(text)), "%s lacks the kept %q: the search below proves nothing", what, text)
	}
	for _, text := range forgotten {
		require.False(t, bytes.Contains(b, []byte(text)), "%s still holds the forgotten %q", what, text)
	}
}

// withoutItems is an export without the items ids, and without its own time.
func withoutItems(t *testing.T, doc string, ids ...string) string {
	t.Helper()
	var file map[string]any
	require.NoError(t, json.Unmarshal([]byte(doc), &file))
	delete(file, "exportedAt")
	items, _ := file["items"].([]any)
	file["items"] = slices.DeleteFunc(items, func(it any) bool {
		return slices.Contains(ids, it.(map[string]any)["id"].(string))
	})
	out, err := json.Marshal(file)
	require.NoError(t, err)
	return string(out)
}

// runCommand runs bin with args in env and returns its output; it must succeed.
func runCommand(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	out, err := commandOutput(t, bin, env, args...)
	require.NoError(t, err, "api %s: %s", strings.Join(args, " "), out)
	return out
}

// A backup from the previous migration version is restored and migrated up, and a forget made after
// it — by the newer api — is applied again; a backup made with another tombstone key, or one that
// isn't a backup, is refused and changes nothing.
func TestRestoreAnOlderBackup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts PostgreSQL")
	}
	t.Parallel()
	bin := buildAPI(t)
	data := dataDir(t)
	env := apiEnv(data)
	api := startAPI(t, bin, env)
	user := readToken(t, data, "user-token")
	create := func(content string) (id string) {
		var out struct {
			CreateMemory struct{ Item struct{ ID string } }
		}
		api.api.Must(t, user, `mutation($c: String!) { createMemory(input: {scope: {}, content: $c}) { item { id } } }`,
			map[string]any{"c": content}, &out)
		return out.CreateMemory.Item.ID
	}
	keptID, forgetID := create("Keeps bees in the garden"), create("The alarm code is HERON-2290")
	api.stop(t)

	latest, err := db.LatestVersion()
	require.NoError(t, err)
	runCommand(t, bin, env, "migrate", "to", fmtUint(latest-1), "--allow-lossy")
	older := filepath.Join(t.TempDir(), "older.backup")
	runCommand(t, bin, env, "backup", "-o", older)
	info, err := backup.Read(older)
	require.NoError(t, err)
	require.Equal(t, latest-1, info.Manifest.Migration)

	api = startAPI(t, bin, env) // migrates up again
	out, err := commandOutput(t, bin, env, "restore", older)
	require.Error(t, err, "no restore under a serving API")
	require.Contains(t, out, "stop it, then restore")
	api.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": forgetID}, &struct{}{})
	ledger := backup.OpenLedger(filepath.Join(data, "backups"))
	require.Eventually(t, func() bool {
		entries, err := ledger.Read()
		return err == nil && len(entries) == 1
	}, 30*time.Second, 50*time.Millisecond)
	api.stop(t)

	// Refused: a backup whose manifest names another key, and a file that isn't a backup.
	otherKey := filepath.Join(t.TempDir(), "other.backup")
	runCommand(t, bin, slices.Concat(env, []string{"MEMORY_TOMBSTONE_KEY=mk_another-installation-key-0123456789abcdef"}), "backup", "-o", otherKey)
	out, err = commandOutput(t, bin, env, "restore", otherKey)
	require.Error(t, err)
	require.Contains(t, out, "another tombstone key")
	notABackup := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notABackup, []byte("hello"), 0o600))
	out, err = commandOutput(t, bin, env, "restore", notABackup)
	require.Error(t, err)
	require.Contains(t, out, "not a memory backup")

	// A manifest that lies about the dump's migration.
	out, err = commandOutput(t, bin, env, "restore", withManifest(t, older, func(m map[string]any) { m["migration"] = 5 }))
	require.Error(t, err)
	require.Contains(t, out, "its manifest says migration 5")

	// Interrupted: either it is cancelled (exit 1, the current database kept) or, past the swap, it
	// finishes and says so — never a silent exit 0. The database is then either one, whole.
	cmd := exec.Command(bin, "restore", older)
	cmd.Env = env
	var interrupted bytes.Buffer
	cmd.Stdout, cmd.Stderr = &interrupted, &interrupted
	require.NoError(t, cmd.Start())
	time.Sleep(700 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	if err := cmd.Wait(); err == nil {
		require.Contains(t, interrupted.String(), "restored "+older, "exit 0 means restored")
	} else {
		require.Contains(t, interrupted.String(), "api: interrupted")
	}

	out = runCommand(t, bin, env, "restore", older)
	require.Contains(t, out, fmtUint(latest-1)+", now "+fmtUint(latest))
	require.Contains(t, out, "1 items forgotten")
	api = startAPI(t, bin, env)
	var item struct{ MemoryItem *struct{ Status string } }
	api.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { status } }`, map[string]any{"id": keptID}, &item)
	require.Equal(t, "ACTIVE", item.MemoryItem.Status, "the older backup's items are back")
	api.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { status } }`, map[string]any{"id": forgetID}, &item)
	require.Equal(t, "FORGOTTEN", item.MemoryItem.Status, "and the forget made after it is applied again")
	api.stop(t)
}

// withManifest is a copy of the backup at path with its manifest changed by edit.
func withManifest(t *testing.T, path string, edit func(map[string]any)) string {
	t.Helper()
	in, err := os.Open(path)
	require.NoError(t, err)
	defer in.Close()
	copyPath := filepath.Join(t.TempDir(), "edited.backup")
	out, err := os.Create(copyPath)
	require.NoError(t, err)
	defer out.Close()
	tr, tw := tar.NewReader(in), tar.NewWriter(out)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		body, err := io.ReadAll(tr)
		require.NoError(t, err)
		if h.Name == "manifest.json" {
			var m map[string]any
			require.NoError(t, json.Unmarshal(body, &m))
			edit(m)
			body, err = json.Marshal(m)
			require.NoError(t, err)
			h.Size = int64(len(body))
		}
		require.NoError(t, tw.WriteHeader(h))
		_, err = tw.Write(body)
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	return copyPath
}

// commandOutput runs bin with args in env and returns its output and error.
func commandOutput(t *testing.T, bin string, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func fmtUint(n uint) string { return strconv.FormatUint(uint64(n), 10) }

package app_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/memory"
)

// In embedded mode a teammate's deletion, and the demo's removal, are followed by a purge as a
// forget is, and afterwards no file of the data directory holds the deleted texts — memory items,
// a lesson, suggestions, user messages, replies, names (F7). The purge isn't
// started by the deleted items (they leave with the teammate, so no forgotten item is left to find)
// but by the deletion itself, which may forget nothing at all: the first teammate here has
// conversations only. The test waits for purges (NOTIFY memory_purges) until none is due.
func TestEmbeddedDeletionsArePurgedFromTheDataDirectory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dataDir, url := privateCluster(t)
	api := apitest.StartWith(t, url, func(o *app.Options) { o.PurgeDelay = 200 * time.Millisecond; o.Demo = true })

	listen, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = listen.Close(context.Background()) })
	_, err = listen.Exec(ctx, "LISTEN "+memory.PurgeChannel)
	require.NoError(t, err)
	pool, err := db.Open(ctx, url)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	background := memory.NewService(pool, slog.New(slog.DiscardHandler)).Background()
	// purged waits for purges until none is due: a purge that began before the last deletion
	// committed leaves it for the next one.
	purged := func(what string) {
		t.Helper()
		waitCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		for {
			_, err := listen.WaitForNotification(waitCtx)
			require.NoError(t, err, "no purge after %s", what)
			due, err := background.PurgeDue(ctx)
			require.NoError(t, err)
			if !due {
				return
			}
		}
	}
	marker := func() string {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		return "DELMARK" + hex.EncodeToString(b)
	}

	// A teammate with conversations and no memory: the deletion forgets nothing.
	name, message, reply := marker(), marker(), marker()
	tm := api.CreateTeammate(t, "Chatty "+name)
	var started struct{ StartRun struct{ RunToken string } }
	api.Must(t, apitest.WorkerToken, `mutation($t: ID!, $m: String!) { startRun(input: {teammateId: $t, message: $m}) { runToken } }`,
		map[string]any{"t": tm, "m": "Tell me about " + message + ", please."}, &started)
	api.Must(t, started.StartRun.RunToken, `mutation($r: String!) { completeRun(input: {reply: $r}) { status } }`,
		map[string]any{"r": "Here is " + reply + "."}, &struct{}{})
	api.Must(t, apitest.UserToken, `mutation($id: ID!) { deleteTeammate(input: {id: $id}) { teammateId } }`, map[string]any{"id": tm}, &struct{}{})
	purged("a deletion")
	for what, text := range map[string]string{"name": name, "message": message, "reply": reply} {
		assert.Empty(t, grepDir(t, dataDir, []byte(text)), "data files that still hold the deleted teammate's %s", what)
	}

	// The demo: the texts of its teammates' memory, suggestion, lesson, messages and replies, its
	// names and its shared memory, as demo.Seed writes them.
	demoTexts := []string{
		"Ada (demo)", "Ben (demo)",
		"Ada drafts replies to the user's email", "my sister's name is Eva", "Enjoys long walks on Sundays",
		"Sign replies with the user's first name", "Lives in Lisbon (demo)", "Lives in Porto (demo)",
		"Black, no sugar", "Where do I live? Also, please remember", "I'll remember that your sister is Eva",
		"How do I take my coffee?",
	}
	for _, text := range demoTexts {
		require.NotEmpty(t, grepDir(t, dataDir, []byte(text)), "the demo's %q is in the files before its removal", text)
	}
	api.Must(t, apitest.UserToken, `mutation { removeDemo { forgottenSharedItems } }`, nil, &struct{}{})
	purged("the demo's removal")
	for _, text := range demoTexts {
		assert.Empty(t, grepDir(t, dataDir, []byte(text)), "data files that still hold the removed demo's %q", text)
	}
}

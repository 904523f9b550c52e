package demo_test

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/demo"
	"github.com/open-bot/memory/internal/memory"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

func TestSeedOnlyOnAnEmptyDatabase(t *testing.T) {
	pool := dbtest.Pool(t)
	svc := memory.NewService(pool, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	seeded, err := demo.Seed(ctx, svc)
	require.NoError(t, err)
	assert.True(t, seeded)

	user := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})
	teammates, err := svc.Teammates(user)
	require.NoError(t, err)
	require.Len(t, teammates, 2)
	ada := teammates[0].ID
	cands, err := svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &ada}, Status: memory.StatusCandidate})
	require.NoError(t, err)
	assert.Len(t, cands.Items, 1, "a suggestion to confirm")
	lessons, err := svc.Lessons(user, ada)
	require.NoError(t, err)
	assert.Len(t, lessons, 1)
	runs, err := svc.Runs(user, ada, nil, nil)
	require.NoError(t, err)
	require.Len(t, runs, 1)
	entries, err := svc.MemoryContext(user, runs[0].ID)
	require.NoError(t, err)
	states := map[memory.ContextState]int{}
	for _, e := range entries {
		states[e.State]++
	}
	assert.Equal(t, 1, states[memory.ContextChanged], "the corrected fact shows as changed")

	again, err := demo.Seed(ctx, svc)
	require.NoError(t, err)
	assert.False(t, again, "never twice, never over real data")
}

// TestRemoveTakesOnlyTheDemo: after Remove, no demo teammate, no demo text in memory, revisions or
// messages; the user's own teammate, shared memory and a shared item that merely mentions the word
// "demo" are untouched; a second Remove finds nothing.
func TestRemoveTakesOnlyTheDemo(t *testing.T) {
	pool := dbtest.Pool(t)
	svc := memory.NewService(pool, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	_, err := demo.Seed(ctx, svc)
	require.NoError(t, err)
	user := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})
	zoe, err := svc.CreateTeammate(user, "Zoe")
	require.NoError(t, err)
	own, err := svc.CreateMemory(user, memory.CreateInput{Kind: memory.KindFact, Content: "The demo day is on Friday"})
	require.NoError(t, err)
	_, err = svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &zoe.ID}, Kind: memory.KindNote, Content: "Zoe's note"})
	require.NoError(t, err)

	worker := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialWorker})
	_, err = demo.Remove(worker, svc)
	require.ErrorIs(t, err, memory.ErrForbidden, "only the user removes the demo")

	removed, err := demo.Remove(user, svc)
	require.NoError(t, err)
	assert.Len(t, removed.Teammates, 2, "Ada and Ben")
	assert.Equal(t, 2, removed.SharedItems, "the shared fact (corrected once) and the shared preference")

	teammates, err := svc.Teammates(user)
	require.NoError(t, err)
	require.Len(t, teammates, 1)
	assert.Equal(t, "Zoe", teammates[0].Name)
	shared, err := svc.ListItems(user, memory.ListFilter{})
	require.NoError(t, err)
	require.Len(t, shared.Items, 1)
	assert.Equal(t, own.ID, shared.Items[0].ID)

	var left int
	require.NoError(t, pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM memory_items WHERE content ILIKE '%(demo%' OR key ILIKE '%(demo%')
		+ (SELECT count(*) FROM memory_revisions WHERE content ILIKE '%(demo%')
		+ (SELECT count(*) FROM messages WHERE content ILIKE '%demo%' OR content ILIKE '%Eva%' OR content ILIKE '%Lisbon%')
		+ (SELECT count(*) FROM lessons WHERE content ILIKE '%(demo%')
		+ (SELECT count(*) FROM teammates WHERE name ILIKE '%(demo)%')`).Scan(&left))
	assert.Zero(t, left, "no demo text is left in items, revisions, messages or names")

	again, err := demo.Remove(user, svc)
	require.NoError(t, err)
	assert.Empty(t, again.Teammates)
	assert.Zero(t, again.SharedItems)
}

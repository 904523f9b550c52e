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

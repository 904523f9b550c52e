package ai_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/ai"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
)

var user = memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser})

// TestInstallEmbedsActiveMemories: with an embedding endpoint configured, Install catches up with the
// active items that have no vector, and the runner's embed jobs store one per item.
func TestInstallEmbedsActiveMemories(t *testing.T) {
	t.Parallel()
	_, pool := newBudget(t, 100)
	f := newFake(t, embeddings(4))
	quiet := slog.New(slog.DiscardHandler)
	svc := memory.NewService(pool, quiet)
	for _, text := range []string{"Likes tea", "Works at night"} {
		_, err := svc.CreateMemory(user, memory.CreateInput{Content: text})
		require.NoError(t, err)
	}
	runner := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	cfg := config.AI{EmbeddingURL: f.URL + "/v1", EmbeddingModel: "fake-embed", EmbeddingDimensions: 4,
		APIKey: apiKey, DailyRequestLimit: 10, SemanticMaxDistance: 0.4}
	in, err := ai.Install(t.Context(), pool, svc, runner, cfg, quiet)
	require.NoError(t, err)
	assert.True(t, in.Embeddings)
	assert.Equal(t, 2, in.Requeued)
	assert.Equal(t, []jobs.Kind{jobs.KindEmbed}, runner.Kinds())
	model, dims := svc.EmbeddingModel()
	assert.Equal(t, "fake-embed", model)
	assert.Equal(t, 4, dims)

	ran, err := runner.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, ran)
	done, total, err := svc.EmbeddingProgress(t.Context())
	require.NoError(t, err)
	assert.Equal(t, [2]int{2, 2}, [2]int{done, total})
	used, err := in.Budget.Used(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, used, "the two jobs claimed together cost one request")
	assert.Equal(t, int32(1), f.requests.Load())
	assert.ElementsMatch(t, []any{"Likes tea", "Works at night"}, f.bodies[0]["input"])

	// A second process starting now finds nothing missing.
	in2, err := ai.Install(t.Context(), pool, memory.NewService(pool, quiet), nil, cfg, quiet)
	require.NoError(t, err)
	assert.Zero(t, in2.Requeued)
}

func TestInstallWithLimitZeroTurnsNothingOn(t *testing.T) {
	t.Parallel()
	_, pool := newBudget(t, 0)
	f := newFake(t, embeddings(4))
	quiet := slog.New(slog.DiscardHandler)
	svc := memory.NewService(pool, quiet)
	runner := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	in, err := ai.Install(t.Context(), pool, svc, runner, config.AI{
		EmbeddingURL: f.URL, EmbeddingModel: "m", DailyRequestLimit: 0, SemanticMaxDistance: 0.4,
	}, quiet)
	require.NoError(t, err)
	assert.False(t, in.Embeddings)
	assert.Empty(t, runner.Kinds())
	model, _ := svc.EmbeddingModel()
	assert.Empty(t, model)
	assert.Zero(t, in.Budget.Limit())
}

func TestEmbedderQuery(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1)
	f := newFake(t, embeddings(3))
	e := ai.Embedder{Client: newClient(t, f, b), Model: "m", Dimensions: 3}
	v, model, err := e.EmbedQuery(t.Context(), "what do I drink")
	require.NoError(t, err)
	assert.Equal(t, "m", model)
	assert.Len(t, v, 3)

	_, _, err = e.EmbedQuery(t.Context(), "again")
	require.ErrorIs(t, err, memory.ErrAIBudgetSpent, "recall can tell a spent budget from a failure")
	require.ErrorIs(t, err, ai.ErrBudgetSpent)
}

// TestInstallExtractsCandidates: with an extraction endpoint, a completed run the user started gets
// an extract job; the runner sends the user message with memory's instructions and schema, and the
// proposal with real evidence becomes a candidate while the made-up one is dropped.
func TestInstallExtractsCandidates(t *testing.T) {
	t.Parallel()
	_, pool := newBudget(t, 100)
	f := newFake(t, chatAnswer(`{"candidates":[
		{"kind":"preference","key":"units","content":"Prefers metric units","evidence":"use metric units"},
		{"kind":"fact","key":"","content":"Lives in Oslo","evidence":"I live in Oslo"}]}`))
	quiet := slog.New(slog.DiscardHandler)
	svc := memory.NewService(pool, quiet)
	runner := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	in, err := ai.Install(t.Context(), pool, svc, runner, config.AI{
		ExtractionURL: f.URL + "/v1", ExtractionModel: "fake-chat", APIKey: apiKey, DailyRequestLimit: 5, SemanticMaxDistance: 0.4,
	}, quiet)
	require.NoError(t, err)
	assert.True(t, in.Extraction)
	assert.False(t, in.Embeddings)
	assert.Equal(t, []jobs.Kind{jobs.KindExtract}, runner.Kinds())

	tm, err := svc.CreateTeammate(user, "Navigator")
	require.NoError(t, err)
	const message = "Plan the hike, and always use metric units please."
	var thread, runID string
	require.NoError(t, pool.QueryRow(t.Context(), `INSERT INTO bot_threads (teammate_id, generation) VALUES ($1, '0:0:0') RETURNING id::text`, tm.ID).Scan(&thread))
	require.NoError(t, pool.QueryRow(t.Context(), `
		INSERT INTO runs (teammate_id, thread_id, status, generation, ended_at) VALUES ($1, $2, 'completed', '0:0:0', now())
		RETURNING id::text`, tm.ID, thread).Scan(&runID))
	_, err = pool.Exec(t.Context(), `INSERT INTO messages (thread_id, run_id, role, content) VALUES ($1, $2, 'user', $3)`, thread, runID, message)
	require.NoError(t, err)
	require.NoError(t, pgx.BeginFunc(t.Context(), pool, func(tx pgx.Tx) error {
		return svc.EnqueueExtractTx(t.Context(), tx, memory.Run{ID: runID, TeammateID: tm.ID, Status: memory.RunCompleted, StartedByUser: true})
	}))

	ran, err := runner.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, ran)
	require.Len(t, f.bodies, 1)
	assert.Equal(t, "POST /v1/chat/completions", f.paths[0])
	msgs := f.bodies[0]["messages"].([]any)
	require.Len(t, msgs, 2)
	assert.Equal(t, map[string]any{"role": "system", "content": memory.ExtractionInstructions}, msgs[0])
	assert.Equal(t, map[string]any{"role": "user", "content": message}, msgs[1])
	format := f.bodies[0]["response_format"].(map[string]any)["json_schema"].(map[string]any)
	assert.Equal(t, memory.ExtractionSchemaName, format["name"])
	assert.Equal(t, true, format["strict"])

	page, err := svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &tm.ID}, Status: memory.StatusCandidate})
	require.NoError(t, err)
	require.Len(t, page.Items, 1, "the made-up evidence is dropped")
	assert.Equal(t, "Prefers metric units", page.Items[0].Content)
	var status string
	require.NoError(t, pool.QueryRow(t.Context(), `SELECT status FROM memory_jobs WHERE run_id = $1`, runID).Scan(&status))
	assert.Equal(t, "done", status)
}

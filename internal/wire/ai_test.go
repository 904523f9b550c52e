package wire_test

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/ai/aifake"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/wire"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

const apiKey = "sk-test-0123456789abcdef"

var quiet = slog.New(slog.DiscardHandler)

// install is what a process does at start: the AI from its configuration, the service with its
// options, the runner with its handlers.
func install(t *testing.T, pool *pgxpool.Pool, runner *jobs.Runner, cfg config.AI) (wire.AI, *memory.Service) {
	t.Helper()
	a, err := wire.NewAI(pool, cfg, nil)
	require.NoError(t, err)
	svc := memory.NewService(pool, quiet, a.Options()...)
	if runner != nil {
		a.RegisterJobs(runner, svc)
	}
	return a, svc
}

var user = memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser})

// TestAIEmbedsActiveMemories: with an embedding endpoint configured, CatchUp enqueues the
// active items that have no vector, and the runner's embed jobs store one per item.
func TestAIEmbedsActiveMemories(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	f := aifake.New(t, aifake.Embeddings(4))
	for _, text := range []string{"Likes tea", "Works at night"} {
		_, err := memory.NewService(pool, quiet).CreateMemory(user, memory.CreateInput{Content: text})
		require.NoError(t, err)
	}
	runner := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	cfg := config.AI{EmbeddingURL: f.URL + "/v1", EmbeddingModel: "fake-embed", EmbeddingDimensions: 4,
		APIKey: apiKey, DailyRequestLimit: 10, SemanticMaxDistance: 0.4}
	in, svc := install(t, pool, runner, cfg)
	assert.True(t, in.Embeddings())
	requeued, err := in.CatchUp(t.Context(), svc, quiet)
	require.NoError(t, err)
	assert.Equal(t, 2, requeued)
	assert.Equal(t, []jobs.Kind{memory.JobEmbed}, runner.Kinds())
	model, dims := svc.EmbeddingModel()
	assert.Equal(t, "fake-embed", model)
	assert.Equal(t, 4, dims)

	ran, err := runner.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, ran)
	done, total, err := svc.EmbeddingProgress(memory.WithCredential(t.Context(), memory.Credential{Kind: memory.CredentialUser}))
	require.NoError(t, err)
	assert.Equal(t, [2]int{2, 2}, [2]int{done, total})
	used, err := in.Budget.Used(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, used, "the two jobs claimed together cost one request")
	assert.Equal(t, int32(1), f.Requests.Load())
	assert.ElementsMatch(t, []any{"Likes tea", "Works at night"}, f.Bodies[0]["input"])

	// A second process starting now finds nothing missing.
	in2, svc2 := install(t, pool, nil, cfg)
	requeued, err = in2.CatchUp(t.Context(), svc2, quiet)
	require.NoError(t, err)
	assert.Zero(t, requeued)
}

func TestAIWithLimitZeroTurnsNothingOn(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	f := aifake.New(t, aifake.Embeddings(4))
	runner := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	in, svc := install(t, pool, runner, config.AI{
		EmbeddingURL: f.URL, EmbeddingModel: "m", DailyRequestLimit: 0, SemanticMaxDistance: 0.4,
	})
	assert.False(t, in.Embeddings())
	assert.Empty(t, in.Options())
	assert.Empty(t, runner.Kinds())
	model, _ := svc.EmbeddingModel()
	assert.Empty(t, model)
	assert.Zero(t, in.Budget.Limit())
}

// TestAIExtractsCandidates: with an extraction endpoint, a completed run the user started gets
// an extract job; the runner sends the user message with memory's instructions and schema, and the
// proposal with real evidence becomes a candidate while the made-up one is dropped.
func TestAIExtractsCandidates(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	f := aifake.New(t, aifake.ChatAnswer(`{"candidates":[
		{"kind":"preference","key":"units","content":"Prefers metric units","evidence":"use metric units"},
		{"kind":"fact","key":"","content":"Lives in Oslo","evidence":"I live in Oslo"}]}`))
	runner := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	in, svc := install(t, pool, runner, config.AI{
		ExtractionURL: f.URL + "/v1", ExtractionModel: "fake-chat", APIKey: apiKey, DailyRequestLimit: 5, SemanticMaxDistance: 0.4,
	})
	assert.True(t, in.Extraction())
	assert.False(t, in.Embeddings())
	assert.Equal(t, []jobs.Kind{memory.JobExtract}, runner.Kinds())

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
	// The job a completed run the user started enqueues (memory's own tests check when it does).
	require.NoError(t, jobs.EnqueueTx(t.Context(), pool, jobs.Job{Kind: memory.JobExtract, RunID: runID}))

	ran, err := runner.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, ran)
	require.Len(t, f.Bodies, 1)
	assert.Equal(t, "POST /v1/chat/completions", f.Paths[0])
	msgs := f.Bodies[0]["messages"].([]any)
	require.Len(t, msgs, 2)
	assert.Equal(t, map[string]any{"role": "system", "content": memory.ExtractionInstructions}, msgs[0])
	assert.Equal(t, map[string]any{"role": "user", "content": message}, msgs[1])
	format := f.Bodies[0]["response_format"].(map[string]any)["json_schema"].(map[string]any)
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

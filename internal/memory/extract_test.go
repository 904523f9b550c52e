package memory_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
)

// extractRun inserts a run of teammate tm with status and its user message; it returns their ids.
func extractRun(t *testing.T, f fixture, tm string, byUser bool, status, message string) (runID, messageID string) {
	t.Helper()
	ctx := context.Background()
	var thread string
	require.NoError(t, f.pool.QueryRow(ctx, `INSERT INTO bot_threads (teammate_id, generation) VALUES ($1, '0:0:0') RETURNING id::text`, tm).Scan(&thread))
	require.NoError(t, f.pool.QueryRow(ctx, `
		INSERT INTO runs (teammate_id, thread_id, status, started_by_user, generation, ended_at, cancelled_at)
		VALUES ($1, $2, $3, $4, '0:0:0', CASE WHEN $3 <> 'running' THEN now() END, CASE WHEN $3 = 'cancelled' THEN now() END)
		RETURNING id::text`, tm, thread, status, byUser).Scan(&runID))
	require.NoError(t, f.pool.QueryRow(ctx, `
		INSERT INTO messages (thread_id, run_id, role, content) VALUES ($1, $2, 'user', $3) RETURNING id::text`,
		thread, runID, message).Scan(&messageID))
	return runID, messageID
}

func extractCandidates(t *testing.T, f fixture, tm string) []memory.Item {
	t.Helper()
	page, err := f.svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &tm}, Status: memory.StatusCandidate})
	require.NoError(t, err)
	return page.Items
}

func answer(cands ...memory.ExtractedCandidate) func(context.Context, string) (memory.Extraction, error) {
	return func(context.Context, string) (memory.Extraction, error) {
		return memory.Extraction{Candidates: cands}, nil
	}
}

func mustNotExtract(t *testing.T) func(context.Context, string) (memory.Extraction, error) {
	return func(context.Context, string) (memory.Extraction, error) {
		t.Error("the extraction endpoint was called although nothing was to be extracted")
		return memory.Extraction{}, errors.New("unexpected")
	}
}

const extractMessage = "Please book a table for Friday. I'm vegetarian, and my sister Ana lives in Porto!"

func TestExtractJobKeepsProposalsWithEvidence(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithExtraction())
	tm := f.teammate(t, "Chef")
	run, msg := extractRun(t, f, tm, true, "completed", extractMessage)

	var sent string
	n, err := f.svc.Background().ExtractJob(context.Background(), run, func(_ context.Context, message string) (memory.Extraction, error) {
		sent = message
		return memory.Extraction{Candidates: []memory.ExtractedCandidate{
			{Kind: memory.KindFact, Key: "diet", Content: "Is vegetarian", Evidence: "I'm vegetarian"},
			{Kind: memory.KindPreference, Content: "Loves sushi", Evidence: "I love sushi"},                                          // made up
			{Kind: memory.KindFact, Key: "family", Content: "Has a sister, Ana, in Porto", Evidence: "MY sister ana lives in porto"}, // case and punctuation aside
			{Kind: memory.KindFact, Content: "Eats vegetables", Evidence: "vegetar"},                                                 // not a whole word
			{Kind: memory.KindLesson, Content: "Book tables early", Evidence: "book a table"},                                        // not a kind extraction proposes
			{Kind: memory.KindFact, Content: "Books tables on Fridays", Evidence: "book a table for Friday"},                         // sixth: over the cap
		}}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, extractMessage, sent, "the run's user message is what is sent")
	assert.Equal(t, 2, n)

	cands := extractCandidates(t, f, tm)
	require.Len(t, cands, 2)
	byContent := map[string]memory.Item{}
	for _, c := range cands {
		byContent[c.Content] = c
	}
	veg := byContent["Is vegetarian"]
	require.NotEmpty(t, veg.ID)
	assert.Equal(t, memory.StatusCandidate, veg.Status)
	assert.Equal(t, memory.SourceExtraction, veg.Source)
	assert.Equal(t, "I'm vegetarian", *veg.Evidence)
	assert.Equal(t, "diet", *veg.Key)
	assert.Equal(t, run, *veg.SourceRunID)
	assert.Equal(t, tm, veg.Scope, "extraction proposes in the teammate's own scope")
	// A8: the judge never read it, so it waits for extraction's fixed reason, with no words of its
	// own (the evidence quotes the message).
	require.NotNil(t, veg.WaitReason)
	assert.Equal(t, memory.ReasonExtracted, *veg.WaitReason)
	assert.Nil(t, veg.WaitWords)
	require.NotNil(t, veg.WaitExplanation())
	assert.Contains(t, *veg.WaitExplanation(), "extraction")
	assert.Contains(t, byContent, "Has a sister, Ana, in Porto")
	var actor, sourceMessage string
	require.NoError(t, f.pool.QueryRow(context.Background(), `
		SELECT r.actor, i.source_message_id::text FROM memory_revisions r JOIN memory_items i ON i.id = r.item_id
		 WHERE r.item_id = $1`, veg.ID).Scan(&actor, &sourceMessage))
	assert.Equal(t, "extraction", actor)
	assert.Equal(t, msg, sourceMessage)
	assert.Equal(t, "0:0:0", f.generation(t, tm), "candidates don't count in a generation (G1)")

	n, err = f.svc.Background().ExtractJob(context.Background(), run, mustNotExtract(t))
	require.NoError(t, err)
	assert.Zero(t, n, "a second run of the job (a retry) extracts nothing more")
}

func TestExtractJobDropsForgottenAndKnownText(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithExtraction())
	tm := f.teammate(t, "Chef")
	forgotten := f.create(t, &tm, "Is vegetarian")
	_, err := f.svc.ForgetMemory(user, forgotten.ID)
	require.NoError(t, err)
	f.create(t, &tm, "Has a sister, Ana, in Porto")
	run, _ := extractRun(t, f, tm, true, "completed", extractMessage)

	n, err := f.svc.Background().ExtractJob(context.Background(), run, answer(
		memory.ExtractedCandidate{Kind: memory.KindFact, Content: "is VEGETARIAN.", Evidence: "I'm vegetarian"},
		memory.ExtractedCandidate{Kind: memory.KindFact, Content: "Has a sister, Ana, in Porto", Evidence: "my sister Ana lives in Porto"},
		memory.ExtractedCandidate{Kind: memory.KindFact, Content: "Has a sister, Ana, in Porto", Evidence: "my sister Ana lives in Porto"},
	))
	require.NoError(t, err)
	assert.Zero(t, n, "F3: forgotten text isn't proposed again; known text isn't repeated")
	assert.Empty(t, extractCandidates(t, f, tm))
}

func TestExtractJobSkipsWhatItMustNotRead(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Chef")
	completed, _ := extractRun(t, f, tm, true, "completed", extractMessage)

	n, err := f.svc.Background().ExtractJob(context.Background(), completed, mustNotExtract(t))
	require.NoError(t, err)
	assert.Zero(t, n, "extraction off")

	f.with(memory.WithExtraction())
	for name, run := range map[string]string{
		"not started by the user": func() string { r, _ := extractRun(t, f, tm, false, "completed", extractMessage); return r }(),
		"still running":           func() string { r, _ := extractRun(t, f, tm, true, "running", extractMessage); return r }(),
		"cancelled":               func() string { r, _ := extractRun(t, f, tm, true, "cancelled", extractMessage); return r }(),
		"unknown":                 "00000000-0000-0000-0000-0000000000ee",
		"suppressed (F4)": func() string {
			r, m := extractRun(t, f, tm, true, "completed", extractMessage)
			_, err := f.pool.Exec(context.Background(), `INSERT INTO memory_suppressions (message_id) VALUES ($1)`, m)
			require.NoError(t, err)
			return r
		}(),
	} {
		n, err := f.svc.Background().ExtractJob(context.Background(), run, mustNotExtract(t))
		require.NoError(t, err, name)
		assert.Zero(t, n, name)
	}
}

// TestExtractJobSuppressedDuringTheCall (F4): the message is suppressed (an item extracted from it was
// forgotten) while the model is answering; nothing is saved.
func TestExtractJobSuppressedDuringTheCall(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithExtraction())
	tm := f.teammate(t, "Chef")
	run, msg := extractRun(t, f, tm, true, "completed", extractMessage)
	n, err := f.svc.Background().ExtractJob(context.Background(), run, func(context.Context, string) (memory.Extraction, error) {
		_, err := f.pool.Exec(context.Background(), `INSERT INTO memory_suppressions (message_id) VALUES ($1)`, msg)
		require.NoError(t, err)
		return memory.Extraction{Candidates: []memory.ExtractedCandidate{{Kind: memory.KindFact, Content: "Is vegetarian", Evidence: "I'm vegetarian"}}}, nil
	})
	require.NoError(t, err)
	assert.Zero(t, n)
}

func TestExtractJobErrorsCarryCodesOnly(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithExtraction())
	tm := f.teammate(t, "Chef")
	run, _ := extractRun(t, f, tm, true, "completed", extractMessage)
	endpointErr := &jobs.Error{Code: "ai chat/completions HTTP 503"}
	_, err := f.svc.Background().ExtractJob(context.Background(), run, func(context.Context, string) (memory.Extraction, error) {
		return memory.Extraction{}, endpointErr
	})
	require.ErrorIs(t, err, endpointErr)
	assert.Equal(t, "ai chat/completions HTTP 503", jobs.ErrorCode(err))
	assert.NotContains(t, err.Error(), "vegetarian")
}

func TestEnqueueExtractTx(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Chef")
	byUser, _ := extractRun(t, f, tm, true, "completed", extractMessage)
	enqueue := func(run memory.Run) {
		require.NoError(t, pgx.BeginFunc(context.Background(), f.pool, func(tx pgx.Tx) error {
			return memory.EnqueueExtractTx(context.Background(), f.svc, tx, run)
		}))
	}
	count := func() (n int) {
		require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_jobs WHERE kind = 'extract'`).Scan(&n))
		return n
	}
	completed := memory.Run{ID: byUser, TeammateID: tm, Status: memory.RunCompleted, StartedByUser: true}
	enqueue(completed)
	assert.Zero(t, count(), "extraction off")
	f.with(memory.WithExtraction())
	notByUser := completed
	notByUser.StartedByUser = false
	enqueue(notByUser)
	assert.Zero(t, count(), "only runs the user started")
	enqueue(completed)
	assert.Equal(t, 1, count())
}

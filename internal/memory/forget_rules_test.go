package memory_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
)

// The rules around a forget (RULES F2–F4, P7), each through the paths production uses: teammates'
// tools, extraction and embedding jobs run by a jobs.Runner, and the memory context of a run.

const lockerCode = "My locker code is 7391"

// TestTombstoneDropsCandidatesOfItsScopeOnly (F3): once a text is forgotten in a scope, a teammate's
// inference of it — worded with other case, punctuation or spacing — is dropped, as a new suggestion
// or as a proposed edit; nothing is written to memory, and the run is answered as for any suggestion
// (no oracle: suppressed_test.go). The same text is not blocked in another scope, by a
// teammate or by extraction.
func TestTombstoneDropsCandidatesOfItsScopeOnly(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithExtraction())
	a, b, c := f.teammate(t, "A"), f.teammate(t, "B"), f.teammate(t, "C")
	forgotten := f.create(t, &a, lockerCode)
	_, err := f.svc.ForgetMemory(user, forgotten.ID)
	require.NoError(t, err)
	other := f.create(t, &a, "Goes to the gym at 7")
	const message = "By the way, my locker code is 7391."
	ctxA := asRun(t, f, f.startRun(t, a, message).Token)

	items, revisions, gens := f.counts(t)
	for _, variant := range []string{"my LOCKER code is 7391!", "  My locker-code, is\t7391 ", lockerCode} {
		res, err := f.svc.Tools().Remember(ctxA, memory.RememberInput{Content: variant})
		require.NoError(t, err)
		assert.Equal(t, memory.OutcomeSuggested, res.Outcome, variant)
		assert.NotContains(t, res.Message, "7391", "F5: no memory text in the tool's answer")
	}
	res, err := f.svc.Tools().UpdateMemoryOf(ctxA, other.ID, 1, "MY LOCKER CODE IS 7391.")
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome, "a proposed edit to the forgotten text is dropped too (A4), silently")
	require.NotNil(t, res.Item)
	assert.Equal(t, other.ID, *res.Item.TargetItemID)
	i2, r2, g2 := f.counts(t)
	assert.Equal(t, []any{items, revisions, gens}, []any{i2, r2, g2}, "nothing was written")
	assert.Empty(t, extractCandidates(t, f, a))

	// Extraction in the same scope drops it; in another scope, it is a candidate like any other.
	runA, _ := extractRun(t, f, a, true, "completed", message)
	proposal := answer(memory.ExtractedCandidate{Kind: memory.KindFact, Content: "my locker code is 7391", Evidence: "my locker code is 7391"})
	n, err := f.svc.Background().ExtractJob(context.Background(), runA, proposal)
	require.NoError(t, err)
	assert.Zero(t, n, "extraction drops the tombstoned text")
	runC, _ := extractRun(t, f, c, true, "completed", message)
	n, err = f.svc.Background().ExtractJob(context.Background(), runC, proposal)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "another scope's tombstones don't block")

	// Another teammate's scope, and the shared scope, have no tombstone of the text.
	res, err = f.svc.Tools().Remember(asRun(t, f, f.startRun(t, b, message).Token), memory.RememberInput{Content: lockerCode})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome)
	res, err = f.svc.Tools().Remember(ctxA, memory.RememberInput{Content: lockerCode, ForEveryone: true})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome)
	assert.Equal(t, memory.ScopeShared, res.Item.Scope)
}

// TestTombstoneAllowsAnExplicitSave (F3): a save the user asked for brings forgotten text back —
// through a teammate (A1) or the user's own create — and ForgottenBefore tells the web app first, so
// it can warn. ForgottenBefore is false for other text and in other scopes.
func TestTombstoneAllowsAnExplicitSave(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b := f.teammate(t, "A"), f.teammate(t, "B")
	scopeA := memory.Scope{TeammateID: &a}
	before := func(scope memory.Scope, text string) bool {
		t.Helper()
		yes, err := f.svc.ForgottenBefore(user, scope, text)
		require.NoError(t, err)
		return yes
	}
	assert.False(t, before(scopeA, lockerCode), "nothing forgotten yet")
	item := f.create(t, &a, lockerCode)
	_, err := f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err)

	assert.True(t, before(scopeA, "my locker-code IS 7391!"), "compared like the tombstone: normalised, hyphens as spaces")
	assert.False(t, before(scopeA, "My locker code is 7392"), "other text")
	assert.False(t, before(memory.Scope{TeammateID: &b}, lockerCode), "another teammate's scope")
	assert.False(t, before(memory.Scope{}, lockerCode), "the shared scope")
	_, err = f.svc.ForgottenBefore(worker, scopeA, lockerCode)
	assert.ErrorIs(t, err, memory.ErrForbidden, "only the user asks")
	_, err = f.svc.ForgottenBefore(runOf(a), scopeA, lockerCode)
	assert.ErrorIs(t, err, memory.ErrForbidden)

	// The user asks the teammate to save it: a confirmed save, not blocked.
	ctx := asRun(t, f, f.startRun(t, a, "Please remember that my locker code is 7391").Token)
	res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: lockerCode})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSaved, res.Outcome)
	assert.Equal(t, memory.StatusActive, res.Item.Status)
	_, err = f.svc.ForgetMemory(user, res.Item.ID)
	require.NoError(t, err)

	// The user saves it again: allowed; the web app warned because ForgottenBefore said so.
	require.True(t, before(scopeA, lockerCode))
	again, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: scopeA, Content: "my locker code is 7391"})
	require.NoError(t, err)
	assert.Equal(t, memory.StatusActive, again.Status)
	assert.True(t, before(scopeA, lockerCode), "the tombstone stays: forgetting again needs no new one")
}

// TestSuppressForgetStopsQueuedExtraction (F4): forgetting an item a teammate saved from a run's
// message suppresses that message, and the extract job queued for the run before the forget reads
// nothing when a runner runs it; another run's job still extracts.
func TestSuppressForgetStopsQueuedExtraction(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithExtraction())
	ctx := context.Background()
	tm := f.teammate(t, "Keeper")
	run := f.startRun(t, tm, "Please remember that I have a dog named Rex.")
	rc := asRun(t, f, run.Token)
	res, err := f.svc.Tools().Remember(rc, memory.RememberInput{Content: "I have a dog named Rex"})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSaved, res.Outcome)
	_, err = f.svc.Tools().CompleteRun(rc, "Noted.")
	require.NoError(t, err)
	control := f.startRun(t, tm, "I live in Porto.")
	_, err = f.svc.Tools().CompleteRun(asRun(t, f, control.Token), "Nice.")
	require.NoError(t, err)
	var queued int
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT count(*) FROM memory_jobs WHERE kind = 'extract' AND status = 'pending'`).Scan(&queued))
	require.Equal(t, 2, queued, "both completed runs have an extract job waiting")

	userItem := f.create(t, &tm, "Has no source message")
	_, err = f.svc.ForgetMemory(user, userItem.ID)
	require.NoError(t, err)
	_, err = f.svc.ForgetMemory(user, res.Item.ID)
	require.NoError(t, err)
	var suppressed []string
	rows, err := f.pool.Query(ctx, `
		SELECT m.run_id::text FROM memory_suppressions s JOIN messages m ON m.id = s.message_id`)
	require.NoError(t, err)
	suppressed, err = pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	assert.Equal(t, []string{run.Run.ID}, suppressed, "the source message of the forgotten item, only")

	var (
		mu   sync.Mutex
		read = map[string]bool{}
	)
	runner := jobs.NewRunner(f.pool, jobs.Options{Log: slog.New(slog.DiscardHandler)})
	runner.Handle(memory.JobExtract, func(ctx context.Context, j jobs.Job) error {
		_, err := f.svc.Background().ExtractJob(ctx, j.RunID, func(_ context.Context, message string) (memory.Extraction, error) {
			mu.Lock()
			read[j.RunID] = true
			mu.Unlock()
			return memory.Extraction{Candidates: []memory.ExtractedCandidate{
				{Kind: memory.KindFact, Content: "Lives in Lisbon", Evidence: "I live in Lisbon"},
				{Kind: memory.KindFact, Content: "Lives in Porto", Evidence: "I live in Porto"},
			}}, nil
		})
		return err
	})
	ran, err := runner.RunOnce(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, ran)
	assert.Equal(t, map[string]bool{control.Run.ID: true}, read, "the suppressed message was never sent to extraction")
	cands := extractCandidates(t, f, tm)
	require.Len(t, cands, 1)
	assert.Equal(t, "Lives in Porto", cands[0].Content, "only the other run's message yields a candidate")
	var done int
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT count(*) FROM memory_jobs WHERE kind = 'extract' AND status = 'done' AND last_error IS NULL`).Scan(&done))
	assert.Equal(t, 2, done, "the suppressed job is done, not failed or retried")
}

// TestLateWriterEmbedBatchThroughRunner (F2): a batch of embed jobs is in flight, through a runner
// with the batch handler production installs, when one item is forgotten and another edited. The
// late vectors are dropped, both jobs end done (not retried), the forgotten item stays forgotten and
// empty, and the edit's own job then embeds the new revision.
func TestLateWriterEmbedBatchThroughRunner(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	f.with(memory.WithEmbeddings("late-embed", 3))
	forgotten := f.create(t, nil, lockerCode)
	edited := f.create(t, nil, "Lives in Lisbon")

	started, release := make(chan struct{}), make(chan struct{})
	var (
		mu    sync.Mutex
		calls [][]string
	)
	runner := jobs.NewRunner(f.pool, jobs.Options{Log: slog.New(slog.DiscardHandler)})
	runner.HandleBatch(memory.JobEmbed, func(ctx context.Context, js []jobs.Job) []error {
		refs := make([]memory.EmbedRef, len(js))
		for i, j := range js {
			refs[i] = memory.EmbedRef{ItemID: j.ItemID, Revision: j.Revision}
		}
		return f.svc.Background().EmbedJobs(ctx, refs, func(_ context.Context, texts []string) ([][]float32, error) {
			mu.Lock()
			calls = append(calls, texts)
			first := len(calls) == 1
			mu.Unlock()
			if first {
				close(started)
				<-release
			}
			out := make([][]float32, len(texts))
			for i := range out {
				out[i] = []float32{1, 2, 3}
			}
			return out, nil
		})
	})
	type outcome struct {
		ran int
		err error
	}
	result := make(chan outcome, 1)
	go func() {
		ran, err := runner.RunOnce(ctx)
		result <- outcome{ran, err}
	}()
	waitFor(t, started, "the batch's embed call")
	_, err := f.svc.ForgetMemory(user, forgotten.ID)
	require.NoError(t, err)
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: edited.ID, BaseRevision: 1, Content: ptr("Lives in Porto")})
	require.NoError(t, err)
	close(release)
	got := receive(t, result, "the batch's end")
	require.NoError(t, got.err)
	require.Equal(t, 2, got.ran)
	assert.Equal(t, [][]string{{lockerCode, "Lives in Lisbon"}}, calls, "one request for the batch")

	type jobRow struct {
		Revision  int
		Status    string
		Attempts  int
		LastError *string
	}
	jobsOf := func(itemID string) []jobRow {
		rows, err := f.pool.Query(ctx, `SELECT revision, status, attempts, last_error FROM memory_jobs WHERE item_id = $1 ORDER BY id`, itemID)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[jobRow])
		require.NoError(t, err)
		return out
	}
	assert.Equal(t, []jobRow{{1, "done", 1, nil}}, jobsOf(forgotten.ID), "a late result is a no-op, not a failure")
	assert.Empty(t, embeddingRows(t, f, forgotten.ID), "no vector of forgotten text")
	item, err := f.svc.Item(user, forgotten.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.StatusForgotten, item.Status)
	assert.Empty(t, item.Content)
	assert.Nil(t, item.Key)
	assert.Equal(t, 2, item.Revision)

	assert.Equal(t, []jobRow{{1, "done", 1, nil}, {2, "pending", 0, nil}}, jobsOf(edited.ID))
	assert.Empty(t, embeddingRows(t, f, edited.ID), "the stale revision's vector is dropped")
	ran, err := runner.RunOnce(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, ran)
	assert.Equal(t, []embeddingRow{{2, "late-embed", 3, unitVectorText(1, 2, 3)}}, embeddingRows(t, f, edited.ID))
	assert.Equal(t, []string{"Lives in Porto"}, calls[1])
}

// TestForgetCancelsPendingJobs (F2): the item's pending embed jobs, of every revision, are cancelled
// by the forget; a runner never runs them, not even after a rescue, while other items' jobs run.
func TestForgetCancelsPendingJobs(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	f.with(memory.WithEmbeddings("pending-embed", 3))
	tm := f.teammate(t, "Patient")
	item := f.create(t, &tm, "Allergic to penicillin")
	_, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Key: ptr("allergy")})
	require.NoError(t, err)
	other := f.create(t, &tm, "Likes jazz")
	statuses := func(itemID string) []string {
		rows, err := f.pool.Query(ctx, `SELECT status FROM memory_jobs WHERE item_id = $1 ORDER BY id`, itemID)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	require.Equal(t, []string{"pending", "pending"}, statuses(item.ID))

	_, err = f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"cancelled", "cancelled"}, statuses(item.ID))
	assert.Equal(t, []string{"pending"}, statuses(other.ID), "other items' jobs are untouched")

	var (
		mu  sync.Mutex
		ran []string
	)
	runner := jobs.NewRunner(f.pool, jobs.Options{Log: slog.New(slog.DiscardHandler)})
	runner.Handle(memory.JobEmbed, func(ctx context.Context, j jobs.Job) error {
		mu.Lock()
		ran = append(ran, j.ItemID)
		mu.Unlock()
		return f.svc.Background().EmbedJob(ctx, j.ItemID, j.Revision, (&recordingEmbed{vector: []float32{1, 1, 1}}).embed)
	})
	n, err := runner.RunOnce(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	rescued, err := runner.Rescue(ctx)
	require.NoError(t, err)
	assert.Zero(t, rescued)
	n, err = runner.RunOnce(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, []string{other.ID}, ran, "the forgotten item's jobs never ran")
	assert.Equal(t, []string{"cancelled", "cancelled"}, statuses(item.ID))
	assert.Empty(t, embeddingRows(t, f, item.ID))
}

// TestForgetShowsForgottenInMemoryContext (P7, F1): a run was given an item that its teammate then
// forgets at the user's request; the run's memory context still lists the entry, as FORGOTTEN, with
// no text, and the item is gone from search and recall.
func TestForgetShowsForgottenInMemoryContext(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Context")
	kept, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Likes hiking", Pinned: true})
	require.NoError(t, err)
	// Not pinned: a pinned item is only ever proposed for forgetting (A5). The message's words
	// bring it into the packet beside the pinned one.
	gone, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Key: ptr("locker"), Content: lockerCode})
	require.NoError(t, err)
	run := f.startRun(t, tm, "Please forget my locker.")
	require.Len(t, run.Packet.Entries, 2)
	rc := asRun(t, f, run.Token)
	res, err := f.svc.Tools().ForgetMemoryOf(rc, gone.ID)
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeForgotten, res.Outcome)

	for name, ctx := range map[string]context.Context{"user": user, "worker": worker, "the run itself": rc} {
		entries, err := f.svc.MemoryContext(ctx, run.Run.ID)
		require.NoError(t, err, name)
		require.Len(t, entries, 2, name)
		byID := map[string]memory.ContextEntry{}
		for _, e := range entries {
			byID[e.ItemID] = e
		}
		e := byID[gone.ID]
		assert.Equal(t, memory.ContextForgotten, e.State, name)
		assert.Equal(t, 1, e.RevisionGiven, name)
		assert.Equal(t, 2, e.CurrentRevision, name)
		assert.Empty(t, e.Item.Content, name)
		assert.Nil(t, e.Item.Key, name)
		assert.Nil(t, e.Item.Evidence, name)
		assert.Equal(t, memory.ContextUnchanged, byID[kept.ID].State, name)
		assert.Equal(t, "Likes hiking", byID[kept.ID].Item.Content, name)
	}

	found, err := f.svc.Tools().SearchMemory(rc, "locker")
	require.NoError(t, err)
	assert.Empty(t, found)
	preview, err := f.svc.RecallPreview(user, tm, "locker code")
	require.NoError(t, err)
	require.Len(t, preview.Entries, 1)
	assert.Equal(t, kept.ID, preview.Entries[0].Item.ID)
	assert.NotContains(t, preview.Text, "is 7391", "the forgotten text is in no packet (a header's id may hold the digits)")
}

package memory_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

func (f fixture) startRun(t *testing.T, teammateID, message string) memory.StartedRun {
	t.Helper()
	out, err := f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: teammateID, Message: message, StartedByUser: true})
	require.NoError(t, err)
	return out
}

func asRun(t *testing.T, f fixture, token string) context.Context {
	t.Helper()
	c, err := f.svc.AuthenticateRun(context.Background(), token)
	require.NoError(t, err)
	return memory.WithCredential(context.Background(), c)
}

// G4: a change committed between the generation read and the packet hand-out fails the run with
// exactly the sentence of the spec, and nothing is handed out.
func TestStartRunFailsWhenMemoryChangesWhileStarting(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Starter")
	f.create(t, &tm, "Likes hiking")
	f.svc.SetBeforeGenerationRecheck(func() {
		f.svc.SetBeforeGenerationRecheck(nil)
		f.create(t, nil, "A change from another session") // commits on its own connection
	})
	_, err := f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, Message: "Do I like hiking?"})
	require.ErrorIs(t, err, memory.ErrMemoryChanged)
	assert.Equal(t, "Memory changed while this task was starting.", err.Error())

	var status string
	var token []byte
	var contexts int
	require.NoError(t, f.pool.QueryRow(context.Background(), `
		SELECT status, token_hash, (SELECT count(*) FROM memory_contexts c WHERE c.run_id = r.id)
		  FROM runs r WHERE teammate_id = $1`, tm).Scan(&status, &token, &contexts))
	assert.Equal(t, "failed", status)
	assert.Nil(t, token, "the failed run has no credential")
	assert.Zero(t, contexts, "nothing was handed out")

	// Without interference the next start succeeds with the new generation.
	run := f.startRun(t, tm, "Do I like hiking?")
	assert.Equal(t, "1:1:0", run.Generation.String())
	assert.Contains(t, run.Packet.Text, "hiking")
}

// G6: the user cancels the run just before the teammate's write: the write is refused (its
// credential ended), nothing is written and nothing adopted.
func TestToolWriteAfterConcurrentCancel(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Canceller")
	run := f.startRun(t, tm, "Please remember that I like plums")
	ctx := asRun(t, f, run.Token)
	items, revisions, gens := f.counts(t)
	f.svc.SetBeforeToolWrite(func() {
		f.svc.SetBeforeToolWrite(nil)
		_, err := f.svc.CancelRun(user, run.Run.ID)
		require.NoError(t, err)
	})
	_, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "I like plums"})
	require.ErrorIs(t, err, memory.ErrUnauthenticated)
	i2, r2, g2 := f.counts(t)
	assert.Equal(t, []any{items, revisions, gens}, []any{i2, r2, g2}, "nothing written")
	got, err := f.svc.GetRun(user, run.Run.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.RunCancelled, got.Status)
	assert.Equal(t, run.Generation.String(), got.Generation, "not adopted")
}

// G5, G6: if something else changed memory before the teammate's own write, the write itself
// refuses with MEMORY_CHANGED (nothing written, the run interrupted) rather than adopting.
func TestToolWriteAfterAnotherChangeIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Racer")
	run := f.startRun(t, tm, "Please remember that I like figs")
	ctx := asRun(t, f, run.Token)
	f.svc.SetBeforeToolWrite(func() {
		f.svc.SetBeforeToolWrite(nil)
		f.create(t, &tm, "The user added this meanwhile")
	})
	items, _, _ := f.counts(t)
	_, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "I like figs"})
	require.ErrorIs(t, err, memory.ErrMemoryChangedMidTurn)
	i2, _, _ := f.counts(t)
	assert.Equal(t, items+1, i2, "only the user's item was written")
	got, err := f.svc.GetRun(user, run.Run.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.RunInterrupted, got.Status)

	// Its own write alone is adopted: no interruption.
	run2 := f.startRun(t, tm, "Please remember that I like dates")
	ctx2 := asRun(t, f, run2.Token)
	res, err := f.svc.Tools().Remember(ctx2, memory.RememberInput{Content: "I like dates"})
	require.NoError(t, err)
	assert.True(t, res.Adopted)
	check, err := f.svc.Tools().CheckRunGeneration(ctx2)
	require.NoError(t, err)
	assert.False(t, check.Interrupted)
	assert.Equal(t, check.Current, check.Adopted)
}

func TestCandidatesNeverCountAndArriveAsEvents(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Suggester")
	run := f.startRun(t, tm, "I drink my coffee black.")
	ctx := asRun(t, f, run.Token)
	genBefore := f.generation(t, tm)
	listen := listenEvents(t, f.pool)

	res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "drinks coffee black", Kind: memory.KindPreference})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	assert.Equal(t, genBefore, f.generation(t, tm), "G1: a candidate doesn't bump the generation")
	e := listen.next(t)
	assert.True(t, e.Candidate, "A6: candidate arrivals are announced")
	assert.False(t, e.Generation)

	// Dismissing doesn't count either; confirming does.
	dismissed, err := f.svc.DismissCandidate(user, res.Item.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.StatusDismissed, dismissed.Status)
	assert.Equal(t, genBefore, f.generation(t, tm))
	_, err = f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: res.Item.ID})
	var bad *memory.ValidationError
	require.ErrorAs(t, err, &bad, "a dismissed suggestion can't be confirmed")

	res, err = f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "takes coffee without sugar"})
	require.NoError(t, err)
	confirmed, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: res.Item.ID, Content: ptr("Takes coffee black, no sugar")})
	require.NoError(t, err)
	assert.Equal(t, memory.StatusActive, confirmed.Status)
	assert.Equal(t, "Takes coffee black, no sugar", confirmed.Content, "the user may edit before confirming")
	assert.Equal(t, 2, confirmed.Revision)
	assert.NotEqual(t, genBefore, f.generation(t, tm))
	page, err := f.svc.Revisions(user, confirmed.ID, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, memory.ActionConfirm, page.Revisions[0].Action)
	assert.Equal(t, memory.ActorUser, page.Revisions[0].Actor)

	// The same text twice is not saved twice (in a new turn: the confirmation changed memory, so
	// this run's next call would be refused, G5).
	ctx = asRun(t, f, f.startRun(t, tm, "I drink my coffee black.").Token)
	res, err = f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "takes coffee black, no sugar!"})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeUnchanged, res.Outcome)
}

// L3: a retry asked for after memory changed (keeping a lesson from the same form does that) runs in
// a fresh thread, and still carries what the teammate needs: the original request, the reply being
// redone and the note; its packet is recalled for the request and the note, not the note alone.
func TestRetryAfterMemoryChangeCarriesTheOriginalRequest(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Writer")
	f.create(t, &tm, "The landlord is Ms Smith")
	const request = "Draft a reply to the landlord about the heating"
	first := f.startRun(t, tm, request)
	_, err := f.svc.Tools().CompleteRun(asRun(t, f, first.Token), "Hey, fix the heating pls")
	require.NoError(t, err)

	retry, err := f.svc.RetryRunWithNote(user, first.Run.ID, "  Make it polite and formal ")
	require.NoError(t, err)
	assert.Equal(t, "Make it polite and formal", retry.Note)
	_, err = f.svc.KeepLesson(user, first.Run.ID, "Write to officials politely")
	require.NoError(t, err)

	pending, err := f.svc.Worker().PendingRetries(worker)
	require.NoError(t, err)
	require.Len(t, pending, 1)
	assert.Equal(t, "Make it polite and formal", pending[0].Note)
	redo, err := f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, RetryMessageID: pending[0].MessageID})
	require.NoError(t, err)
	assert.True(t, redo.Fresh, "memory changed since the thread was made (G3)")
	require.NotNil(t, redo.RetryOf)
	assert.Equal(t, memory.RetryOrigin{RunID: first.Run.ID, UserMessage: request, Reply: "Hey, fix the heating pls",
		Note: "Make it polite and formal"}, *redo.RetryOf)
	assert.Contains(t, redo.Packet.Text, "Ms Smith", "recalled for the original request (the note says nothing of landlords)")
	assert.Contains(t, redo.Packet.Text, "Write to officials politely", "the lesson too (L2)")
	redoOf, note, err := f.svc.RunRetry(user, redo.Run)
	require.NoError(t, err)
	assert.Equal(t, [2]string{first.Run.ID, "Make it polite and formal"}, [2]string{redoOf, note})
	_, err = f.svc.Tools().CompleteRun(asRun(t, f, redo.Token), "Dear Ms Smith, could the heating be repaired?")
	require.NoError(t, err)

	// A retry of the retry, in the same (unchanged) thread: the first request still, no reply (the
	// thread has it).
	_, err = f.svc.RetryRunWithNote(user, redo.Run.ID, "Shorter")
	require.NoError(t, err)
	pending, err = f.svc.Worker().PendingRetries(worker)
	require.NoError(t, err)
	require.Len(t, pending, 1)
	again, err := f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, RetryMessageID: pending[0].MessageID})
	require.NoError(t, err)
	assert.False(t, again.Fresh)
	assert.Equal(t, memory.RetryOrigin{RunID: redo.Run.ID, UserMessage: request, Note: "Shorter"}, *again.RetryOf)
}

// G4, L3: a retry whose start fails because memory changed meanwhile is not lost: it waits for the
// worker again, and the next start carries it.
func TestRetryWaitsAgainWhenItsStartFails(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Retrier")
	first := f.startRun(t, tm, "Plan my week")
	_, err := f.svc.Tools().CompleteRun(asRun(t, f, first.Token), "Monday: rest.")
	require.NoError(t, err)
	retry, err := f.svc.RetryRunWithNote(user, first.Run.ID, "Add the gym on Tuesday")
	require.NoError(t, err)
	f.svc.SetBeforeGenerationRecheck(func() {
		f.svc.SetBeforeGenerationRecheck(nil)
		f.create(t, &tm, "Goes to the gym")
	})
	_, err = f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, RetryMessageID: retry.MessageID})
	require.ErrorIs(t, err, memory.ErrMemoryChanged)
	pending, err := f.svc.Worker().PendingRetries(worker)
	require.NoError(t, err)
	require.Len(t, pending, 1, "the retry waits again")
	assert.Equal(t, retry.MessageID, pending[0].MessageID)
	assert.Equal(t, first.Thread.ID, pending[0].ThreadID)
	redo, err := f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, RetryMessageID: retry.MessageID})
	require.NoError(t, err)
	assert.Equal(t, "Plan my week", redo.RetryOf.UserMessage)
}

// The readers of a run's and a page's fields check the credential themselves (S1, §4), so they are
// safe whoever calls them, not only after GetRun or ListItems: another run, no credential, and a
// credential that may not list suggestions are refused, and nothing is read.
func TestFieldReadersCheckTheCredential(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ada, bob := f.teammate(t, "Ada"), f.teammate(t, "Bob")
	adas, bobs := f.startRun(t, ada, "Hello Ada"), f.startRun(t, bob, "Hello Bob")
	asAda := asRun(t, f, adas.Token)
	nobody := context.Background()

	message, _, err := f.svc.RunMessages(asAda, adas.Run)
	require.NoError(t, err)
	assert.Equal(t, "Hello Ada", message)
	for name, ctx := range map[string]context.Context{"another run": asAda, "no credential": nobody} {
		want := memory.ErrForbidden
		if ctx == nobody {
			want = memory.ErrUnauthenticated
		}
		message, _, err := f.svc.RunMessages(ctx, bobs.Run)
		assert.ErrorIs(t, err, want, name)
		assert.Empty(t, message, name)
		_, _, err = f.svc.RunRetry(ctx, bobs.Run)
		assert.ErrorIs(t, err, want, name)
		thread, err := f.svc.ThreadOf(ctx, bobs.Run)
		assert.ErrorIs(t, err, want, name)
		assert.Zero(t, thread, name)
	}

	// A page of suggestions listed by the user can't be counted by the worker, nor Bob's items by
	// Ada's run.
	f.create(t, &bob, "Bob likes tea")
	suggestions, err := f.svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &bob}, Status: memory.StatusCandidate})
	require.NoError(t, err)
	_, err = f.svc.Count(worker, suggestions)
	assert.ErrorIs(t, err, memory.ErrForbidden)
	bobsItems, err := f.svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &bob}})
	require.NoError(t, err)
	n, err := f.svc.Count(user, bobsItems)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	_, err = f.svc.Count(asAda, bobsItems)
	assert.ErrorIs(t, err, memory.ErrForbidden)
	_, err = f.svc.Count(nobody, memory.ItemPage{})
	assert.ErrorIs(t, err, memory.ErrUnauthenticated)
}

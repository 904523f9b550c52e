package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// L3: the user withdraws a retry before the worker starts it: the worker's list no longer has it, a
// start that names it is refused, the run it would have redone is untouched; a second cancel, a
// message that is not a retry and a retry already started are refused with their own errors, and
// only the user may cancel.
func TestCancelRetry(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Canceller")
	first := f.startRun(t, tm, "Plan my week")
	_, err := f.svc.Tools().CompleteRun(asRun(t, f, first.Token), "Monday: rest.")
	require.NoError(t, err)

	retry, err := f.svc.RetryRunWithNote(user, first.Run.ID, "Add the gym on Tuesday")
	require.NoError(t, err)
	_, err = f.svc.CancelRetry(worker, retry.MessageID)
	require.ErrorIs(t, err, memory.ErrForbidden, "the worker may not cancel the user's retry")
	_, err = f.svc.CancelRetry(asRun(t, f, f.startRun(t, f.teammate(t, "Other"), "Hello").Token), retry.MessageID)
	require.ErrorIs(t, err, memory.ErrForbidden, "nor may a run")

	cancelled, err := f.svc.CancelRetry(user, retry.MessageID)
	require.NoError(t, err)
	assert.Equal(t, memory.Retry{MessageID: retry.MessageID, TeammateID: tm, ThreadID: first.Thread.ID, RetryOfRun: first.Run.ID,
		Prompt: retry.Prompt, Note: "Add the gym on Tuesday", CreatedAt: cancelled.CreatedAt}, cancelled)
	assert.False(t, cancelled.CreatedAt.IsZero())
	pending, err := f.svc.Worker().PendingRetries(worker)
	require.NoError(t, err)
	assert.Empty(t, pending, "the worker no longer sees the cancelled retry")
	_, err = f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, RetryMessageID: retry.MessageID})
	require.ErrorIs(t, err, memory.ErrNotFound, "a start that names the cancelled retry is refused")
	run, err := f.svc.GetRun(user, first.Run.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.RunCompleted, run.Status, "the run it would have redone is untouched")

	_, err = f.svc.CancelRetry(user, retry.MessageID)
	require.ErrorIs(t, err, memory.ErrNotFound, "cancelled twice")
	_, err = f.svc.CancelRetry(user, first.Thread.ID)
	require.ErrorIs(t, err, memory.ErrNotFound, "an id that names no message")
	_, err = f.svc.CancelRetry(user, "not-an-id")
	var bad *memory.ValidationError
	require.ErrorAs(t, err, &bad)
	assert.Equal(t, "messageId", bad.Field)

	// A retry a run has picked up can't be cancelled any more: CONFLICT, and its run goes on.
	again, err := f.svc.RetryRunWithNote(user, first.Run.ID, "Shorter")
	require.NoError(t, err)
	redo, err := f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, RetryMessageID: again.MessageID})
	require.NoError(t, err)
	_, err = f.svc.CancelRetry(user, again.MessageID)
	require.ErrorIs(t, err, memory.ErrRetryStarted)
	assert.Equal(t, memory.CodeConflict, memory.Classify(err).Code)
	run, err = f.svc.GetRun(user, redo.Run.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.RunRunning, run.Status)
}

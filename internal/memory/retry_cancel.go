package memory

import (
	"context"
	"errors"
	"fmt"
)

// CancelRetry withdraws a retry the user asked for (RetryRunWithNote) that no run has picked up
// yet: its stored message is deleted, so PendingRetries no longer lists it and a StartRun that names
// it answers ErrNotFound. The run it would have redone stays as it is. It returns the retry as it
// was. A message that is not a retry, or none, is ErrNotFound; a retry a run has picked up already
// is ErrRetryStarted (user only).
func (s *Service) CancelRetry(ctx context.Context, messageID string) (Retry, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Retry{}, err
	}
	messageID, err := parseID("messageId", messageID)
	if err != nil {
		return Retry{}, err
	}
	q := queries(s.pool)
	// One statement decides against a concurrent StartRun: the start claims the message with
	// FOR UPDATE and sets its run, so either the delete finds it still waiting, or it finds it
	// picked up (or gone) and deletes nothing.
	row, err := q.MessageRetryCancel(ctx, messageID)
	if errors.Is(err, ErrNotFound) {
		state, err := q.MessageRetryState(ctx, messageID)
		switch {
		case err != nil:
			return Retry{}, wrapUnlessDomain("cancel retry", err)
		case state.IsRetry && state.Started:
			return Retry{}, ErrRetryStarted
		}
		return Retry{}, ErrNotFound
	}
	if err != nil {
		return Retry{}, fmt.Errorf("cancel retry: %w", err)
	}
	r := Retry{MessageID: messageID, ThreadID: row.ThreadID, RetryOfRun: row.RedoOfRunID,
		Prompt: row.Content, Note: RetryNote(row.Content), CreatedAt: row.CreatedAt}
	thread, err := q.ThreadGet(ctx, row.ThreadID)
	if err != nil {
		return Retry{}, fmt.Errorf("cancel retry: %w", err)
	}
	r.TeammateID = thread.TeammateID
	s.log.InfoContext(ctx, "retry cancelled", "run", r.RetryOfRun, "message", messageID)
	return r, nil
}

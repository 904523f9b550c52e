package memory

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Rating is the user's thumbs up or down on a reply (L1).
type Rating string

// The ratings; the empty Rating clears one.
const (
	RatingUp   Rating = "up"
	RatingDown Rating = "down"
)

// MaxNoteLength bounds a feedback note (the lesson or the retry instruction), in characters; a note
// kept as a lesson is memory content, so it has the same limit.
const MaxNoteLength = MaxContentLength

// RetryPromptTemplate turns the user's note into the message of a redo (L3). %s is the note.
const RetryPromptTemplate = "Please try again and give the complete new answer, not just the changes. " +
	"Take this into account: %s"

// RateRun sets or clears the user's rating of a run's reply (user only).
func (s *Service) RateRun(ctx context.Context, runID string, rating Rating) (Run, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Run{}, err
	}
	runID, err := parseID("runId", runID)
	if err != nil {
		return Run{}, err
	}
	var value *Rating
	switch rating {
	case RatingUp, RatingDown:
		value = &rating
	case "":
	default:
		return Run{}, invalid("rating", "must be up, down or none")
	}
	row, err := queries(s.pool).RunRate(ctx, memorydb.RunRateParams{ID: runID, Rating: (*string)(value)})
	if err != nil {
		return Run{}, err
	}
	return runFromRow(row), nil
}

// KeepLesson saves the user's note about a reply as a pinned lesson in that run's teammate scope,
// linked to the run (L2): confirmed, because the user wrote it, so it enters every future packet of
// that teammate.
func (s *Service) KeepLesson(ctx context.Context, runID, note string) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	runID, err := parseID("runId", runID)
	if err != nil {
		return Item{}, err
	}
	if err := checkText("note", note, MaxNoteLength, true); err != nil {
		return Item{}, err
	}
	var item Item
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		row, err := queries(tx).RunGet(ctx, runID)
		if err != nil {
			return err
		}
		run := runFromRow(row)
		if err := lockScopeTx(ctx, tx, run.TeammateID); err != nil {
			return err
		}
		item, err = s.insertItemTx(ctx, tx, newItem{
			scope: Scope{TeammateID: &run.TeammateID}, state: state{content: strings.TrimSpace(note), kind: KindLesson, pinned: true},
			status: StatusActive, source: SourceFeedback, actor: ActorUser, sourceRunID: &run.ID,
		})
		return err
	})
	if err != nil {
		return Item{}, wrapUnlessDomain("keep lesson", err)
	}
	s.log.InfoContext(ctx, "lesson kept", "item", item.ID, "run", runID)
	return item, nil
}

// RetryNote returns the user's note in a retry's message (RetryPromptTemplate), or the whole
// message when it isn't worded by the template.
func RetryNote(prompt string) string {
	prefix, _, _ := strings.Cut(RetryPromptTemplate, "%s")
	if note, ok := strings.CutPrefix(prompt, prefix); ok {
		return note
	}
	return prompt
}

// Retry is a redo the user asked for (L3): a user message waiting for the worker to start its run.
type Retry struct {
	MessageID  string
	TeammateID string
	ThreadID   string
	RetryOfRun string
	Prompt     string
	// Note is the user's note in Prompt.
	Note      string
	CreatedAt time.Time
}

// RetryRunWithNote stores the user's note as a new message of the run's thread that redoes the run
// (messages.redo_of_run_id), worded by RetryPromptTemplate, for the worker to pick up with
// PendingRetries and StartRun (user only).
func (s *Service) RetryRunWithNote(ctx context.Context, runID, note string) (Retry, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Retry{}, err
	}
	runID, err := parseID("runId", runID)
	if err != nil {
		return Retry{}, err
	}
	if err := checkText("note", note, MaxNoteLength, true); err != nil {
		return Retry{}, err
	}
	q := queries(s.pool)
	row, err := q.RunGet(ctx, runID)
	if err != nil {
		return Retry{}, err
	}
	run := runFromRow(row)
	r := Retry{TeammateID: run.TeammateID, ThreadID: run.ThreadID, RetryOfRun: run.ID,
		Prompt: fmt.Sprintf(RetryPromptTemplate, strings.TrimSpace(note)), Note: strings.TrimSpace(note), CreatedAt: time.Now()}
	if r.MessageID, err = q.MessageInsert(ctx, memorydb.MessageInsertParams{
		ThreadID: run.ThreadID, Role: "user", Content: r.Prompt, RedoOfRunID: &run.ID,
	}); err != nil {
		return Retry{}, fmt.Errorf("retry run: %w", err)
	}
	s.log.InfoContext(ctx, "retry requested", "run", runID, "message", r.MessageID)
	return r, nil
}

// PendingRetries lists redo messages no run has picked up yet, oldest first (worker only).
func (w *Worker) PendingRetries(ctx context.Context) ([]Retry, error) {
	s := w.service()
	if _, err := require(ctx, CredentialWorker); err != nil {
		return nil, err
	}
	rows, err := queries(s.pool).MessagesRetryWaiting(ctx)
	if err != nil {
		return nil, fmt.Errorf("pending retries: %w", err)
	}
	return mapRows(rows, func(r *memorydb.MessagesRetryWaitingRow) Retry {
		return Retry{MessageID: r.ID, TeammateID: r.TeammateID, ThreadID: r.ThreadID, RetryOfRun: r.RedoOfRunID,
			Prompt: r.Content, Note: RetryNote(r.Content), CreatedAt: r.CreatedAt}
	}), nil
}

// Lesson is an active lesson item of a teammate with the run whose reply prompted it (L4).
type Lesson struct {
	Item  Item
	RunID *string
}

// Lessons lists a teammate's active lessons, most recently changed first (up to 200).
func (s *Service) Lessons(ctx context.Context, teammateID string) ([]Lesson, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return nil, err
	}
	if teammateID, err = parseID("teammateId", teammateID); err != nil {
		return nil, err
	}
	if !c.canReadTeammate(teammateID) {
		return nil, ErrForbidden
	}
	if err := s.checkTeammateExists(ctx, teammateID); err != nil {
		return nil, err
	}
	q := queries(s.pool)
	list, err := q.LessonsOfTeammate(ctx, teammateID)
	if err != nil {
		return nil, fmt.Errorf("lessons: %w", err)
	}
	out := make([]Lesson, 0, len(list))
	for _, l := range list {
		row, err := q.ItemGet(ctx, l.ItemID)
		if err != nil {
			return nil, fmt.Errorf("lessons: %w", err)
		}
		out = append(out, Lesson{Item: itemFromRow(row), RunID: l.RunID})
	}
	items := make([]Item, len(out))
	for i, l := range out {
		items[i] = l.Item
	}
	if err := withholdForRun(ctx, s.pool, c, items); err != nil { // S4
		return nil, err
	}
	for i := range out {
		out[i].Item = items[i]
	}
	return out, nil
}

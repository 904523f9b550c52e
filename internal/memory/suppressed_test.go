package memory_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// No tombstone oracle (F3): a text suppressed by a tombstone answers a run exactly
// as an ordinary suggestion of that run would, then and afterwards.

const (
	pinPattern = "My bank PIN is %04d."
	// pinMessage is the run's user message: no request (every PIN waits as a suggestion), and a
	// sentence sharing a word with every PIN's text, so every suggestion carries evidence.
	pinMessage = "My bank sent me a letter today. Nothing else is new."
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// answerShape is a tool's answer with what differs for every call anyway taken out — the id, the
// times — after checking that those are what any suggestion's are: a random (v4) uuid, the run's own
// id as the source, the text the run sent. Two answers with the same shape tell a run nothing apart.
type answerShape struct {
	Outcome memory.ToolOutcome
	Message string
	Reason  string
	Adopted bool
	Item    *memory.Item
}

func shapeOf(t *testing.T, runID, content string, res memory.ToolResult) answerShape {
	t.Helper()
	s := answerShape{Outcome: res.Outcome, Message: res.Message, Reason: string(res.Reason), Adopted: res.Adopted}
	if res.Item == nil {
		return s
	}
	it := *res.Item
	assert.Regexp(t, uuidV4, it.ID, "an id like every item's")
	if assert.NotNil(t, it.SourceRunID) {
		assert.Equal(t, runID, *it.SourceRunID)
	}
	assert.False(t, it.CreatedAt.IsZero())
	assert.False(t, it.UpdatedAt.Before(it.CreatedAt))
	if content != "" {
		assert.Equal(t, content, it.Content, "the text the run sent")
	}
	it.ID, it.SourceRunID, it.Content, it.CreatedAt, it.UpdatedAt = "", nil, "", time.Time{}, time.Time{}
	s.Item = &it
	return s
}

// errShape is an error as a run sees it.
func errShape(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, memory.ErrNotFound):
		return "NOT_FOUND"
	}
	return err.Error()
}

// pinSetup is a teammate whose scope had "My bank PIN is <forgotten>." and forgot it.
func pinSetup(t *testing.T, forgotten int, opts ...memory.Option) (fixture, string) {
	t.Helper()
	f := keyedSetup(t)
	if len(opts) > 0 {
		f.with(opts...)
		require.NoError(t, f.svc.Background().UseTombstoneKey(context.Background(), []byte(testTombstoneKey)))
	}
	tm := f.teammate(t, "Pat")
	item := f.create(t, &tm, fmt.Sprintf(pinPattern, forgotten))
	_, err := f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err)
	return f, tm
}

// TestTombstoneIsNoOracleForTenThousandPINs: a teammate tries all 10,000 PINs with remember(), in 50
// runs of 200 (each run may make 20 suggestions, the rest are refused). Every run's answers, call by
// call, have the same shape: the forgotten PIN's run can't be told from the others — a DROPPED
// answer, or a budget it didn't use letting the 21st call through, would give it away.
func TestTombstoneIsNoOracleForTenThousandPINs(t *testing.T) {
	t.Parallel()
	const forgotten, runs, perRun = 4810, 50, 200
	f, tm := pinSetup(t, forgotten)

	shapes := make([][]answerShape, runs)
	ids := make([][]string, runs)
	ctxs := make([]context.Context, runs)
	runIDs := make([]string, runs)
	for r := range runs {
		run := f.startRun(t, tm, pinMessage)
		ctxs[r], runIDs[r] = asRun(t, f, run.Token), run.Run.ID
	}
	start := time.Now()
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for r := w; r < runs; r += 2 {
				for i := range perRun {
					text := fmt.Sprintf(pinPattern, r*perRun+i)
					res, err := f.svc.Tools().Remember(ctxs[r], memory.RememberInput{Content: text})
					if !assert.NoError(t, err) {
						return
					}
					shapes[r] = append(shapes[r], shapeOf(t, runIDs[r], text, res))
					if res.Item != nil {
						ids[r] = append(ids[r], res.Item.ID)
					}
				}
			}
		})
	}
	wg.Wait()
	t.Logf("10,000 PINs through the tool in %v", time.Since(start).Round(time.Millisecond))
	require.False(t, t.Failed())

	for r := range runs {
		for i := range perRun {
			if !assert.Equal(t, shapes[0][i], shapes[r][i], "PIN %04d answers unlike the others at its place", r*perRun+i) {
				return
			}
		}
	}
	assert.Equal(t, memory.OutcomeSuggested, shapes[0][0].Outcome)
	assert.Equal(t, memory.OutcomeRefused, shapes[0][memory.DefaultRunSuggestionLimit].Outcome)

	// The user never sees the forgotten PIN: every other suggestion waits, it doesn't.
	var withPIN, waiting int
	require.NoError(t, f.pool.QueryRow(context.Background(),
		`SELECT count(*) FILTER (WHERE content LIKE '%4810%'), count(*) FILTER (WHERE status = 'candidate')
		   FROM memory_items WHERE teammate_id = $1`, tm).Scan(&withPIN, &waiting))
	assert.Zero(t, withPIN)
	assert.Equal(t, runs*memory.DefaultRunSuggestionLimit-1, waiting)

	// The ids it got don't leak either: every later use of them answers as a suggestion's does.
	fr := forgotten / perRun
	other := (fr + 1) % runs
	for i := range ids[fr] {
		got := [2][]string{}
		for k, r := range []int{fr, other} {
			ctx, id := ctxs[r], ids[r][i]
			_, err := f.svc.Item(ctx, id)
			got[k] = append(got[k], errShape(err))
			_, err = f.svc.Revisions(ctx, id, nil, nil)
			got[k] = append(got[k], errShape(err))
			_, err = f.svc.Tools().UpdateMemoryOf(ctx, id, 1, "My bank PIN is unknown.")
			got[k] = append(got[k], errShape(err))
			_, err = f.svc.Tools().ForgetMemoryOf(ctx, id)
			got[k] = append(got[k], errShape(err))
		}
		assert.Equal(t, got[0], got[1], "place %d", i)
		assert.Equal(t, []string{"NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND"}, got[0])
	}
}

// TestSuppressedSuggestionStaysLikeAWaitingOne: after the first answer, nothing a run does tells the
// forgotten text's suggestion from another one's: suggesting it again (in other words) merges into
// it and answers with it as first worded; the budget counts it; searches, lists and packets don't
// have it; later runs find it waiting while its run's other suggestions wait, and not once the user
// has dismissed them. The user never sees it.
func TestSuppressedSuggestionStaysLikeAWaitingOne(t *testing.T) {
	t.Parallel()
	const forgotten = 4810
	f, tm := pinSetup(t, forgotten, memory.WithRunSuggestionLimit(3))
	pins := []int{4809, forgotten, 4811}

	// remember tries each PIN in one run, in the words wording gives it, and returns the shapes.
	remember := func(ctx context.Context, runID string, wording string) ([]answerShape, []string) {
		var shapes []answerShape
		var ids []string
		for _, pin := range pins {
			res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: fmt.Sprintf(wording, pin)})
			require.NoError(t, err)
			first := ""
			if wording == pinPattern {
				first = fmt.Sprintf(pinPattern, pin)
			}
			shapes = append(shapes, shapeOf(t, runID, first, res))
			if res.Item != nil {
				ids = append(ids, res.Item.ID)
				assert.Equal(t, fmt.Sprintf(pinPattern, pin), res.Item.Content, "as first worded")
			} else {
				ids = append(ids, "")
			}
		}
		return shapes, ids
	}
	same := func(shapes []answerShape, msg string) {
		t.Helper()
		for i := range shapes {
			assert.Equal(t, shapes[0], shapes[i], "%s: PIN %d", msg, pins[i])
		}
	}

	run := f.startRun(t, tm, pinMessage)
	ctx := asRun(t, f, run.Token)
	first, ids := remember(ctx, run.Run.ID, pinPattern)
	same(first, "first")
	assert.Equal(t, memory.OutcomeSuggested, first[0].Outcome)
	again, idsAgain := remember(ctx, run.Run.ID, "my bank pin is %d")
	same(again, "again, in other words")
	assert.Equal(t, ids, idsAgain, "merged into the first")
	assert.Equal(t, 2, again[0].Item.TimesSuggested)

	// The budget (3) is spent by the three: the next suggestion is refused.
	res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "My bank PIN is 1234."})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeRefused, res.Outcome, "the suppressed suggestion counted")

	// No read a run makes has any of them.
	found, err := f.svc.Tools().SearchMemory(ctx, "bank PIN")
	require.NoError(t, err)
	assert.Empty(t, found)
	page, err := f.svc.ListItems(ctx, memory.ListFilter{Scope: memory.Scope{TeammateID: &tm}, Search: "PIN"})
	require.NoError(t, err)
	assert.Empty(t, page.Items)
	_, err = f.svc.ListItems(ctx, memory.ListFilter{Scope: memory.Scope{TeammateID: &tm}, Status: memory.StatusCandidate})
	assert.ErrorIs(t, err, memory.ErrForbidden)

	// A later run finds all three waiting: counted again, no item (another run's).
	later := f.startRun(t, tm, pinMessage)
	merged, _ := remember(asRun(t, f, later.Token), later.Run.ID, pinPattern)
	same(merged, "later run")
	assert.Equal(t, "The same suggestion is already waiting for the user; it was counted again.", merged[0].Message)
	assert.Nil(t, merged[0].Item)

	// The user sees two suggestions, never the forgotten PIN; dismissing them settles the third too.
	waiting := extractCandidates(t, f, tm)
	require.Len(t, waiting, 2)
	for _, c := range waiting {
		assert.NotContains(t, c.Content, "4810")
		_, err := f.svc.DismissCandidate(user, c.ID)
		require.NoError(t, err)
	}
	fresh := f.startRun(t, tm, pinMessage)
	after, _ := remember(asRun(t, f, fresh.Token), fresh.Run.ID, pinPattern)
	same(after, "after the user dismissed the run's suggestions")
	assert.Equal(t, memory.OutcomeSuggested, after[0].Outcome)
	assert.NotNil(t, after[0].Item, "suggested afresh")
	for _, c := range extractCandidates(t, f, tm) {
		assert.NotContains(t, c.Content, "4810")
	}

	// A run whose only suggestion was suppressed: it waits until the user next settles a
	// suggestion of the scope.
	for _, c := range extractCandidates(t, f, tm) {
		_, err := f.svc.DismissCandidate(user, c.ID)
		require.NoError(t, err)
	}
	lone := f.startRun(t, tm, pinMessage)
	res, err = f.svc.Tools().Remember(asRun(t, f, lone.Token), memory.RememberInput{Content: fmt.Sprintf(pinPattern, forgotten)})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	require.NotNil(t, res.Item, "suggested afresh: the user dismissed the earlier run's suggestions")
	check := f.startRun(t, tm, pinMessage)
	cctx := asRun(t, f, check.Token)
	res, err = f.svc.Tools().Remember(cctx, memory.RememberInput{Content: fmt.Sprintf(pinPattern, forgotten)})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome)
	assert.Nil(t, res.Item, "merged: it waits for the user")
	visible, err := f.svc.Tools().Remember(cctx, memory.RememberInput{Content: "My bank PIN is 4812."})
	require.NoError(t, err)
	require.NotNil(t, visible.Item)
	_, err = f.svc.DismissCandidate(user, visible.Item.ID)
	require.NoError(t, err)
	last := f.startRun(t, tm, pinMessage)
	res, err = f.svc.Tools().Remember(asRun(t, f, last.Token), memory.RememberInput{Content: fmt.Sprintf(pinPattern, forgotten)})
	require.NoError(t, err)
	assert.NotNil(t, res.Item, "suggested afresh: the user has settled a suggestion since")
}

// TestSuppressedSuggestionKeepsNoText (F5): what memory_suppressed keeps of a suppressed suggestion
// holds neither its text nor a plain hash of it, and all rows are the same length whatever the text.
func TestSuppressedSuggestionKeepsNoText(t *testing.T) {
	t.Parallel()
	f, tm := pinSetup(t, 4821)
	other := f.create(t, &tm, "A much longer text that the user forgot, about the garden shed and its code 7788.")
	_, err := f.svc.ForgetMemory(user, other.ID)
	require.NoError(t, err)
	ctx := asRun(t, f, f.startRun(t, tm, pinMessage).Token)
	for _, text := range []string{"My bank PIN is 4821.", other.Content} {
		res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: text})
		require.NoError(t, err)
		require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	}
	rows, err := f.pool.Query(context.Background(), `SELECT keyed_hash, sealed FROM memory_suppressed`)
	require.NoError(t, err)
	var lengths []int
	for rows.Next() {
		var hash, sealed []byte
		require.NoError(t, rows.Scan(&hash, &sealed))
		for _, needle := range []string{"4821", "7788", "bank", "shed"} {
			assert.NotContains(t, string(sealed), needle)
		}
		assert.NotEqual(t, memory.ContentHash("My bank PIN is 4821."), hash)
		lengths = append(lengths, len(sealed))
	}
	require.NoError(t, rows.Err())
	require.Len(t, lengths, 2)
	assert.Equal(t, lengths[0], lengths[1], "the length says nothing of the text")
	assert.Empty(t, bruteForcePIN(t, f, pinPattern), "nor do the tombstones")
}

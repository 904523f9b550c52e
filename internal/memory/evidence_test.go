package memory_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// Evidence is a conversation (S4).

const divorce = "My divorce lawyer is Saul Goodman and the hearing is on the 12th."

// sharedFromB is a shared item that teammate B's run suggested from divorce and the user confirmed,
// with a second shared suggestion of B's still waiting; it returns A, B, B's run, the item and the
// waiting suggestion.
func sharedFromB(t *testing.T, f fixture) (a, b, runB string, item, waiting memory.Item) {
	t.Helper()
	a, b = f.teammate(t, "Ada"), f.teammate(t, "Bea")
	run := f.startRun(t, b, divorce+" Ugh, what a week.")
	ctxB := asRun(t, f, run.Token)
	res, err := f.svc.Tools().Remember(ctxB, memory.RememberInput{Content: "Divorce lawyer is Saul Goodman", Key: ptr("lawyer"), ForEveryone: true})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	require.NotNil(t, res.Item.Evidence)
	require.Contains(t, *res.Item.Evidence, "Saul Goodman")
	first := res.Item.ID
	res, err = f.svc.Tools().Remember(ctxB, memory.RememberInput{Content: "Divorce hearing is on the 12th", ForEveryone: true})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	item, err = f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: first})
	require.NoError(t, err)
	return a, b, run.Run.ID, item, *res.Item
}

// leaks names what item tells of B's conversation (runB).
func leaks(item memory.Item, runB string) []string {
	var out []string
	if item.Evidence != nil {
		out = append(out, "evidence")
	}
	if item.WaitWords != nil {
		out = append(out, "wait words")
	}
	if item.SourceRunID != nil && *item.SourceRunID == runB {
		out = append(out, "B's run")
	}
	return out
}

// TestRunReadsEvidenceOfItsOwnTeammateOnly: once the user confirms B's shared suggestion, a run of A
// reads the item but not B's sentence, nor B's run, through any read path — memoryItem, memoryItems,
// toolSearchMemory, recallPreview, memoryContext — and its history names no other teammate. B's runs
// and the user still see all of it.
func TestRunReadsEvidenceOfItsOwnTeammateOnly(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b, runB, item, _ := sharedFromB(t, f)

	runA := f.startRun(t, a, "Who is my lawyer again, Saul Goodman?")
	ctxA := asRun(t, f, runA.Token)
	require.NotEmpty(t, runA.Packet.Entries, "the item reaches A's packet")

	got, err := f.svc.Item(ctxA, item.ID)
	require.NoError(t, err)
	assert.Equal(t, item.Content, got.Content, "the item itself is A's to read (S1)")
	assert.Empty(t, leaks(got, runB), "memoryItem")

	page, err := f.svc.ListItems(ctxA, memory.ListFilter{Scope: memory.Scope{}})
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	assert.Empty(t, leaks(page.Items[0], runB), "memoryItems")

	found, err := f.svc.Tools().SearchMemory(ctxA, "lawyer")
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Empty(t, leaks(found[0], runB), "toolSearchMemory")

	preview, err := f.svc.RecallPreview(ctxA, a, "lawyer Saul Goodman")
	require.NoError(t, err)
	require.Len(t, preview.Entries, 1)
	assert.Empty(t, leaks(*preview.Entries[0].Item, runB), "recallPreview")
	assert.NotContains(t, preview.Text, "hearing")

	given, err := f.svc.MemoryContext(ctxA, runA.Run.ID)
	require.NoError(t, err)
	require.Len(t, given, 1)
	assert.Empty(t, leaks(given[0].Item, runB), "memoryContext")

	revs, err := f.svc.Revisions(ctxA, item.ID, nil, nil)
	require.NoError(t, err)
	require.Len(t, revs.Revisions, 2, "create, confirm")
	for _, r := range revs.Revisions {
		assert.NotContains(t, r.Actor, b, "revision %d names B", r.Revision)
		assert.Nil(t, r.RunID, "revision %d names B's run", r.Revision)
	}
	assert.Equal(t, memory.ActorAnotherTeammate, revs.Revisions[1].Actor, "B's create is a teammate's")
	assert.Equal(t, memory.ActorUser, revs.Revisions[0].Actor, "the user's confirm stays the user's")

	// A's own change of another shared item of B's: the answer is the item, without B's sentence.
	ctxB0 := asRun(t, f, f.startRun(t, b, "I'm vegetarian these days, by the way.").Token)
	res, err := f.svc.Tools().Remember(ctxB0, memory.RememberInput{Content: "vegetarian", Key: ptr("diet"),
		Kind: memory.KindPreference, ForEveryone: true})
	require.NoError(t, err)
	require.NotNil(t, res.Item.Evidence)
	diet, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: res.Item.ID})
	require.NoError(t, err)
	runA2 := f.startRun(t, a, "For all teammates, update my diet to pescatarian.")
	res, err = f.svc.Tools().UpdateMemoryOf(asRun(t, f, runA2.Token), diet.ID, diet.Revision, "pescatarian")
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSaved, res.Outcome, "%s %s", res.Reason, res.Message)
	require.Equal(t, diet.ID, res.Item.ID)
	assert.Empty(t, leaks(*res.Item, ""), "toolUpdateMemory's answer")
	assert.Nil(t, res.Item.SourceRunID)

	// B's run, the user and the worker read it all.
	ctxB := asRun(t, f, f.startRun(t, b, "Hello again.").Token)
	for name, ctx := range map[string]context.Context{"B's run": ctxB, "user": user, "worker": worker} {
		got, err := f.svc.Item(ctx, item.ID)
		require.NoError(t, err, name)
		if assert.NotNil(t, got.Evidence, name) {
			assert.Contains(t, *got.Evidence, "Saul Goodman", name)
		}
		revs, err := f.svc.Revisions(ctx, item.ID, nil, nil)
		require.NoError(t, err, name)
		assert.Equal(t, "teammate:"+b, revs.Revisions[len(revs.Revisions)-1].Actor, name)
		assert.NotNil(t, revs.Revisions[len(revs.Revisions)-1].RunID, name)
	}
}

// TestEvidenceIsErasedWithItsTeammate: deleting teammate B erases the evidence (and wait words)
// that came from B's conversations from every item, shared ones included — confirmed or waiting —
// so no one, the user included, reads B's sentence again, and the database holds none of it.
func TestEvidenceIsErasedWithItsTeammate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, b, _, item, waiting := sharedFromB(t, f)
	require.NotNil(t, waiting.Evidence)

	_, err := f.svc.DeleteTeammate(user, b)
	require.NoError(t, err)

	for _, id := range []string{item.ID, waiting.ID} {
		got, err := f.svc.Item(user, id)
		require.NoError(t, err)
		assert.Nil(t, got.Evidence, "evidence of B's conversation outlived B")
		assert.Nil(t, got.WaitWords)
		assert.NotEqual(t, memory.StatusForgotten, got.Status, "the shared item itself stays")
	}
	var left int
	require.NoError(t, f.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM memory_items WHERE evidence ILIKE '%Saul%' OR evidence ILIKE '%hearing%'
		    OR wait_words ILIKE '%Saul%' OR wait_words ILIKE '%hearing%'`).Scan(&left))
	assert.Zero(t, left)
	assert.False(t, strings.Contains(item.Content, "hearing"))
}

package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// TestUndoConfirmNewSuggestion: undoing the confirmation of a suggested new memory puts it back
// among the suggestions with the text it was suggested with, changes the generation (it leaves
// active memory, G1), announces it as arriving (A6) and records an undo revision by the user.
func TestUndoConfirmNewSuggestion(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Undoer")
	ctx := asRun(t, f, f.startRun(t, tm, "I drink my coffee black.").Token)
	res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "drinks coffee black"})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	confirmed, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: res.Item.ID, Content: ptr("Drinks coffee black, no sugar")})
	require.NoError(t, err)
	genConfirmed := f.generation(t, tm)
	listen := listenEvents(t, f.pool)

	back, err := f.svc.UndoConfirmCandidate(user, memory.Confirmation{ID: confirmed.ID, Revision: confirmed.Revision})
	require.NoError(t, err)
	assert.Equal(t, memory.StatusCandidate, back.Status)
	assert.Equal(t, "drinks coffee black", back.Content, "as it was suggested, before the user's edit")
	assert.Equal(t, confirmed.Revision+1, back.Revision)
	assert.NotEqual(t, genConfirmed, f.generation(t, tm), "G1: it left active memory")
	e := listen.next(t)
	assert.True(t, e.Candidate, "A6: it arrives among the suggestions again")
	assert.True(t, e.Generation)

	page, err := f.svc.Revisions(user, back.ID, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, memory.ActionUndo, page.Revisions[0].Action)
	assert.Equal(t, memory.ActorUser, page.Revisions[0].Actor)
	waiting := extractCandidates(t, f, tm)
	require.Len(t, waiting, 1)
	assert.Equal(t, back.ID, waiting[0].ID)

	// Twice is refused: it is a suggestion again, not a confirmation.
	_, err = f.svc.UndoConfirmCandidate(user, memory.Confirmation{ID: confirmed.ID, Revision: back.Revision})
	var bad *memory.ValidationError
	require.ErrorAs(t, err, &bad)
	// It can be confirmed again.
	again, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: back.ID})
	require.NoError(t, err)
	assert.Equal(t, memory.StatusActive, again.Status)
}

// TestUndoConfirmRefusedAfterALaterEdit: once the item changed since the confirmation, the undo is
// a CONFLICT naming the current revision, and nothing is written. A memory the user created is no
// confirmation at all.
func TestUndoConfirmRefusedAfterALaterEdit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Editor")
	ctx := asRun(t, f, f.startRun(t, tm, "I like tea.").Token)
	res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "likes tea"})
	require.NoError(t, err)
	confirmed, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: res.Item.ID})
	require.NoError(t, err)
	edited, err := f.svc.EditMemory(user, memory.EditInput{ID: confirmed.ID, BaseRevision: confirmed.Revision, Content: ptr("likes green tea")})
	require.NoError(t, err)
	items, revisions, gens := f.counts(t)

	_, err = f.svc.UndoConfirmCandidate(user, memory.Confirmation{ID: confirmed.ID, Revision: confirmed.Revision})
	var conflict *memory.ConflictError
	require.ErrorAs(t, err, &conflict)
	assert.Equal(t, edited.Revision, conflict.Current)
	_, err = f.svc.UndoConfirmCandidate(user, memory.Confirmation{ID: confirmed.ID, Revision: edited.Revision})
	var bad *memory.ValidationError
	require.ErrorAs(t, err, &bad, "the latest revision is an edit, not a confirmation")

	own := f.create(t, &tm, "Owns a bike")
	_, err = f.svc.UndoConfirmCandidate(user, memory.Confirmation{ID: own.ID, Revision: own.Revision})
	require.ErrorAs(t, err, &bad, "a memory the user created was never confirmed")
	i2, r2, g2 := f.counts(t)
	assert.Equal(t, []any{items + 1, revisions + 1, gens + 1}, []any{i2, r2, g2}, "only the create wrote anything")

	_, err = f.svc.UndoConfirmCandidate(worker, memory.Confirmation{ID: confirmed.ID, Revision: edited.Revision})
	require.Error(t, err, "user only")
}

// TestUndoConfirmProposalAndForget: undoing a confirmed proposal gives its item back the text it
// had, as a new undo revision, and the proposal waits again — confirming it again applies it. A
// confirmed proposal to forget can't be undone (F1).
func TestUndoConfirmProposalAndForget(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Proposer")
	item := f.create(t, &tm, "Lives in Lyon")
	ctx := asRun(t, f, f.startRun(t, tm, "Paris is lovely in spring.").Token)
	res, err := f.svc.Tools().UpdateMemoryOf(ctx, item.ID, item.Revision, "Lives in Paris")
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	proposal := *res.Item
	applied, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: proposal.ID})
	require.NoError(t, err)
	require.Equal(t, "Lives in Paris", applied.Content)
	gen := f.generation(t, tm)

	// The item's revision, not the proposal's, names the confirmation.
	back, err := f.svc.UndoConfirmCandidate(user, memory.Confirmation{ID: proposal.ID, Revision: applied.Revision})
	require.NoError(t, err)
	assert.Equal(t, memory.StatusCandidate, back.Status)
	assert.Equal(t, "Lives in Paris", back.Content)
	assert.NotEqual(t, gen, f.generation(t, tm), "G1: the item changed")
	page, err := f.svc.Revisions(user, item.ID, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "Lives in Lyon", page.Revisions[0].Content)
	assert.Equal(t, memory.ActionUndo, page.Revisions[0].Action)
	assert.Equal(t, memory.ActorUser, page.Revisions[0].Actor)
	assert.Equal(t, page.Revisions[0].Revision, *back.TargetRevision, "the proposal is based on the restored revision")

	again, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: proposal.ID})
	require.NoError(t, err, "R2 passes: the item holds the text the proposal was made against")
	assert.Equal(t, "Lives in Paris", again.Content)

	// A proposal to forget: confirmed, its item and it are gone for good.
	doomed := f.create(t, &tm, "Has a cat")
	ctx = asRun(t, f, f.startRun(t, tm, "Cats are nice.").Token)
	fres, err := f.svc.Tools().ForgetMemory(ctx, memory.ToolForgetInput{ID: doomed.ID})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, fres.Outcome)
	require.True(t, fres.Item.ProposesForget)
	forgotten, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: fres.Item.ID})
	require.NoError(t, err)
	_, err = f.svc.UndoConfirmCandidate(user, memory.Confirmation{ID: fres.Item.ID, Revision: forgotten.Revision})
	require.ErrorIs(t, err, memory.ErrNotFound, "forgetting can't be undone")
}

// TestUndoConfirmAllOrNone: a Confirm all is undone in one transaction; when one of the batch
// changed since, nothing is undone.
func TestUndoConfirmAllOrNone(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Batcher")
	ctx := asRun(t, f, f.startRun(t, tm, "Some things about me.").Token)
	for _, c := range []string{"likes jazz", "plays chess", "reads poetry"} {
		res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: c})
		require.NoError(t, err)
		require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	}
	scope := memory.Scope{TeammateID: &tm}
	confirmed, err := f.svc.ConfirmCandidates(user, scope, nil)
	require.NoError(t, err)
	require.Len(t, confirmed, 3)
	refs := make([]memory.Confirmation, len(confirmed))
	for i, it := range confirmed {
		refs[i] = memory.Confirmation{ID: it.ID, Revision: it.Revision}
	}

	_, err = f.svc.EditMemory(user, memory.EditInput{ID: confirmed[2].ID, BaseRevision: confirmed[2].Revision, Pinned: ptr(true)})
	require.NoError(t, err)
	items, revisions, gens := f.counts(t)
	_, err = f.svc.UndoConfirmCandidates(user, refs)
	var conflict *memory.ConflictError
	require.ErrorAs(t, err, &conflict)
	assert.Equal(t, confirmed[2].ID, conflict.ItemID)
	i2, r2, g2 := f.counts(t)
	assert.Equal(t, []any{items, revisions, gens}, []any{i2, r2, g2}, "none was undone")
	assert.Empty(t, extractCandidates(t, f, tm))

	back, err := f.svc.UndoConfirmCandidates(user, refs[:2])
	require.NoError(t, err)
	require.Len(t, back, 2)
	assert.Len(t, extractCandidates(t, f, tm), 2)
	for i, it := range back {
		assert.Equal(t, refs[i].ID, it.ID)
		assert.Equal(t, memory.StatusCandidate, it.Status)
	}
}

package memory_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// provenance loads one item's provenance the way a list loads many.
func provenance(t *testing.T, f fixture, ctx context.Context, id string) (memory.Provenance, error) {
	t.Helper()
	ps, errs := f.svc.ProvenancesByID(ctx, []string{id})
	require.Len(t, ps, 1)
	return ps[0], errs[0]
}

// A teammate's save says who saved it, from which of the user's words and when; the user's own item
// says it is the user's; a confirmed suggestion says it was confirmed. The run's changes list all of
// it, and a forgotten item's words come back through neither.
func TestProvenanceOfSavesSuggestionsAndForgets(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ada := f.teammate(t, "Ada")
	run := f.startRun(t, ada, "Hi! Please remember that my locker code is 3310.")
	ctx := asRun(t, f, run.Token)
	saved, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "my locker code is 3310"})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSaved, saved.Outcome)
	suggested, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "Has a gym locker"})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, suggested.Outcome)
	own, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &ada}, Content: "Prefers mornings"})
	require.NoError(t, err)

	ps, errs := f.svc.ProvenancesByID(user, []string{saved.Item.ID, suggested.Item.ID, own.ID})
	for _, err := range errs {
		require.NoError(t, err)
	}
	p := ps[0]
	assert.Equal(t, memory.ProvenanceSavedByTeammate, p.Kind)
	require.NotNil(t, p.TeammateID)
	assert.Equal(t, ada, *p.TeammateID)
	require.NotNil(t, p.RunID)
	assert.Equal(t, run.Run.ID, *p.RunID)
	require.NotNil(t, p.Quote)
	assert.Equal(t, "Please remember that my locker code is 3310", *p.Quote, "the sentence that asked")
	assert.Nil(t, p.ConfirmedAt)
	assert.Equal(t, memory.ProvenanceSuggestedByTeammate, ps[1].Kind)
	assert.Equal(t, memory.ProvenanceAddedByYou, ps[2].Kind)
	assert.Nil(t, ps[2].TeammateID)
	assert.Nil(t, ps[2].Quote)

	_, err = f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: suggested.Item.ID})
	require.NoError(t, err)
	p, err = provenance(t, f, user, suggested.Item.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.ProvenanceConfirmedSuggestion, p.Kind)
	assert.NotNil(t, p.ConfirmedAt)
	require.NotNil(t, p.TeammateID)
	assert.Equal(t, ada, *p.TeammateID)

	changes, errs := f.svc.RunChangesByID(user, []string{run.Run.ID})
	require.NoError(t, errs[0])
	require.Len(t, changes[0], 2)
	assert.Equal(t, memory.RunChangeSaved, changes[0][0].Kind)
	assert.Equal(t, saved.Item.ID, changes[0][0].ItemID)
	require.NotNil(t, changes[0][0].Label)
	assert.Equal(t, "my locker code is 3310", *changes[0][0].Label)
	assert.Equal(t, memory.RunChangeSuggested, changes[0][1].Kind, "confirmed since, it was the run's suggestion")
	assert.False(t, changes[0][1].Waiting)

	// Forgotten: its words are gone from the provenance and from the run's changes (F1).
	_, err = f.svc.ForgetMemory(user, saved.Item.ID)
	require.NoError(t, err)
	p, err = provenance(t, f, user, saved.Item.ID)
	require.NoError(t, err)
	assert.Nil(t, p.Quote, "a forgotten item's quote is erased with it")
	assert.Equal(t, memory.ProvenanceSavedByTeammate, p.Kind, "who saved it is not its words")
	changes, errs = f.svc.RunChangesByID(user, []string{run.Run.ID})
	require.NoError(t, errs[0])
	require.Len(t, changes[0], 2)
	assert.Nil(t, changes[0][0].Label, "a forgotten item has no label")
	for _, c := range changes[0] {
		if c.Label != nil {
			assert.NotContains(t, *c.Label, "3310")
		}
	}
}

// A shared item saved from teammate B's conversation: a run of A learns neither B, nor B's run, nor
// B's sentence through the provenance (S4); B's own runs and the user do. A run reads no provenance of
// another teammate's item, and no run's changes at all.
func TestProvenanceWithheldFromOtherTeammates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b, runB, item, waiting := sharedFromB(t, f)

	p, err := provenance(t, f, user, item.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.ProvenanceConfirmedSuggestion, p.Kind)
	require.NotNil(t, p.TeammateID)
	assert.Equal(t, b, *p.TeammateID)
	require.NotNil(t, p.Quote)
	assert.Contains(t, *p.Quote, "Saul Goodman")

	runA := f.startRun(t, a, "Who is my lawyer again?")
	ctxA := asRun(t, f, runA.Token)
	p, err = provenance(t, f, ctxA, item.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.ProvenanceConfirmedSuggestion, p.Kind)
	assert.Nil(t, p.TeammateID, "B is not named to A's run")
	assert.Nil(t, p.RunID, "B's run is not named to A's run")
	assert.Nil(t, p.Quote, "B's conversation is not quoted to A's run")

	ctxB := asRun(t, f, f.startRun(t, b, "Who is my lawyer again?").Token)
	p, err = provenance(t, f, ctxB, item.ID)
	require.NoError(t, err)
	require.NotNil(t, p.TeammateID)
	assert.Equal(t, b, *p.TeammateID)
	require.NotNil(t, p.RunID)
	assert.Equal(t, runB, *p.RunID)
	require.NotNil(t, p.Quote, "B's own conversation")

	// A suggestion is the user's: NOT_FOUND to a run, like memoryItem.
	_, err = provenance(t, f, ctxB, waiting.ID)
	require.ErrorIs(t, err, memory.ErrNotFound)

	// B's own item: FORBIDDEN to A's run (S1).
	own, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &b}, Content: "Bea's private note"})
	require.NoError(t, err)
	_, err = provenance(t, f, ctxA, own.ID)
	require.ErrorIs(t, err, memory.ErrForbidden)

	// What a run did to memory is the user's to read.
	for name, ctx := range map[string]context.Context{"worker": worker, "run": ctxA} {
		_, errs := f.svc.RunChangesByID(ctx, []string{runB})
		require.ErrorIs(t, errs[0], memory.ErrForbidden, name)
	}
}

// When a teammate is deleted, its conversation's words leave the provenance of the shared items it
// saved, with the teammate's name and run.
func TestProvenanceAfterTeammateDeleted(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, b, _, item, _ := sharedFromB(t, f)
	_, err := f.svc.DeleteTeammate(user, b)
	require.NoError(t, err)
	p, err := provenance(t, f, user, item.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.ProvenanceConfirmedSuggestion, p.Kind)
	assert.Nil(t, p.TeammateID)
	assert.Nil(t, p.RunID)
	assert.Nil(t, p.Quote)
}

// A teammate's forget is in its run's changes as a count, without the item's words (F1).
func TestRunChangesOfAForget(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Forgetful")
	gone, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Key: ptr("locker"), Content: "Locker code 3310"})
	require.NoError(t, err)
	run := f.startRun(t, tm, "Please forget my locker.")
	res, err := f.svc.Tools().ForgetMemoryOf(asRun(t, f, run.Token), gone.ID)
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeForgotten, res.Outcome)

	changes, errs := f.svc.RunChangesByID(user, []string{run.Run.ID})
	require.NoError(t, errs[0])
	require.Len(t, changes[0], 1)
	assert.Equal(t, memory.RunChangeForgot, changes[0][0].Kind)
	assert.Equal(t, gone.ID, changes[0][0].ItemID)
	assert.Nil(t, changes[0][0].Label)
	p, err := provenance(t, f, user, gone.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.ProvenanceAddedByYou, p.Kind, "the user wrote it; the teammate only forgot it")
	assert.Nil(t, p.Quote)
}

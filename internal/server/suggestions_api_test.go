package server_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const suggestionFields = itemFields + ` evidence sourceRunId timesSuggested resolution`

type suggestion struct {
	item
	Evidence       *string
	SourceRunID    *string
	TimesSuggested int
	Resolution     *string
}

func (w world) suggestions(teammateID *string) []suggestion {
	var out struct{ Candidates []suggestion }
	w.api.Must(w.t, user, `query($s: ScopeInput!) { candidates(scope: $s) { `+suggestionFields+` } }`,
		map[string]any{"s": map[string]any{"teammateId": teammateID}}, &out)
	return out.Candidates
}

// A teammate's suggestion carries its source: the run that made it and the sentence of the user's
// message it most likely came from.
func TestSuggestionCarriesItsSource(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Gus")
	run := w.startRun(tm, "", "Can you book a table for Friday? I moved to Lyon last spring, so somewhere near Part-Dieu.")
	got := w.remember(run.RunToken, "Lives in Lyon", false)
	require.Equal(t, "SUGGESTED", got.Outcome)
	s := w.suggestions(&tm)
	require.Len(t, s, 1)
	require.NotNil(t, s[0].Evidence)
	assert.Equal(t, "I moved to Lyon last spring, so somewhere near Part-Dieu", *s[0].Evidence)
	require.NotNil(t, s[0].SourceRunID)
	assert.Equal(t, run.Run.ID, *s[0].SourceRunID)
}

// A run's suggestions are bounded, and identical waiting ones merge — also when they arrive at once.
func TestSuggestionBudgetAndMerge(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Hal")

	// 20 concurrent identical suggestions from one run: one card that counts 20.
	run := w.startRun(tm, "", "I had a long week.")
	var wg sync.WaitGroup
	outcomes := make([]string, 20)
	for i := range outcomes {
		wg.Go(func() { outcomes[i] = w.remember(run.RunToken, "Works long weeks", false).Outcome })
	}
	wg.Wait()
	for _, o := range outcomes {
		assert.Equal(t, "SUGGESTED", o)
	}
	s := w.suggestions(&tm)
	require.Len(t, s, 1, "identical waiting suggestions are one")
	assert.Equal(t, 20, s[0].TimesSuggested)

	// The budget counts distinct suggestions: 19 more fit, the next is refused and changes nothing.
	for i := range 19 {
		require.Equal(t, "SUGGESTED", w.remember(run.RunToken, fmt.Sprintf("Fact number %d", i), false).Outcome)
	}
	refused := w.remember(run.RunToken, "One fact too many", false)
	assert.Equal(t, "REFUSED", refused.Outcome)
	assert.Nil(t, refused.Item)
	assert.Contains(t, refused.Message, "20 suggestions")
	assert.Len(t, w.suggestions(&tm), 20)
	// A confirmed save isn't a suggestion: the budget doesn't stop what the user asked for.
	asked := w.startRun(tm, "", "Please remember that I work long weeks in spring.")
	assert.Equal(t, "SAVED", w.remember(asked.RunToken, "I work long weeks in spring", false).Outcome)
}

// Proposals settle themselves when their item comes to hold their text; settling, dismissing, undoing
// a dismissal and confirming are in the suggestion's history, and a confirmed proposal stays, marked
// CONFIRMED.
func TestProposalsSettleAndLeaveHistory(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Ivy")
	fact := w.createMemory(&tm, "Works at Acme")
	applied, dismissed := propose(t, w, tm, fact.ID, 1, "Works at Globex"), propose(t, w, tm, fact.ID, 1, "Works at Initech")

	// The user edits the item to the proposed text on their own: the proposal settles as APPLIED.
	w.api.Must(t, user, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 1, content: "works at GLOBEX"}) { item { revision } } }`,
		map[string]any{"id": fact.ID}, &struct{}{})
	left := w.suggestions(&tm)
	require.Len(t, left, 1)
	assert.Equal(t, dismissed, left[0].ID)
	history := func(id string) []string {
		var h struct {
			MemoryItem struct {
				Resolution *string
				Revisions  struct {
					Edges []struct {
						Node struct{ Action, Actor string }
					}
				}
			}
		}
		w.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { resolution revisions { edges { node { action actor } } } } }`,
			map[string]any{"id": id}, &h)
		var out []string
		if h.MemoryItem.Resolution != nil {
			out = append(out, *h.MemoryItem.Resolution)
		}
		for _, e := range h.MemoryItem.Revisions.Edges {
			out = append(out, e.Node.Action+" by "+e.Node.Actor)
		}
		return out
	}
	assert.Equal(t, []string{"APPLIED", "RESOLVE by user", "CREATE by teammate:" + tm}, history(applied))

	w.api.Must(t, user, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": dismissed}, &struct{}{})
	assert.Equal(t, []string{"DISMISSED", "DISMISS by user", "CREATE by teammate:" + tm}, history(dismissed))
	// Undo brings it back, in its history too; dismissed again, it says so again.
	w.api.Must(t, user, `mutation($id: ID!) { undoDismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": dismissed}, &struct{}{})
	assert.Equal(t, []string{"UNDO by user", "DISMISS by user", "CREATE by teammate:" + tm}, history(dismissed))
	require.Len(t, w.suggestions(&tm), 1)
	w.api.Must(t, user, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": dismissed}, &struct{}{})
	assert.Equal(t, []string{"DISMISSED", "DISMISS by user", "UNDO by user", "DISMISS by user", "CREATE by teammate:" + tm}, history(dismissed))

	confirmed := propose(t, w, tm, fact.ID, 2, "Works at Hooli")
	w.api.Must(t, user, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": confirmed}, &struct{}{})
	assert.Equal(t, []string{"CONFIRMED", "CONFIRM by user", "CREATE by teammate:" + tm}, history(confirmed))
	assert.Equal(t, "Works at Hooli", w.item(fact.ID).Content)

	// Confirming a proposal whose text the item already holds settles it without a new revision.
	same := propose(t, w, tm, fact.ID, 3, "Works at Hooli and likes it")
	w.api.Must(t, user, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 3, content: "Works at Hooli and likes it"}) { item { revision } } }`,
		map[string]any{"id": fact.ID}, &struct{}{})
	assert.Empty(t, w.suggestions(&tm), "settled the moment the item held its text")
	assert.Equal(t, []string{"APPLIED", "RESOLVE by user", "CREATE by teammate:" + tm}, history(same))
	assert.Equal(t, 4, w.item(fact.ID).Revision)

	// A proposal of the text the item holds, but for case and punctuation, is applied already: none waits.
	run := w.startRun(tm, "", "What do you know about my job?")
	var out struct{ ToolUpdateMemory toolResult }
	w.api.Must(t, run.RunToken, `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 4, content: "works at HOOLI, and likes it!"}) { outcome item { id } } }`,
		map[string]any{"id": fact.ID}, &out)
	assert.Equal(t, "UNCHANGED", out.ToolUpdateMemory.Outcome)
	assert.Nil(t, out.ToolUpdateMemory.Item)
	assert.Empty(t, w.suggestions(&tm))
}

// propose has a run of tm propose content for item id, based on revision base (A4).
func propose(t *testing.T, w world, tm, id string, base int, content string) string {
	run := w.startRun(tm, "", "What do you know about my job?")
	var out struct{ ToolUpdateMemory toolResult }
	w.api.Must(t, run.RunToken, `mutation($id: ID!, $b: Int!, $c: String!) { toolUpdateMemory(input: {id: $id, baseRevision: $b, content: $c}) { outcome item { id } } }`,
		map[string]any{"id": id, "b": base, "c": content}, &out)
	require.Equal(t, "SUGGESTED", out.ToolUpdateMemory.Outcome)
	return out.ToolUpdateMemory.Item.ID
}

// The Undo after Confirm as the web app sends it: the proposal waits again and its item gets back
// its text, with UNDO revisions by the user; an undo after a later edit is a CONFLICT naming the
// current revision; a Confirm all is undone as a whole or not at all.
func TestUndoConfirmOverTheAPI(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Uma")
	fact := w.createMemory(&tm, "Works at Acme")
	proposal := propose(t, w, tm, fact.ID, 1, "Works at Globex")
	var confirmed struct{ ConfirmCandidate struct{ Item item } }
	w.api.Must(t, user, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { `+itemFields+` } } }`,
		map[string]any{"id": proposal}, &confirmed)
	require.Equal(t, "Works at Globex", confirmed.ConfirmCandidate.Item.Content)
	lastAction := func(id string) *string {
		var out struct{ MemoryItem struct{ LastAction *string } }
		w.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { lastAction } }`, map[string]any{"id": id}, &out)
		return out.MemoryItem.LastAction
	}
	assert.Equal(t, "CONFIRM", *lastAction(fact.ID), "the card says Confirmed")

	var undone struct{ UndoConfirmCandidate struct{ Item item } }
	w.api.Must(t, user, `mutation($id: ID!, $r: Int!) { undoConfirmCandidate(input: {id: $id, revision: $r}) { item { `+itemFields+` } } }`,
		map[string]any{"id": proposal, "r": confirmed.ConfirmCandidate.Item.Revision}, &undone)
	assert.Equal(t, "CANDIDATE", undone.UndoConfirmCandidate.Item.Status)
	assert.Equal(t, proposal, undone.UndoConfirmCandidate.Item.ID)
	back := w.item(fact.ID)
	assert.Equal(t, "Works at Acme", back.Content)
	assert.Equal(t, 3, back.Revision, "the undo is a new revision")
	assert.Equal(t, back.Revision, *undone.UndoConfirmCandidate.Item.TargetRevision)
	assert.Equal(t, "UNDO", *lastAction(fact.ID))
	require.Len(t, w.suggestions(&tm), 1)

	// Confirmed again, then edited: the undo is refused with the current revision.
	w.api.Must(t, user, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { `+itemFields+` } } }`,
		map[string]any{"id": proposal}, &confirmed)
	w.api.Must(t, user, `mutation($id: ID!, $b: Int!) { editMemory(input: {id: $id, baseRevision: $b, content: "Works at Initech"}) { item { id } } }`,
		map[string]any{"id": fact.ID, "b": confirmed.ConfirmCandidate.Item.Revision}, &struct{}{})
	res := w.api.Do(t, user, `mutation($id: ID!, $r: Int!) { undoConfirmCandidate(input: {id: $id, revision: $r}) { item { id } } }`,
		map[string]any{"id": proposal, "r": confirmed.ConfirmCandidate.Item.Revision})
	assert.Equal(t, "CONFLICT", res.Code())
	assert.Equal(t, "Works at Initech", w.item(fact.ID).Content)

	// Confirm all, and its Undo: all or none.
	run := w.startRun(tm, "", "Hello.")
	w.remember(run.RunToken, "Plays darts", false)
	w.remember(run.RunToken, "Sings in a choir", false)
	var all struct{ ConfirmCandidates struct{ Items []item } }
	w.api.Must(t, user, `mutation($s: ScopeInput!) { confirmCandidates(input: {scope: $s}) { items { `+itemFields+` } } }`,
		map[string]any{"s": map[string]any{"teammateId": tm}}, &all)
	require.Len(t, all.ConfirmCandidates.Items, 2)
	refs := []map[string]any{}
	for _, it := range all.ConfirmCandidates.Items {
		refs = append(refs, map[string]any{"id": it.ID, "revision": it.Revision})
	}
	const undoAll = `mutation($items: [UndoConfirmCandidateInput!]!) { undoConfirmCandidates(input: {items: $items}) { items { id status } } }`
	bad := append(slices.Clone(refs), map[string]any{"id": fact.ID, "revision": 5})
	assert.Equal(t, "BAD_USER_INPUT", w.api.Do(t, user, undoAll, map[string]any{"items": bad}).Code(), "a memory the user wrote was never confirmed")
	assert.Empty(t, w.suggestions(&tm), "none was undone")
	var out struct {
		UndoConfirmCandidates struct{ Items []struct{ ID, Status string } }
	}
	w.api.Must(t, user, undoAll, map[string]any{"items": refs}, &out)
	require.Len(t, out.UndoConfirmCandidates.Items, 2)
	for _, it := range out.UndoConfirmCandidates.Items {
		assert.Equal(t, "CANDIDATE", it.Status)
	}
	assert.Len(t, w.suggestions(&tm), 2)
}

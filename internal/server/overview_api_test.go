package server_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The teammate list's counts and last activity: memories, suggestions waiting and the last
// conversation of every teammate, read for the whole list at once; user only.
func TestTeammateActivity(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	quiet := w.teammate("Quiet")
	busy := w.teammate("Busy")
	w.createMemory(&busy, "Likes green tea")
	w.createMemory(&busy, "Works from Lisbon")
	w.createMemory(nil, "Shared, not counted for anyone") // shared memory is nobody's own
	run := w.startRun(busy, "", "My cat is called Tom.")
	require.Equal(t, "SUGGESTED", w.remember(run.RunToken, "Has a cat called Tom", false).Outcome)

	type activity struct {
		Memories           int
		Suggestions        int
		LastConversationAt *time.Time
		LastActivityAt     time.Time
	}
	var out struct {
		Teammates []struct {
			ID        string
			CreatedAt time.Time
			Activity  activity
		}
	}
	w.api.Must(t, user, `{ teammates { id createdAt activity { memories suggestions lastConversationAt lastActivityAt } } }`, nil, &out)
	got := map[string]activity{}
	for _, tm := range out.Teammates {
		got[tm.ID] = tm.Activity
		assert.False(t, tm.Activity.LastActivityAt.Before(tm.CreatedAt), "last activity is never before the teammate was added")
	}
	require.Contains(t, got, quiet)
	require.Contains(t, got, busy)
	assert.Equal(t, 0, got[quiet].Memories)
	assert.Equal(t, 0, got[quiet].Suggestions)
	assert.Nil(t, got[quiet].LastConversationAt)
	assert.Equal(t, 2, got[busy].Memories)
	assert.Equal(t, 1, got[busy].Suggestions)
	require.NotNil(t, got[busy].LastConversationAt)
	assert.True(t, got[busy].LastActivityAt.After(got[quiet].LastActivityAt), "the teammate that talked and learned is the more recently active")

	res := w.api.Do(t, worker, `{ teammates { id activity { memories } } }`, nil)
	assert.Equal(t, "FORBIDDEN", res.Code(), "counts are the user's")
}

// searchMemory finds active memory of every scope at once, shared first, and nothing forgotten or
// waiting as a suggestion; user only.
func TestSearchMemoryAcrossScopes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ada := w.teammate("Ada")
	ben := w.teammate("Ben")
	a := w.createMemory(&ada, "Books flights with the window seat")
	b := w.createMemory(&ben, "Prefers aisle seats on trains")
	s := w.createMemory(nil, "Seat belt always fastened")
	gone := w.createMemory(&ben, "Seat number 12 in the office")
	w.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": gone.ID}, &struct{}{})
	w.createMemory(&ada, "Drinks coffee")

	var out struct {
		SearchMemory []struct {
			ID       string
			Scope    string
			Teammate *struct{ Name string }
		}
	}
	w.api.Must(t, user, `{ searchMemory(search: "seat") { id scope teammate { name } } }`, nil, &out)
	var ids []string
	for _, i := range out.SearchMemory {
		ids = append(ids, i.ID)
	}
	require.ElementsMatch(t, []string{a.ID, b.ID, s.ID}, ids)
	assert.Equal(t, s.ID, ids[0], "shared memory comes first")
	for _, i := range out.SearchMemory[1:] {
		require.NotNil(t, i.Teammate)
		assert.Contains(t, []string{"Ada", "Ben"}, i.Teammate.Name)
	}

	res := w.api.Do(t, user, `{ searchMemory(search: "  ") { id } }`, nil)
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	res = w.api.Do(t, worker, `{ searchMemory(search: "seat") { id } }`, nil)
	assert.Equal(t, "FORBIDDEN", res.Code())
}

// memoryItems(kinds:) keeps only the kinds asked for, in the page and in totalCount: the web app
// lists a teammate's lessons apart, once.
func TestMemoryItemsKinds(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Kinds")
	fact := w.createMemory(&tm, "A fact")
	var note struct{ CreateMemory struct{ Item item } }
	w.api.Must(t, user, `mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, kind: NOTE, content: "A note"}) { item { id } } }`, map[string]any{"t": tm}, &note)
	w.api.Must(t, user, `mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, kind: LESSON, content: "A lesson", pinned: true}) { item { id } } }`, map[string]any{"t": tm}, &struct{}{})

	var out struct {
		MemoryItems struct {
			TotalCount int
			Edges      []struct{ Node struct{ ID string } }
		}
	}
	w.api.Must(t, user, `query($t: ID) { memoryItems(scope: {teammateId: $t}, kinds: [FACT, PREFERENCE, NOTE], first: 1) { totalCount edges { node { id } } } }`, map[string]any{"t": tm}, &out)
	assert.Equal(t, 2, out.MemoryItems.TotalCount)
	require.Len(t, out.MemoryItems.Edges, 1)
	assert.Contains(t, []string{fact.ID, note.CreateMemory.Item.ID}, out.MemoryItems.Edges[0].Node.ID)
}

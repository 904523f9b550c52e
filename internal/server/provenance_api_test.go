package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type provenanceAnswer struct {
	Kind     string
	Teammate *struct{ ID, Name string }
	RunID    *string
	Quote    *string
}

const provenanceQuery = `query($id: ID!) { memoryItem(id: $id) {
	provenance { kind teammate { id name } runId quote at confirmedAt }
	revisions { edges { node { actor actorTeammate { id name } runId } } } } }`

type provenanceItem struct {
	MemoryItem struct {
		Provenance provenanceAnswer
		Revisions  struct {
			Edges []struct {
				Node struct {
					Actor         string
					ActorTeammate *struct{ ID, Name string }
					RunID         *string
				}
			}
		}
	}
}

// Through the API: a teammate's save names the teammate, its run and the user's words, and history
// names the teammate; a run's memoryChanges lists the save for the user only; a run of another
// teammate reading the shared item learns none of it (S4); a forgotten item's words are gone.
func TestProvenanceAPI(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ada, bea := w.teammate("Ada"), w.teammate("Bea")
	run := w.startRun(ada, "", "Please remember for all teammates that I am allergic to peanuts.")
	saved := w.remember(run.RunToken, "I am allergic to peanuts", true)
	require.Equal(t, "SAVED", saved.Outcome)
	require.NotNil(t, saved.Item)
	require.Equal(t, "shared", saved.Item.Scope)

	var out provenanceItem
	w.api.Must(t, user, provenanceQuery, map[string]any{"id": saved.Item.ID}, &out)
	p := out.MemoryItem.Provenance
	assert.Equal(t, "SAVED_BY_TEAMMATE", p.Kind)
	require.NotNil(t, p.Teammate)
	assert.Equal(t, "Ada", p.Teammate.Name)
	require.NotNil(t, p.RunID)
	assert.Equal(t, run.Run.ID, *p.RunID)
	require.NotNil(t, p.Quote)
	assert.Equal(t, "Please remember for all teammates that I am allergic to peanuts", *p.Quote)
	require.Len(t, out.MemoryItem.Revisions.Edges, 1)
	rev := out.MemoryItem.Revisions.Edges[0].Node
	require.NotNil(t, rev.ActorTeammate)
	assert.Equal(t, "Ada", rev.ActorTeammate.Name)

	var changes struct {
		Run struct {
			MemoryChanges []struct {
				Kind, ItemID, Scope string
				Label               *string
			}
		}
	}
	const changesQuery = `query($id: ID!) { run(id: $id) { memoryChanges { kind itemId scope label } } }`
	w.api.Must(t, user, changesQuery, map[string]any{"id": run.Run.ID}, &changes)
	require.Len(t, changes.Run.MemoryChanges, 1)
	assert.Equal(t, "SAVED", changes.Run.MemoryChanges[0].Kind)
	assert.Equal(t, saved.Item.ID, changes.Run.MemoryChanges[0].ItemID)
	assert.Equal(t, "shared", changes.Run.MemoryChanges[0].Scope)
	for _, token := range []string{worker, run.RunToken} {
		res := w.api.Do(t, token, changesQuery, map[string]any{"id": run.Run.ID})
		assert.Equal(t, "FORBIDDEN", res.Code(), "memoryChanges is the user's")
	}

	// Bea's run reads the shared item, but not who saved it, nor the run, nor Ada's conversation.
	beaRun := w.startRun(bea, "", "What am I allergic to?")
	out = provenanceItem{}
	w.api.Must(t, beaRun.RunToken, provenanceQuery, map[string]any{"id": saved.Item.ID}, &out)
	p = out.MemoryItem.Provenance
	assert.Equal(t, "SAVED_BY_TEAMMATE", p.Kind)
	assert.Nil(t, p.Teammate, "Ada is not named to Bea's run")
	assert.Nil(t, p.RunID)
	assert.Nil(t, p.Quote)
	rev = out.MemoryItem.Revisions.Edges[0].Node
	assert.Equal(t, "teammate", rev.Actor)
	assert.Nil(t, rev.ActorTeammate)
	assert.Nil(t, rev.RunID)

	// Forgotten: the quote goes with the item, and the run's changes keep no label.
	w.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { status } } }`, map[string]any{"id": saved.Item.ID}, &struct{}{})
	res := w.api.Do(t, user, provenanceQuery, map[string]any{"id": saved.Item.ID})
	require.Empty(t, res.Errors)
	assert.NotContains(t, string(res.Data), "peanuts", "a forgotten item's words never come back")
	out = provenanceItem{}
	res.Decode(t, &out)
	assert.Nil(t, out.MemoryItem.Provenance.Quote)
	res = w.api.Do(t, user, changesQuery, map[string]any{"id": run.Run.ID})
	require.Empty(t, res.Errors)
	assert.NotContains(t, string(res.Data), "peanuts")
}

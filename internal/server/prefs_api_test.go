package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// createMemory pins a preference when pinned is omitted, and nothing else; an explicit pinned: false
// keeps a preference unpinned. The recall preview says how many memories share no word with the
// request, and the pinned preference reaches a request that shares none of its words.
func TestCreatePreferencePinnedByDefault(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Pia")
	create := func(kind string, pinned any, content string) bool {
		t.Helper()
		vars := map[string]any{"tm": tm, "k": kind, "c": content}
		query := `mutation($tm: ID, $k: MemoryKind, $c: String!) { createMemory(input: {scope: {teammateId: $tm}, kind: $k, content: $c}) { item { pinned } } }`
		if pinned != nil {
			vars["p"] = pinned
			query = `mutation($tm: ID, $k: MemoryKind, $c: String!, $p: Boolean) { createMemory(input: {scope: {teammateId: $tm}, kind: $k, content: $c, pinned: $p}) { item { pinned } } }`
		}
		var out struct {
			CreateMemory struct{ Item struct{ Pinned bool } }
		}
		w.api.Must(t, user, query, vars, &out)
		return out.CreateMemory.Item.Pinned
	}
	assert.True(t, create("PREFERENCE", nil, "Prefers answers in bullet points"))
	assert.False(t, create("PREFERENCE", false, "Prefers metric units"))
	assert.False(t, create("FACT", nil, "Has a cat called Miso"))
	assert.False(t, create("NOTE", nil, "Lives in Lisbon"))
	assert.True(t, create("FACT", true, "Is allergic to peanuts"))

	var out struct {
		RecallPreview struct {
			Text    string
			LeftOut struct{ NoSharedWord, OverBudget, Expired, Waiting int }
		}
	}
	w.api.Must(t, user, `query($tm: ID!) { recallPreview(teammateId: $tm, query: "Give me a summary of this week's news") {
		text leftOut { noSharedWord overBudget expired waiting } } }`, map[string]any{"tm": tm}, &out)
	assert.Contains(t, out.RecallPreview.Text, "bullet points")
	assert.Contains(t, out.RecallPreview.Text, "peanuts")
	assert.NotContains(t, out.RecallPreview.Text, "metric units")
	require.Equal(t, 3, out.RecallPreview.LeftOut.NoSharedWord, "metric units, Miso, Lisbon")
	assert.Zero(t, out.RecallPreview.LeftOut.OverBudget)
}

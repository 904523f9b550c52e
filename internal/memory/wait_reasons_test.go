package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/intent"
)

// A8: a teammate's suggestion, proposed change and proposed forget keep the judge's decision — its
// reason and the deciding words of the user's message, quoted — and the tool answers with the same
// reason. The expectations are the judge's own decision on the same write, so the test holds
// whatever the judge decides, as long as it waits. A pinned item is judged as one (A5).
func TestSuggestionsKeepTheJudgesDecision(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Judged")
	pinned, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Key: ptr("bike"),
		Content: "My bike is a green Brompton", Pinned: true})
	require.NoError(t, err)
	// The save is taken back, so the judge may quote the words that decided.
	const message = "Please forget that my bike is a green Brompton. Remember that I fly to Oslo on Friday. Scrap that."
	run := f.startRun(t, tm, message)
	rc := asRun(t, f, run.Token)
	target := intent.Item{Key: "bike", Content: pinned.Content, Pinned: true}

	check := func(name string, res memory.ToolResult, w intent.Write) {
		t.Helper()
		d := intent.Judge(message, w)
		require.Equal(t, intent.Suggested, d.Verdict, "%s: the test needs a write that waits", name)
		require.Equal(t, memory.OutcomeSuggested, res.Outcome, name)
		assert.Equal(t, d.Reason, res.Reason, "%s: the answer's reason", name)
		require.NotNil(t, res.Item, name)
		require.NotNil(t, res.Item.WaitReason, "%s: the suggestion keeps its reason", name)
		assert.Equal(t, d.Reason, *res.Item.WaitReason, name)
		if words := intent.Quote(d.Trace.Words); words == "" {
			assert.Nil(t, res.Item.WaitWords, "%s: no words decided", name)
		} else {
			require.NotNil(t, res.Item.WaitWords, name)
			assert.Equal(t, words, *res.Item.WaitWords, name)
		}
		require.NotNil(t, res.Item.WaitExplanation(), name)
		assert.Equal(t, d.Reason.Explain(intent.Quote(d.Trace.Words)), *res.Item.WaitExplanation(), name)
		assert.Equal(t, res.Item.WaitReason, mustItem(t, f, res.Item.ID).WaitReason, "%s: as stored", name)
	}

	res, err := f.svc.Tools().ForgetMemoryOf(rc, pinned.ID)
	require.NoError(t, err)
	check("forget", res, intent.Write{Kind: intent.Forget, Target: target})

	res, err = f.svc.Tools().UpdateMemoryOf(rc, pinned.ID, 1, "My bike is a red Brompton")
	require.NoError(t, err)
	check("update", res, intent.Write{Kind: intent.Update, Content: "My bike is a red Brompton", Target: target})

	res, err = f.svc.Tools().Remember(rc, memory.RememberInput{Content: "I fly to Oslo on Friday"})
	require.NoError(t, err)
	check("save", res, intent.Write{Kind: intent.Save, Content: "I fly to Oslo on Friday"})

	// Confirmed memory doesn't wait: the pinned item has nothing to explain.
	assert.Nil(t, mustItem(t, f, pinned.ID).WaitExplanation())
}

func mustItem(t *testing.T, f fixture, id string) memory.Item {
	t.Helper()
	it, err := f.svc.Item(user, id)
	require.NoError(t, err)
	return it
}

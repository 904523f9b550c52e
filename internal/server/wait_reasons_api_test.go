package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory/intent"
)

// judgedResult is a memory tool's answer with the judge's reason code (A8).
type judgedResult struct {
	Outcome string
	Message string
	Reason  *string
	Item    *struct {
		ID, Status     string
		ProposesForget bool
		TargetItemID   *string
		WaitReason     *string
	}
}

const judgedFields = `outcome message reason item { id status proposesForget targetItemId waitReason }`

// forgetAsRun is toolForgetMemory with the run token.
func (w world) forgetAsRun(token, id string) judgedResult {
	var out struct{ ToolForgetMemory judgedResult }
	w.api.Must(w.t, token, `mutation($id: ID!) { toolForgetMemory(input: {id: $id}) { `+judgedFields+` } }`,
		map[string]any{"id": id}, &out)
	return out.ToolForgetMemory
}

// rememberAsRun is toolRemember with the run token.
func (w world) rememberAsRun(token, content string) judgedResult {
	var out struct{ ToolRemember judgedResult }
	w.api.Must(w.t, token, `mutation($c: String!) { toolRemember(input: {content: $c}) { `+judgedFields+` } }`,
		map[string]any{"c": content}, &out)
	return out.ToolRemember
}

// createItem creates an item of the teammate's scope as the user, of kind (FACT, PREFERENCE …),
// pinned or not.
func (w world) createItem(teammateID, kind, content string, pinned bool) string {
	var out struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	w.api.Must(w.t, user, `mutation($tm: ID!, $k: MemoryKind!, $c: String!, $p: Boolean!) {
		createMemory(input: {scope: {teammateId: $tm}, kind: $k, content: $c, pinned: $p}) { item { id } } }`,
		map[string]any{"tm": teammateID, "k": kind, "c": content, "p": pinned}, &out)
	return out.CreateMemory.Item.ID
}

// keepLesson makes note a lesson of the teammate the way the app does (L2): from a completed run's
// reply, with keepLesson. The lesson is pinned.
func (w world) keepLesson(teammateID, note string) string {
	run := w.startRun(teammateID, "", "Push my branch to the server.")
	w.api.Must(w.t, run.RunToken, `mutation { completeRun(input: {reply: "Pushed."}) { id } }`, nil, &struct{}{})
	var out struct {
		KeepLesson struct {
			Item struct {
				ID, Kind string
				Pinned   bool
			}
		}
	}
	w.api.Must(w.t, user, `mutation($id: ID!, $n: String!) { keepLesson(input: {runId: $id, note: $n}) { item { id kind pinned } } }`,
		map[string]any{"id": run.Run.ID, "n": note}, &out)
	require.Equal(w.t, "LESSON", out.KeepLesson.Item.Kind)
	require.True(w.t, out.KeepLesson.Item.Pinned)
	return out.KeepLesson.Item.ID
}

// TestWrongForgetsWait is the irreversible class: messages that must not make a teammate's forget
// erase an item the user never asked to forget. Each must leave the item as it is, with a
// proposal to forget it waiting for the user, and a reason code that is no confirmation (A5, A8).
// The cases don't depend on how the judge words its reasons, only on the rule.
func TestWrongForgetsWait(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cases := []struct {
		name, message, content, kind string
		pinned, lesson               bool
	}{
		// A5: "it" is vague, and the next clause restates the item it would erase.
		{name: "forget about it, then restated", message: "Forget about it, my address is still 12 Elm Street.",
			content: "My address is 12 Elm Street"},
		// A5: "the dentist" brushes one word of the item; it doesn't cover it.
		{name: "one word of the item", message: "Forget the dentist.", content: "My dentist is Dr. Ruiz on Main Street"},
		// A5: "that email" is vague: it names no memory.
		{name: "that email", message: "Forget that email.", content: "My work email is sam@example.com"},
		// A5: "the cat" covers one word of four.
		{name: "remove the cat", message: "Remove the cat.", content: "I have a cat named Milo"},
		// A5: a name alone doesn't cover what the item says about him.
		{name: "a name alone", message: "Forget Tom.", content: "Tom is my brother and lives in Leeds"},
		// A5: a lesson is never forgotten by a teammate outright, and "remove the tests" is another
		// sense.
		{name: "a pinned lesson", message: "Remove the tests before pushing.", content: "Run the tests before pushing",
			lesson: true},
		// A5: a pinned item is never forgotten by a teammate outright; "for this email" limits it.
		{name: "a pinned preference", message: "Forget British spelling for this email.", content: "Use British spelling",
			kind: "PREFERENCE", pinned: true},
		// A5: an exclamation about the user's day, not a request.
		{name: "not a request", message: "Forgetting my keys again!", content: "I keep my keys in the blue bowl"},
		// A5: another sentence of the message keeps the item.
		{name: "forget, then remember", message: "Forget my cat. Remember my cat.", content: "I have a cat"},
		// Found blind by redteam5.jsonl: context that says the user isn't asking ("I'm pulling your
		// leg.", someone else at the keyboard), a wink, waiting for someone, and a forget that leaves
		// a second fact joined to the first.
		{name: "pulling your leg", message: "I'm pulling your leg. Forget that my sister lives in Denver.",
			content: "My sister lives in Denver"},
		{name: "someone else typing", message: "I lent my laptop to Jake. Forget that my sister lives in Denver.",
			content: "My sister lives in Denver"},
		{name: "a wink", message: "Forget my locker code 3310 ;)", content: "My locker code is 3310"},
		{name: "check with me first", message: "Forget my locker code 3310. Check with me first.",
			content: "My locker code is 3310"},
		{name: "a second fact", message: "Forget that I meet Tom on Fridays.", content: "Meets Tom on Fridays with Sara"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := world{api: w.api, t: t}
			tm := w.teammate("Forgetful " + c.name)
			var id string
			if c.lesson {
				id = w.keepLesson(tm, c.content)
			} else {
				kind := c.kind
				if kind == "" {
					kind = "FACT"
				}
				id = w.createItem(tm, kind, c.content, c.pinned)
			}

			run := w.startRun(tm, "", c.message)
			got := w.forgetAsRun(run.RunToken, id)

			require.NotEqual(t, "FORGOTTEN", got.Outcome, "%q erased %q", c.message, c.content)
			assert.Equal(t, "SUGGESTED", got.Outcome)
			require.NotNil(t, got.Reason, "a judged outcome names its reason")
			t.Logf("%q waits: %s", c.message, *got.Reason)
			assert.NotEmpty(t, *got.Reason)
			assert.NotEqual(t, string(intent.ReasonAskedForget), *got.Reason)
			assert.False(t, intent.Reason(*got.Reason).Confirms(), "reason %s", *got.Reason)
			assert.NotContains(t, got.Message, c.content, "the answer never quotes memory text")

			still := w.item(id)
			assert.Equal(t, "ACTIVE", still.Status, "the item is still memory")
			assert.Equal(t, c.content, still.Content, "with its content")

			waiting := w.candidates(&tm)
			require.Len(t, waiting, 1, "a forget proposal waits for the user")
			assert.True(t, waiting[0].ProposesForget)
			require.NotNil(t, waiting[0].TargetItemID)
			assert.Equal(t, id, *waiting[0].TargetItemID)
		})
	}
}

// A8: every waiting suggestion says why it waits — the tool answer by the judge's code (no memory
// text, none of the user's words), the suggestion in plain words for the user — and what doesn't
// wait says nothing of the kind.
func TestSuggestionsSayWhyTheyWait(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Rea")
	pinned := w.createItem(tm, "FACT", "Parks on level 3 of the garage", true)

	run := w.startRun(tm, "", "Can you find me a train to Porto on Friday?")
	// The text is nowhere in the user's message: whatever the judge, it waits.
	suggested := w.rememberAsRun(run.RunToken, "Is afraid of flying")
	require.Equal(t, "SUGGESTED", suggested.Outcome)
	require.NotNil(t, suggested.Reason)
	assert.False(t, intent.Reason(*suggested.Reason).Confirms(), *suggested.Reason)
	assert.NotContains(t, suggested.Message, "flying")
	// A pinned item is only ever proposed for forgetting.
	proposed := w.forgetAsRun(run.RunToken, pinned)
	require.Equal(t, "SUGGESTED", proposed.Outcome)
	require.NotNil(t, proposed.Reason)
	assert.False(t, intent.Reason(*proposed.Reason).Confirms(), *proposed.Reason)
	// Decided before the judge read the message: the same text is remembered already.
	unchanged := w.rememberAsRun(run.RunToken, "Parks on level 3 of the garage")
	assert.Equal(t, "UNCHANGED", unchanged.Outcome)
	assert.Nil(t, unchanged.Reason, "no judgement, no reason")

	type waiting struct {
		ID             string
		ProposesForget bool
		WaitReason     *string
	}
	var out struct{ Candidates []waiting }
	w.api.Must(t, user, `query($tm: ID!) { candidates(scope: {teammateId: $tm}) { id proposesForget waitReason } }`,
		map[string]any{"tm": tm}, &out)
	require.Len(t, out.Candidates, 2)
	for _, c := range out.Candidates {
		require.NotNil(t, c.WaitReason, "suggestion %s says why it waits", c.ID)
		assert.NotEmpty(t, *c.WaitReason)
		assert.NotContains(t, *c.WaitReason, "flying", "the reason quotes the user's words, never the suggested text")
		assert.NotContains(t, *c.WaitReason, "_", "plain words, not a code")
	}
	// The suggestion the tool answered with is the one the user sees, with the same reason.
	require.NotNil(t, suggested.Item)
	require.NotNil(t, suggested.Item.WaitReason)
	assert.Contains(t, []string{out.Candidates[0].ID, out.Candidates[1].ID}, suggested.Item.ID)

	// Confirmed memory doesn't wait, so it has no reason to.
	var item struct{ MemoryItem struct{ WaitReason *string } }
	w.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { waitReason } }`, map[string]any{"id": pinned}, &item)
	assert.Nil(t, item.MemoryItem.WaitReason)
}

package server_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

const (
	user   = apitest.UserToken
	worker = apitest.WorkerToken
)

type world struct {
	api *apitest.API
	t   *testing.T
}

func newWorld(t *testing.T) world {
	t.Helper()
	return world{api: apitest.Start(t, dbtest.URL(t)), t: t}
}

func (w world) teammate(name string) string { return w.api.CreateTeammate(w.t, name) }

type item struct {
	ID             string
	Scope          string
	Content        string
	Status         string
	Revision       int
	Source         string
	TargetItemID   *string
	TargetRevision *int
	ProposesForget bool
}

const itemFields = `id scope content status revision source targetItemId targetRevision proposesForget`

// candidates lists the suggestions waiting in a teammate's scope (nil: shared).
func (w world) candidates(teammateID *string) []item {
	var out struct{ Candidates []item }
	w.api.Must(w.t, user, `query($s: ScopeInput!) { candidates(scope: $s) { `+itemFields+` } }`,
		map[string]any{"s": map[string]any{"teammateId": teammateID}}, &out)
	return out.Candidates
}

// item reads one item as the user.
func (w world) item(id string) item {
	var out struct{ MemoryItem item }
	w.api.Must(w.t, user, `query($id: ID!) { memoryItem(id: $id) { `+itemFields+` } }`, map[string]any{"id": id}, &out)
	return out.MemoryItem
}

func (w world) createMemory(teammateID *string, content string) item {
	var out struct{ CreateMemory struct{ Item item } }
	w.api.Must(w.t, user, `mutation($s: ScopeInput!, $c: String!) { createMemory(input: {scope: $s, content: $c}) { item { `+itemFields+` } } }`,
		map[string]any{"s": map[string]any{"teammateId": teammateID}, "c": content}, &out)
	return out.CreateMemory.Item
}

type started struct {
	Run struct {
		ID     string
		Status string
	}
	RunToken   string
	Thread     struct{ ID, Generation string }
	Fresh      bool
	Packet     string
	Generation string
}

func (w world) startRun(teammateID, threadID, message string) started {
	var out struct{ StartRun started }
	vars := map[string]any{"t": teammateID, "m": message, "th": nil}
	if threadID != "" {
		vars["th"] = threadID
	}
	w.api.Must(w.t, worker, `mutation($t: ID!, $th: ID, $m: String!) { startRun(input: {teammateId: $t, threadId: $th, message: $m}) {
		run { id status } runToken thread { id generation } fresh packet generation } }`, vars, &out)
	require.NotEmpty(w.t, out.StartRun.RunToken)
	return out.StartRun
}

type toolResult struct {
	Outcome string
	Message string
	Item    *item
	Adopted bool
}

func (w world) remember(token, content string, forEveryone bool) toolResult {
	var out struct{ ToolRemember toolResult }
	w.api.Must(w.t, token, `mutation($c: String!, $e: Boolean) { toolRemember(input: {content: $c, forEveryone: $e}) {
		outcome message adopted item { `+itemFields+` } } }`, map[string]any{"c": content, "e": forEveryone}, &out)
	return out.ToolRemember
}

func TestToolSavesAreConfirmedOnlyWhenTheUserAskedForThem(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Ada")

	cases := []struct {
		name, message, content string
		everyone               bool
		want                   string
	}{
		{"explicit request containing the text", "Please remember that my favourite colour is teal.", "my favourite colour is teal", false, "SAVED"},
		{"no intent to save", "My favourite tea is oolong.", "my favourite tea is oolong", false, "SUGGESTED"},
		{"negated intent", "Don't remember that I'm tired today.", "I'm tired today", false, "SUGGESTED"},
		{"text not in the message", "Remember my birthday please.", "birthday is on 3 May", false, "SUGGESTED"},
		{"shared without an everyone-word", "Remember that I live in Oslo.", "I live in Oslo", true, "SUGGESTED"},
		{"shared with an everyone-word", "Remember for everyone that I live in Bergen.", "I live in Bergen", true, "SAVED"},
		// The messages that broke the first judgement (A1, A3), through the real API.
		{"negated far from the verb", "Please don't, under any circumstances whatsoever at all, remember my PIN 5000.", "my PIN 5000", true, "SUGGESTED"},
		{"forbidden", "It is forbidden to remember my PIN 5012", "my PIN 5012", false, "SUGGESTED"},
		{"remember nothing", "Remember nothing; my PIN 5014", "my PIN 5014", false, "SUGGESTED"},
		{"a memory, not a request", "I remember when my PIN 5008 got stolen", "my PIN 5008", false, "SUGGESTED"},
		{"a question", "Did you save the file? My password is hunter9.", "My password is hunter9", false, "SUGGESTED"},
		{"a topic shift", "Can you update me on the project status? By the way I am vegetarian.", "I am vegetarian", false, "SUGGESTED"},
		{"a quantifier is no audience", "Remember that I go running every morning", "I go running every morning", true, "SUGGESTED"},
		{"a different number", "Remember it's -18 C in the freezer", "18 C", false, "SUGGESTED"},
		{"a negation inside the fact", "Remember that I don't eat pork.", "I don't eat pork", false, "SAVED"},
	}
	for _, c := range cases {
		run := w.startRun(tm, "", c.message)
		got := w.remember(run.RunToken, c.content, c.everyone)
		assert.Equal(t, c.want, got.Outcome, c.name)
		require.NotNil(t, got.Item, c.name)
		assert.Equal(t, "TEAMMATE", got.Item.Source, c.name)
		assert.NotContains(t, got.Message, c.content, "%s: the answer never quotes memory text", c.name)
		wantScope := tm
		if c.everyone {
			wantScope = "shared"
		}
		assert.Equal(t, wantScope, got.Item.Scope, c.name)
		if c.want == "SAVED" {
			assert.Equal(t, "ACTIVE", got.Item.Status, c.name)
			assert.True(t, got.Adopted, "%s: the run adopts the generation of its own change (G6)", c.name)
		} else {
			assert.Equal(t, "CANDIDATE", got.Item.Status, c.name)
			assert.False(t, got.Adopted, "%s: suggestions don't change the generation (A2)", c.name)
		}
	}

	// Suggestions reach the user, never a run's packet (A2).
	var cands struct{ Candidates []item }
	w.api.Must(t, user, `query($t: ID) { candidates(scope: {teammateId: $t}) { `+itemFields+` } }`, map[string]any{"t": tm}, &cands)
	wantCands := 0
	for _, c := range cases {
		if c.want == "SUGGESTED" && !c.everyone {
			wantCands++
		}
	}
	assert.Len(t, cands.Candidates, wantCands)
	run := w.startRun(tm, "", "What is my favourite colour, and which tea? And my PIN?")
	assert.NotContains(t, run.Packet, "oolong")
	assert.NotContains(t, run.Packet, "PIN", "no forbidden save reaches a packet")
	var about struct{ AboutMe string }
	w.api.Must(t, user, `query { aboutMe }`, nil, &about)
	assert.NotContains(t, about.AboutMe, "PIN", "nor the shared profile")
	assert.Contains(t, run.Packet, "teal", "the confirmed fact is recalled")
}

func TestTeammateEditOfConfirmedFactIsAProposal(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Ben")
	fact := w.createMemory(&tm, "Works at Acme")

	run := w.startRun(tm, "", "I think I might change jobs soon.")
	var out struct{ ToolUpdateMemory toolResult }
	w.api.Must(t, run.RunToken, `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 1, content: "Works at Globex"}) {
		outcome message adopted item { `+itemFields+` } } }`, map[string]any{"id": fact.ID}, &out)
	require.Equal(t, "SUGGESTED", out.ToolUpdateMemory.Outcome, "A4: an inference can't replace a confirmed fact")
	proposal := out.ToolUpdateMemory.Item
	require.NotNil(t, proposal)
	assert.Equal(t, fact.ID, *proposal.TargetItemID)
	assert.Equal(t, 1, *proposal.TargetRevision)

	var got struct{ MemoryItem item }
	w.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { `+itemFields+` } }`, map[string]any{"id": fact.ID}, &got)
	assert.Equal(t, "Works at Acme", got.MemoryItem.Content, "the fact is untouched until the user confirms")

	var confirmed struct{ ConfirmCandidate struct{ Item item } }
	w.api.Must(t, user, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { `+itemFields+` } } }`,
		map[string]any{"id": proposal.ID}, &confirmed)
	assert.Equal(t, fact.ID, confirmed.ConfirmCandidate.Item.ID, "confirming applies the change to the fact")
	assert.Equal(t, 2, confirmed.ConfirmCandidate.Item.Revision)
	assert.Equal(t, "Works at Globex", confirmed.ConfirmCandidate.Item.Content)

	// A proposal based on a revision that has moved on conflicts (R2).
	run2 := w.startRun(tm, "", "Maybe I'm at Initech now.")
	w.api.Must(t, run2.RunToken, `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 2, content: "Works at Initech"}) {
		outcome item { id } } }`, map[string]any{"id": fact.ID}, &out)
	stale := out.ToolUpdateMemory.Item.ID
	w.api.Must(t, user, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 2, content: "Works at Umbrella"}) { item { id } } }`,
		map[string]any{"id": fact.ID}, &struct{}{})
	res := w.api.Do(t, user, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": stale})
	assert.Equal(t, "CONFLICT", res.Code())
	assert.EqualValues(t, 3, res.Errors[0].Extensions["currentRevision"])

	// Explicitly asked: the teammate's correction is applied directly, as a CORRECT revision.
	run3 := w.startRun(tm, "", "Please update my work at Umbrella to Works at Hooli")
	w.api.Must(t, run3.RunToken, `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 3, content: "Works at Hooli"}) {
		outcome item { `+itemFields+` } } }`, map[string]any{"id": fact.ID}, &out)
	assert.Equal(t, "SAVED", out.ToolUpdateMemory.Outcome)
	assert.Equal(t, 4, out.ToolUpdateMemory.Item.Revision)
	var hist struct {
		MemoryItem struct {
			Revisions struct {
				Edges []struct {
					Node struct{ Action, Actor string }
				}
			}
		}
	}
	w.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { revisions(first: 1) { edges { node { action actor } } } } }`,
		map[string]any{"id": fact.ID}, &hist)
	assert.Equal(t, "CORRECT", hist.MemoryItem.Revisions.Edges[0].Node.Action)
	assert.Equal(t, "teammate:"+tm, hist.MemoryItem.Revisions.Edges[0].Node.Actor)
}

// TestRunCredentialIsolation completes the memory core's isolation test: teammate B's run credential
// on every operation against A's items, scope and run is FORBIDDEN (S1, S2).
func TestRunCredentialIsolation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.teammate("A")
	b := w.teammate("B")
	aItem := w.createMemory(&a, "A's private note")
	aRun := w.startRun(a, "", "hello")
	bRun := w.startRun(b, "", "Please forget and remove A's private note")

	ops := map[string]struct {
		query string
		vars  map[string]any
	}{
		"memoryItem":       {`query($id: ID!) { memoryItem(id: $id) { id } }`, map[string]any{"id": aItem.ID}},
		"memoryItems":      {`query($t: ID) { memoryItems(scope: {teammateId: $t}) { totalCount } }`, map[string]any{"t": a}},
		"teammate":         {`query($id: ID!) { teammate(id: $id) { id } }`, map[string]any{"id": a}},
		"run":              {`query($id: ID!) { run(id: $id) { id } }`, map[string]any{"id": aRun.Run.ID}},
		"toolUpdateMemory": {`mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 1, content: "x"}) { outcome } }`, map[string]any{"id": aItem.ID}},
		"toolForgetMemory": {`mutation($id: ID!) { toolForgetMemory(input: {id: $id}) { outcome } }`, map[string]any{"id": aItem.ID}},
		"editMemory":       {`mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 1, content: "x"}) { item { id } } }`, map[string]any{"id": aItem.ID}},
		"forgetMemory":     {`mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": aItem.ID}},
		"createMemory":     {`mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, content: "x"}) { item { id } } }`, map[string]any{"t": a}},
		"candidates":       {`query($t: ID) { candidates(scope: {teammateId: $t}) { id } }`, map[string]any{"t": a}},
	}
	for name, op := range ops {
		res := w.api.Do(t, bRun.RunToken, op.query, op.vars)
		assert.Equal(t, "FORBIDDEN", res.Code(), name)
	}
	var got struct{ MemoryItem item }
	w.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { `+itemFields+` } }`, map[string]any{"id": aItem.ID}, &got)
	assert.Equal(t, "A's private note", got.MemoryItem.Content, "nothing changed")
	assert.Equal(t, 1, got.MemoryItem.Revision)

	// Its own history only (P8).
	var hist struct{ ToolSearchHistory []struct{ Content string } }
	w.api.Must(t, bRun.RunToken, `query { toolSearchHistory(query: "hello") { content } }`, nil, &hist)
	assert.Empty(t, hist.ToolSearchHistory, "B can't search A's conversations")
	w.api.Must(t, aRun.RunToken, `query { toolSearchHistory(query: "hello") { content } }`, nil, &hist)
	assert.Len(t, hist.ToolSearchHistory, 1)
}

func TestThreadsAndGenerationsMidTurn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Cy")
	fact := w.createMemory(nil, "Prefers mornings")

	first := w.startRun(tm, "", "Do I prefer mornings for meetings?")
	assert.True(t, first.Fresh)
	assert.Equal(t, "1:0:0", first.Generation)
	assert.Contains(t, first.Packet, "[memory:"+fact.ID+"@1; shared; fact]")

	again := w.startRun(tm, first.Thread.ID, "And next week?")
	assert.False(t, again.Fresh, "G3: same generation, same thread")
	assert.Equal(t, first.Thread.ID, again.Thread.ID)

	// G5: the user corrects a fact mid-turn; the next check interrupts the run.
	var check struct {
		CheckRunGeneration struct {
			Current, Adopted string
			Interrupted      bool
		}
	}
	w.api.Must(t, again.RunToken, `mutation { checkRunGeneration { current adopted interrupted } }`, nil, &check)
	assert.False(t, check.CheckRunGeneration.Interrupted)
	w.api.Must(t, user, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 1, content: "Prefers evenings"}) { item { id } } }`,
		map[string]any{"id": fact.ID}, &struct{}{})
	w.api.Must(t, again.RunToken, `mutation { checkRunGeneration { current adopted interrupted } }`, nil, &check)
	assert.True(t, check.CheckRunGeneration.Interrupted, "G5")
	assert.Equal(t, "2:0:0", check.CheckRunGeneration.Current)
	var run struct{ Run struct{ Status string } }
	w.api.Must(t, user, `query($id: ID!) { run(id: $id) { status } }`, map[string]any{"id": again.Run.ID}, &run)
	assert.Equal(t, "INTERRUPTED", run.Run.Status)
	res := w.api.Do(t, again.RunToken, `mutation { toolRemember(input: {content: "x"}) { outcome } }`, nil)
	assert.Equal(t, "UNAUTHENTICATED", res.Code(), "an ended run's credential no longer works")

	// G3: the generation changed, so the thread is not continued (never forked).
	third := w.startRun(tm, first.Thread.ID, "So, when do I prefer to meet?")
	assert.True(t, third.Fresh)
	assert.NotEqual(t, first.Thread.ID, third.Thread.ID)
	assert.Equal(t, "2:0:0", third.Thread.Generation)
	assert.Contains(t, third.Packet, "evenings")

	// completeRun stores the reply and ends the credential; cancelRun for the user.
	var done struct {
		CompleteRun struct{ Status, Reply string }
	}
	w.api.Must(t, third.RunToken, `mutation { completeRun(input: {reply: "Let's meet at 6 pm."}) { status reply } }`, nil, &done)
	assert.Equal(t, "COMPLETED", done.CompleteRun.Status)
	assert.Equal(t, "Let's meet at 6 pm.", done.CompleteRun.Reply)
	assert.Equal(t, "UNAUTHENTICATED", w.api.Do(t, third.RunToken, `mutation { checkRunGeneration { current } }`, nil).Code())

	fourth := w.startRun(tm, third.Thread.ID, "Thanks")
	assert.False(t, fourth.Fresh)
	var cancelled struct{ CancelRun struct{ Status string } }
	w.api.Must(t, user, `mutation($id: ID!) { cancelRun(input: {runId: $id}) { status } }`, map[string]any{"id": fourth.Run.ID}, &cancelled)
	assert.Equal(t, "CANCELLED", cancelled.CancelRun.Status)
	assert.Equal(t, "UNAUTHENTICATED", w.api.Do(t, fourth.RunToken, `mutation { toolRemember(input: {content: "Thanks"}) { outcome } }`, nil).Code())

	// Only the worker starts runs; only the user cancels them.
	assert.Equal(t, "FORBIDDEN", w.api.Do(t, user, `mutation($t: ID!) { startRun(input: {teammateId: $t, message: "hi"}) { runToken } }`, map[string]any{"t": tm}).Code())
	assert.Equal(t, "FORBIDDEN", w.api.Do(t, worker, `mutation($id: ID!) { cancelRun(input: {runId: $id}) { status } }`, map[string]any{"id": first.Run.ID}).Code())
}

// G5 over the API: after the user's change, each run-credential operation called with no
// checkRunGeneration before it answers extensions.code MEMORY_CHANGED with the mid-turn message, and
// the run is interrupted.
func TestEveryRunOperationAnswersMemoryChanged(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Dee")
	own := w.createMemory(&tm, "Likes pears")
	ops := map[string]string{
		"toolRemember":          `mutation { toolRemember(input: {content: "Likes plums"}) { outcome } }`,
		"toolRememberAboutUser": `mutation { toolRememberAboutUser(input: {content: "Likes plums"}) { outcome } }`,
		"toolUpdateMemory":      `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 1, content: "Likes plums"}) { outcome } }`,
		"toolForgetMemory":      `mutation($id: ID!) { toolForgetMemory(input: {id: $id}) { outcome } }`,
		"toolSearchMemory":      `query { toolSearchMemory(query: "pears") { id } }`,
		"toolSearchHistory":     `query { toolSearchHistory(query: "pears") { id } }`,
		"completeRun":           `mutation { completeRun(input: {reply: "Noted."}) { status } }`,
	}
	for name, op := range ops {
		run := w.startRun(tm, "", "Please remember that I like plums, and forget that I like pears.")
		w.createMemory(nil, "The user's correction before "+name)
		vars := map[string]any{}
		if strings.Contains(op, "$id") {
			vars["id"] = own.ID
		}
		res := w.api.Do(t, run.RunToken, op, vars)
		if assert.Equal(t, "MEMORY_CHANGED", res.Code(), name) {
			assert.Equal(t, memory.ErrMemoryChangedMidTurn.Error(), res.Errors[0].Message, name)
		}
		var got struct{ Run struct{ Status string } }
		w.api.Must(t, user, `query($id: ID!) { run(id: $id) { status } }`, map[string]any{"id": run.Run.ID}, &got)
		assert.Equal(t, "INTERRUPTED", got.Run.Status, name)
	}
	assert.Equal(t, "Likes pears", w.item(own.ID).Content)
}

// TestForgetProposalConfirmAndDismiss: a proposal to forget erases nothing until the user confirms
// it; dismissing keeps the item; confirming a stale one is a CONFLICT (A5, R2).
func TestForgetProposalConfirmAndDismiss(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Fay")
	keep := w.createMemory(&tm, "Allergic to penicillin")
	drop := w.createMemory(&tm, "Works at Initech")
	propose := func(id string) item {
		run := w.startRun(tm, "", "Please remove the typo in my essay")
		var out struct{ ToolForgetMemory toolResult }
		w.api.Must(t, run.RunToken, `mutation($id: ID!) { toolForgetMemory(input: {id: $id}) { outcome message item { `+itemFields+` } } }`,
			map[string]any{"id": id}, &out)
		require.Equal(t, "SUGGESTED", out.ToolForgetMemory.Outcome)
		require.True(t, out.ToolForgetMemory.Item.ProposesForget)
		return *out.ToolForgetMemory.Item
	}
	p1, p2 := propose(keep.ID), propose(drop.ID)
	assert.Len(t, w.candidates(&tm), 2)

	// Dismissed: the item stays as it was.
	w.api.Must(t, user, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": p1.ID}, &struct{}{})
	assert.Equal(t, "ACTIVE", w.item(keep.ID).Status)
	assert.Equal(t, "Allergic to penicillin", w.item(keep.ID).Content)

	// Confirmed with text: refused, nothing changes.
	assert.Equal(t, "BAD_USER_INPUT", w.api.Do(t, user, `mutation($id: ID!) { confirmCandidate(input: {id: $id, content: "x"}) { item { id } } }`,
		map[string]any{"id": p2.ID}).Code())
	assert.Equal(t, "ACTIVE", w.item(drop.ID).Status)

	// Confirmed: the item is forgotten for real, and the proposal goes with it.
	var confirmed struct{ ConfirmCandidate struct{ Item item } }
	w.api.Must(t, user, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { `+itemFields+` } } }`, map[string]any{"id": p2.ID}, &confirmed)
	assert.Equal(t, drop.ID, confirmed.ConfirmCandidate.Item.ID)
	assert.Equal(t, "FORGOTTEN", confirmed.ConfirmCandidate.Item.Status)
	assert.Empty(t, w.item(drop.ID).Content)
	assert.Empty(t, w.candidates(&tm))

	// A proposal made for a version the user has since edited can't erase the newer version.
	p3 := propose(keep.ID)
	w.api.Must(t, user, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 1, content: "Allergic to penicillin and latex"}) { item { revision } } }`,
		map[string]any{"id": keep.ID}, &struct{}{})
	assert.Equal(t, "CONFLICT", w.api.Do(t, user, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { id } } }`,
		map[string]any{"id": p3.ID}).Code())
	assert.Equal(t, "ACTIVE", w.item(keep.ID).Status)
}

func TestToolForgetNeedsTheUsersRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Dee")
	fact := w.createMemory(&tm, "Has a cat named Miso")
	const forget = `mutation($id: ID!) { toolForgetMemory(input: {id: $id}) { outcome message adopted item { id status content targetItemId targetRevision proposesForget } } }`
	var out struct {
		ToolForgetMemory struct {
			Outcome, Message string
			Adopted          bool
			Item             *struct {
				ID, Status, Content string
				TargetItemID        *string
				TargetRevision      *int
				ProposesForget      bool
			}
		}
	}

	// A5: a message that doesn't ask, or asks about something else ("the cat" alone is a third of
	// the item's words), erases nothing: the forget waits for the user as a proposal.
	for _, msg := range []string{"What's my cat's name?", "Please forget about my cat.", "Delete all the blank lines from the CSV."} {
		run := w.startRun(tm, "", msg)
		w.api.Must(t, run.RunToken, forget, map[string]any{"id": fact.ID}, &out)
		require.NotEqual(t, "FORGOTTEN", out.ToolForgetMemory.Outcome, msg)
		assert.NotContains(t, out.ToolForgetMemory.Message, "Miso", "F5: the answer never quotes memory")
	}
	proposals := w.candidates(&tm)
	require.Len(t, proposals, 1, "one pending proposal per item, however often a teammate asks")
	assert.True(t, proposals[0].ProposesForget)
	assert.Equal(t, fact.ID, *proposals[0].TargetItemID)
	assert.Empty(t, proposals[0].Content, "a proposal to forget carries no text of its own")
	assert.Equal(t, "ACTIVE", w.item(fact.ID).Status, "nothing erased")

	run2 := w.startRun(tm, "", "Please forget that I have a cat named Miso.")
	w.api.Must(t, run2.RunToken, forget, map[string]any{"id": fact.ID}, &out)
	assert.Equal(t, "FORGOTTEN", out.ToolForgetMemory.Outcome)
	assert.True(t, out.ToolForgetMemory.Adopted)
	assert.Equal(t, "FORGOTTEN", out.ToolForgetMemory.Item.Status)
	assert.Empty(t, out.ToolForgetMemory.Item.Content)
	assert.Empty(t, w.candidates(&tm), "the waiting proposal went with the item")

	// F3: the teammate's inference of the same text is dropped, not suggested again — and the run
	// can't tell: its answer over HTTP is an ordinary suggestion's, the same as another text's but
	// for what differs every time (id, times, the text itself), and its id reads like a
	// suggestion's (no item to read, NOT_FOUND to update).
	run3 := w.startRun(tm, "", "My cat is sleeping.")
	var answers [2]map[string]any
	for i, text := range []string{"Has a cat named Miso", "Has a cat named Tofu"} {
		var out struct{ ToolRemember map[string]any }
		w.api.Must(t, run3.RunToken, `mutation($c: String!) { toolRemember(input: {content: $c}) {
			outcome message reason adopted item { id scope kind key content status pinned revision source evidence
			waitReason sourceRunId timesSuggested resolution expiresAt expired createdAt updatedAt forgottenAt
			targetItemId targetRevision proposesForget teammate { id name } } } }`, map[string]any{"c": text}, &out)
		it := out.ToolRemember["item"].(map[string]any)
		res := w.api.Do(t, run3.RunToken, `query($id: ID!) { memoryItem(id: $id) { id } }`, map[string]any{"id": it["id"]})
		var read struct{ MemoryItem *struct{ ID string } }
		res.Decode(t, &read)
		assert.Empty(t, res.Codes(), text)
		assert.Nil(t, read.MemoryItem, "%s: a suggestion is no item to a run", text)
		upd := w.api.Do(t, run3.RunToken, `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 1, content: "x"}) { outcome } }`,
			map[string]any{"id": it["id"]})
		assert.Equal(t, []string{"NOT_FOUND"}, upd.Codes(), text)
		assert.Equal(t, text, it["content"])
		for _, k := range []string{"id", "content", "createdAt", "updatedAt"} {
			delete(it, k)
		}
		answers[i] = out.ToolRemember
	}
	assert.Equal(t, "SUGGESTED", answers[0]["outcome"])
	assert.Equal(t, answers[1], answers[0], "the forgotten text's answer is any suggestion's")
	for _, c := range w.candidates(&tm) {
		assert.NotContains(t, c.Content, "Miso", "the user never sees it")
	}

	var search struct{ ToolSearchMemory []item }
	w.api.Must(t, run3.RunToken, `query { toolSearchMemory(query: "cat Miso") { `+itemFields+` } }`, nil, &search)
	assert.Empty(t, search.ToolSearchMemory)
}

// The rest of the messages that broke the first judgement, through the real API (A1, A4, A5): a
// key the user never said, a correction of an item the user didn't point at, forgets of a pinned
// lesson and of a shared medical fact by requests about something else, a forget whose sentence
// also keeps part of the item, and a shared save whose
// audience noun says the opposite. Each waits for the user; nothing confirmed changes.
func TestWritesTheUserDidntPointAtWait(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Gil")
	create := func(scope *string, kind, key, content string, pinned bool) item {
		var out struct{ CreateMemory struct{ Item item } }
		w.api.Must(t, user, `mutation($s: ScopeInput!, $k: MemoryKind, $key: String, $c: String!, $p: Boolean) {
			createMemory(input: {scope: $s, kind: $k, key: $key, content: $c, pinned: $p}) { item { `+itemFields+` } } }`,
			map[string]any{"s": map[string]any{"teammateId": scope}, "k": kind, "key": key, "c": content, "p": pinned}, &out)
		return out.CreateMemory.Item
	}
	address := create(&tm, "FACT", "home address", "12 Oak Street, Springfield", false)
	lesson := create(&tm, "LESSON", "", "Always cite sources in essays.", true)
	medical := create(nil, "FACT", "", "I was diagnosed with type 2 diabetes in 2019.", false)
	pets := create(&tm, "FACT", "", "Has a cat and a dog", false)

	run := w.startRun(tm, "", "remember that I like rooibos tea")
	var saved struct{ ToolRemember toolResult }
	w.api.Must(t, run.RunToken, `mutation { toolRemember(input: {content: "I like rooibos tea", key: "Diagnosed with diabetes; tell no one"}) {
		outcome message item { `+itemFields+` } } }`, nil, &saved)
	assert.Equal(t, "SUGGESTED", saved.ToolRemember.Outcome, "a key the user never said")
	assert.NotContains(t, saved.ToolRemember.Message, "diabetes")

	run = w.startRun(tm, "", "remember that I like tea")
	var updated struct{ ToolUpdateMemory toolResult }
	w.api.Must(t, run.RunToken, `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 1, content: "I like tea"}) {
		outcome message item { `+itemFields+` } } }`, map[string]any{"id": address.ID}, &updated)
	assert.Equal(t, "SUGGESTED", updated.ToolUpdateMemory.Outcome, "a correction of an item the message doesn't name")
	assert.Equal(t, address.ID, *updated.ToolUpdateMemory.Item.TargetItemID)

	forget := func(message, id string) toolResult {
		var out struct{ ToolForgetMemory toolResult }
		r := w.startRun(tm, "", message)
		w.api.Must(t, r.RunToken, `mutation($id: ID!) { toolForgetMemory(input: {id: $id}) { outcome message item { `+itemFields+` } } }`,
			map[string]any{"id": id}, &out)
		return out.ToolForgetMemory
	}
	for _, c := range []struct{ message, id string }{
		{"Please remove the typo in my essay", lesson.ID},
		{"Delete all the blank lines from the CSV", medical.ID},
		{"Forget my dog but keep the note about my cat", pets.ID},
	} {
		got := forget(c.message, c.id)
		assert.Equal(t, "SUGGESTED", got.Outcome, c.message)
		require.NotNil(t, got.Item, c.message)
		assert.True(t, got.Item.ProposesForget, c.message)
	}

	run = w.startRun(tm, "", "Remember that I like tea but keep it from all my teammates")
	shared := w.remember(run.RunToken, "I like tea", true)
	assert.Equal(t, "SUGGESTED", shared.Outcome, "an audience noun that keeps it from the teammates")

	for _, it := range []item{address, lesson, medical, pets} {
		now := w.item(it.ID)
		assert.Equal(t, "ACTIVE", now.Status, it.Content)
		assert.Equal(t, it.Content, now.Content)
		assert.Equal(t, 1, now.Revision)
	}
	var about struct{ AboutMe string }
	w.api.Must(t, user, `query { aboutMe }`, nil, &about)
	assert.NotContains(t, about.AboutMe, "tea", "nothing reached the shared profile")
}

package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
)

// wsSubscriber is one websocket subscription of these tests, on a connection of its own.
type wsSubscriber struct {
	name string
	ws   *apitest.WS
}

// subscribeWS opens a connection with token and starts operation "1".
func subscribeWS(t *testing.T, s *apitest.API, name, token, query string, vars map[string]any) wsSubscriber {
	t.Helper()
	ws, err := apitest.ConnectWS(t.Context(), s.URL, token)
	require.NoError(t, err, name)
	t.Cleanup(ws.Close)
	require.NoError(t, ws.Subscribe("1", query, vars), name)
	return wsSubscriber{name: name, ws: ws}
}

// next returns the data of the subscription's next message, which must be a "next" without errors.
func (s wsSubscriber) next(t *testing.T, timeout time.Duration) (json.RawMessage, bool) {
	t.Helper()
	select {
	case m, ok := <-s.ws.Messages():
		require.True(t, ok, "%s: the connection ended: %v", s.name, s.ws.Err())
		require.Equal(t, "next", m.Type, "%s: %s %s", s.name, m.Type, m.Payload)
		var res apitest.Result
		require.NoError(t, json.Unmarshal(m.Payload, &res))
		require.Empty(t, res.Errors, "%s", s.name)
		return res.Data, true
	case <-time.After(timeout):
		return nil, false
	}
}

// change is one memoryChanged value, as the tests compare them.
type change struct{ Item, Status string }

func (s wsSubscriber) nextChange(t *testing.T) change {
	t.Helper()
	data, ok := s.next(t, apitest.Wait)
	require.True(t, ok, "%s: no event", s.name)
	var v struct {
		MemoryChanged struct{ ItemID, Status string }
	}
	require.NoError(t, json.Unmarshal(data, &v))
	return change{v.MemoryChanged.ItemID, v.MemoryChanged.Status}
}

const memoryChangedSubscription = `subscription($tm: ID) { memoryChanged(scope: {teammateId: $tm}) { itemId status } }`

// Many websocket subscribers with different credentials and variables, several of each kind: each
// receives exactly the events its own credential may see — none missed, none extra, none twice —
// and the subscribers that are equivalent (same document, variables and credential) share one
// execution, counted by the broker's subscriptions (RULES §4, S1, A2).
func TestSharedSubscriptionsDeliverWhatEachMaySee(t *testing.T) {
	t.Parallel()
	f := newMatrixFixture(t)
	f.t = t
	ownersRun := f.startRun(f.owner, "Hello.")
	othersRun := f.startRun(f.other, "Hello.")

	type class struct {
		name, token string
		scope       any // the teammate whose scope it follows; nil: the shared scope
		copies      int
	}
	classes := []class{
		{"user, owner's scope", userToken, f.owner, 3},
		{"user, shared scope", userToken, nil, 2},
		{"worker, owner's scope", workerToken, f.owner, 3},
		{"owner's run, owner's scope", ownersRun.Token, f.owner, 2},
		{"owner's run, shared scope", ownersRun.Token, nil, 1},
		{"other's run, shared scope", othersRun.Token, nil, 2},
	}
	var subs []wsSubscriber
	classOf := map[string]int{}
	for i, c := range classes {
		for n := range c.copies {
			name := fmt.Sprintf("%s #%d", c.name, n+1)
			subs = append(subs, subscribeWS(t, f.s, name, c.token, memoryChangedSubscription, map[string]any{"tm": c.scope}))
			classOf[name] = i
		}
	}
	// Refused by its own checks, whatever runs already: another teammate's run can't follow the
	// owner's scope (S1).
	refused := f.s.MustDialWS(t, nil)
	require.NoError(t, refused.Init(map[string]any{"authorization": "Bearer " + othersRun.Token}))
	require.NoError(t, refused.Subscribe("1", memoryChangedSubscription, map[string]any{"tm": f.owner}))
	require.Equal(t, []string{"FORBIDDEN"}, refused.ExpectFailedNext(t, "1"))

	// Subscriptions register on goroutines of their own: change both scopes until every subscriber
	// has heard of a change; those changes are left out below.
	warmUps := map[string]bool{}
	waiting := slices.Clone(subs)
	for n := 0; len(waiting) > 0; n++ {
		require.Less(t, n, 100, "subscribers that never heard of a change: %d", len(waiting))
		warmUps[f.createItem(f.text("Warm-up"))] = true
		warmUps[f.createShared(f.text("Warm-up"))] = true
		waiting = slices.DeleteFunc(waiting, func(s wsSubscriber) bool {
			_, ok := s.next(t, 100*time.Millisecond)
			return ok
		})
	}
	require.Equal(t, len(classes), f.s.App.Broker().Subscribers(), "executions for %d subscribers", len(subs))

	active := f.createItem(f.text("Likes tea"))
	suggestion := f.candidate()
	f.mutate(userToken, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": suggestion})
	f.mutate(userToken, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": suggestion})
	shared := f.createShared(f.text("Lives in Lyon"))
	createMemory(t, f.s, f.other, f.text("Another teammate's")) // nobody here may see it, or follows it
	f.mutate(userToken, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": active})
	ownMarker := f.createItem(f.text("Marker"))
	sharedMarker := f.createShared(f.text("Marker"))

	owners := []change{
		{active, "ACTIVE"}, {suggestion, "CANDIDATE"}, {suggestion, "DISMISSED"}, {suggestion, "FORGOTTEN"},
		{active, "FORGOTTEN"}, {ownMarker, "ACTIVE"},
	}
	withoutSuggestions := slices.DeleteFunc(slices.Clone(owners), func(c change) bool { return c.Item == suggestion })
	sharedScope := []change{{shared, "ACTIVE"}, {sharedMarker, "ACTIVE"}}
	want := [][]change{owners, sharedScope, withoutSuggestions, withoutSuggestions, sharedScope, sharedScope}
	for _, s := range subs {
		var got []change
		for len(got) == 0 || (got[len(got)-1].Item != ownMarker && got[len(got)-1].Item != sharedMarker) {
			if c := s.nextChange(t); !warmUps[c.Item] {
				got = append(got, c)
			}
		}
		require.Equal(t, want[classOf[s.name]], got, s.name)
	}
}

// createShared adds an active item to the shared scope as the user.
func (f *matrixFixture) createShared(content string) string {
	f.t.Helper()
	var out struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	data := f.mutate(userToken, `mutation($c: String!) { createMemory(input: {scope: {}, content: $c}) { item { id } } }`,
		map[string]any{"c": content})
	require.NoError(f.t, json.Unmarshal(data, &out))
	return out.CreateMemory.Item.ID
}

// A subscriber joining a running generationChanged execution is sent the current generation first,
// as one with an execution of its own is, then every change with the others.
func TestSharedGenerationSubscriptionStartsWithTheCurrentValue(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	tm := s.CreateTeammate(t, "Ada")
	vars := map[string]any{"id": tm}
	received := func(sub wsSubscriber) string {
		t.Helper()
		data, ok := sub.next(t, apitest.Wait)
		require.True(t, ok, "%s: no generation", sub.name)
		var v struct{ GenerationChanged struct{ Generation string } }
		require.NoError(t, json.Unmarshal(data, &v))
		return v.GenerationChanged.Generation
	}

	first := subscribeWS(t, s, "first", userToken, generationSubscription, vars)
	require.Equal(t, generation(t, s, tm), received(first))
	createMemory(t, s, tm, "Likes tea")
	changed := generation(t, s, tm)
	require.Equal(t, changed, received(first))

	joined := subscribeWS(t, s, "joined", userToken, generationSubscription, vars)
	require.Equal(t, changed, received(joined), "the joining subscriber's first value")
	require.Equal(t, 1, s.App.Broker().Subscribers(), "executions")
	createMemory(t, s, tm, "Likes coffee")
	now := generation(t, s, tm)
	require.Equal(t, now, received(first))
	require.Equal(t, now, received(joined))
}

// A run's credential ends with the run (RULES §4) for a subscription that would join an execution
// its run started while it ran: the joining one is checked itself and refused, and the running one
// ends at its next event.
func TestSharedSubscriptionOfAnEndedRunIsRefused(t *testing.T) {
	t.Parallel()
	f := newMatrixFixture(t)
	f.t = t
	run := f.startRun(f.owner, runMessage)
	running := f.s.MustDialWS(t, nil)
	require.NoError(t, running.Init(map[string]any{"authorization": "Bearer " + run.Token}))
	require.NoError(t, running.Subscribe("1", memoryChangedSubscription, map[string]any{"tm": f.owner}))
	stop := repeatUntilStopped(t.Context(), func(ctx context.Context, n int) error {
		return f.s.Call(ctx, userToken, `mutation($tm: ID, $c: String!) { createMemory(input: {scope: {teammateId: $tm}, content: $c}) { item { id } } }`,
			map[string]any{"tm": f.owner, "c": fmt.Sprintf("Warm-up %d", n)}, nil)
	})
	var first map[string]any
	running.Next(t, "1", &first)
	require.NoError(t, stop())
	// A second connection of the run, opened while it runs.
	late := f.s.MustDialWS(t, nil)
	require.NoError(t, late.Init(map[string]any{"authorization": "Bearer " + run.Token}))

	f.mutate(userToken, `mutation($id: ID!) { cancelRun(input: {runId: $id}) { id } }`, map[string]any{"id": run.ID})
	require.NoError(t, late.Subscribe("1", memoryChangedSubscription, map[string]any{"tm": f.owner}))
	require.Equal(t, []string{"UNAUTHENTICATED"}, late.ExpectFailedNext(t, "1"))

	f.createItem(f.text("Changed after the run"))
	for {
		m := running.Read(t)
		if m.Type == "complete" {
			break
		}
		require.Equal(t, "next", m.Type, "%s", m.Payload) // warm-ups still on their way
	}
}

package memory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
)

// TestDeleteTeammateLeavesNoTrace deletes a teammate through the API after writing its texts
// everywhere a teammate's texts go — items with keys and several revisions, a lesson (and its
// projection), waiting and dismissed suggestions, a proposal, runs with messages, a reply, a retry
// note, memory contexts, an embedding and a pending job — and then searches a pg_dump of the whole
// database and every NOTIFY payload for them (F1, F5). Unlike a forget, which keeps
// the conversation (F6), deleting the teammate removes its conversations too, so nothing may keep its
// texts. Another teammate's texts, written the same way, must still be in the dump: the search can
// fail.
func TestDeleteTeammateLeavesNoTrace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	databaseURL := dbtest.URL(t)
	pool, err := pgxpool.New(ctx, databaseURL)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	api := apitest.Start(t, databaseURL)
	listen := listenAll(t, pool)
	const user, worker = apitest.UserToken, apitest.WorkerToken

	do := func(token, query string, vars map[string]any) json.RawMessage {
		t.Helper()
		res := api.Do(t, token, query, vars)
		require.Empty(t, res.Errors, "%s", query)
		return res.Data
	}
	id := func(data json.RawMessage, path ...string) string {
		t.Helper()
		var v any
		require.NoError(t, json.Unmarshal(data, &v))
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		return v.(string)
	}
	teammate := func(name string) string {
		return id(do(user, `mutation($n: String!) { createTeammate(input: {name: $n}) { teammate { id } } }`,
			map[string]any{"n": name}), "createTeammate", "teammate", "id")
	}
	create := func(tm, key, content string) string {
		var scope, k any // "": shared, no key
		if tm != "" {
			scope = tm
		}
		if key != "" {
			k = key
		}
		return id(do(user, `mutation($tm: ID, $k: String, $c: String!) { createMemory(input: {scope: {teammateId: $tm}, key: $k, content: $c, pinned: true}) { item { id } } }`,
			map[string]any{"tm": scope, "k": k, "c": content}), "createMemory", "item", "id")
	}
	type run struct{ id, token string }
	start := func(tm, message string) run {
		data := do(worker, `mutation($tm: ID!, $m: String!) { startRun(input: {teammateId: $tm, message: $m}) { run { id } runToken } }`,
			map[string]any{"tm": tm, "m": message})
		return run{id(data, "startRun", "run", "id"), id(data, "startRun", "runToken")}
	}
	remember := func(r run, content string) string {
		data := do(r.token, `mutation($c: String!) { toolRemember(input: {content: $c}) { outcome item { id } } }`, map[string]any{"c": content})
		require.Equal(t, "SUGGESTED", id(data, "toolRemember", "outcome"))
		return id(data, "toolRemember", "item", "id")
	}
	// writeEverywhere gives teammate tm texts marked m in every place a teammate's text can be.
	writeEverywhere := func(tm string, m func(int) string) (running run, item string) {
		item = create(tm, "locker "+m(1), "Locker combination "+m(2))
		do(user, `mutation($id: ID!, $c: String!) { editMemory(input: {id: $id, baseRevision: 1, content: $c}) { item { id } } }`,
			map[string]any{"id": item, "c": "Locker combination " + m(3)})
		done := start(tm, "Chat "+m(4)+": what is my locker combination?")
		do(done.token, `mutation($r: String!) { completeRun(input: {reply: $r}) { id } }`, map[string]any{"r": "Reply " + m(5)})
		do(user, `mutation($id: ID!, $n: String!) { keepLesson(input: {runId: $id, note: $n}) { item { id } } }`,
			map[string]any{"id": done.id, "n": "Lesson " + m(6)})
		do(user, `mutation($id: ID!, $n: String!) { retryRunWithNote(input: {runId: $id, note: $n}) { messageId } }`,
			map[string]any{"id": done.id, "n": "Retry note " + m(7)})
		running = start(tm, "Chat "+m(8)+": hello")
		remember(running, "Has a cat called "+m(9))
		dismissed := remember(running, "Has a dog called "+m(10))
		do(user, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": dismissed})
		data := do(running.token, `mutation($id: ID!, $c: String!) { toolUpdateMemory(input: {id: $id, baseRevision: 2, content: $c}) { outcome } }`,
			map[string]any{"id": item, "c": "Locker combination " + m(11)})
		require.Equal(t, "SUGGESTED", id(data, "toolUpdateMemory", "outcome"))
		// An embedding and a pending job of the item, as the optional AI would leave them (I1).
		_, err := pool.Exec(ctx, `INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES ($1, 2, 'test', 3, '[1,2,3]')`, item)
		require.NoError(t, err)
		_, err = pool.Exec(ctx, `INSERT INTO memory_jobs (kind, item_id, revision) VALUES ('embed', $1, 2)`, item)
		require.NoError(t, err)
		return running, item
	}

	prefixA, prefixB := markerPrefix(t), markerPrefix(t)
	ada, bob := teammate("Ada "+prefixA), teammate("Bob "+prefixB)
	shared := create("", "", "Shared fact")
	adaRun, _ := writeEverywhere(ada, func(n int) string { return fmt.Sprintf("%s-%02d", prefixA, n) })
	bobRun, bobItem := writeEverywhere(bob, func(n int) string { return fmt.Sprintf("%s-%02d", prefixB, n) })

	// Every open page hears of it: a teammate list and Ada's generation, over the websocket.
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ws, err := apitest.ConnectWS(wctx, api.URL, user)
	require.NoError(t, err)
	defer ws.Close()
	require.NoError(t, ws.Subscribe("teammates", `subscription { teammatesChanged { teammateId change teammate { id } } }`, nil))
	require.NoError(t, ws.Subscribe("generation", `subscription($tm: ID!) { generationChanged(teammateId: $tm) { generation } }`, map[string]any{"tm": ada}))
	first := <-ws.Messages()
	require.Equal(t, "generation", first.ID, "generationChanged sends the current value first")
	// The teammates subscription registers asynchronously: a rename proves it is listening.
	var renamed bool
	require.True(t, apitest.WaitUntil(20*time.Second, func() bool {
		do(user, `mutation($id: ID!, $n: String!) { renameTeammate(input: {id: $id, name: $n}) { teammate { id } } }`,
			map[string]any{"id": bob, "n": "Bob " + prefixB})
		select {
		case m := <-ws.Messages():
			renamed = m.ID == "teammates" && strings.Contains(string(m.Payload), `"RENAMED"`)
		case <-time.After(200 * time.Millisecond):
		}
		return renamed
	}))

	var deleted struct {
		DeleteTeammate struct {
			TeammateID                                                   string
			ForgottenItems, DeletedRuns, DeletedThreads, DeletedMessages int
		}
	}
	api.Must(t, user, `mutation($id: ID!) { deleteTeammate(input: {id: $id}) { teammateId forgottenItems deletedRuns deletedThreads deletedMessages } }`,
		map[string]any{"id": ada}, &deleted)
	got := deleted.DeleteTeammate
	assert.Equal(t, ada, got.TeammateID)
	// The item, the lesson, two suggestions (one dismissed) and the proposal.
	assert.Equal(t, 5, got.ForgottenItems)
	assert.Equal(t, 2, got.DeletedRuns)
	assert.Equal(t, 2, got.DeletedThreads)
	// Two user messages, a reply and the retry note.
	assert.Equal(t, 4, got.DeletedMessages)

	// Live: the DELETED event, and Ada's generation subscription ends.
	var sawDeleted, generationEnded bool
	for !sawDeleted || !generationEnded {
		select {
		case m, ok := <-ws.Messages():
			require.True(t, ok, "the websocket closed")
			switch {
			case m.ID == "teammates" && m.Type == "next" && !strings.Contains(string(m.Payload), `"RENAMED"`):
				require.JSONEq(t, fmt.Sprintf(`{"data": {"teammatesChanged": {"teammateId": %q, "change": "DELETED", "teammate": null}}}`, ada), string(m.Payload))
				sawDeleted = true
			case m.ID == "generation" && (m.Type == "complete" || m.Type == "error"):
				generationEnded = true
			}
		case <-wctx.Done():
			t.Fatalf("no DELETED event (%v) or end of the generation subscription (%v)", sawDeleted, generationEnded)
		}
	}

	// Nothing of Ada's text anywhere in the database, nor in any NOTIFY payload (F5).
	tables := dumpTables(t, databaseURL)
	assert.Empty(t, tablesWith(tables, prefixA), "tables still holding the deleted teammate's texts")
	for _, p := range listen.drain(t, pool) {
		assert.NotContains(t, p, prefixA)
	}
	// The search works: Bob's texts are where they were, conversation included.
	assert.Subset(t, tablesWith(tables, prefixB), []string{"public.memory_items", "public.memory_revisions", "public.messages", "public.lessons", "public.teammates"})

	var rows int
	require.NoError(t, pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM memory_generations WHERE scope = $1::uuid::text) + (SELECT count(*) FROM memory_tombstones WHERE scope = $1::uuid::text) +
		(SELECT count(*) FROM memory_items WHERE teammate_id = $1::uuid) + (SELECT count(*) FROM runs WHERE teammate_id = $1::uuid) +
		(SELECT count(*) FROM bot_threads WHERE teammate_id = $1::uuid) + (SELECT count(*) FROM lessons WHERE teammate_id = $1::uuid)`, ada).Scan(&rows))
	assert.Zero(t, rows, "rows of the deleted teammate")
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_embeddings`).Scan(&rows))
	assert.Equal(t, 1, rows, "Bob's embedding only")

	// The deleted teammate names nothing; its running run's credential ended with it.
	assert.JSONEq(t, `{"teammate": null}`, string(do(user, `query($id: ID!) { teammate(id: $id) { id } }`, map[string]any{"id": ada})))
	assert.Equal(t, "NOT_FOUND", api.Do(t, user, `mutation($id: ID!) { deleteTeammate(input: {id: $id}) { teammateId } }`, map[string]any{"id": ada}).Code())
	assert.Equal(t, "NOT_FOUND", api.Do(t, user, `query($id: ID) { memoryItems(scope: {teammateId: $id}) { totalCount } }`, map[string]any{"id": ada}).Code())
	assert.Equal(t, "UNAUTHENTICATED", api.Do(t, adaRun.token, `mutation { checkRunGeneration { current } }`, nil).Code())
	assert.Equal(t, "BAD_USER_INPUT", api.Do(t, user, `mutation { deleteTeammate(input: {id: "not-an-id"}) { teammateId } }`, nil).Code())

	// Bob and shared memory are untouched, and Bob's run goes on: only Ada's scope changed.
	assert.JSONEq(t, `{"checkRunGeneration": {"interrupted": false}}`, string(do(bobRun.token, `mutation { checkRunGeneration { interrupted } }`, nil)))
	for _, it := range []string{bobItem, shared} {
		assert.Equal(t, "ACTIVE", id(do(user, `query($id: ID!) { memoryItem(id: $id) { status } }`, map[string]any{"id": it}), "memoryItem", "status"))
	}
}

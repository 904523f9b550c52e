package mcpserver_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
)

// A teammate's write retried with its idempotency key — over MCP, over GraphQL, and across the two
// with one run token — answers the first answer and writes once; the key reused for another input is
// BAD_USER_INPUT naming the key, in each transport's own words.
func TestToolRetryWithAnIdempotencyKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := w.startRun(t, w.ada, "Please remember that I keep bees.")
	s, err := connectHTTP(t, w, r.Token)
	require.NoError(t, err)
	count := func() (n int) {
		var out struct {
			MemoryItems struct{ TotalCount int }
		}
		w.api.Must(t, r.Token, `query($t: ID) { memoryItems(scope: {teammateId: $t}) { totalCount } }`,
			map[string]any{"t": w.ada}, &out)
		return out.MemoryItems.TotalCount
	}

	// remember over MCP, twice, then over GraphQL with the same key.
	key := uuid.NewString()
	args := map[string]any{"content": "I keep bees", "idempotency_key": key}
	text, isErr, first := call(t, s, "remember", args)
	require.False(t, isErr, text)
	require.Equal(t, "SAVED", first["outcome"], text)
	item := first["item"].(map[string]any)["id"]
	require.Equal(t, 1, count())
	againText, isErr, again := call(t, s, "remember", args)
	require.False(t, isErr, againText)
	assert.Equal(t, first, again, "the retry answers the first answer")
	assert.Equal(t, text, againText)
	var gql struct {
		ToolRemember struct {
			Outcome string
			Adopted bool
			Item    struct{ ID string }
		}
	}
	w.api.Must(t, r.Token, `mutation($c: String!, $k: String) { toolRemember(input: {content: $c, idempotencyKey: $k}) {
		outcome adopted item { id } } }`, map[string]any{"c": "I keep bees", "k": key}, &gql)
	assert.Equal(t, "SAVED", gql.ToolRemember.Outcome)
	assert.Equal(t, item, gql.ToolRemember.Item.ID, "one run token, one key: the same answer over GraphQL")
	assert.True(t, gql.ToolRemember.Adopted)
	assert.Equal(t, 1, count(), "one item for three calls")

	// The same key with another text.
	text, isErr, _ = call(t, s, "remember", map[string]any{"content": "I keep wasps", "idempotency_key": key})
	assert.True(t, isErr)
	assert.Regexp(t, `^BAD_USER_INPUT: idempotency_key: was already used for a different request`, text)
	assert.NotContains(t, text, "wasps")
	res, err := w.api.Post(t.Context(), apitest.Bearer(r.Token), `mutation($c: String!, $k: String) { toolRemember(input: {content: $c, idempotencyKey: $k}) {
		outcome } }`, map[string]any{"c": "I keep wasps", "k": key})
	require.NoError(t, err)
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	require.Len(t, res.Errors, 1)
	assert.Equal(t, "idempotencyKey", res.Errors[0].Extensions["field"])
	assert.Equal(t, 1, count(), "nothing written")

	// update_memory retried: the first answer, not a CONFLICT though the item moved to revision 2.
	bike := w.createItem(t, w.ada, "my bike is green")
	r = w.startRun(t, w.ada, "Please update my bike: my bike is blue.")
	s, err = connectHTTP(t, w, r.Token)
	require.NoError(t, err)
	args = map[string]any{"id": bike, "base_revision": 1, "content": "my bike is blue", "idempotency_key": uuid.NewString()}
	text, isErr, first = call(t, s, "update_memory", args)
	require.False(t, isErr, text)
	require.Equal(t, "SAVED", first["outcome"], text)
	text, isErr, again = call(t, s, "update_memory", args)
	require.False(t, isErr, "not a CONFLICT: %s", text)
	assert.Equal(t, first, again)
	status, revision, content := w.item(t, bike)
	assert.Equal(t, []any{"ACTIVE", 2, "my bike is blue"}, []any{status, revision, content}, "one correction")

	// toolForgetMemory over GraphQL, retried: FORGOTTEN again, not NOT_FOUND.
	var created struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	w.api.Must(t, apitest.UserToken, `mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, key: "locker",
		content: "My locker code is 4411"}) { item { id } } }`, map[string]any{"t": w.ada}, &created)
	locker := created.CreateMemory.Item.ID
	r = w.startRun(t, w.ada, "Please forget my locker.")
	key = uuid.NewString()
	for i := range 2 {
		var out struct {
			ToolForgetMemory struct {
				Outcome string
				Item    struct{ ID, Status string }
			}
		}
		w.api.Must(t, r.Token, `mutation($id: ID!, $k: String) { toolForgetMemory(input: {id: $id, idempotencyKey: $k}) {
			outcome item { id status } } }`, map[string]any{"id": locker, "k": key}, &out)
		assert.Equal(t, "FORGOTTEN", out.ToolForgetMemory.Outcome, "call %d", i+1)
		assert.Equal(t, locker, out.ToolForgetMemory.Item.ID, "call %d", i+1)
		assert.Equal(t, "FORGOTTEN", out.ToolForgetMemory.Item.Status, "call %d", i+1)
	}
}

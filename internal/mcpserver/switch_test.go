package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/memory"
)

const switchMutation = `mutation($t: ID!, $u: Boolean, $s: Boolean) {
  setMemorySwitch(input: {teammateId: $t, useMemory: $u, saveMemory: $s}) { teammate { id useMemory saveMemory } }
}`

// The memory switch over the API and MCP: only the user turns it (a run's or the worker's
// credential is FORBIDDEN); with "Use memory" off the packet is the note, the packet resource too,
// and both search tools answer MEMORY_OFF — over MCP and over GraphQL; with "Save to memory" off a
// save the user asked for waits as a suggestion and says why.
func TestMemorySwitchOverMCPAndGraphQL(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.createItem(t, w.ada, "my bike is green")

	before := w.startRun(t, w.ada, saveMessage)
	for _, token := range []string{before.Token, apitest.WorkerToken} {
		res := w.api.Do(t, token, switchMutation, map[string]any{"t": w.ada, "u": false})
		assert.Equal(t, "FORBIDDEN", res.Code())
	}
	res := w.api.Do(t, apitest.UserToken, switchMutation, map[string]any{"t": w.ada})
	assert.Equal(t, "BAD_USER_INPUT", res.Code(), "no setting given")

	var out struct {
		SetMemorySwitch struct {
			Teammate struct {
				ID                    string
				UseMemory, SaveMemory bool
			}
		}
	}
	w.api.Must(t, apitest.UserToken, switchMutation, map[string]any{"t": w.ada, "u": false, "s": false}, &out)
	assert.Equal(t, w.ada, out.SetMemorySwitch.Teammate.ID)
	assert.False(t, out.SetMemorySwitch.Teammate.UseMemory)
	assert.False(t, out.SetMemorySwitch.Teammate.SaveMemory)

	r := w.startRun(t, w.ada, saveMessage)
	assert.Equal(t, memory.MemoryOffNote, r.Packet)
	var started struct{ StartRun struct{ MemoryOff bool } }
	w.api.Must(t, apitest.WorkerToken, `mutation($t: ID!) { startRun(input: {teammateId: $t, message: "hello"}) { memoryOff } }`,
		map[string]any{"t": w.ada}, &started)
	assert.True(t, started.StartRun.MemoryOff)

	s, err := connectHTTP(t, w, r.Token)
	require.NoError(t, err)
	packet, err := s.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "memory://packet"})
	require.NoError(t, err)
	assert.Equal(t, memory.MemoryOffNote, packet.Contents[0].Text)
	for _, tool := range []string{"search_memory", "search_history"} {
		text, isErr, _ := call(t, s, tool, map[string]any{"query": "bike"})
		assert.True(t, isErr, tool)
		assert.True(t, strings.HasPrefix(text, "MEMORY_OFF: "), "%s: %s", tool, text)
		assert.NotContains(t, text, "my bike", tool)
	}
	for _, field := range []string{`toolSearchMemory(query: "bike") { id }`, `toolSearchHistory(query: "bike") { id }`} {
		res := w.api.Do(t, r.Token, "query { "+field+" }", nil)
		assert.Equal(t, "MEMORY_OFF", res.Code(), field)
	}

	text, isErr, structured := call(t, s, "remember", map[string]any{"content": "my bike is green too"})
	require.False(t, isErr, text)
	assert.Equal(t, "SUGGESTED", structured["outcome"], text)
	assert.Equal(t, "saving_off", structured["reason"], text)
	assert.Contains(t, text, `"Save to memory" is off`)
	item, _ := structured["item"].(map[string]any)
	id, _ := item["id"].(string)
	status, _, _ := w.item(t, id)
	assert.Equal(t, "CANDIDATE", status)
}

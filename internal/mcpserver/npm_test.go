package mcpserver_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/memory"
)

// npmClientDir holds the test-only npm package with the official TypeScript MCP client; `make test`
// installs it (npm ci) as it does frontend/.
const npmClientDir = "testdata/npm-client"

// npmResult is one line of client.mjs's output.
type npmResult struct {
	ConnectError string `json:"connectError"`
	Status       int    `json:"status"`
	Server       string `json:"server"`
	Results      []struct {
		Names      []string       `json:"names"`
		Described  bool           `json:"described"`
		IsError    bool           `json:"isError"`
		Text       string         `json:"text"`
		Structured map[string]any `json:"structured"`
	} `json:"results"`
}

// runNpmClient runs client.mjs with ops against w's /mcp as token.
func runNpmClient(t *testing.T, w *world, token string, ops ...map[string]any) npmResult {
	t.Helper()
	b, err := json.Marshal(ops)
	require.NoError(t, err)
	cmd := exec.CommandContext(t.Context(), "node", "client.mjs", string(b))
	cmd.Dir = npmClientDir
	cmd.Env = append(os.Environ(), "MCP_URL="+w.api.URL+"/mcp", "MCP_TOKEN="+token)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node client.mjs: %s", out)
	var res npmResult
	require.NoError(t, json.Unmarshal(out, &res), "output: %s", out)
	return res
}

// The scenario of checkSession with the official TypeScript client (@modelcontextprotocol/sdk) over
// Streamable HTTP: another implementation of the protocol than the server's own SDK.
func TestNpmClient(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the TypeScript MCP client test needs Node 20 (make test installs its package)")
	}
	if _, err := os.Stat(filepath.Join(npmClientDir, "node_modules", ".package-lock.json")); err != nil {
		// What `make test` does before the tests; done here for a plain `go test`.
		cmd := exec.CommandContext(t.Context(), "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = npmClientDir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "npm ci in %s (make test runs it too): %s", npmClientDir, out)
	}
	w := newWorld(t)
	adasItem := w.createItem(t, w.ada, "Likes the colour green")
	bobsItem := w.createItem(t, w.bob, "Bob rides a red bike")
	r := w.startRun(t, w.ada, saveMessage)

	res := runNpmClient(t, w, r.Token,
		map[string]any{"list": "tools"},
		map[string]any{"read": "memory://packet"},
		map[string]any{"tool": "remember", "args": map[string]any{"content": "my bike is green"}},
		map[string]any{"tool": "remember", "args": map[string]any{"content": "I like chess"}},
		map[string]any{"tool": "update_memory", "args": map[string]any{"id": bobsItem, "base_revision": 1, "content": "Bob's bike is green"}},
		map[string]any{"tool": "remember", "args": map[string]any{"content": "x", "scope": "shared"}},
	)
	require.Empty(t, res.ConnectError)
	assert.Equal(t, "memory", res.Server)
	require.Len(t, res.Results, 6)
	assert.Equal(t, toolNames, res.Results[0].Names)
	assert.True(t, res.Results[0].Described, "every tool has a description for the model")
	assert.Equal(t, r.Packet, res.Results[1].Text)
	save, suggest, forbidden, bad := res.Results[2], res.Results[3], res.Results[4], res.Results[5]
	assert.False(t, save.IsError)
	assert.True(t, strings.HasPrefix(save.Text, "SAVED: "), save.Text)
	assert.Equal(t, "SAVED", save.Structured["outcome"])
	assert.False(t, suggest.IsError)
	assert.True(t, strings.HasPrefix(suggest.Text, "SUGGESTED: "), suggest.Text)
	assert.True(t, forbidden.IsError)
	assert.True(t, strings.HasPrefix(forbidden.Text, "FORBIDDEN: "), forbidden.Text)
	assert.True(t, bad.IsError)
	assert.True(t, strings.HasPrefix(bad.Text, `BAD_USER_INPUT: "scope"`), bad.Text)

	// A concurrent user edit: the next call interrupts the run (G5).
	w.api.Must(t, apitest.UserToken, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 1, content: "Likes the colour teal"}) { item { id } } }`,
		map[string]any{"id": adasItem}, &struct{}{})
	res = runNpmClient(t, w, r.Token, map[string]any{"tool": "search_memory", "args": map[string]any{"query": "bike"}})
	require.Empty(t, res.ConnectError)
	require.Len(t, res.Results, 1)
	assert.True(t, res.Results[0].IsError)
	assert.Equal(t, memory.ErrMemoryChangedMidTurn.Error(), res.Results[0].Text)
	assert.Equal(t, "INTERRUPTED", w.runStatus(t, r.ID))

	// After completeRun, the token is refused (401) when the client connects.
	done := w.startRun(t, w.ada, "What colour is my bike?")
	w.api.Must(t, done.Token, `mutation { completeRun(input: {reply: "Green."}) { status } }`, nil, &struct{}{})
	res = runNpmClient(t, w, done.Token)
	assert.Equal(t, 401, res.Status, res.ConnectError)
}

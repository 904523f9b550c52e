package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
)

var (
	workerOnce sync.Once
	workerBin  string
	workerErr  error
)

// workerBinary builds cmd/worker once per test binary: the stdio transport is tested as an agent
// uses it, by launching `worker mcp` as a process.
func workerBinary(t *testing.T) string {
	t.Helper()
	workerOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcp-worker-")
		if err != nil {
			workerErr = err
			return
		}
		workerBin = filepath.Join(dir, "worker")
		out, err := exec.Command("go", "build", "-o", workerBin, "../../cmd/worker").CombinedOutput()
		if err != nil {
			workerErr = err
			t.Logf("%s", out)
		}
	})
	require.NoError(t, workerErr)
	return workerBin
}

// workerMCP is `worker mcp` for token against w's API.
func workerMCP(t *testing.T, w *world, token string) *exec.Cmd {
	cmd := exec.Command(workerBinary(t), "mcp")
	cmd.Env = append(os.Environ(), "MEMORY_API_URL="+w.api.URL, "MEMORY_RUN_TOKEN="+token)
	return cmd
}

// connectStdio launches `worker mcp` and connects the Go SDK's client to it over stdio.
func connectStdio(t *testing.T, w *world, token string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := workerMCP(t, w, token)
	cmd.Stderr = os.Stderr
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = session.Close() })
	return session
}

// checkSession's scenario over stdio: `worker mcp` relays to the API's /mcp, so every answer is the
// same as over HTTP.
func TestStdio(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	adasItem := w.createItem(t, w.ada, "Likes the colour green")
	bobsItem := w.createItem(t, w.bob, "Bob rides a red bike")
	r := w.startRun(t, w.ada, saveMessage)
	s := connectStdio(t, w, r.Token)
	checkSession(t, w, r, s, bobsItem, adasItem)

	// The run was interrupted: its token is refused, and each call says so.
	text, isErr, _ := call(t, s, "search_memory", map[string]any{"query": "bike"})
	assert.True(t, isErr)
	assert.True(t, strings.HasPrefix(text, "UNAUTHENTICATED: this run has ended"), text)
}

// `worker mcp` with an ended run's token stops at once with a message, and without a token says
// which variable to set.
func TestStdioRefusesEndedRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := w.startRun(t, w.ada, saveMessage)
	w.api.Must(t, r.Token, `mutation { completeRun(input: {reply: "Noted."}) { status } }`, nil, &struct{}{})
	out, err := workerMCP(t, w, r.Token).CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "the API refused the run token (401)")

	out, err = workerMCP(t, w, "").CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "set MEMORY_RUN_TOKEN")
}

// F3: `printf '<initialize>\n<tools/call>\n' | worker mcp` printed nothing, or the initialize answer
// alone, and exited 0: at the end of stdin the SDK cancelled the requests in flight and their
// answers were lost. Every request read is answered before `worker mcp` exits.
func TestStdioAnswersBeforeEOF(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.createItem(t, w.ada, "Ada's bike is green")
	r := w.startRun(t, w.ada, "What colour is my bike?")
	ctx, cancel := context.WithTimeout(t.Context(), apitest.Wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, workerBinary(t), "mcp")
	cmd.Env = append(os.Environ(), "MEMORY_API_URL="+w.api.URL, "MEMORY_RUN_TOKEN="+r.Token)
	cmd.Stderr = os.Stderr
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_memory","arguments":{"query":"bike"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n")
	out, err := cmd.Output()
	require.NoError(t, err, "worker mcp exits 0 at the end of stdin")

	answers := map[string]rpcAnswer{}
	for l := range strings.Lines(string(out)) {
		var answer rpcAnswer
		require.NoError(t, json.Unmarshal([]byte(l), &answer), l)
		answers[string(answer.ID)] = answer
	}
	require.Len(t, answers, 3, "one answer per request: %s", out)
	for _, id := range []string{"0", "1", "2"} {
		assert.Nil(t, answers[id].Error, id)
	}
	assert.Contains(t, string(answers["1"].Result), "Ada's bike is green")
	assert.Contains(t, string(answers["2"].Result), "search_memory")
}

package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/mcpserver"
	"github.com/open-bot/memory/internal/memory"
)

// rpcAnswer is one JSON-RPC response as it was sent.
type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// postWith sends body to /mcp with method, token and the extra headers, and returns the status and
// the body of the answer.
func postWith(t *testing.T, w *world, method, token, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, w.api.URL+"/mcp", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// A JSON-RPC batch would run every element at once, outside every limit (one 1 MiB batch is 7,000
// searches). A batch is refused whole with a JSON-RPC error whatever MCP-Protocol-Version says, and
// nothing in it runs; so is a body that isn't one JSON-RPC message. A single call still works
// after.
func TestHTTPRefusesBatches(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := w.startRun(t, w.ada, saveMessage)
	call := func(id int, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + jsonNumber(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	batch := "[" + call(1, "remember", `{"content":"my bike is green"}`) + "," + call(2, "search_memory", `{"query":"bike"}`) + "]"
	const batchMessage = "BAD_USER_INPUT: JSON-RPC batches are not supported"
	for _, c := range []struct {
		name, body, version string
		code                int
		id, message         string
	}{
		{"batch without a version", batch, "", jsonrpc.CodeInvalidRequest, "null", batchMessage},
		{"batch of 2025-03-26", batch, "2025-03-26", jsonrpc.CodeInvalidRequest, "null", batchMessage},
		{"batch of 2025-06-18", batch, "2025-06-18", jsonrpc.CodeInvalidRequest, "null", batchMessage},
		{"batch of one", "[" + call(3, "remember", `{"content":"my bike is green"}`) + "]", "", jsonrpc.CodeInvalidRequest, "null", batchMessage},
		{"empty batch", "[]", "", jsonrpc.CodeInvalidRequest, "null", batchMessage},
		{"not JSON", `{"jsonrpc":"2.0","id":4,`, "", jsonrpc.CodeParseError, "null", "BAD_USER_INPUT: the message is not valid JSON"},
		{"object id", `{"jsonrpc":"2.0","id":{"n":1},"method":"tools/list"}`, "", jsonrpc.CodeInvalidRequest, "null", "BAD_USER_INPUT: a request's id must be"},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, "", jsonrpc.CodeInvalidRequest, "null", "BAD_USER_INPUT: a request's id must be"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`, "", jsonrpc.CodeInvalidRequest, "null", "BAD_USER_INPUT: a request's id must be"},
		{"a number", `42`, "", jsonrpc.CodeInvalidRequest, "null", "BAD_USER_INPUT: a message must be one JSON-RPC 2.0 object"},
		{"JSON-RPC 1.0", `{"jsonrpc":"1.0","id":5,"method":"tools/list"}`, "", jsonrpc.CodeInvalidRequest, "5", "BAD_USER_INPUT: not a JSON-RPC 2.0 message"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, "", jsonrpc.CodeInvalidRequest, "null", "BAD_USER_INPUT: a request needs an id"},
		{"no id", `{"jsonrpc":"2.0","method":"tools/list"}`, "", jsonrpc.CodeInvalidRequest, "null", "BAD_USER_INPUT: a request needs an id"},
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"nope"}`, "", jsonrpc.CodeMethodNotFound, "7", "BAD_USER_INPUT: no such method"},
		{"unknown method, string id", `{"jsonrpc":"2.0","id":"a","method":"bike/remember"}`, "", jsonrpc.CodeMethodNotFound, `"a"`, "BAD_USER_INPUT: no such method"},
		{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/nope"}`, "", jsonrpc.CodeMethodNotFound, "null", "BAD_USER_INPUT: no such method"},
		{"notification with an id", `{"jsonrpc":"2.0","id":8,"method":"notifications/initialized"}`, "", jsonrpc.CodeInvalidRequest, "8", "BAD_USER_INPUT: a notification has no id"},
	} {
		header := map[string]string{}
		if c.version != "" {
			header["MCP-Protocol-Version"] = c.version
		}
		status, body := postWith(t, w, http.MethodPost, r.Token, c.body, header)
		assert.Equal(t, http.StatusBadRequest, status, "%s: %s", c.name, body)
		var answer rpcAnswer
		if assert.NoError(t, json.Unmarshal([]byte(body), &answer), "%s: a JSON-RPC answer: %s", c.name, body) && assert.NotNil(t, answer.Error, c.name) {
			assert.Equal(t, []any{"2.0", c.id, c.code}, []any{answer.JSONRPC, string(answer.ID), answer.Error.Code}, "%s: %s", c.name, body)
			assert.True(t, strings.HasPrefix(answer.Error.Message, c.message), "%s: %s", c.name, answer.Error.Message)
			assert.NotContains(t, answer.Error.Message, "bike", "a refusal never repeats the body (F5)")
		}
	}

	// Nothing in the batches ran: the remember would have saved the bike, as the user asked.
	var items struct {
		MemoryItems struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	w.api.Must(t, apitest.UserToken, `query($t: ID) { memoryItems(scope: {teammateId: $t}) { edges { node { id } } } }`,
		map[string]any{"t": w.ada}, &items)
	assert.Empty(t, items.MemoryItems.Edges, "a refused batch wrote nothing")

	// The same call alone is answered.
	status, body := postWith(t, w, http.MethodPost, r.Token, call(6, "remember", `{"content":"my bike is green"}`), nil)
	require.Equal(t, http.StatusOK, status, body)
	var answer rpcAnswer
	require.NoError(t, json.Unmarshal([]byte(body), &answer), body)
	assert.Nil(t, answer.Error, body)
	assert.Contains(t, string(answer.Result), "SAVED")
}

func jsonNumber(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// stdioLines launches `worker mcp` for token with raw pipes, and returns a function that sends one
// line and one that reads the next answer (failing the test if none comes within apitest.Wait).
func stdioLines(t *testing.T, w *world, token string) (send func(string), next func() rpcAnswer) {
	t.Helper()
	cmd := workerMCP(t, w, token)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := make(chan string)
	go func() {
		defer close(lines)
		scan := bufio.NewScanner(stdout)
		scan.Buffer(nil, 16<<20)
		for scan.Scan() {
			lines <- scan.Text()
		}
	}()
	send = func(line string) {
		_, err := io.WriteString(stdin, line+"\n")
		require.NoError(t, err, "worker mcp stopped reading")
	}
	next = func() rpcAnswer {
		t.Helper()
		select {
		case line, ok := <-lines:
			require.True(t, ok, "worker mcp exited")
			var answer rpcAnswer
			require.NoError(t, json.Unmarshal([]byte(line), &answer), line)
			return answer
		case <-time.After(apitest.Wait):
			t.Fatal("worker mcp did not answer")
			return rpcAnswer{}
		}
	}
	return send, next
}

// `worker mcp` must not exit at a line that isn't JSON, has an object id or is a batch: the agent
// would lose its memory tools for the rest of its run. Each such line is answered with a JSON-RPC
// error (id null where it can't be read, -32700 or -32600) and the next line is served: a good call
// after all of them works.
func TestStdioAnswersBadLines(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.createItem(t, w.ada, "Ada's bike is green")
	r := w.startRun(t, w.ada, "What colour is my bike?")
	send, next := stdioLines(t, w, r.Token)

	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	init := next()
	require.Nil(t, init.Error)
	require.Equal(t, "0", string(init.ID))
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	for _, bad := range []struct {
		line, id string
		code     int
		message  string
	}{
		{`this is not JSON`, "null", jsonrpc.CodeParseError, "BAD_USER_INPUT: the message is not valid JSON"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`, "null", jsonrpc.CodeParseError, "BAD_USER_INPUT: the message is not valid JSON"},
		{`[{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`, "null", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: JSON-RPC batches are not supported"},
		{`[]`, "null", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: JSON-RPC batches are not supported"},
		{`{"jsonrpc":"2.0","id":{"n":4},"method":"tools/list"}`, "null", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: a request's id must be"},
		{`{"jsonrpc":"2.0","id":[5],"method":"tools/list"}`, "null", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: a request's id must be"},
		{`"tools/list"`, "null", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: a message must be one JSON-RPC 2.0 object"},
		{`{"jsonrpc":"1.0","id":6,"method":"tools/list"}`, "6", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: not a JSON-RPC 2.0 message"},
		// An unknown notification is never answered: the next line's answer comes first.
		{`{"jsonrpc":"2.0","method":"notifications/nope"}` + "\n" + `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, "null", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: a request needs an id"},
		{`{"jsonrpc":"2.0","method":"tools/list"}`, "null", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: a request needs an id"},
		{`{"jsonrpc":"2.0","id":8,"method":"nope"}`, "8", jsonrpc.CodeMethodNotFound, "BAD_USER_INPUT: no such method"},
		{`{"jsonrpc":"2.0","id":9,"method":"notifications/initialized"}`, "9", jsonrpc.CodeInvalidRequest, "BAD_USER_INPUT: a notification has no id"},
	} {
		send(bad.line)
		answer := next()
		if assert.NotNil(t, answer.Error, bad.line) {
			assert.Equal(t, []any{"2.0", bad.id, bad.code}, []any{answer.JSONRPC, string(answer.ID), answer.Error.Code}, bad.line)
			assert.True(t, strings.HasPrefix(answer.Error.Message, bad.message), "%s: %s", bad.line, answer.Error.Message)
		}
	}

	// The session goes on: a good call after the bad lines is answered.
	send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"search_memory","arguments":{"query":"bike"}}}`)
	answer := next()
	require.Nil(t, answer.Error)
	assert.Equal(t, "10", string(answer.ID))
	assert.Contains(t, string(answer.Result), "Ada's bike is green")
}

// An answer over the response cap is replaced by a JSON-RPC error for its id, and the connection
// serves the next request: a client that never reads can't make the API hold more than the cap.
// The cap is the production default; the tool answers 9 MiB.
func TestResponseCap(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "cap", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"bytes":{"type":"integer"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Bytes int }
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", args.Bytes)}}}, nil
		})
	h := mcpserver.Handler(s, mcpserver.HTTPOptions{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(memory.WithCredential(r.Context(), memory.Credential{Kind: memory.CredentialRun, RunID: "run"})))
	}))
	t.Cleanup(srv.Close)
	echo := func(id, n int) (int, rpcAnswer, int) {
		body := `{"jsonrpc":"2.0","id":` + jsonNumber(id) + `,"method":"tools/call","params":{"name":"echo","arguments":{"bytes":` + jsonNumber(n) + `}}}`
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer run-token") // the SDK asks for one; the credential is on the context
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		var answer rpcAnswer
		require.NoError(t, json.Unmarshal(b, &answer), "%.200s", b)
		return resp.StatusCode, answer, len(b)
	}

	status, answer, size := echo(1, 9<<20)
	assert.Equal(t, http.StatusOK, status)
	require.NotNil(t, answer.Error, "a 9 MiB answer was sent (%d bytes)", size)
	assert.Equal(t, []any{"1", mcpserver.CodeResponseTooLarge}, []any{string(answer.ID), answer.Error.Code})
	assert.Equal(t, "RESPONSE_TOO_LARGE: the answer is larger than 8388608 bytes, the most /mcp sends, so it was not sent", answer.Error.Message)
	assert.Less(t, size, 1000)

	status, answer, size = echo(2, 7<<20)
	assert.Equal(t, http.StatusOK, status)
	assert.Nil(t, answer.Error, "an answer under the cap is sent as it is")
	assert.Greater(t, size, 7<<20)
}

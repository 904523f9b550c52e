package main_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/memory"
)

var handover = regexp.MustCompile(`Streamable HTTP: (\S+) with the header "Authorization: Bearer ([^"]+)"`)

// playMCP starts `worker play -mcp` and reads its output up to the handover, returning the MCP
// endpoint and run token it printed, the run's id, stdin, the rest of the output, and a wait to call
// after reading it all.
func (c client) playMCP(t *testing.T, message string) (endpoint, token, runID string, stdin io.WriteCloser, rest *bufio.Reader, wait func() error) {
	t.Helper()
	cmd := exec.Command(workerBinary(t), "play", "-teammate", c.teammate(t), "-message", message, "-mcp")
	cmd.Env = c.env()
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	rest = bufio.NewReader(stdout)
	var seen strings.Builder
	for {
		line, err := rest.ReadString('\n')
		require.NoError(t, err, "output so far:\n%s", seen.String())
		seen.WriteString(line)
		if m := runLine.FindStringSubmatch(line); m != nil {
			runID = m[1]
		}
		if m := handover.FindStringSubmatch(line); m != nil {
			endpoint, token = m[1], m[2]
		}
		if strings.HasPrefix(line, "waiting for `complete REPLY`") {
			break
		}
	}
	require.NotEmpty(t, token, "the handover:\n%s", seen.String())
	assert.Contains(t, seen.String(), "stdio:           MEMORY_API_URL="+c.api.URL+" MEMORY_RUN_TOKEN="+token+" worker mcp")
	// Wait closes stdout, so it is called only once the test has read all of it.
	return endpoint, token, runID, stdin, rest, func() error {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatal("worker play -mcp did not exit")
			return nil
		}
	}
}

type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectMCP connects the Go SDK's client to endpoint with token, as an agent given play's handover.
func connectMCP(t *testing.T, endpoint, token string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: endpoint, MaxRetries: -1, HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: bearerRT{token}},
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = session.Close() })
	return session
}

func toolText(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := s.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.NotEmpty(t, res.Content)
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// play -mcp: the agent calls the tools over MCP with the token play handed over, play completes the
// run with the reply it reads, and the token ends with the run.
func TestPlayOverMCP(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	endpoint, token, runID, stdin, rest, wait := c.playMCP(t, "Please remember that my bike is green.")
	assert.Equal(t, c.api.URL+"/mcp", endpoint)
	s := connectMCP(t, endpoint, token)
	text, isErr := toolText(t, s, "remember", map[string]any{"content": "my bike is green"})
	require.False(t, isErr, text)
	assert.True(t, strings.HasPrefix(text, "SAVED: "), text)

	_, err := io.WriteString(stdin, "search bike\ncomplete Noted: your bike is green.\n")
	require.NoError(t, err)
	out, err := io.ReadAll(rest)
	require.NoError(t, err)
	require.NoError(t, wait(), "%s", out)
	assert.Contains(t, string(out), "only `complete REPLY` is read here")
	assert.Contains(t, string(out), "run completed")
	var run struct {
		Run struct{ Status, Reply string }
	}
	c.api.Must(t, apitest.UserToken, `query($id: ID!) { run(id: $id) { status reply } }`, map[string]any{"id": runID}, &run)
	assert.Equal(t, "COMPLETED", run.Run.Status)
	assert.Equal(t, "Noted: your bike is green.", run.Run.Reply)

	_, err = s.CallTool(t.Context(), &mcp.CallToolParams{Name: "search_memory", Arguments: map[string]any{"query": "bike"}})
	require.Error(t, err, "the completed run's token is refused")
}

// play -mcp when the user changes memory mid-turn: the agent's next tool call answers the G5
// message and ends the run, and play reports the interruption and exits 1.
func TestPlayOverMCPInterrupted(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	endpoint, token, runID, stdin, rest, wait := c.playMCP(t, "Plan my week.")
	s := connectMCP(t, endpoint, token)
	var run struct {
		Run struct{ Teammate struct{ ID string } }
	}
	c.api.Must(t, apitest.UserToken, `query($id: ID!) { run(id: $id) { teammate { id } } }`, map[string]any{"id": runID}, &run)
	c.api.Must(t, apitest.UserToken, `mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, content: "Busy on Mondays"}) { item { id } } }`,
		map[string]any{"t": run.Run.Teammate.ID}, &struct{}{})
	text, isErr := toolText(t, s, "search_memory", map[string]any{"query": "week"})
	assert.True(t, isErr)
	assert.Equal(t, memory.ErrMemoryChangedMidTurn.Error(), text)

	_, err := io.WriteString(stdin, "complete Here is your week.\n")
	require.NoError(t, err)
	out, err := io.ReadAll(rest)
	require.NoError(t, err)
	var exit *exec.ExitError
	require.ErrorAs(t, wait(), &exit, "%s", out)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(out), "the run was interrupted")
}

// play -mcp -agent runs the agent with the handover in its environment and the message on stdin,
// and completes the run with what it writes.
func TestPlayAgent(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	agent := `read m; test -n "$MEMORY_RUN_TOKEN" && test "$MEMORY_MCP_URL" = "$MEMORY_API_URL/mcp" && echo "You said: $m"`
	out, runID, err := c.play(t, "", "-teammate", c.teammate(t), "-message", "Hello there.", "-mcp", "-agent", agent)
	require.NoError(t, err, out)
	assert.Contains(t, out, "run completed")
	var run struct{ Run struct{ Reply string } }
	c.api.Must(t, apitest.UserToken, `query($id: ID!) { run(id: $id) { reply } }`, map[string]any{"id": runID}, &run)
	assert.Equal(t, "You said: Hello there.", run.Run.Reply)

	out, _, err = c.play(t, "", "-teammate", c.teammate(t), "-message", "Hello there.", "-mcp", "-agent", "exit 3")
	require.Error(t, err)
	assert.Contains(t, out, "the agent failed")
}

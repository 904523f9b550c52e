package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
)

// The MCP cells of the access matrix: /mcp answers HTTP 401 or 403 before any tool runs, or a tool
// answers a tool error with the code GraphQL would give.
const (
	mcpUnauthorized access = "HTTP 401"
	mcpForbidden    access = "HTTP 403"
)

// mcpOp is one MCP operation of the matrix: a tool call, or reading memory://packet.
type mcpOp struct {
	tool string
	// args returns the arguments for one cell, creating what the call needs like matrixOp.vars.
	args func(f *matrixFixture, c *matrixCell) map[string]any
	want accessRow
	// outcome, when set, is the outcome an allowed call must answer.
	outcome string
}

// Rows of /mcp, in credential order: none, bad token, user, worker, run of the owner, run of another
// teammate, completed run, cancelled run, session cookie, logged-out session cookie, idle run. Only
// a running run's token reaches the tools (RULES §4); the tools then keep S1 as their GraphQL twins
// do. The web app's session is the user's credential: 403 like the user's token.
var (
	mcpAnyRun = accessRow{mcpUnauthorized, mcpUnauthorized, mcpForbidden, mcpForbidden, allowed, allowed, mcpUnauthorized, mcpUnauthorized,
		mcpForbidden, mcpUnauthorized, mcpUnauthorized}
	mcpOwnerRun = accessRow{mcpUnauthorized, mcpUnauthorized, mcpForbidden, mcpForbidden, allowed, forbid, mcpUnauthorized, mcpUnauthorized,
		mcpForbidden, mcpUnauthorized, mcpUnauthorized}
)

func noArgs(*matrixFixture, *matrixCell) map[string]any { return map[string]any{} }

var mcpOps = map[string]mcpOp{
	"remember": {tool: "remember", want: mcpAnyRun, outcome: "SAVED",
		args: func(*matrixFixture, *matrixCell) map[string]any { return map[string]any{"content": "I like green tea"} }},
	"remember_about_user": {tool: "remember_about_user", want: mcpAnyRun, outcome: "SUGGESTED",
		args: func(*matrixFixture, *matrixCell) map[string]any { return map[string]any{"content": "I like green tea"} }},
	"update_memory": {tool: "update_memory", want: mcpOwnerRun,
		args: func(f *matrixFixture, c *matrixCell) map[string]any {
			return map[string]any{"id": f.itemForRun(c, f.text("I like black tea")), "base_revision": 1, "content": "I like green tea"}
		}},
	"forget_memory": {tool: "forget_memory", want: mcpOwnerRun, outcome: "FORGOTTEN",
		args: func(f *matrixFixture, c *matrixCell) map[string]any {
			f.texts++ // a new text that "Forget the note about coffee" still covers (A5): see the GraphQL matrix
			return map[string]any{"id": f.itemForRun(c, "The note about coffee"+strings.Repeat(" note", f.texts))}
		}},
	"search_memory":   {tool: "search_memory", want: mcpAnyRun, args: func(*matrixFixture, *matrixCell) map[string]any { return map[string]any{"query": "tea"} }},
	"search_history":  {tool: "search_history", want: mcpAnyRun, args: func(*matrixFixture, *matrixCell) map[string]any { return map[string]any{"query": "tea"} }},
	"memory://packet": {want: mcpAnyRun, args: noArgs},
}

// TestAccessMatrixMCP is the access matrix of /mcp: every tool and the packet resource, called by
// every credential of the matrix, over the Go SDK's Streamable HTTP client where a credential gets
// through and a bare JSON-RPC POST where it doesn't. A refused call changes nothing. Every tool the
// server lists has a row, and every row a tool.
func TestAccessMatrixMCP(t *testing.T) {
	t.Parallel()
	f := newMatrixFixture(t)

	// The rows match what the server offers.
	f.t = t
	own := f.cell(credOwnRun)
	session := connectMCP(t, f, own.header())
	var offered []string
	for tool, err := range session.Tools(t.Context(), nil) {
		require.NoError(t, err)
		offered = append(offered, tool.Name)
	}
	for r, err := range session.Resources(t.Context(), nil) {
		require.NoError(t, err)
		offered = append(offered, r.URI)
	}
	slices.Sort(offered)
	var rows []string
	for name := range mcpOps {
		rows = append(rows, name)
	}
	slices.Sort(rows)
	require.Equal(t, rows, offered, "every MCP tool and resource has a row of the matrix, and every row one")
	require.NoError(t, session.Close())

	cells := 0
	for _, name := range rows {
		op := mcpOps[name]
		t.Run(name, func(t *testing.T) {
			for cred := range numCredentials {
				if t.Run(cred.String(), func(t *testing.T) {
					f.t = t
					defer func() { f.t = nil }()
					require.NotEmpty(t, op.want[cred], "%s has no expectation for %s", name, cred)
					checkMCPCell(t, f, name, op, f.cell(cred))
				}) {
					cells++
				}
			}
		})
	}
	t.Logf("MCP access matrix: %d of %d cells passed", cells, len(rows)*int(numCredentials))
	require.Equal(t, len(rows)*int(numCredentials), cells, "cells that failed")
}

func checkMCPCell(t *testing.T, f *matrixFixture, name string, op mcpOp, c *matrixCell) {
	args := op.args(f, c)
	want := op.want[c.cred]
	before := f.db.take(t)
	switch want {
	case mcpUnauthorized, mcpForbidden:
		status, header := postMCP(t, f, c.header(), op, args)
		if want == mcpUnauthorized {
			require.Equal(t, http.StatusUnauthorized, status, "%s as %s", name, c.cred)
			require.True(t, strings.HasPrefix(header.Get("WWW-Authenticate"), "Bearer "), "a 401 names the scheme")
		} else {
			require.Equal(t, http.StatusForbidden, status, "%s as %s", name, c.cred)
		}
		after := f.db.take(t)
		if c.cred == credIdleRun {
			// The one write a refused idle token makes: its run is interrupted and its token forgotten.
			status, hasToken := f.runStatus(t, c.run.ID)
			require.Equal(t, "interrupted", status, "%s as %s: the idle run goes on", name, c.cred)
			require.False(t, hasToken, "the idle run's token hash is kept")
			delete(before, "runs")
			delete(after, "runs")
		}
		require.Equal(t, before, after, "%s as %s: a refused call changed the database", name, c.cred)
		return
	}
	session := connectMCP(t, f, c.header())
	defer session.Close()
	if op.tool == "" {
		res, err := session.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: name})
		require.NoError(t, err, "%s as %s", name, c.cred)
		require.Len(t, res.Contents, 1)
		return
	}
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: op.tool, Arguments: args})
	require.NoError(t, err, "%s as %s: a protocol error", name, c.cred)
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if want == allowed {
		require.False(t, res.IsError, "%s as %s: %s", name, c.cred, text)
		if op.outcome != "" {
			require.True(t, strings.HasPrefix(text, op.outcome+": "), "%s as %s: %s", name, c.cred, text)
		}
		return
	}
	require.True(t, res.IsError, "%s as %s: want %s, got %s", name, c.cred, want, text)
	require.True(t, strings.HasPrefix(text, string(want)+": "), "%s as %s: %s", name, c.cred, text)
	require.Equal(t, before, f.db.take(t), "%s as %s: a refused call changed the database", name, c.cred)
}

// connectMCP connects the Go SDK's client to /mcp, sending header with every request.
func connectMCP(t *testing.T, f *matrixFixture, header http.Header) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "matrix", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), apitest.Wait)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: f.s.URL + "/mcp", MaxRetries: -1,
		HTTPClient: &http.Client{Timeout: apitest.Wait, Transport: headerTransport{header: header, next: f.s.HTTP.Transport}},
	}, nil)
	require.NoError(t, err)
	return session
}

// headerTransport adds header to every request.
type headerTransport struct {
	header http.Header
	next   http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.header {
		r.Header[k] = v
	}
	return h.next.RoundTrip(r)
}

// postMCP sends the cell's call as one bare JSON-RPC request (a stateless server needs no session
// first) and returns the HTTP status and headers.
func postMCP(t *testing.T, f *matrixFixture, header http.Header, op mcpOp, args map[string]any) (int, http.Header) {
	t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": op.tool, "arguments": args}}
	if op.tool == "" {
		msg["method"], msg["params"] = "resources/read", map[string]any{"uri": "memory://packet"}
	}
	body, err := json.Marshal(msg)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), apitest.Wait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.s.URL+"/mcp", strings.NewReader(string(body)))
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	if host := header.Get("Host"); host != "" {
		req.Host = host // net/http sends req.Host, not a Host header
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := f.s.HTTP.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// /mcp sits behind the same transport checks as every route: a page of another origin is refused
// before its call runs, a Host this server doesn't answer to gets 421, and a client that is not a
// browser — it sends no Origin — gets through with its run token.
func TestMCPTransportGuards(t *testing.T) {
	t.Parallel()
	f := newMatrixFixture(t)
	f.t = t
	c := f.cell(credOwnRun)
	list := mcpOp{tool: "search_memory"}
	args := map[string]any{"query": "tea"}

	status, _ := postMCP(t, f, c.header(), list, args)
	require.Equal(t, http.StatusOK, status, "a client with no Origin")

	h := c.header().Clone()
	h.Set("Origin", "https://evil.example")
	status, _ = postMCP(t, f, h, list, args)
	require.Equal(t, http.StatusForbidden, status, "a cross-origin page")

	h = c.header().Clone()
	h.Set("Origin", f.s.URL)
	status, _ = postMCP(t, f, h, list, args)
	require.Equal(t, http.StatusOK, status, "the server's own origin")

	h = c.header().Clone()
	h.Set("Host", "evil.example")
	status, _ = postMCP(t, f, h, list, args)
	require.Equal(t, http.StatusMisdirectedRequest, status, "a rebinding Host")
}

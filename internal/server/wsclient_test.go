package server_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
)

// wsMessage is one graphql-transport-ws message.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// wsClient speaks graphql-transport-ws over a real websocket. It reads synchronously, with a deadline
// on every read, and answers the server's pings as it reads, so it starts no goroutine of its own.
type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
	// pings counts the server's pings answered so far.
	pings int
}

// dialWS opens a graphql-transport-ws connection to s with header on the upgrade request (Origin,
// Cookie). A refused upgrade returns the error and the server's response, body read into body.
func dialWS(t *testing.T, s *apiServer, header http.Header) (c *wsClient, res *http.Response, body string, err error) {
	t.Helper()
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: wait}
	conn, res, err := dialer.DialContext(t.Context(), s.wsURL(), header)
	if res != nil && res.Body != nil {
		b, readErr := io.ReadAll(res.Body)
		require.NoError(t, readErr)
		res.Body.Close()
		body = string(b)
	}
	if err != nil {
		return nil, res, body, err
	}
	require.Equal(t, "graphql-transport-ws", conn.Subprotocol())
	c = &wsClient{t: t, conn: conn}
	t.Cleanup(c.close)
	return c, res, body, nil
}

// mustDialWS is dialWS for a connection that must open.
func mustDialWS(t *testing.T, s *apiServer, header http.Header) *wsClient {
	t.Helper()
	c, res, body, err := dialWS(t, s, header)
	require.NoError(t, err, "upgrade refused: %v %s", res, body)
	return c
}

func (c *wsClient) send(m wsMessage) {
	c.t.Helper()
	require.NoError(c.t, c.conn.SetWriteDeadline(time.Now().Add(wait)))
	require.NoError(c.t, c.conn.WriteJSON(m))
}

// readMessage returns the next message other than a ping, or the read error: a
// *websocket.CloseError once the server closed the connection.
func (c *wsClient) readMessage() (wsMessage, error) {
	c.t.Helper()
	for {
		m, err := c.readAny()
		if err != nil || m.Type != "ping" {
			return m, err
		}
	}
}

// readAny returns the next message, answering a ping with a pong first.
func (c *wsClient) readAny() (wsMessage, error) {
	c.t.Helper()
	require.NoError(c.t, c.conn.SetReadDeadline(time.Now().Add(wait)))
	var m wsMessage
	if err := c.conn.ReadJSON(&m); err != nil {
		return m, err
	}
	if m.Type == "ping" {
		c.pings++
		c.send(wsMessage{Type: "pong"})
	}
	return m, nil
}

// read is readMessage for a message that must come.
func (c *wsClient) read() wsMessage {
	c.t.Helper()
	m, err := c.readMessage()
	require.NoError(c.t, err, "reading from the websocket")
	return m
}

// init sends connection_init with payload and expects connection_ack.
func (c *wsClient) init(payload map[string]any) {
	c.t.Helper()
	c.sendInit(payload)
	m := c.read()
	require.Equal(c.t, "connection_ack", m.Type, "payload %s", m.Payload)
}

func (c *wsClient) sendInit(payload map[string]any) {
	c.t.Helper()
	raw, err := json.Marshal(payload)
	require.NoError(c.t, err)
	c.send(wsMessage{Type: "connection_init", Payload: raw})
}

// subscribe starts operation id.
func (c *wsClient) subscribe(id, query string, vars map[string]any) {
	c.t.Helper()
	raw, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(c.t, err)
	c.send(wsMessage{ID: id, Type: "subscribe", Payload: raw})
}

// next expects a "next" message for id without errors and unmarshals its data into v.
func (c *wsClient) next(id string, v any) {
	c.t.Helper()
	m := c.read()
	require.Equal(c.t, "next", m.Type, "message %s %s", m.Type, m.Payload)
	require.Equal(c.t, id, m.ID)
	var result struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlError      `json:"errors"`
	}
	require.NoError(c.t, json.Unmarshal(m.Payload, &result))
	require.Empty(c.t, result.Errors, "errors in next")
	require.NoError(c.t, json.Unmarshal(result.Data, v))
}

// expectError expects an "error" message for id — the operation was refused before it started —
// and returns the errors' codes.
func (c *wsClient) expectError(id string) []string {
	c.t.Helper()
	m := c.read()
	require.Equal(c.t, "error", m.Type, "message %s %s", m.Type, m.Payload)
	require.Equal(c.t, id, m.ID)
	var errs []gqlError
	require.NoError(c.t, json.Unmarshal(m.Payload, &errs))
	return codes(errs)
}

// expectFailedNext expects a "next" for id carrying errors and no data — the resolver failed — then
// "complete", and returns the errors' codes.
func (c *wsClient) expectFailedNext(id string) []string {
	c.t.Helper()
	m := c.read()
	require.Equal(c.t, "next", m.Type, "message %s %s", m.Type, m.Payload)
	require.Equal(c.t, id, m.ID)
	var result struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlError      `json:"errors"`
	}
	require.NoError(c.t, json.Unmarshal(m.Payload, &result))
	require.JSONEq(c.t, "null", string(result.Data))
	c.expectComplete(id)
	return codes(result.Errors)
}

// expectComplete expects the server to complete id.
func (c *wsClient) expectComplete(id string) {
	c.t.Helper()
	m := c.read()
	require.Equal(c.t, wsMessage{ID: id, Type: "complete"}, m)
}

func codes(errs []gqlError) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i], _ = e.Extensions["code"].(string)
	}
	return out
}

// expectClose reads until the server closes the connection and requires the close code.
func (c *wsClient) expectClose(code int) {
	c.t.Helper()
	for {
		m, err := c.readMessage()
		if err == nil {
			continue // e.g. an error message before the close frame
		}
		closeErr, ok := errors.AsType[*websocket.CloseError](err)
		require.True(c.t, ok, "want close code %d, got %v (last message %s)", code, err, m.Type)
		require.Equal(c.t, code, closeErr.Code, "close reason %q", closeErr.Text)
		return
	}
}

// awaitPings reads until the server's nth ping has been answered; any other message fails.
func (c *wsClient) awaitPings(n int) {
	c.t.Helper()
	for c.pings < n {
		m, err := c.readAny()
		require.NoError(c.t, err, "waiting for ping %d", c.pings+1)
		require.Equal(c.t, "ping", m.Type, "waiting for pings, got %s %s", m.Type, m.Payload)
	}
}

// close ends the connection; the server's handler sees the closed socket and returns.
func (c *wsClient) close() {
	_ = c.conn.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = c.conn.Close()
}

package apitest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
)

// WSMessage is one graphql-transport-ws message.
type WSMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// WS speaks graphql-transport-ws over one websocket. One goroutine reads: it answers the server's
// pings, counting them, and hands every other message to Messages, which is closed when the
// connection ends (Err then says why). A test reads the messages either from that channel, or
// through the expectations (Read, Next, ExpectError …), which fail the test when the message they
// expect doesn't come within Wait.
type WS struct {
	conn *websocket.Conn
	msgs chan WSMessage
	// pings counts the pings answered; pinged receives a token after each.
	pings  atomic.Int64
	pinged chan struct{}
	quit   chan struct{}
	done   chan struct{}
	err    error // why reading ended; read it after done is closed

	writeMu   sync.Mutex
	closeOnce sync.Once
}

// DialWS opens a graphql-transport-ws connection to the API at baseURL with header on the upgrade
// request (a session cookie, an Origin, an Authorization); it sends nothing yet. A refused upgrade
// returns an error wrapping websocket.ErrBadHandshake and the server's answer as a Result: its
// status, headers and GraphQL error.
func DialWS(ctx context.Context, baseURL string, header http.Header) (*WS, Result, error) {
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: Wait}
	conn, res, err := dialer.DialContext(ctx, "ws"+strings.TrimPrefix(baseURL, "http")+"/graphql", header)
	var refusal Result
	if res != nil {
		refusal.Status, refusal.Header = res.StatusCode, res.Header
		raw, readErr := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil && (readErr != nil || json.Unmarshal(raw, &refusal) != nil) {
			return nil, refusal, fmt.Errorf("%w: HTTP %d, not a GraphQL response: %.200s", err, res.StatusCode, raw)
		}
	}
	if err != nil {
		return nil, refusal, err
	}
	if conn.Subprotocol() != "graphql-transport-ws" {
		conn.Close()
		return nil, Result{}, fmt.Errorf("the server chose subprotocol %q", conn.Subprotocol())
	}
	c := &WS{conn: conn, msgs: make(chan WSMessage, 1024), pinged: make(chan struct{}, 1),
		quit: make(chan struct{}), done: make(chan struct{})}
	go c.read()
	return c, Result{}, nil
}

// ConnectWS opens a connection to the API at baseURL and authenticates with token in
// connection_init, as the worker and agents do.
func ConnectWS(ctx context.Context, baseURL, token string) (*WS, error) {
	c, _, err := DialWS(ctx, baseURL, nil)
	if err != nil {
		return nil, err
	}
	if err := c.Init(map[string]any{"authorization": "Bearer " + token}); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// MustDialWS is DialWS for a connection that must open; it is closed when the test ends.
func (c *Client) MustDialWS(t testing.TB, header http.Header) *WS {
	t.Helper()
	ws, refusal, err := DialWS(t.Context(), c.URL, header)
	require.NoError(t, err, "upgrade refused: HTTP %d %+v", refusal.Status, refusal.Errors)
	t.Cleanup(ws.Close)
	return ws
}

func (c *WS) read() {
	defer close(c.done)
	defer close(c.msgs)
	for {
		var m WSMessage
		if err := c.conn.ReadJSON(&m); err != nil {
			c.err = err
			return
		}
		if m.Type == "ping" {
			_ = c.Send(WSMessage{Type: "pong"})
			c.pings.Add(1)
			select {
			case c.pinged <- struct{}{}:
			default:
			}
			continue
		}
		select {
		case c.msgs <- m:
		case <-c.quit:
			return
		}
	}
}

// Send sends one message.
func (c *WS) Send(m WSMessage) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.SendText(raw)
}

// SendText sends data as one text message, byte for byte (json.Marshal would replace invalid UTF-8).
func (c *WS) SendText(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := c.conn.SetWriteDeadline(time.Now().Add(Wait)); err != nil {
		return err
	}
	return c.conn.WriteMessage(websocket.TextMessage, data)
}

// SendInit sends connection_init with payload, without waiting for the answer.
func (c *WS) SendInit(payload map[string]any) error {
	raw, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	return c.Send(WSMessage{Type: "connection_init", Payload: raw})
}

// Init sends connection_init with payload and waits for connection_ack.
func (c *WS) Init(payload map[string]any) error {
	if err := c.SendInit(payload); err != nil {
		return err
	}
	m, err := c.Receive()
	switch {
	case err != nil:
		return fmt.Errorf("no connection_ack: %w", err)
	case m.Type != "connection_ack":
		return fmt.Errorf("no connection_ack: %s %s", m.Type, m.Payload)
	}
	return nil
}

// Subscribe starts operation id.
func (c *WS) Subscribe(id, query string, vars map[string]any) error {
	payload, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	return c.Send(WSMessage{ID: id, Type: "subscribe", Payload: payload})
}

// Close ends the connection with a normal closure and waits for the reader. It may be called more
// than once.
func (c *WS) Close() {
	c.closeOnce.Do(func() {
		c.writeMu.Lock()
		_ = c.conn.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		c.writeMu.Unlock()
		close(c.quit)
		_ = c.conn.Close()
		<-c.done
	})
}

// ClosedByUs reports whether Close was called, so a read error afterwards is ours.
func (c *WS) ClosedByUs() bool {
	select {
	case <-c.quit:
		return true
	default:
		return false
	}
}

// Messages delivers every message but pings, in order; it is closed when the connection ends.
func (c *WS) Messages() <-chan WSMessage { return c.msgs }

// Err says why the connection ended; read it once Messages is closed.
func (c *WS) Err() error { return c.err }

// Receive returns the next message other than a ping or, once the connection has ended, why: a
// *websocket.CloseError when the server closed it. It waits at most Wait.
func (c *WS) Receive() (WSMessage, error) {
	select {
	case m, ok := <-c.msgs:
		switch {
		case ok:
			return m, nil
		case c.err == nil: // the reader stopped for Close
			return WSMessage{}, net.ErrClosed
		}
		return WSMessage{}, c.err
	case <-time.After(Wait):
		return WSMessage{}, fmt.Errorf("no message within %v", Wait)
	}
}

// Read is Receive for a message that must come.
func (c *WS) Read(t testing.TB) WSMessage {
	t.Helper()
	m, err := c.Receive()
	require.NoError(t, err, "reading from the websocket")
	return m
}

// Next expects a "next" message for id without errors and unmarshals its data into v.
func (c *WS) Next(t testing.TB, id string, v any) {
	t.Helper()
	res := c.nextResult(t, id)
	require.Empty(t, res.Errors, "errors in next")
	require.NoError(t, json.Unmarshal(res.Data, v))
}

// ExpectError expects an "error" message for id — the operation was refused before it started — and
// returns the errors' codes.
func (c *WS) ExpectError(t testing.TB, id string) []string {
	t.Helper()
	m := c.Read(t)
	require.Equal(t, "error", m.Type, "message %s %s", m.Type, m.Payload)
	require.Equal(t, id, m.ID)
	var res Result
	require.NoError(t, json.Unmarshal(m.Payload, &res.Errors))
	return res.Codes()
}

// ExpectFailedNext expects a "next" for id carrying errors and no data — the resolver failed — then
// "complete", and returns the errors' codes.
func (c *WS) ExpectFailedNext(t testing.TB, id string) []string {
	t.Helper()
	res := c.nextResult(t, id)
	require.JSONEq(t, "null", string(res.Data))
	c.ExpectComplete(t, id)
	return res.Codes()
}

// nextResult expects a "next" message for id and returns its payload.
func (c *WS) nextResult(t testing.TB, id string) Result {
	t.Helper()
	m := c.Read(t)
	require.Equal(t, "next", m.Type, "message %s %s", m.Type, m.Payload)
	require.Equal(t, id, m.ID)
	var res Result
	require.NoError(t, json.Unmarshal(m.Payload, &res))
	return res
}

// ExpectComplete expects the server to complete id.
func (c *WS) ExpectComplete(t testing.TB, id string) {
	t.Helper()
	require.Equal(t, WSMessage{ID: id, Type: "complete"}, c.Read(t))
}

// ExpectClose reads until the server closes the connection and requires the close code.
func (c *WS) ExpectClose(t testing.TB, code int) {
	t.Helper()
	for {
		m, err := c.Receive()
		if err == nil {
			continue // e.g. an error message before the close frame
		}
		closeErr, ok := errors.AsType[*websocket.CloseError](err)
		require.True(t, ok, "want close code %d, got %v (last message %s)", code, err, m.Type)
		require.Equal(t, code, closeErr.Code, "close reason %q", closeErr.Text)
		return
	}
}

// AwaitPings waits until the server's nth ping has been answered; any other message fails.
func (c *WS) AwaitPings(t testing.TB, n int) {
	t.Helper()
	for c.pings.Load() < int64(n) {
		select {
		case <-c.pinged:
		case m, ok := <-c.msgs:
			require.True(t, ok, "the connection ended waiting for ping %d: %v", c.pings.Load()+1, c.err)
			require.FailNow(t, fmt.Sprintf("waiting for pings, got %s %s", m.Type, m.Payload))
		case <-time.After(Wait):
			require.FailNow(t, fmt.Sprintf("no ping %d within %v", c.pings.Load()+1, Wait))
		}
	}
}

package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// CurrentRevision is a CONFLICT's extensions.currentRevision, 0 when absent.
func (r Result) CurrentRevision() int {
	if len(r.Errors) == 0 {
		return 0
	}
	n, _ := r.Errors[0].Extensions["currentRevision"].(float64)
	return int(n)
}

// Client posts GraphQL operations over HTTP. Unlike API it returns errors instead of failing the
// test, so clients can go on while the database is down (internal/faults) or count every error by
// its code (internal/soak).
type Client struct {
	url  string
	http *http.Client
}

// NewClient is a Client of the API at baseURL keeping up to idle connections open.
func NewClient(baseURL string, idle int) *Client {
	return &Client{url: baseURL + "/graphql", http: &http.Client{
		Timeout:   10 * time.Second, // a hang becomes an error the test reports
		Transport: &http.Transport{MaxIdleConnsPerHost: idle},
	}}
}

// CloseIdleConnections closes the client's idle keep-alive connections.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Do posts one operation with token as the bearer; decoding into data is the caller's.
func (c *Client) Do(ctx context.Context, token, query string, vars map[string]any) (Result, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return Result{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return Result{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.http.Do(req)
	if err != nil {
		return Result{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return Result{}, err
	}
	var out Result
	if err := json.Unmarshal(raw, &out); err != nil {
		return Result{}, fmt.Errorf("HTTP %d, not a GraphQL response: %.200s", resp.StatusCode, raw)
	}
	return out, nil
}

// Must is Do for operations that must succeed; it decodes data into v.
func (c *Client) Must(ctx context.Context, token, query string, vars map[string]any, v any) error {
	res, err := c.Do(ctx, token, query, vars)
	if err != nil {
		return err
	}
	if len(res.Errors) > 0 {
		return fmt.Errorf("GraphQL errors: %+v", res.Errors)
	}
	return json.Unmarshal(res.Data, v)
}

// WSMessage is one graphql-transport-ws message.
type WSMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// WS speaks graphql-transport-ws. One goroutine reads: it answers the server's pings and
// hands every other message to Messages, which is closed when the connection ends (Err then says why).
type WS struct {
	conn *websocket.Conn
	msgs chan WSMessage
	quit chan struct{}
	done chan struct{}
	err  error // why reading ended; read it after done is closed

	writeMu   sync.Mutex
	closeOnce sync.Once
}

// DialWS opens a connection to the API at baseURL and authenticates with token.
func DialWS(ctx context.Context, baseURL, token string) (*WS, error) {
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second}
	conn, resp, err := dialer.DialContext(ctx, "ws"+strings.TrimPrefix(baseURL, "http")+"/graphql", nil)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return nil, err
	}
	c := &WS{conn: conn, msgs: make(chan WSMessage, 1024), quit: make(chan struct{}), done: make(chan struct{})}
	go c.read()
	payload, _ := json.Marshal(map[string]string{"authorization": "Bearer " + token})
	if err := c.Send(WSMessage{Type: "connection_init", Payload: payload}); err != nil {
		c.Close()
		return nil, err
	}
	select {
	case m, ok := <-c.msgs:
		if !ok || m.Type != "connection_ack" {
			c.Close()
			return nil, fmt.Errorf("no connection_ack: %+v (%v)", m, c.err)
		}
	case <-time.After(10 * time.Second):
		c.Close()
		return nil, errors.New("no connection_ack within 10s")
	}
	return c, nil
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
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return err
	}
	return c.conn.WriteJSON(m)
}

// Subscribe starts operation id.
func (c *WS) Subscribe(id, query string, vars map[string]any) error {
	payload, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	return c.Send(WSMessage{ID: id, Type: "subscribe", Payload: payload})
}

// Close ends the connection with a normal closure and waits for the reader.
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

// WaitUntil polls cond every 10 ms until it holds or timeout passes, and reports whether it held.
func WaitUntil(timeout time.Duration, cond func() bool) bool {
	deadline := time.After(timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if cond() {
			return true
		}
		select {
		case <-deadline:
			return cond()
		case <-tick.C:
		}
	}
}

package soak_test

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

// gqlError is one GraphQL error.
type gqlError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// gqlResult is a GraphQL response.
type gqlResult struct {
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

// code is the first error's extensions.code, "" when there is none.
func (r gqlResult) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// currentRevision is a CONFLICT's extensions.currentRevision, 0 when absent.
func (r gqlResult) currentRevision() int {
	if len(r.Errors) == 0 {
		return 0
	}
	n, _ := r.Errors[0].Extensions["currentRevision"].(float64)
	return int(n)
}

// gqlClient posts GraphQL operations. Unlike apitest.API it returns errors instead of failing the
// test, so it can be used from the soak's client goroutines, which count every error by its code.
type gqlClient struct {
	url  string
	http *http.Client
}

func newGQLClient(baseURL string) *gqlClient {
	return &gqlClient{url: baseURL + "/graphql", http: &http.Client{
		Timeout:   10 * time.Second, // a hang becomes an error the test reports
		Transport: &http.Transport{MaxIdleConnsPerHost: 64},
	}}
}

// do posts one operation with token as the bearer; decoding into data is the caller's.
func (c *gqlClient) do(ctx context.Context, token, query string, vars map[string]any) (gqlResult, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return gqlResult{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return gqlResult{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.http.Do(req)
	if err != nil {
		return gqlResult{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return gqlResult{}, err
	}
	var out gqlResult
	if err := json.Unmarshal(raw, &out); err != nil {
		return gqlResult{}, fmt.Errorf("HTTP %d, not a GraphQL response: %.200s", resp.StatusCode, raw)
	}
	return out, nil
}

// must is do for operations that must succeed; it decodes data into v.
func (c *gqlClient) must(ctx context.Context, token, query string, vars map[string]any, v any) error {
	res, err := c.do(ctx, token, query, vars)
	if err != nil {
		return err
	}
	if len(res.Errors) > 0 {
		return fmt.Errorf("GraphQL errors: %+v", res.Errors)
	}
	return json.Unmarshal(res.Data, v)
}

// wsMessage is one graphql-transport-ws message.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// wsClient speaks graphql-transport-ws. One goroutine reads: it answers the server's pings and
// hands every other message to msgs, which is closed when the connection ends (err then says why).
type wsClient struct {
	conn *websocket.Conn
	msgs chan wsMessage
	quit chan struct{}
	done chan struct{}
	err  error // why reading ended; read it after done is closed

	writeMu   sync.Mutex
	closeOnce sync.Once
}

// dialWS opens a connection to the API at baseURL and authenticates with token.
func dialWS(ctx context.Context, baseURL, token string) (*wsClient, error) {
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second}
	conn, resp, err := dialer.DialContext(ctx, "ws"+strings.TrimPrefix(baseURL, "http")+"/graphql", nil)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return nil, err
	}
	c := &wsClient{conn: conn, msgs: make(chan wsMessage, 1024), quit: make(chan struct{}), done: make(chan struct{})}
	go c.read()
	payload, _ := json.Marshal(map[string]string{"authorization": "Bearer " + token})
	if err := c.send(wsMessage{Type: "connection_init", Payload: payload}); err != nil {
		c.close()
		return nil, err
	}
	select {
	case m, ok := <-c.msgs:
		if !ok || m.Type != "connection_ack" {
			c.close()
			return nil, fmt.Errorf("no connection_ack: %+v (%v)", m, c.err)
		}
	case <-time.After(10 * time.Second):
		c.close()
		return nil, errors.New("no connection_ack within 10s")
	}
	return c, nil
}

func (c *wsClient) read() {
	defer close(c.done)
	defer close(c.msgs)
	for {
		var m wsMessage
		if err := c.conn.ReadJSON(&m); err != nil {
			c.err = err
			return
		}
		if m.Type == "ping" {
			_ = c.send(wsMessage{Type: "pong"})
			continue
		}
		select {
		case c.msgs <- m:
		case <-c.quit:
			return
		}
	}
}

func (c *wsClient) send(m wsMessage) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return err
	}
	return c.conn.WriteJSON(m)
}

// subscribe starts operation id.
func (c *wsClient) subscribe(id, query string, vars map[string]any) error {
	payload, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	return c.send(wsMessage{ID: id, Type: "subscribe", Payload: payload})
}

// close ends the connection with a normal closure and waits for the reader.
func (c *wsClient) close() {
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

// closedByUs reports whether close was called, so a read error afterwards is ours.
func (c *wsClient) closedByUs() bool {
	select {
	case <-c.quit:
		return true
	default:
		return false
	}
}

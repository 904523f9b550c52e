package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
)

// gorillaWebsocket adapts gorilla/websocket to gqlgen's transport.WebsocketImplementation (gqlgen
// dropped its built-in gorilla transport in v0.17.92).
type gorillaWebsocket struct {
	upgrader websocket.Upgrader
	// initTimeout closes a connection that sends no message within it with 4408 (zero: never).
	initTimeout time.Duration
}

var _ transport.WebsocketImplementation = gorillaWebsocket{}

// Accept upgrades the request, offering gqlgen's subprotocols on top of the upgrader's own.
func (g gorillaWebsocket) Accept(w http.ResponseWriter, r *http.Request, opts transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	up := g.upgrader
	up.Subprotocols = slices.Clone(up.Subprotocols)
	for _, p := range opts.Subprotocols {
		if !slices.Contains(up.Subprotocols, p) {
			up.Subprotocols = append(up.Subprotocols, p)
		}
	}
	conn, err := up.Upgrade(w, r, opts.ResponseHeader)
	if err != nil {
		return nil, err
	}
	c := gorillaConn{Conn: conn, init: &initWatch{}, subs: &subscriptionIDs{ids: map[string]*subscriptionID{}}}
	if g.initTimeout > 0 {
		c.init.timer = time.AfterFunc(g.initTimeout, c.initTimedOut)
	}
	if tracked := trackedConnFrom(r.Context()); tracked != nil {
		tracked.accepted(c)
	}
	return c, nil
}

// CloseInitTimeout is the graphql-transport-ws close code for a connection that sent no
// connection_init in time.
const CloseInitTimeout = 4408

// gorillaConn is one accepted connection. gqlgen serialises writes under its own mutex.
type gorillaConn struct {
	*websocket.Conn
	init *initWatch
	subs *subscriptionIDs
}

// initWatch is the connection_init deadline of one connection. gqlgen's own InitTimeout closes with
// 1002, where graphql-transport-ws says 4408, so the adapter keeps the deadline itself: whichever of
// the first message and the timer comes first wins the state, and the loser does nothing.
type initWatch struct {
	state atomic.Int32 // initWaiting, initReceived or initExpired
	timer *time.Timer
}

const (
	initWaiting int32 = iota
	initReceived
	initExpired
)

// initTimedOut closes the connection with 4408 unless a first message has arrived; gqlgen, blocked
// reading it, then sees the closed connection and ends it.
func (c gorillaConn) initTimedOut() {
	if c.init.state.CompareAndSwap(initWaiting, initExpired) {
		_ = c.WriteClose(CloseInitTimeout, "Connection initialisation timeout")
		_ = c.Conn.Close()
	}
}

// received records that a whole message arrived: the init deadline no longer applies.
func (c gorillaConn) received() error {
	if c.init.state.Load() == initReceived {
		return nil
	}
	if !c.init.state.CompareAndSwap(initWaiting, initReceived) {
		return errInitTimeout
	}
	if c.init.timer != nil {
		c.init.timer.Stop()
	}
	return nil
}

var errInitTimeout = errors.New("websocket: connection_init did not arrive in time")

var (
	_ transport.WebsocketConn          = gorillaConn{}
	_ transport.WebsocketReadLimiter   = gorillaConn{}
	_ transport.WebsocketReadDeadliner = gorillaConn{}
)

// NextReader reports a peer's normal close as transport.ErrWebsocketClosed, as gqlgen expects. A
// text message that is not valid UTF-8 closes the connection with 1007 (RFC 6455 §8.1), as the JSON
// decoder would otherwise replace the bytes and the text saved would not be the text sent.
func (c gorillaConn) NextReader() (int, io.Reader, error) {
	mt, r, err := c.Conn.NextReader()
	if websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseNoStatusReceived) {
		return mt, nil, transport.ErrWebsocketClosed
	}
	if err != nil || mt != websocket.TextMessage {
		return mt, r, err
	}
	data, err := io.ReadAll(r) // bounded by the read limit
	if err != nil {
		return mt, nil, err
	}
	if err := c.received(); err != nil {
		return mt, nil, err
	}
	if !utf8.Valid(data) {
		_ = c.WriteClose(websocket.CloseInvalidFramePayloadData, "messages must be valid UTF-8")
		return mt, nil, errInvalidUTF8
	}
	if err := checkSurrogates(data); err != nil {
		_ = c.WriteClose(websocket.CloseInvalidFramePayloadData, "messages must not escape lone surrogates")
		return mt, nil, err
	}
	if err := c.subs.received(data); err != nil {
		_ = c.WriteClose(CloseSubscriberExists, subscriberExistsReason(err.id))
		return mt, nil, err
	}
	return mt, bytes.NewReader(data), nil
}

// WriteJSON writes a message of gqlgen's; a complete or error of the server ends the subscription
// it names, whose id the client may then use again.
func (c gorillaConn) WriteJSON(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	err = c.WriteMessage(websocket.TextMessage, data)
	c.subs.sent(data)
	return err
}

// CloseSubscriberExists is the graphql-transport-ws close code for a subscribe whose id is already
// in use on the connection.
const CloseSubscriberExists = 4409

// subscriberExistsReason is the protocol's close reason, or a shorter one when the id would not fit
// in a close frame.
func subscriberExistsReason(id string) string {
	const maxReason = 123 // a control frame's 125 bytes less the code
	if reason := "Subscriber for " + id + " already exists"; len(reason) <= maxReason {
		return reason
	}
	return "Subscriber for this id already exists"
}

// subscriptionIDs are the ids of one connection's subscriptions. gqlgen keeps its subscriptions in a
// map by id and would run a second subscribe with an id in use alongside the first (each event
// twice, and only one of them stoppable), so the adapter refuses it as graphql-transport-ws says.
// An id is in use from the client's subscribe until the server's complete or error for it: gqlgen
// confirms a client's complete with one of its own once the subscription has stopped, and until
// then the old subscription could still send under the id and, when it ends, would remove the new
// one from gqlgen's map. A subscribe that reuses the id of a subscription the client has completed
// therefore waits, at most reuseWait, for that confirmation.
type subscriptionIDs struct {
	mu  sync.Mutex
	ids map[string]*subscriptionID
}

type subscriptionID struct {
	completed bool          // the client has sent complete (stop)
	ended     chan struct{} // closed when the server has completed it
}

// reuseWait bounds how long a subscribe waits for the end of a completed subscription with its id.
const reuseWait = 5 * time.Second

// wsEnvelope is what the adapter reads of a message, in both of gqlgen's subprotocols.
type wsEnvelope struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

type subscriberExistsError struct{ id string }

func (subscriberExistsError) Error() string {
	return "websocket: a subscribe used the id of an active subscription"
}

// decodeEnvelope decodes a message as gqlgen does: the first JSON value, whatever follows it.
func decodeEnvelope(data []byte) (wsEnvelope, error) {
	var m wsEnvelope
	err := json.NewDecoder(bytes.NewReader(data)).Decode(&m)
	return m, err
}

// received records the client's subscribe (graphql-ws: start) and complete (stop). Messages it can't
// read are gqlgen's to refuse.
func (s *subscriptionIDs) received(data []byte) *subscriberExistsError {
	m, err := decodeEnvelope(data)
	if err != nil {
		return nil
	}
	switch m.Type {
	case "subscribe", "start":
		return s.subscribe(m.ID)
	case "complete", "stop":
		s.mu.Lock()
		if sub := s.ids[m.ID]; sub != nil {
			sub.completed = true
		}
		s.mu.Unlock()
	}
	return nil
}

func (s *subscriptionIDs) subscribe(id string) *subscriberExistsError {
	deadline := time.NewTimer(reuseWait)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		sub := s.ids[id]
		if sub == nil {
			s.ids[id] = &subscriptionID{ended: make(chan struct{})}
		}
		completed := sub != nil && sub.completed
		s.mu.Unlock()
		if sub == nil {
			return nil
		}
		if !completed {
			return &subscriberExistsError{id: id}
		}
		select {
		case <-sub.ended:
		case <-deadline.C:
			return &subscriberExistsError{id: id}
		}
	}
}

// sent frees the id of a subscription the server has completed or failed.
func (s *subscriptionIDs) sent(data []byte) {
	// Nearly every message sent is a "next" with a response. Neither word in it means it can't be a
	// complete or an error, without decoding the whole response (a word inside the payload only
	// costs the decode below).
	if !bytes.Contains(data, []byte(`"complete"`)) && !bytes.Contains(data, []byte(`"error"`)) {
		return
	}
	m, err := decodeEnvelope(data)
	if err != nil || (m.Type != "complete" && m.Type != "error") {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sub := s.ids[m.ID]; sub != nil {
		delete(s.ids, m.ID)
		close(sub.ended)
	}
}

var errInvalidUTF8 = errors.New("websocket: a text message is not valid UTF-8")

// WriteClose sends a close frame with code and reason; the caller closes the connection after it.
func (c gorillaConn) WriteClose(code int, message string) error {
	return c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, message), time.Now().Add(time.Second))
}

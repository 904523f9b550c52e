package server

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
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
	c := gorillaConn{Conn: conn, init: &initWatch{}}
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
	return mt, bytes.NewReader(data), nil
}

var errInvalidUTF8 = errors.New("websocket: a text message is not valid UTF-8")

// WriteClose sends a close frame with code and reason; the caller closes the connection after it.
func (c gorillaConn) WriteClose(code int, message string) error {
	return c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, message), time.Now().Add(time.Second))
}

package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes bounds one line of a LineTransport: four times the largest body the API
// takes (1 MiB), so that it is the API that refuses an oversized call, with its own error, and no
// line is held beyond this.
const DefaultMaxLineBytes = 4 << 20

// DefaultDrainTimeout bounds how long a LineTransport whose input has ended waits for the answers
// to the requests it already read: Relay's request timeout.
const DefaultDrainTimeout = 60 * time.Second

// LineTransport is the stdio transport of `worker mcp` (Relay): newline-delimited JSON-RPC read from
// Reader and written to Writer, as the SDK's StdioTransport does, except that a line that is not one
// JSON-RPC message — not JSON, a batch, an id that is an object or an array, a line over
// MaxLineBytes — is answered with a JSON-RPC error (id null where the id can't be read; see screen)
// and the next line is read. The SDK's transport ends the session at such a line, and the agent would
// lose its memory tools for the rest of its run.
//
// When the input ends (the client closed stdin, as `printf … | worker mcp` does), every request
// already read is answered and written out before the session ends, for up to DrainTimeout: the
// SDK cancels the requests in flight when its transport's Read fails, and their answers were lost.
type LineTransport struct {
	Reader io.Reader
	Writer io.Writer
	// MaxLineBytes bounds one line; a longer one is refused without being held whole. 0 means
	// DefaultMaxLineBytes.
	MaxLineBytes int
	// DrainTimeout bounds the wait, once the input has ended, for the answers to the requests
	// already read. 0 means DefaultDrainTimeout.
	DrainTimeout time.Duration
}

var _ mcp.Transport = (*LineTransport)(nil)

// Connect starts reading lines.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLineBytes
	if limit <= 0 {
		limit = DefaultMaxLineBytes
	}
	drain := t.DrainTimeout
	if drain <= 0 {
		drain = DefaultDrainTimeout
	}
	idle := make(chan struct{})
	close(idle)
	c := &lineConn{out: t.Writer, limit: limit, drain: drain, lines: make(chan line), closed: make(chan struct{}),
		pending: map[jsonrpc.ID]int{}, idle: idle}
	// Reads happen on a goroutine of their own so that Close unblocks Read (the SDK's contract); as
	// with the SDK's stdio transport, a read of stdin that never returns keeps this goroutine.
	go c.readLines(bufio.NewReader(t.Reader))
	return c, nil
}

// line is one line read, or the error that ended the input.
type line struct {
	data    []byte
	tooLong bool
	err     error
}

type lineConn struct {
	out     io.Writer
	writeMu sync.Mutex
	limit   int

	lines     chan line
	closed    chan struct{}
	closeOnce sync.Once

	// pending counts the requests read and not yet answered, by id; idle is closed while there
	// are none. drain bounds the wait for them once the input has ended.
	mu      sync.Mutex
	pending map[jsonrpc.ID]int
	idle    chan struct{}
	drain   time.Duration
}

// track notes a request read, to be answered.
func (c *lineConn) track(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		c.idle = make(chan struct{})
	}
	c.pending[id]++
}

// answered notes that the request id was answered.
func (c *lineConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.pending[id]
	switch {
	case !ok:
		return
	case n > 1:
		c.pending[id] = n - 1
		return
	}
	delete(c.pending, id)
	if len(c.pending) == 0 {
		close(c.idle)
	}
}

// awaitAnswers waits until every request read has been answered, for at most c.drain.
func (c *lineConn) awaitAnswers(ctx context.Context) {
	c.mu.Lock()
	idle := c.idle
	c.mu.Unlock()
	timer := time.NewTimer(c.drain)
	defer timer.Stop()
	select {
	case <-idle:
	case <-timer.C:
	case <-c.closed:
	case <-ctx.Done():
	}
}

func (c *lineConn) readLines(r *bufio.Reader) {
	send := func(l line) bool {
		select {
		case c.lines <- l:
			return true
		case <-c.closed:
			return false
		}
	}
	for {
		var data []byte
		tooLong := false
		var err error
		for {
			var part []byte
			part, err = r.ReadSlice('\n')
			if !tooLong {
				if len(data)+len(part) > c.limit {
					tooLong, data = true, nil
				} else {
					data = append(data, part...)
				}
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if len(bytes.TrimSpace(data)) > 0 || tooLong {
			if !send(line{data: data, tooLong: tooLong}) {
				return
			}
		}
		if err != nil {
			send(line{err: err})
			return
		}
	}
}

// Read returns the next line that is one JSON-RPC message, answering every line before it that
// isn't; blank lines are skipped. Once the input has ended, it waits for the requests already read
// to be answered (awaitAnswers), then returns io.EOF (or the read's error).
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l line
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		switch {
		case l.err != nil:
			c.awaitAnswers(ctx)
			return nil, l.err
		case l.tooLong:
			no := &refusal{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf(
				"BAD_USER_INPUT: the message is longer than %d bytes; nothing was done", c.limit)}
			if err := c.writeLine(no.encode()); err != nil {
				return nil, err
			}
			continue
		}
		msg, no := screen(l.data)
		if no == nil {
			if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
				c.track(req.ID)
			}
			return msg, nil
		}
		if no.notification {
			continue // a notification is never answered
		}
		if err := c.writeLine(no.encode()); err != nil {
			return nil, err
		}
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		defer c.answered(resp.ID) // written, or never will be
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode a message: %w", err)
	}
	return c.writeLine(data)
}

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Close stops reading; stdin and stdout stay open, as with the SDK's stdio transport.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }

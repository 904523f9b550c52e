package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes bounds one line of a LineTransport: four times the largest body the API
// takes (1 MiB), so that it is the API that refuses an oversized call, with its own error, and no
// line is held beyond this.
const DefaultMaxLineBytes = 4 << 20

// LineTransport is the stdio transport of `worker mcp` (Relay): newline-delimited JSON-RPC read from
// Reader and written to Writer, as the SDK's StdioTransport does, except that a line that is not one
// JSON-RPC message — not JSON, a batch, an id that is an object or an array, a line over
// MaxLineBytes — is answered with a JSON-RPC error (id null where the id can't be read; see screen)
// and the next line is read. The SDK's transport ends the session at such a line, and the agent would
// lose its memory tools for the rest of its run.
type LineTransport struct {
	Reader io.Reader
	Writer io.Writer
	// MaxLineBytes bounds one line; a longer one is refused without being held whole. 0 means
	// DefaultMaxLineBytes.
	MaxLineBytes int
}

var _ mcp.Transport = (*LineTransport)(nil)

// Connect starts reading lines.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLineBytes
	if limit <= 0 {
		limit = DefaultMaxLineBytes
	}
	c := &lineConn{out: t.Writer, limit: limit, lines: make(chan line), closed: make(chan struct{})}
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
// isn't; blank lines are skipped. It returns io.EOF once the input has ended.
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
			return msg, nil
		}
		if err := c.writeLine(no.encode()); err != nil {
			return nil, err
		}
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
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

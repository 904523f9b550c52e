package server

import (
	"context"
	"fmt"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/open-bot/memory/internal/memory"
)

// Error codes of the caps (issue 17). Like gqlgen's COMPLEXITY_LIMIT_EXCEEDED, they name what was
// exceeded, so a client can tell a cap from a fault.
const (
	codeConnectionLimit   = "CONNECTION_LIMIT_EXCEEDED"
	codeSubscriptionLimit = "SUBSCRIPTION_LIMIT_EXCEEDED"
)

// wsTracker holds the process's websockets and their subscriptions against the caps: one client
// opening 20,000 subscriptions on one socket took half a gigabyte before. It also knows the session
// of each cookie-authenticated connection, so that logging out closes them.
type wsTracker struct {
	maxConns, maxPerConn, maxPerCred int

	mu     sync.Mutex
	conns  map[*trackedConn]struct{}
	byCred map[string]int
}

func newWSTracker(maxConns, maxPerConn, maxPerCred int) *wsTracker {
	return &wsTracker{
		maxConns: maxConns, maxPerConn: maxPerConn, maxPerCred: maxPerCred,
		conns: map[*trackedConn]struct{}{}, byCred: map[string]int{},
	}
}

// trackedConn is one websocket from its upgrade request to its end.
type trackedConn struct {
	t *wsTracker
	// session identifies the web session whose cookie authenticated the upgrade ("" for none).
	session string
	// subs is the number of running subscriptions; conn is set once the upgrade succeeded. Both are
	// guarded by t.mu.
	subs int
	conn *gorillaConn
}

type trackedConnKey struct{}

func withTrackedConn(ctx context.Context, c *trackedConn) context.Context {
	return context.WithValue(ctx, trackedConnKey{}, c)
}

// trackedConnFrom is the websocket ctx belongs to, or nil for an HTTP request.
func trackedConnFrom(ctx context.Context) *trackedConn {
	c, _ := ctx.Value(trackedConnKey{}).(*trackedConn)
	return c
}

// open admits one more connection, or returns nil when the process holds the maximum already.
func (t *wsTracker) open(session string) *trackedConn {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.conns) >= t.maxConns {
		return nil
	}
	c := &trackedConn{t: t, session: session}
	t.conns[c] = struct{}{}
	return c
}

// close forgets c; its subscriptions have released their counts as they ended.
func (c *trackedConn) close() {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	delete(c.t.conns, c)
}

// accepted records the upgraded connection, for closeSession.
func (c *trackedConn) accepted(conn gorillaConn) {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	c.conn = &conn
}

// closeSession closes every websocket the session opened with the close code for a refused
// credential; gqlgen then sees the closed connection and ends its subscriptions.
func (t *wsTracker) closeSession(session string, code int, reason string) {
	if session == "" {
		return
	}
	t.mu.Lock()
	var conns []*gorillaConn
	for c := range t.conns {
		if c.session == session && c.conn != nil {
			conns = append(conns, c.conn)
		}
	}
	t.mu.Unlock()
	for _, conn := range conns {
		_ = conn.WriteClose(code, reason)
		_ = conn.Conn.Close()
	}
}

// credentialKey names whose cap a subscription counts against: the user's, or the worker's — runs'
// included, since the worker starts runs at will: with a cap for each run, one worker could hold as
// many subscriptions as the connection caps allow (2,000 websockets × 100 by default; 20 runs held
// 1,000 subscriptions under a per-credential cap of 50, about 17 kB of heap each).
func credentialKey(c memory.Credential) string {
	if c.Kind == memory.CredentialRun {
		return memory.CredentialWorker.String()
	}
	return c.Kind.String()
}

// acquire counts one more subscription of cred on c, or says which cap it would exceed.
func (c *trackedConn) acquire(cred string) *gqlerror.Error {
	t := c.t
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case c.subs >= t.maxPerConn:
		return capError(codeSubscriptionLimit, fmt.Sprintf(
			"too many subscriptions on this connection (at most %d); complete one first", t.maxPerConn))
	case t.byCred[cred] >= t.maxPerCred:
		return capError(codeSubscriptionLimit, fmt.Sprintf(
			"too many subscriptions for the %s's credentials (at most %d at once); complete one first", cred, t.maxPerCred))
	}
	c.subs++
	t.byCred[cred]++
	return nil
}

func (c *trackedConn) release(cred string) {
	t := c.t
	t.mu.Lock()
	defer t.mu.Unlock()
	c.subs--
	if t.byCred[cred]--; t.byCred[cred] <= 0 {
		delete(t.byCred, cred)
	}
}

func capError(code, message string) *gqlerror.Error {
	return &gqlerror.Error{Message: message, Extensions: map[string]any{"code": code}}
}

// subscriptionCaps is the gqlgen extension that counts each websocket subscription for as long as
// it runs and refuses one beyond the caps with SUBSCRIPTION_LIMIT_EXCEEDED (a "next" with the error,
// then "complete"), leaving the connection and its other subscriptions alone.
type subscriptionCaps struct{}

var (
	_ graphql.HandlerExtension     = subscriptionCaps{}
	_ graphql.OperationInterceptor = subscriptionCaps{}
)

func (subscriptionCaps) ExtensionName() string                          { return "SubscriptionCaps" }
func (subscriptionCaps) Validate(schema graphql.ExecutableSchema) error { return nil }

func (subscriptionCaps) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	conn := trackedConnFrom(ctx)
	op := graphql.GetOperationContext(ctx).Operation
	if conn == nil || op == nil || op.Operation != ast.Subscription {
		return next(ctx)
	}
	cred := credentialKey(memory.CredentialFrom(ctx))
	if err := conn.acquire(cred); err != nil {
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{err}})
	}
	var once sync.Once
	release := func() { once.Do(func() { conn.release(cred) }) }
	// The stream's last (nil) response releases the count before gqlgen sends "complete", so a
	// client that saw "complete" may subscribe again at once; the context's end covers a panic.
	stop := context.AfterFunc(ctx, release)
	responses := next(ctx)
	return func(ctx context.Context) *graphql.Response {
		r := responses(ctx)
		if r == nil {
			stop()
			release()
		}
		return r
	}
}

package server

import (
	"context"
	"fmt"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/memory"
)

// Error codes of the caps. Like gqlgen's COMPLEXITY_LIMIT_EXCEEDED, they name what was exceeded, so
// a client can tell a cap from a fault.
const (
	codeConnectionLimit   = "CONNECTION_LIMIT_EXCEEDED"
	codeSubscriptionLimit = "SUBSCRIPTION_LIMIT_EXCEEDED"
)

// wsTracker holds the process's websockets and their subscriptions against the caps: one client
// opening 20,000 subscriptions on one socket took half a gigabyte before. It also knows the session
// of each cookie-authenticated connection, so that logging out closes them.
//
// Only authenticated sockets count toward maxConns: one whose upgrade request carried a credential
// (the web app's session cookie, a bearer header), or one whose connection_init has succeeded
// (authenticate). Until then a socket counts toward maxPending, a budget of its own that the init
// timeout empties (otherwise one client with no token, reconnecting every 10 s, keeps the user's
// app out of a cap it fills with sockets that never authenticate).
type wsTracker struct {
	maxConns, maxPending, maxPerConn, maxPerCred, maxPerRun int

	mu sync.Mutex
	// conns are every socket; authed and pending count them by whether they have authenticated.
	conns           map[*trackedConn]struct{}
	authed, pending int
	byCred          map[string]int
	// byRun counts each run credential's subscriptions, which count in byCred as the worker's too.
	byRun map[string]int
}

func newWSTracker(l config.Limits) *wsTracker {
	return &wsTracker{
		maxConns: l.WSMaxConnections, maxPending: l.WSMaxUnauthenticated, maxPerConn: l.WSMaxSubscriptionsPerConnection,
		maxPerCred: l.WSMaxSubscriptionsPerCredential, maxPerRun: l.WSMaxSubscriptionsPerRun,
		conns: map[*trackedConn]struct{}{}, byCred: map[string]int{}, byRun: map[string]int{},
	}
}

// trackedConn is one websocket from its upgrade request to its end.
type trackedConn struct {
	t *wsTracker
	// session identifies the web session whose cookie authenticated the upgrade ("" for none).
	session string
	// subs is the number of running subscriptions; conn is set once the upgrade succeeded; authed
	// once the socket counts toward maxConns. All are guarded by t.mu.
	subs   int
	conn   *gorillaConn
	authed bool
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

// open admits one more connection — toward maxConns when its upgrade request is authenticated,
// toward maxPending otherwise — or returns nil and the cap it would exceed.
func (t *wsTracker) open(session string, authenticated bool) (*trackedConn, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if authenticated {
		if t.authed >= t.maxConns {
			return nil, t.maxConns
		}
		t.authed++
	} else {
		if t.pending >= t.maxPending {
			return nil, t.maxPending
		}
		t.pending++
	}
	c := &trackedConn{t: t, session: session, authed: authenticated}
	t.conns[c] = struct{}{}
	return c, 0
}

// counts are the open websockets and their running subscriptions (the metrics' gauges).
func (t *wsTracker) counts() (connections, subscriptions int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range t.byCred {
		subscriptions += n
	}
	return len(t.conns), subscriptions
}

// authenticate moves c, whose connection_init has just succeeded, from the unauthenticated budget
// to the connection cap; it reports false, leaving c where it was, when the cap is full.
func (c *trackedConn) authenticate() bool {
	t := c.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if c.authed {
		return true
	}
	if t.authed >= t.maxConns {
		return false
	}
	t.pending--
	t.authed++
	c.authed = true
	return true
}

// close forgets c; its subscriptions have released their counts as they ended.
func (c *trackedConn) close() {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	if c.authed {
		c.t.authed--
	} else {
		c.t.pending--
	}
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
// included, since the worker starts runs at will: with a cap for each run alone, one worker could
// hold as many subscriptions as the connection caps allow (2,000 websockets × 100 by default; 20
// runs held 1,000 subscriptions under a per-credential cap of 50, about 17 kB of heap each). A run's
// subscriptions also count against the run's own cap (maxPerRun), so that one run can't take all of
// the worker's.
func credentialKey(c memory.Credential) string {
	if c.Kind == memory.CredentialRun {
		return memory.CredentialWorker.String()
	}
	return c.Kind.String()
}

// acquire counts one more subscription of cred on c, or says which cap it would exceed.
func (c *trackedConn) acquire(cred memory.Credential) *gqlerror.Error {
	t := c.t
	key := credentialKey(cred)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case c.subs >= t.maxPerConn:
		return capError(codeSubscriptionLimit, fmt.Sprintf(
			"too many subscriptions on this connection (at most %d); complete one first", t.maxPerConn))
	case cred.Kind == memory.CredentialRun && t.byRun[cred.RunID] >= t.maxPerRun:
		return capError(codeSubscriptionLimit, fmt.Sprintf(
			"too many subscriptions for this run (at most %d at once); complete one first", t.maxPerRun))
	case t.byCred[key] >= t.maxPerCred:
		return capError(codeSubscriptionLimit, fmt.Sprintf(
			"too many subscriptions for the %s's credentials (at most %d at once); complete one first", key, t.maxPerCred))
	}
	c.subs++
	t.byCred[key]++
	if cred.Kind == memory.CredentialRun {
		t.byRun[cred.RunID]++
	}
	return nil
}

func (c *trackedConn) release(cred memory.Credential) {
	t := c.t
	key := credentialKey(cred)
	t.mu.Lock()
	defer t.mu.Unlock()
	c.subs--
	if t.byCred[key]--; t.byCred[key] <= 0 {
		delete(t.byCred, key)
	}
	if cred.Kind == memory.CredentialRun {
		if t.byRun[cred.RunID]--; t.byRun[cred.RunID] <= 0 {
			delete(t.byRun, cred.RunID)
		}
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
	cred := memory.CredentialFrom(ctx)
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

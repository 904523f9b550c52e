package server

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/open-bot/memory/graph/resolvers"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
)

// sharedSubscriptions is the gqlgen extension that runs one execution for every websocket
// subscription of this process that is equivalent to another: the same document and operation
// name, the same variables, the same credential. The execution resolves each event and serialises
// its response once; every subscriber of the group is handed that same response, which gqlgen's
// transport wraps in the subscriber's own "next" message (its operation id) and writes to its
// websocket. With a thousand browser tabs open on one page, an edit would otherwise be resolved, checked
// and serialised a thousand times.
//
// Equivalence is the whole credential (memory.Credential: the user, the worker, or one run),
// nothing coarser: what an execution hears (memory.EventVisible), re-reads and sends depends on the
// document, the variables and the credential alone, so subscribers equal in all three would each
// have been sent the same bytes, and a subscriber can't be sent anything its own credential may not
// see. Two runs of one teammate never share: each run's subscriptions end with that run.
//
// Each subscription is still checked by its own resolver before it joins (resolvers.Admission), so
// a refused one gets its own error as before. A subscriber that falls events.SubscriberBuffer
// responses behind is completed rather than waited for, as the broker does, so a slow websocket
// never holds up the others; the client resubscribes and re-reads. When the execution ends — the
// broker dropped it, the listener resynchronised, the run ended — every subscriber is completed.
//
// The process-wide lock guards only the index of groups by key, which subscribing and leaving
// change; an event never takes it. Each group has its own lock over its members, held to take a
// copy of the member list and not while handing the response out, and each member has its own lock
// so a response is never queued on a member completed meanwhile.
type sharedSubscriptions struct {
	mu     sync.Mutex
	groups map[subscriptionKey]*subscriptionGroup
}

func newSharedSubscriptions() *sharedSubscriptions {
	return &sharedSubscriptions{groups: map[subscriptionKey]*subscriptionGroup{}}
}

var (
	_ graphql.HandlerExtension     = (*sharedSubscriptions)(nil)
	_ graphql.OperationInterceptor = (*sharedSubscriptions)(nil)
)

func (*sharedSubscriptions) ExtensionName() string                   { return "SharedSubscriptions" }
func (*sharedSubscriptions) Validate(graphql.ExecutableSchema) error { return nil }

// subscriptionKey is what makes two subscriptions equivalent.
type subscriptionKey struct {
	query, operation string
	// variables are the coerced variables as JSON (object keys sorted).
	variables  string
	credential memory.Credential
}

// subscriptionGroup is one execution and the subscribers it serves.
type subscriptionGroup struct {
	key subscriptionKey
	// cancel ends the execution; it is called when the last subscriber leaves.
	cancel context.CancelFunc
	// replay is set for a subscription that starts with the current value
	// (resolvers.SendsCurrentValue): latest, the last response sent, is sent first to a subscriber
	// that joins later.
	replay bool

	// mu guards the fields below.
	mu      sync.Mutex
	members map[*groupMember]struct{}
	// list is members as a slice for broadcast, rebuilt after members changed (nil).
	list   []*groupMember
	latest *graphql.Response
	// ended is set once the group lost its last member or its execution ended: it takes no new
	// member, and the next equivalent subscription starts a new group.
	ended bool
}

// groupMember is one subscriber of a group: its queue of responses, closed when the subscriber is
// to be completed.
type groupMember struct {
	g *subscriptionGroup
	c chan *graphql.Response
	// mu makes queueing a response and closing c take turns, so nothing is queued on a closed c.
	mu     sync.Mutex
	closed bool
}

// send queues r without waiting; false means the queue was full, and c is now closed (the
// subscriber is completed, and must still be removed from its group). A member completed before
// is left alone.
func (m *groupMember) send(r *graphql.Response) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return true
	}
	select {
	case m.c <- r:
		return true
	default:
		m.closed = true
		close(m.c)
		return false
	}
}

// complete closes c unless it is already closed.
func (m *groupMember) complete() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.closed {
		m.closed = true
		close(m.c)
	}
}

// InterceptOperation admits a websocket subscription with its own resolver's checks and then joins
// it to the execution of its equivalents, starting one if there is none. It must run after every
// other operation interceptor: the execution it starts inherits the first subscriber's context
// (its loaders and budget) and is driven by the executor's handler directly.
func (s *sharedSubscriptions) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if trackedConnFrom(ctx) == nil || oc.Operation == nil || oc.Operation.Operation != ast.Subscription {
		return next(ctx)
	}
	variables, err := json.Marshal(oc.Variables)
	if err != nil {
		return next(ctx)
	}
	key := subscriptionKey{
		query: oc.RawQuery, operation: oc.OperationName, variables: string(variables),
		credential: memory.CredentialFrom(ctx),
	}
	admission := &resolvers.Admission{}
	own := next(resolvers.WithAdmission(ctx, admission))
	if !admission.Admitted() {
		return own // a check refused it (own carries the error), or its resolver doesn't share
	}
	m, start := s.join(ctx, key, oc)
	if start != nil {
		start(next)
	}
	// The subscription's own context, not the one gqlgen passes each call: the executor hands back
	// the context of the last execution it set up, which is the shared one when this subscriber
	// started it.
	stop := context.AfterFunc(ctx, func() { s.leave(m) })
	return func(context.Context) *graphql.Response {
		select {
		case r, ok := <-m.c:
			if ok {
				return r
			}
		case <-ctx.Done():
		}
		stop()
		s.leave(m)
		return nil
	}
}

// join adds a subscriber to the group of key. When there was no group, it creates one and returns
// start, which the caller runs (outside the lock: the execution's resolver reads the database) to
// set up the execution through next.
func (s *sharedSubscriptions) join(ctx context.Context, key subscriptionKey, oc *graphql.OperationContext) (m *groupMember, start func(next graphql.OperationHandler)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.groups[key]
	if g != nil {
		g.mu.Lock()
		if g.ended {
			g.mu.Unlock()
			g = nil
		}
	}
	if g == nil {
		// The execution outlives the subscriber that started it, for as long as the group has one.
		gctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		g = &subscriptionGroup{key: key, cancel: cancel, members: map[*groupMember]struct{}{}, replay: sendsCurrentValue(oc)}
		s.groups[key] = g
		start = func(next graphql.OperationHandler) {
			responses := next(gctx)
			go s.run(gctx, g, responses)
		}
		g.mu.Lock()
	}
	defer g.mu.Unlock()
	m = &groupMember{g: g, c: make(chan *graphql.Response, events.SubscriberBuffer)}
	g.members[m] = struct{}{}
	g.list = nil
	if g.latest != nil {
		m.c <- g.latest // the queue is new and empty
	}
	return m, start
}

// sendsCurrentValue reports whether the operation's subscription field starts with the current
// value (resolvers.SendsCurrentValue).
func sendsCurrentValue(oc *graphql.OperationContext) bool {
	fields := graphql.CollectFields(oc, oc.Operation.SelectionSet, []string{"Subscription"})
	return len(fields) == 1 && resolvers.SendsCurrentValue(fields[0].Name)
}

// run drives the group's execution: each response is handed to every subscriber, and when the
// execution ends so does every subscriber's stream.
func (s *sharedSubscriptions) run(ctx context.Context, g *subscriptionGroup, responses graphql.ResponseHandler) {
	defer s.end(g)
	defer func() {
		// The transport recovers a panic of a subscription's execution; this one runs outside it.
		if p := recover(); p != nil {
			err := graphql.GetOperationContext(ctx).Recover(ctx, p)
			s.broadcast(g, &graphql.Response{Errors: gqlerror.List{{
				Message: err.Error(), Extensions: map[string]any{"code": memory.CodeInternal},
			}}})
		}
	}()
	for {
		r := responses(ctx)
		if r == nil {
			return
		}
		// The executor writes every response's data into one buffer, reset for the next response;
		// subscribers may still be sending this one then.
		r.Data = bytes.Clone(r.Data)
		s.broadcast(g, r)
	}
}

// broadcast queues r for every subscriber of g without waiting: a subscriber whose queue is full is
// completed (it resubscribes and re-reads) and leaves the group. Only the group's own lock is taken,
// and only to copy its member list: members join and leave while r is handed out. Responses come
// from the execution's one goroutine, one broadcast after the other, so a member that joins during
// one is either in its list or sent its response as latest when it joins, never both.
func (s *sharedSubscriptions) broadcast(g *subscriptionGroup, r *graphql.Response) {
	g.mu.Lock()
	if g.replay {
		g.latest = r
	}
	if g.list == nil {
		g.list = make([]*groupMember, 0, len(g.members))
		for m := range g.members {
			g.list = append(g.list, m)
		}
	}
	list := g.list
	g.mu.Unlock()
	for _, m := range list {
		if !m.send(r) {
			s.leave(m)
		}
	}
}

// leave removes a subscriber that ended (or was completed) from its group; the last one to leave
// ends the execution.
func (s *sharedSubscriptions) leave(m *groupMember) {
	g := m.g
	g.mu.Lock()
	_, ok := g.members[m]
	if ok {
		delete(g.members, m)
		g.list = nil
		m.complete()
		if len(g.members) == 0 {
			g.ended = true
		}
	}
	emptied := ok && g.ended
	g.mu.Unlock()
	if emptied {
		g.cancel()
		s.forget(g)
	}
}

// forget takes g, which has ended, out of the index unless an equivalent group replaced it.
func (s *sharedSubscriptions) forget(g *subscriptionGroup) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.groups[g.key] == g {
		delete(s.groups, g.key)
	}
}

// end completes every subscriber of g once its execution has ended; the next equivalent
// subscription starts a new execution.
func (s *sharedSubscriptions) end(g *subscriptionGroup) {
	g.mu.Lock()
	for m := range g.members {
		m.complete()
	}
	clear(g.members)
	g.list = nil
	g.ended = true
	g.mu.Unlock()
	g.cancel()
	s.forget(g)
}

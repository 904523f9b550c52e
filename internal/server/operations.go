package server

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/open-bot/memory/graph/resolvers"
	"github.com/open-bot/memory/internal/memory"
)

// What one operation may ask of the database at once (without these bounds one document of 120
// aliased recallPreview holds every connection of the pool for half a minute, and health checks and
// every other request wait behind it).
const (
	// OperationConcurrency is how many resolvers of one operation run at once. gqlgen resolves the
	// fields of a query concurrently, each on a connection of its own; with this budget one document
	// holds at most this many connections however many fields it asks for, and the rest of the pool
	// stays free for other requests.
	OperationConcurrency = 2
	// MaxHeavyFields is how many fields that rank, search or count over a whole scope
	// (resolvers.HeavyField) one operation may ask for, fragments counted where they are spread.
	// The complexity limit bounds the root ones too; this also bounds totalCount, whose cost would
	// otherwise be multiplied by its page's size.
	MaxHeavyFields = 10
)

// heavySlots is how many heavy fields (resolvers.HeavyField) the whole process resolves at once for
// a request pool of poolSize connections: half of it, at least one. However many clients ask for
// recalls, searches and counts together, the other half of the pool stays free for everything
// else, so a light query never queues behind them for a connection. 0 means no limit.
func heavySlots(poolSize int) int {
	if poolSize <= 0 {
		return 0
	}
	return max(1, poolSize/2)
}

// operationBudget applies OperationConcurrency and MaxHeavyFields to each operation, and heavySlots
// to all of them together.
type operationBudget struct {
	// heavy is the process's semaphore of heavy fields; nil means no limit.
	heavy chan struct{}
	// runs lets one heavy call of each run at a time wait for a heavy slot.
	runs *runGates
}

// newOperationBudget is the budget of a process whose request pool has poolSize connections.
func newOperationBudget(poolSize int) operationBudget {
	if n := heavySlots(poolSize); n > 0 {
		return operationBudget{heavy: make(chan struct{}, n), runs: &runGates{gates: map[string]*runGate{}}}
	}
	return operationBudget{}
}

// runGates queue a run's heavy calls before they take a heavy slot rather than in it. A run's calls
// are serialised by its run row anyway (every run-credential operation locks it), so its other
// calls would only hold slots while they wait for that lock: one run token's eight parallel
// searches would hold every slot, one after another, and a user's recall would wait behind them.
// The gate is per process, as the slots are.
type runGates struct {
	mu    sync.Mutex
	gates map[string]*runGate
}

type runGate struct {
	turn  chan struct{}
	users int // calls holding or waiting for turn; the gate goes when none is left
}

// enter waits for run's turn, or for ctx to end; leave ends the turn.
func (g *runGates) enter(ctx context.Context, run string) (leave func(), err error) {
	g.mu.Lock()
	gate := g.gates[run]
	if gate == nil {
		gate = &runGate{turn: make(chan struct{}, 1)}
		g.gates[run] = gate
	}
	gate.users++
	g.mu.Unlock()
	done := func() {
		g.mu.Lock()
		if gate.users--; gate.users == 0 {
			delete(g.gates, run)
		}
		g.mu.Unlock()
	}
	if err := take(ctx, gate.turn); err != nil {
		done()
		return nil, err
	}
	return func() { <-gate.turn; done() }, nil
}

var (
	_ graphql.HandlerExtension        = operationBudget{}
	_ graphql.OperationContextMutator = operationBudget{}
	_ graphql.OperationInterceptor    = operationBudget{}
	_ graphql.FieldInterceptor        = operationBudget{}
)

func (operationBudget) ExtensionName() string                   { return "OperationBudget" }
func (operationBudget) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext refuses an operation with more than MaxHeavyFields heavy fields before
// anything runs.
func (operationBudget) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if n := heavyFields(oc.Operation.SelectionSet, MaxHeavyFields); n > MaxHeavyFields {
		err := gqlerror.Errorf("the operation asks for more than %d searches, counts or recalls; split it", MaxHeavyFields)
		err.Extensions = map[string]any{"code": "COMPLEXITY_LIMIT_EXCEEDED"}
		return err
	}
	return nil
}

// heavyFields counts the heavy fields under set, fragments expanded, stopping past limit. The
// selection limit (MaxSelections) has bounded the expansion already.
func heavyFields(set ast.SelectionSet, limit int) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.ObjectDefinition != nil && resolvers.HeavyField(s.ObjectDefinition.Name, s.Name) {
				n++
			}
			n += heavyFields(s.SelectionSet, limit-n)
		case *ast.InlineFragment:
			n += heavyFields(s.SelectionSet, limit-n)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				n += heavyFields(s.Definition.SelectionSet, limit-n)
			}
		}
		if n > limit {
			return n
		}
	}
	return n
}

// slotsKey carries an operation's budget: a semaphore of OperationConcurrency slots.
type slotsKey struct{}

// InterceptOperation gives each operation (each subscription too) its own budget.
func (operationBudget) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	return next(context.WithValue(ctx, slotsKey{}, make(chan struct{}, OperationConcurrency)))
}

// InterceptField runs each resolver of the operation in a slot of its budget, and a heavy field in
// a slot of the process's heavy semaphore too (always taken in that order). A slot covers the
// resolver call only — the fields under it are resolved after it returns, in slots of their own —
// so slots never nest and an operation can't wait on itself. Fields resolved through a loader
// (resolvers.Batched) and fields without a resolver don't take one. Waiting for a slot holds no
// connection.
func (b operationBudget) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	slots, _ := ctx.Value(slotsKey{}).(chan struct{})
	if fc == nil || !fc.IsResolver || slots == nil || resolvers.Batched(fc.Object, fc.Field.Name) {
		return next(ctx)
	}
	if err := take(ctx, slots); err != nil {
		return nil, err
	}
	defer func() { <-slots }()
	release, err := b.admit(ctx, fc.Object, fc.Field.Name)
	if err != nil {
		return nil, err
	}
	defer release()
	return next(ctx)
}

// admit waits for a slot of the heavy semaphore when field of object is heavy
// (resolvers.HeavyField), or for ctx to end; release gives the slot back. A light field passes at
// once. It is the one place the process's heavy slots are taken: for GraphQL's fields here, and for
// /mcp's tool calls through their GraphQL twins (mcpserver.HTTPOptions.Admit), so MCP searches and
// GraphQL recalls, searches and counts share the same half of the pool.
//
// A run's heavy calls first wait for their run's turn (runGates), so only one of them at a time
// holds or waits for a slot.
func (b operationBudget) admit(ctx context.Context, object, field string) (release func(), err error) {
	if b.heavy == nil || !resolvers.HeavyField(object, field) {
		return func() {}, nil
	}
	leave := func() {}
	if c := memory.CredentialFrom(ctx); c.Kind == memory.CredentialRun && b.runs != nil {
		if leave, err = b.runs.enter(ctx, c.RunID); err != nil {
			return nil, err
		}
	}
	if err := take(ctx, b.heavy); err != nil {
		leave()
		return nil, err
	}
	return func() { <-b.heavy; leave() }, nil
}

// take waits for a slot of sem, or for ctx to end.
func take(ctx context.Context, sem chan struct{}) error {
	select {
	case sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Package resolvers maps the GraphQL schema onto internal/memory: it decodes arguments, calls one
// service method, and maps the result. Rules, validation and SQL live in internal/memory; this package
// never imports pgx.
package resolvers

import (
	"context"
	"log/slog"

	"github.com/open-bot/memory/graph/generated"
	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
)

// Resolver is the root resolver.
type Resolver struct {
	Memory *memory.Service
	Events *events.Broker
	Log    *slog.Logger
	// AIStatus reports the optional AI's configuration and use; nil reports it off.
	AIStatus func(ctx context.Context) (model.AIStatus, error)
}

// Config returns the gqlgen executable-schema config with the resolvers and the @auth directive.
func (r *Resolver) Config() generated.Config {
	c := generated.Config{
		Resolvers:  r,
		Directives: generated.DirectiveRoot{Auth: r.authDirective},
	}
	// Lists cost what they may return, so FixedComplexityLimit bounds the rows a request can fetch.
	q := &c.Complexity.Query
	q.MemoryItems = func(child int, _ model.ScopeInput, _ *memory.Status, _ *memory.Kind, _ *string, first *int, _ *string) int {
		return listCost(child, first, memory.DefaultPageSize)
	}
	q.Candidates = func(child int, _ model.ScopeInput) int { return listCost(child, nil, memory.MaxPageSize) }
	q.Lessons = func(child int, _ string) int { return listCost(child, nil, memory.MaxPageSize) }
	q.Teammates = func(child int) int { return listCost(child, nil, memory.MaxPageSize) }
	q.PendingRetries = func(child int) int { return listCost(child, nil, memory.MaxPageSize) }
	q.Runs = func(child int, _ string, first *int, _ *string) int { return listCost(child, first, 20) }
	q.ToolSearchMemory = func(child int, _ string) int { return listCost(child, nil, memory.MaxToolResults) }
	q.ToolSearchHistory = func(child int, _ string) int { return listCost(child, nil, memory.MaxToolResults) }
	c.Complexity.MemoryItem.Revisions = func(child int, first *int, _ *string) int { return listCost(child, first, 20) }
	return c
}

// listCost is the complexity of a list field: its children's cost for every row it may return.
func listCost(child int, first *int, def int) int {
	n := def
	if first != nil && *first > 0 {
		n = min(*first, memory.MaxPageSize)
	}
	return 1 + child*n
}

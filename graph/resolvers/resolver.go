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
	"github.com/open-bot/memory/internal/memory/packet"
)

// Resolver is the root resolver.
type Resolver struct {
	Memory *memory.Service
	Events *events.Broker
	Log    *slog.Logger
	// AIStatus reports the optional AI's configuration and use; nil reports it off.
	AIStatus func(ctx context.Context) (model.AIStatus, error)
	// BackupStatus reports the backups and their schedule (RULES F8); nil reports them off.
	BackupStatus func(ctx context.Context) (model.BackupStatus, error)
	// MaxRequestBytes is the server's bound on a request body, which the limits query reports.
	MaxRequestBytes int
}

// Complexity of the fields that make the database work, in the units of the server's complexity
// limit (5,000; internal/server.MaxComplexity), where a plain field costs 1 and a list its children
// times the rows it may return. Without them an alias of recallPreview would cost 2, and one
// document of 120 of them would hold every connection of the pool for half a minute. The costs make
// the limit a limit on work.
const (
	// RecallComplexity is a packet built from a ranked search over every visible item
	// (recallPreview, startRun): the term frequencies of every full-text match summed (tens of
	// thousands of index entries at the benchmark's largest size) and maybe a vector search. Fewer
	// than ten fit in an operation.
	RecallComplexity = 500
	// SearchComplexity is a text search over a scope or a teammate's conversations (memoryItems with
	// search, toolSearchMemory, toolSearchHistory), or a count over every active item (aiStatus's
	// re-embedding progress). Fewer than twenty fit in an operation. (totalCount counts a scope too, but it sits
	// inside a page whose cost is multiplied by the page size, so it is limited by HeavyField.)
	SearchComplexity = 250
	// QueryComplexity is one indexed statement more than the field's parent made: a page of runs or
	// revisions, a run's memory context, messages or thread, a teammate's generation.
	QueryComplexity = 10
	// ExportComplexity is a whole scope read in one snapshot and rendered in memory (exportMemory:
	// up to memory.MaxExportItems items of up to 4,000 characters, and their history on request —
	// tens of megabytes). One fits in an operation: 200 aliases of it over 500 items made one
	// response of 436 MB and held 2.7 GB of memory for a minute.
	ExportComplexity = 3000
)

// Config returns the gqlgen executable-schema config with the resolvers and the @auth directive.
func (r *Resolver) Config() generated.Config {
	c := generated.Config{
		Resolvers:  r,
		Directives: generated.DirectiveRoot{Auth: r.authDirective},
	}
	// Lists cost what they may return, so FixedComplexityLimit bounds the rows a request can fetch;
	// fields that make the database search, rank or count cost that work on top (see above).
	q := &c.Complexity.Query
	q.MemoryItems = func(child int, _ model.ScopeInput, _ *memory.Status, _ *memory.Kind, search *string, first *int, _ *string, _ []memory.Kind) int {
		if search != nil && *search != "" {
			return SearchComplexity + listCost(child, first, memory.DefaultPageSize)
		}
		return listCost(child, first, memory.DefaultPageSize)
	}
	q.Candidates = func(child int, _ model.ScopeInput) int { return listCost(child, nil, memory.MaxPageSize) }
	// copies compares hashes across every scope: one statement more than a plain list.
	q.Copies = func(child int, _ string) int { return QueryComplexity + listCost(child, nil, memory.MaxAlsoForget) }
	q.Lessons = func(child int, _ string) int { return QueryComplexity + listCost(child, nil, memory.MaxPageSize) }
	q.Teammates = func(child int) int { return listCost(child, nil, memory.MaxPageSize) }
	q.SearchMemory = func(child int, _ string, first *int) int {
		return SearchComplexity + listCost(child, first, memory.MaxSearchAllResults)
	}
	q.PendingRetries = func(child int) int { return listCost(child, nil, memory.MaxPageSize) }
	q.ExportMemory = func(child int, _ model.ScopeInput, _ model.ExportFormat, _ *bool) int {
		return ExportComplexity + child
	}
	q.Runs = func(child int, _ string, first *int, _ *string) int {
		return QueryComplexity + listCost(child, first, 20)
	}
	q.ToolSearchMemory = func(child int, _ string) int { return SearchComplexity + listCost(child, nil, memory.MaxToolResults) }
	q.ToolSearchHistory = func(child int, _ string) int { return SearchComplexity + listCost(child, nil, memory.MaxToolResults) }
	q.RecallPreview = func(child int, _, _ string) int { return RecallComplexity + child }
	q.AiStatus = func(child int) int { return SearchComplexity + child }
	c.Complexity.Mutation.StartRun = func(child int, _ model.StartRunInput) int { return RecallComplexity + child }
	c.Complexity.MemoryItem.Revisions = func(child int, first *int, _ *string) int {
		return QueryComplexity + listCost(child, first, 20)
	}
	c.Complexity.Run.MemoryContext = func(child int) int { return QueryComplexity + listCost(child, nil, packet.MaxEntries) }
	c.Complexity.Run.UserMessage = func(child int) int { return QueryComplexity + child }
	c.Complexity.Run.Reply = func(child int) int { return QueryComplexity + child }
	c.Complexity.Run.Thread = func(child int) int { return QueryComplexity + child }
	c.Complexity.Teammate.Generation = func(child int) int { return QueryComplexity + child }
	c.Complexity.Teammate.Activity = func(child int) int { return QueryComplexity + child }
	c.Complexity.Lesson.Run = func(child int) int { return QueryComplexity + child }
	// What a whole page of runs wrote comes from one statement (loaders.go), and one turn writes
	// little (its suggestions are bounded by the run's suggestion budget): a flat cost per run.
	c.Complexity.Run.MemoryChanges = func(int) int { return 1 }
	return c
}

// HeavyField reports whether field of object (as the schema names them: "Query", "recallPreview")
// makes the database rank, search, count or read over a whole scope. The server allows only a few of them
// per operation, wherever they sit in it (internal/server.MaxHeavyFields), on top of their cost.
func HeavyField(object, field string) bool {
	switch object + "." + field {
	case "Query.recallPreview", "Mutation.startRun", "Query.toolSearchMemory", "Query.toolSearchHistory",
		"Query.aiStatus", "MemoryItemConnection.totalCount", "Query.searchMemory", "Query.exportMemory":
		return true
	}
	return false
}

// listCost is the complexity of a list field: its children's cost for every row it may return.
func listCost(child int, first *int, def int) int {
	n := def
	if first != nil && *first > 0 {
		n = min(*first, memory.MaxPageSize)
	}
	return 1 + child*n
}

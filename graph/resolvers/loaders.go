package resolvers

import (
	"context"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"github.com/open-bot/memory/internal/memory"
)

// loaders batch the children that lists resolve (one query per list, not one per row). They live
// for one operation, so nothing is cached across requests or subscription events. Each is made when
// the operation first asks for it: most operations (an edit, a recall) use none.
type loaders struct {
	r  *Resolver
	mu sync.Mutex
	// teammate is the teammate per id.
	teammate *dataloadgen.Loader[string, memory.Teammate]
	// runTeammate maps a run id to its teammate's id.
	runTeammate *dataloadgen.Loader[string, string]
	// activity is the teammate list's counts and last activity, per teammate id.
	activity *dataloadgen.Loader[string, memory.TeammateActivity]
	// action is the action of an item's current revision, per item id.
	action *dataloadgen.Loader[string, memory.Action]
	// provenance is where an item came from, per item id.
	provenance *dataloadgen.Loader[string, memory.Provenance]
	// runChanges is what a run's memory tools did, per run id.
	runChanges *dataloadgen.Loader[string, []memory.RunChange]
}

type loadersKey struct{}

// WithLoaders is a gqlgen operation middleware that gives each operation fresh loaders.
func (r *Resolver) WithLoaders(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	return next(context.WithValue(ctx, loadersKey{}, &loaders{r: r}))
}

// lazy returns *l, making it with fetch first if the operation hasn't yet.
func lazy[K comparable, V any](ls *loaders, l **dataloadgen.Loader[K, V], fetch func(context.Context, []K) ([]V, []error)) *dataloadgen.Loader[K, V] {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if *l == nil {
		*l = dataloadgen.NewLoader(fetch, dataloadgen.WithWait(time.Millisecond))
	}
	return *l
}

func (ls *loaders) teammates() *dataloadgen.Loader[string, memory.Teammate] {
	return lazy(ls, &ls.teammate, ls.r.Memory.TeammatesByID)
}

func (ls *loaders) runTeammates() *dataloadgen.Loader[string, string] {
	return lazy(ls, &ls.runTeammate, ls.r.Memory.RunTeammatesByID)
}

func (ls *loaders) activities() *dataloadgen.Loader[string, memory.TeammateActivity] {
	return lazy(ls, &ls.activity, ls.r.Memory.TeammateActivities)
}

func (ls *loaders) actions() *dataloadgen.Loader[string, memory.Action] {
	return lazy(ls, &ls.action, ls.r.Memory.CurrentActionsByID)
}

func (ls *loaders) provenances() *dataloadgen.Loader[string, memory.Provenance] {
	return lazy(ls, &ls.provenance, ls.r.Memory.ProvenancesByID)
}

func (ls *loaders) runChangesOf() *dataloadgen.Loader[string, []memory.RunChange] {
	return lazy(ls, &ls.runChanges, ls.r.Memory.RunChangesByID)
}

func loadersFrom(ctx context.Context) *loaders {
	return ctx.Value(loadersKey{}).(*loaders)
}

// Batched reports whether field of object (schema names) is resolved through an operation's loader:
// its resolver only waits for a batch that one query answers outside it. The server's per-operation
// concurrency budget leaves these out, since a budget slot held while waiting would cut the batch
// down to the budget's size.
func Batched(object, field string) bool {
	switch object + "." + field {
	case "MemoryItem.teammate", "MemoryItem.lastAction", "MemoryItem.provenance", "MemoryRevision.actorTeammate",
		"Run.teammate", "Run.memoryChanges", "Teammate.activity":
		return true
	}
	return false
}

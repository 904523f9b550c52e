package resolvers

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"github.com/open-bot/memory/internal/memory"
)

// loaders batch the children that lists resolve (one query per list, not one per row). They live
// for one operation, so nothing is cached across requests or subscription events.
type loaders struct {
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
	l := &loaders{
		teammate:    dataloadgen.NewLoader(r.Memory.TeammatesByID, dataloadgen.WithWait(time.Millisecond)),
		runTeammate: dataloadgen.NewLoader(r.Memory.RunTeammatesByID, dataloadgen.WithWait(time.Millisecond)),
		activity:    dataloadgen.NewLoader(r.Memory.TeammateActivities, dataloadgen.WithWait(time.Millisecond)),
		action:      dataloadgen.NewLoader(r.Memory.CurrentActionsByID, dataloadgen.WithWait(time.Millisecond)),
		provenance:  dataloadgen.NewLoader(r.Memory.ProvenancesByID, dataloadgen.WithWait(time.Millisecond)),
		runChanges:  dataloadgen.NewLoader(r.Memory.RunChangesByID, dataloadgen.WithWait(time.Millisecond)),
	}
	return next(context.WithValue(ctx, loadersKey{}, l))
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

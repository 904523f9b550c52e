package resolvers

import (
	"context"
	"errors"
	"strings"

	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/memory"
)

// Where items came from and what runs did to memory (memory/provenance.go), each loaded for a whole
// list at once through the operation's loaders.

// provenance resolves MemoryItem.provenance.
func (r *Resolver) provenance(ctx context.Context, obj *memory.Item) (*model.MemoryProvenance, error) {
	p, err := loadersFrom(ctx).provenances().Load(ctx, obj.ID)
	if err != nil {
		return nil, err
	}
	out := &model.MemoryProvenance{
		Kind:        model.ProvenanceKind(strings.ToUpper(string(p.Kind))),
		RunID:       p.RunID,
		Quote:       p.Quote,
		At:          p.At,
		ConfirmedAt: p.ConfirmedAt,
	}
	if p.TeammateID != nil {
		out.Teammate, err = r.loadTeammate(ctx, *p.TeammateID)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// actorTeammate resolves MemoryRevision.actorTeammate: the teammate of an actor "teammate:<id>". A
// run sees another teammate's revisions by "teammate" with no id (memory.ActorAnotherTeammate), so
// it is never named to a run.
func (r *Resolver) actorTeammate(ctx context.Context, obj *memory.Revision) (*model.Teammate, error) {
	id, ok := strings.CutPrefix(obj.Actor, "teammate:")
	if !ok || id == "" {
		return nil, nil
	}
	return r.loadTeammate(ctx, id)
}

// loadTeammate loads a teammate through the operation's loader: nil when it no longer exists or the
// caller may not read it.
func (r *Resolver) loadTeammate(ctx context.Context, id string) (*model.Teammate, error) {
	t, err := loadersFrom(ctx).teammates().Load(ctx, id)
	if err != nil {
		if nilIfNotFound(err) == nil || errors.Is(err, memory.ErrForbidden) {
			return nil, nil
		}
		return nil, err
	}
	m := teammateModel(t)
	return &m, nil
}

// memoryChanges resolves Run.memoryChanges.
func (r *Resolver) memoryChanges(ctx context.Context, obj *memory.Run) ([]model.RunMemoryChange, error) {
	changes, err := loadersFrom(ctx).runChangesOf().Load(ctx, obj.ID)
	if err != nil {
		return nil, err
	}
	out := make([]model.RunMemoryChange, len(changes))
	for i, c := range changes {
		out[i] = model.RunMemoryChange{
			Kind:    model.RunMemoryChangeKind(strings.ToUpper(string(c.Kind))),
			ItemID:  c.ItemID,
			Scope:   c.Scope,
			Waiting: c.Waiting,
			Label:   c.Label,
			At:      c.At,
		}
	}
	return out, nil
}

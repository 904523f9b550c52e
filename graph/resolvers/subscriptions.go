package resolvers

import (
	"context"

	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/memory"
)

// watchGeneration sends the teammate's generation now and after every change to a scope it reads
// (shared or its own), and after every listener resync. Values are re-read from the database, so an
// event lost while the listener was down can't leave the client stale; repeats are suppressed.
func (r *Resolver) watchGeneration(ctx context.Context, teammateID string) (<-chan *model.GenerationChange, error) {
	first, err := r.Memory.Generation(ctx, teammateID) // checks the id and the caller's reach first
	if err != nil {
		return nil, err
	}
	sub := r.Events.Subscribe(func(e memory.Event) bool {
		return e.Generation && (e.Scope == memory.ScopeShared || e.Scope == teammateID)
	})
	out := make(chan *model.GenerationChange, 1)
	out <- &model.GenerationChange{TeammateID: teammateID, Generation: first.String()}
	go func() {
		defer close(out)
		defer sub.Close()
		last := first.String()
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-sub.C:
				if !ok {
					return // fell behind: completing makes the client resubscribe and re-read
				}
				g, err := r.Memory.Generation(ctx, teammateID)
				if err != nil {
					if ctx.Err() == nil {
						r.Log.WarnContext(ctx, "generation subscription ended", "teammate", teammateID, "err", err)
					}
					return
				}
				if g.String() == last {
					continue
				}
				last = g.String()
				select {
				case out <- &model.GenerationChange{TeammateID: teammateID, Generation: last}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

package resolvers

import (
	"context"
	"errors"
	"time"

	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
)

// subscribe registers the subscriber for the events topic selects among those its credential may
// see: which events are visible to whom is the memory service's rule (memory.EventVisible), asked
// of every event before topic. keys are every key of the events topic can accept (events.EventKeys),
// so the broker asks it only about those.
func (r *Resolver) subscribe(ctx context.Context, topic func(memory.Event) bool, keys ...events.Key) *events.Subscription {
	cred := memory.CredentialFrom(ctx)
	return r.Events.Subscribe(func(e memory.Event) bool { return memory.EventVisible(cred, e) && topic(e) }, keys...)
}

// watchGeneration sends the teammate's generation now and after every change to a scope it reads
// (shared or its own), and after every listener resync. Values are re-read from the database, so an
// event lost while the listener was down can't leave the client stale; repeats are suppressed.
func (r *Resolver) watchGeneration(ctx context.Context, teammateID string) (<-chan *model.GenerationChange, error) {
	first, err := r.Memory.Generation(ctx, teammateID) // checks the id and the caller's reach first
	if err != nil {
		return nil, err
	}
	if stream, ok := admitted[*model.GenerationChange](ctx); ok {
		return stream, nil
	}
	sub := r.subscribe(ctx, func(e memory.Event) bool {
		return e.Generation && (e.Scope == memory.ScopeShared || e.Scope == teammateID)
	}, events.ScopeKey(memory.ScopeShared), events.ScopeKey(teammateID))
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
				// One read covers every message already queued: reading once per message fell 64
				// behind, and was completed, whenever its scopes changed faster than a read takes.
				if !drain(sub.C) || r.runStillRunning(ctx) != nil {
					return
				}
				g, err := r.generationRetrying(ctx, teammateID)
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

// runStillRunning is nil unless the subscriber is a run that has ended since it subscribed: a run's
// credential ends with the run (RULES §4), and so do the subscriptions it opened, at their next event.
func (r *Resolver) runStillRunning(ctx context.Context) error {
	return r.Memory.CheckRunCredential(ctx)
}

// generationRetrying reads the teammate's generation, retrying a read that fails for a reason other
// than the caller's (the database restarting) with backoff for up to generationRetryFor: a short
// outage then leaves the subscription open, and the value it sends is read after the outage.
func (r *Resolver) generationRetrying(ctx context.Context, teammateID string) (memory.Generation, error) {
	delay := 50 * time.Millisecond
	deadline := time.Now().Add(generationRetryFor)
	for {
		g, err := r.Memory.Generation(ctx, teammateID)
		if err == nil || errors.Is(err, memory.ErrNotFound) || errors.Is(err, memory.ErrForbidden) ||
			errors.Is(err, memory.ErrUnauthenticated) || time.Now().After(deadline) {
			return g, err
		}
		select {
		case <-ctx.Done():
			return g, err
		case <-time.After(delay):
		}
		delay = min(2*delay, time.Second)
	}
}

// generationRetryFor is how long generationRetrying keeps trying.
const generationRetryFor = 30 * time.Second

// drain empties c of what is queued now, without waiting; false means c was closed.
func drain(c <-chan events.Message) bool {
	for {
		select {
		case _, ok := <-c:
			if !ok {
				return false
			}
		default:
			return true
		}
	}
}

// watchMemory sends a MemoryChange for every change to an item of scope. The item itself is re-read
// when the client selects it, with the subscriber's own credential.
func (r *Resolver) watchMemory(ctx context.Context, scope memory.Scope) (<-chan *model.MemoryChange, error) {
	if _, err := r.Memory.CheckScopeReadable(ctx, scope); err != nil {
		return nil, err
	}
	if stream, ok := admitted[*model.MemoryChange](ctx); ok {
		return stream, nil
	}
	name := scope.String()
	sub := r.subscribe(ctx, func(e memory.Event) bool { return e.Scope == name && e.ItemID != "" }, events.ScopeKey(name))
	return forward(ctx, sub, r.runStillRunning, func(e memory.Event) (*model.MemoryChange, bool) {
		change := &model.MemoryChange{
			Scope: e.Scope, ItemID: e.ItemID, Revision: e.Revision, Status: memory.Status(e.Status),
		}
		if e.Action != "" {
			action := memory.Action(e.Action)
			change.Action = &action
		}
		return change, true
	}), nil
}

// maxCandidates is how many suggestions the candidates query returns.
var maxCandidates = memory.MaxPageSize

// watchCandidates sends each suggestion that arrives in scope (A6), re-read with the subscriber's
// credential.
func (r *Resolver) watchCandidates(ctx context.Context, scope memory.Scope) (<-chan *memory.Item, error) {
	if _, err := r.Memory.CheckScopeReadable(ctx, scope); err != nil {
		return nil, err
	}
	if stream, ok := admitted[*memory.Item](ctx); ok {
		return stream, nil
	}
	name := scope.String()
	sub := r.subscribe(ctx, func(e memory.Event) bool { return e.Candidate && e.Scope == name }, events.ScopeKey(name))
	return forward(ctx, sub, r.runStillRunning, func(e memory.Event) (*memory.Item, bool) {
		item, err := r.Memory.Item(ctx, e.ItemID)
		// Confirmed, dismissed or forgotten since: nothing to announce.
		return &item, err == nil && item.Status == memory.StatusCandidate
	}), nil
}

// forward sends convert's value for each event of sub until the client leaves, the broker drops the
// subscriber, the listener resyncs — events may have been lost while it was away, so completing
// makes the client resubscribe and re-read rather than silently miss a change — or allowed says the
// subscriber may no longer have it. Events for which convert reports false are skipped.
func forward[T any](ctx context.Context, sub *events.Subscription, allowed func(context.Context) error, convert func(memory.Event) (T, bool)) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case m, ok := <-sub.C:
				if !ok || m.Resync || allowed(ctx) != nil {
					return
				}
				v, send := convert(m.Event)
				if !send {
					continue
				}
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// watchTeammates sends every teammate created, renamed, switched or deleted. The teammate is re-read with the
// subscriber's credential, so a name never travels in an event; a deleted one is sent without it.
func (r *Resolver) watchTeammates(ctx context.Context) (<-chan *model.TeammateChange, error) {
	if stream, ok := admitted[*model.TeammateChange](ctx); ok {
		return stream, nil
	}
	sub := r.subscribe(ctx, func(e memory.Event) bool { return e.Teammate != "" }, events.TeammateChanges)
	return forward(ctx, sub, r.runStillRunning, func(e memory.Event) (*model.TeammateChange, bool) {
		change := &model.TeammateChange{TeammateID: e.Scope}
		switch e.Teammate {
		case memory.TeammateCreated:
			change.Change = model.TeammateChangeKindCreated
		case memory.TeammateRenamed:
			change.Change = model.TeammateChangeKindRenamed
		case memory.TeammateSwitched:
			change.Change = model.TeammateChangeKindSwitched
		default:
			change.Change = model.TeammateChangeKindDeleted
			return change, true
		}
		t, err := r.Memory.Teammate(ctx, e.Scope)
		if err != nil {
			// Deleted since, or no longer readable: its own DELETED event follows or it isn't ours.
			return nil, false
		}
		m := teammateModel(t)
		change.Teammate = &m
		return change, true
	}), nil
}

package events_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
)

// drainAll is everything queued on sub now, and whether sub is still open.
func drainAll(sub *events.Subscription) ([]events.Message, bool) {
	var got []events.Message
	for {
		select {
		case m, ok := <-sub.C:
			if !ok {
				return got, false
			}
			got = append(got, m)
		default:
			return got, true
		}
	}
}

// The index narrows whom Publish asks, never what anyone receives: each subscription gets exactly
// the events its filter accepts among those it would have been asked about without an index (all
// of them, for the resolvers' filters, whose keys cover everything they accept), in order and once.
func TestBrokerKeysDeliverExactlyWhatFiltersAccept(t *testing.T) {
	t.Parallel()
	b := events.NewBroker()
	teammateChange := func(e memory.Event) bool { return e.Teammate != "" }
	items := func(scope string) func(memory.Event) bool {
		return func(e memory.Event) bool { return e.Scope == scope && e.ItemID != "" }
	}
	generation := func(own string) func(memory.Event) bool {
		return func(e memory.Event) bool {
			return e.Generation && (e.Scope == memory.ScopeShared || e.Scope == own)
		}
	}
	// A run of teammate ada: it may read the shared scope and ada's, never grace's.
	run := memory.Credential{Kind: memory.CredentialRun, TeammateID: "ada"}
	visibleToRun := func(e memory.Event) bool { return memory.EventVisible(run, e) }
	subs := []struct {
		name   string
		filter func(memory.Event) bool
		keys   []events.Key
	}{
		{"items of ada", items("ada"), []events.Key{events.ScopeKey("ada")}},
		{"items of grace", items("grace"), []events.Key{events.ScopeKey("grace")}},
		{"items of shared", items(memory.ScopeShared), []events.Key{events.ScopeKey(memory.ScopeShared)}},
		{"generation of ada", generation("ada"), []events.Key{events.ScopeKey(memory.ScopeShared), events.ScopeKey("ada")}},
		{"teammate changes", teammateChange, []events.Key{events.TeammateChanges}},
		{"teammate changes and ada, keys repeated", func(e memory.Event) bool { return teammateChange(e) || e.Scope == "ada" },
			[]events.Key{events.TeammateChanges, events.ScopeKey("ada"), events.TeammateChanges, events.ScopeKey("ada")}},
		{"everything", nil, nil},
		{"everything a run of ada may see", visibleToRun, nil},
		{"nothing", func(memory.Event) bool { return false }, nil},
	}
	published := []memory.Event{
		{Scope: "ada", ItemID: "i1", Revision: 1, Action: "create", Status: "active", Generation: true},
		{Scope: "grace", ItemID: "i2", Revision: 1, Action: "create", Status: "active", Generation: true},
		{Scope: memory.ScopeShared, ItemID: "i3", Revision: 2, Action: "edit", Status: "active", Generation: true},
		{Scope: "ada", Generation: true},
		{Scope: "grace", Generation: true, Teammate: memory.TeammateRenamed},
		{Scope: "ada", Generation: true, Teammate: memory.TeammateCreated},
		{Scope: "linus", ItemID: "i4", Revision: 1, Status: "candidate", Candidate: true},
		{Scope: "ada", ItemID: "i5", Revision: 1, Status: "candidate", Candidate: true},
		{Scope: memory.ScopeShared, Generation: true},
	}
	got := make([]*events.Subscription, len(subs))
	for i, s := range subs {
		got[i] = b.Subscribe(s.filter, s.keys...)
	}
	require.Equal(t, len(subs), b.Subscribers())
	for _, e := range published {
		b.Publish(e)
	}
	b.Resync()
	for i, s := range subs {
		var want []events.Message
		for _, e := range published {
			if s.filter == nil || s.filter(e) {
				want = append(want, events.Message{Event: e})
			}
		}
		want = append(want, events.Message{Resync: true})
		msgs, open := drainAll(got[i])
		require.True(t, open, s.name)
		require.Equal(t, want, msgs, s.name)
	}
	// Spelled out for the two that matter most.
	msgs, _ := drainAll(got[0])
	require.Empty(t, msgs)
	b.Publish(published[1]) // grace's
	msgs, _ = drainAll(got[0])
	require.Empty(t, msgs, "a subscriber of ada's items heard of grace's")
	msgs, _ = drainAll(got[6])
	require.Equal(t, []events.Message{{Event: published[1]}}, msgs, "the subscriber of everything")

	for _, sub := range got {
		sub.Close()
	}
	require.Zero(t, b.Subscribers())
}

// Keys narrow, even for a filter that would accept more: it is never asked about events outside
// them.
func TestBrokerKeysNarrowTheFilter(t *testing.T) {
	t.Parallel()
	b := events.NewBroker()
	asked := 0
	sub := b.Subscribe(func(memory.Event) bool { asked++; return true }, events.ScopeKey("ada"))
	defer sub.Close()
	b.Publish(memory.Event{Scope: "grace", Generation: true})
	b.Publish(memory.Event{Scope: "grace", Teammate: memory.TeammateDeleted})
	require.Zero(t, asked)
	b.Publish(memory.Event{Scope: "ada", Generation: true})
	require.Equal(t, 1, asked)
	require.Equal(t, "ada", receive(t, sub).Event.Scope)
	requireEmpty(t, sub)
}

// Closing a subscription while events are being sent to it never sends on its closed channel (that
// would panic): every round closes a subscription that doesn't read while another goroutine
// publishes to it, so Close lands before, during and after its buffer fills and it is dropped.
func TestBrokerCloseDuringPublish(t *testing.T) {
	t.Parallel()
	b := events.NewBroker()
	for round := range 300 {
		sub := b.Subscribe(nil, events.ScopeKey("ada"))
		other := b.Subscribe(nil)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range events.SubscriberBuffer + 8 {
				b.Publish(memory.Event{Scope: "ada", Revision: i + 1})
			}
		}()
		if round%3 == 0 {
			// Read a little first, so Close meets a half-full buffer too.
			<-sub.C
		}
		sub.Close()
		sub.Close()
		<-done
		_, open := drainAll(sub)
		require.False(t, open)
		_, open = drainAll(other)
		require.False(t, open, "the subscriber that never read was not dropped")
		other.Close()
		require.Zero(t, b.Subscribers())
	}
}

// Subscribe, Close, Publish and Resync all at once, for the race detector: every subscription sees
// only events its keys and filter admit, each scope's in the order published, and a subscription
// that stops reading is dropped, not waited for.
func TestBrokerConcurrentSubscribeClosePublish(t *testing.T) {
	t.Parallel()
	b := events.NewBroker()
	const (
		scopes      = 8
		publishes   = 400
		subscribers = 6
		rounds      = 60
	)
	scopeName := func(i int) string { return fmt.Sprint("scope-", i) }
	var publishers, readers sync.WaitGroup
	stop := make(chan struct{})
	for p := range scopes {
		publishers.Go(func() {
			for i := range publishes {
				b.Publish(memory.Event{Scope: scopeName(p), Revision: i + 1})
				if p == 0 && i%100 == 0 {
					b.Resync()
				}
			}
		})
	}
	errs := make(chan error, subscribers*rounds)
	for r := range subscribers {
		readers.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(r), 1))
			for round := 0; ; round++ {
				select {
				case <-stop:
					return
				default:
				}
				mine := scopeName(rng.IntN(scopes))
				var sub *events.Subscription
				switch round % 3 {
				case 0:
					sub = b.Subscribe(nil, events.ScopeKey(mine))
				case 1:
					sub = b.Subscribe(func(e memory.Event) bool { return e.Scope == mine }) // asked about all
				default:
					sub = b.Subscribe(nil, events.ScopeKey(mine), events.ScopeKey(mine), events.TeammateChanges)
				}
				last := 0
				read := rng.IntN(3 * events.SubscriberBuffer) // sometimes more than it is sent
			reading:
				for range read {
					select {
					case m, ok := <-sub.C:
						if !ok {
							break reading // dropped: it read too slowly
						}
						if m.Resync {
							continue
						}
						if m.Event.Scope != mine || m.Event.Revision <= last {
							errs <- fmt.Errorf("a subscriber of %s got %+v after revision %d", mine, m.Event, last)
							sub.Close()
							return
						}
						last = m.Event.Revision
					case <-stop:
						break reading
					}
				}
				sub.Close()
			}
		})
	}
	publishers.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Zero(t, b.Subscribers())
}

// BenchmarkPublish is one event published to 10,000 subscribers of memoryChanged, each with the
// resolvers' filter (visibility, then scope and item), in a process where they watch 100 scopes or
// all the same one; "unkeyed" registers them without keys, so every filter is asked about every
// event, as a broker without an index would. Each op includes the receiving subscribers taking
// their message off their queues (stopping the timer for that costs more than it does).
func BenchmarkPublish(b *testing.B) {
	const subscribers = 10_000
	cred := memory.Credential{Kind: memory.CredentialUser}
	for _, bc := range []struct {
		name   string
		scopes int
		keyed  bool
	}{
		{"scopes=100/keyed", 100, true},
		{"scopes=100/unkeyed", 100, false},
		{"scopes=1/keyed", 1, true},
		{"scopes=1/unkeyed", 1, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			broker := events.NewBroker()
			byScope := make([][]*events.Subscription, bc.scopes)
			for i := range subscribers {
				s := i % bc.scopes
				name := fmt.Sprint("scope-", s)
				filter := func(e memory.Event) bool {
					return memory.EventVisible(cred, e) && e.Scope == name && e.ItemID != ""
				}
				var keys []events.Key
				if bc.keyed {
					keys = []events.Key{events.ScopeKey(name)}
				}
				byScope[s] = append(byScope[s], broker.Subscribe(filter, keys...))
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				s := i % bc.scopes
				broker.Publish(memory.Event{Scope: fmt.Sprint("scope-", s), ItemID: "item", Revision: i + 1, Status: "active"})
				for _, sub := range byScope[s] {
					select {
					case _, ok := <-sub.C:
						if !ok {
							b.Fatal("a subscriber was closed")
						}
					default:
						b.Fatal("a subscriber got nothing")
					}
				}
			}
			b.ReportMetric(float64(subscribers/bc.scopes), "deliveries/op")
		})
	}
}

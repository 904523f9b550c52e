package events

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/metrics"
)

// SubscriberBuffer is how many undelivered messages a subscriber may hold before it is closed.
const SubscriberBuffer = 64

// Message is what a subscriber receives: an event, or a request to re-read current state.
type Message struct {
	Event memory.Event
	// Resync is set after the listener (re)connected: events may have been missed, re-read everything.
	Resync bool
}

// Key is a part of the events a subscription can be registered under: the events of one scope, or
// the teammate changes of every scope. Publish hands an event only to the subscriptions registered
// under one of its keys (EventKeys) and to those registered under none, which hear everything.
type Key struct {
	scope     string
	teammates bool
}

// ScopeKey is the key of the events of scope name (memory.ScopeShared or a teammate id).
func ScopeKey(name string) Key { return Key{scope: name} }

// TeammateChanges is the key of every event that announces a teammate created, renamed or deleted
// (memory.Event.Teammate), whatever its scope.
var TeammateChanges = Key{teammates: true}

// EventKeys are the keys e is published under: its scope's, and TeammateChanges when it announces a
// teammate change. A subscription whose filter accepts e must be registered under one of them (or
// under none).
func EventKeys(e memory.Event) []Key {
	if e.Teammate != "" {
		return []Key{ScopeKey(e.Scope), TeammateChanges}
	}
	return []Key{ScopeKey(e.Scope)}
}

// Broker fans events out to this process's subscribers.
//
// Subscriptions are indexed by Key, so an event is offered only to those registered under its keys
// and to the ones that asked for everything; each is still asked its own filter (which applies
// memory.EventVisible), so the index narrows the work and never what a subscriber receives. Publish
// reads the index under a read lock only to take the current member lists, then runs the filters
// and sends without holding it: Subscribe and Close never wait for a filter.
type Broker struct {
	// publishing makes Publish and Resync take turns, so every subscriber receives messages in the
	// one order they were published in (a resync after the events before it). Subscribe and Close
	// never take it.
	publishing sync.Mutex

	// mu guards the index below and metrics.
	mu sync.RWMutex
	// all holds every live subscription (Resync, Subscribers); everything those that asked for every
	// event; keyed those registered under each key.
	all        bucket
	everything bucket
	keyed      map[Key]*bucket
	metrics    *metrics.Metrics
}

// bucket is a set of subscriptions and a cached list of them. The set changes under Broker.mu held
// for writing, which also clears the list; Publish rebuilds the list under the read lock and then
// walks it without any lock.
type bucket struct {
	members map[*Subscription]struct{}
	list    atomic.Pointer[[]*Subscription]
}

func newBucket() *bucket { return &bucket{members: map[*Subscription]struct{}{}} }

func (k *bucket) add(s *Subscription) {
	if k.members == nil {
		k.members = map[*Subscription]struct{}{}
	}
	k.members[s] = struct{}{}
	k.list.Store(nil)
}

func (k *bucket) remove(s *Subscription) {
	delete(k.members, s)
	k.list.Store(nil)
}

// snapshot is the bucket's members now; the caller holds Broker.mu for reading at least. Two
// publishers rebuilding it at once store equal lists.
func (k *bucket) snapshot() []*Subscription {
	if l := k.list.Load(); l != nil {
		return *l
	}
	l := make([]*Subscription, 0, len(k.members))
	for s := range k.members {
		l = append(l, s)
	}
	k.list.Store(&l)
	return l
}

// NewBroker returns an empty broker.
func NewBroker() *Broker {
	return &Broker{keyed: map[Key]*bucket{}}
}

// Instrument counts the messages the broker delivers and drops in m.
func (b *Broker) Instrument(m *metrics.Metrics) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.metrics = m
}

// Subscription receives the messages its filter accepts, on C. C is closed by Close, or by the broker
// when the subscriber fell SubscriberBuffer messages behind (the client should then resubscribe).
type Subscription struct {
	C      <-chan Message
	c      chan Message
	filter func(memory.Event) bool
	keys   []Key
	broker *Broker

	// mu makes a send and the closing of c take turns, so nothing is ever sent on a closed c.
	mu     sync.Mutex
	closed bool
}

// Subscribe registers a subscriber for the events filter accepts (nil: every event). With keys, the
// filter is only asked about the events published under one of them (EventKeys): a filter that
// accepts an event outside its keys never hears of it. Without keys it is asked about every event.
// Resync messages always pass.
func (b *Broker) Subscribe(filter func(memory.Event) bool, keys ...Key) *Subscription {
	c := make(chan Message, SubscriberBuffer)
	s := &Subscription{C: c, c: c, filter: filter, keys: distinct(keys), broker: b}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.all.add(s)
	if len(s.keys) == 0 {
		b.everything.add(s)
	}
	for _, k := range s.keys {
		bk := b.keyed[k]
		if bk == nil {
			bk = newBucket()
			b.keyed[k] = bk
		}
		bk.add(s)
	}
	return s
}

// distinct is keys without repeats.
func distinct(keys []Key) []Key {
	var out []Key
	for _, k := range keys {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// Close unregisters s and closes its channel. It is safe to call more than once, and at any time
// from any goroutine: once it returns nothing more is sent to s.
func (s *Subscription) Close() {
	s.closeChannel()
	s.broker.remove(s)
}

// closeChannel closes c unless it is already closed.
func (s *Subscription) closeChannel() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.c)
	}
}

// remove takes s out of the index (if it is still there).
func (b *Broker) remove(s *Subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.all.members[s]; !ok {
		return
	}
	b.all.remove(s)
	if len(s.keys) == 0 {
		b.everything.remove(s)
	}
	for _, k := range s.keys {
		if bk := b.keyed[k]; bk != nil {
			bk.remove(s)
			if len(bk.members) == 0 {
				delete(b.keyed, k)
			}
		}
	}
}

// Subscribers is the number of live subscriptions (memory_event_subscribers, and tests).
func (b *Broker) Subscribers() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.all.members)
}

// Publish delivers e to every subscriber whose filter accepts it.
func (b *Broker) Publish(e memory.Event) {
	b.publishing.Lock()
	defer b.publishing.Unlock()
	keys := EventKeys(e)
	b.mu.RLock()
	m := b.metrics
	lists := make([][]*Subscription, 0, 1+len(keys))
	lists = append(lists, b.everything.snapshot())
	for _, k := range keys {
		if bk := b.keyed[k]; bk != nil {
			lists = append(lists, bk.snapshot())
		}
	}
	b.mu.RUnlock()

	msg := Message{Event: e}
	// A subscription registered under two of e's keys is in two of the keyed lists; it gets e once.
	var seen map[*Subscription]struct{}
	if len(lists) > 2 {
		seen = map[*Subscription]struct{}{}
	}
	for i, list := range lists {
		for _, s := range list {
			if seen != nil && i > 0 {
				if _, dup := seen[s]; dup {
					continue
				}
				seen[s] = struct{}{}
			}
			if s.filter != nil && !s.filter(e) {
				continue
			}
			s.send(msg, m)
		}
	}
}

// Resync tells every subscriber to re-read current state.
func (b *Broker) Resync() {
	b.publishing.Lock()
	defer b.publishing.Unlock()
	b.mu.RLock()
	m := b.metrics
	list := b.all.snapshot()
	b.mu.RUnlock()
	for _, s := range list {
		s.send(Message{Resync: true}, m)
	}
}

// send queues msg for s without waiting. A subscriber whose buffer is full is closed and removed:
// falling this far behind means the client isn't reading, and closing tells it to resubscribe,
// which re-reads current state, instead of silently dropping one event.
func (s *Subscription) send(msg Message, m *metrics.Metrics) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return // closed since the list was taken
	}
	select {
	case s.c <- msg:
		s.mu.Unlock()
		m.EventDelivered()
		return
	default:
	}
	s.closed = true
	close(s.c)
	s.mu.Unlock()
	m.EventDropped()
	s.broker.remove(s)
}

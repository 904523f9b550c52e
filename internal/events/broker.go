package events

import (
	"sync"

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

// Broker fans events out to this process's subscribers.
type Broker struct {
	mu      sync.Mutex
	subs    map[*Subscription]struct{}
	metrics *metrics.Metrics
}

// NewBroker returns an empty broker.
func NewBroker() *Broker {
	return &Broker{subs: make(map[*Subscription]struct{})}
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
	broker *Broker
}

// Subscribe registers a subscriber for the events filter accepts. Resync messages always pass.
func (b *Broker) Subscribe(filter func(memory.Event) bool) *Subscription {
	c := make(chan Message, SubscriberBuffer)
	s := &Subscription{C: c, c: c, filter: filter, broker: b}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// Close unregisters s and closes its channel. It is safe to call more than once.
func (s *Subscription) Close() {
	s.broker.mu.Lock()
	s.broker.removeLocked(s)
	s.broker.mu.Unlock()
}

func (b *Broker) removeLocked(s *Subscription) {
	if _, ok := b.subs[s]; ok {
		delete(b.subs, s)
		close(s.c)
	}
}

// Subscribers is the number of live subscriptions (memory_event_subscribers, and tests).
func (b *Broker) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}

// Publish delivers e to every subscriber whose filter accepts it.
func (b *Broker) Publish(e memory.Event) {
	b.deliver(Message{Event: e})
}

// Resync tells every subscriber to re-read current state.
func (b *Broker) Resync() {
	b.deliver(Message{Resync: true})
}

func (b *Broker) deliver(m Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		if !m.Resync && s.filter != nil && !s.filter(m.Event) {
			continue
		}
		select {
		case s.c <- m:
			b.metrics.EventDelivered()
		default:
			b.metrics.EventDropped()
			// Falling this far behind means the client isn't reading; closing tells it to resubscribe,
			// which re-reads current state, instead of silently dropping one event.
			b.removeLocked(s)
		}
	}
}

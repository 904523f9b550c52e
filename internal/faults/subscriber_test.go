package faults_test

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/open-bot/memory/internal/apitest"
)

// received is one message of a subscription operation.
type received struct {
	op   int
	at   time.Time
	data json.RawMessage
}

// subscriber keeps one subscription going on its own connection and records what arrives. Each
// (re)subscription is a new operation, numbered from 1.
type subscriber struct {
	name  string
	c     *apitest.WS
	query string
	vars  map[string]any
	// resubscribe makes the subscriber start a new operation by itself when the server completes one,
	// as a client does; without it the test decides when.
	resubscribe bool

	mu        sync.Mutex
	op        int
	nexts     []received
	completes []received
	problems  []string // error messages, next with errors, the connection closing
	done      chan struct{}
}

func newSubscriber(name string, c *apitest.WS, query string, vars map[string]any, resubscribe bool) *subscriber {
	s := &subscriber{name: name, c: c, query: query, vars: vars, resubscribe: resubscribe, done: make(chan struct{})}
	go s.consume()
	return s
}

// start begins a new operation and returns its number.
func (s *subscriber) start() (int, error) {
	s.mu.Lock()
	s.op++
	op := s.op
	s.mu.Unlock()
	return op, s.c.Subscribe(strconv.Itoa(op), s.query, s.vars)
}

func (s *subscriber) consume() {
	defer close(s.done)
	for m := range s.c.Messages() {
		op, _ := strconv.Atoi(m.ID)
		now := time.Now()
		s.mu.Lock()
		switch m.Type {
		case "next":
			var res apitest.Result
			if err := json.Unmarshal(m.Payload, &res); err != nil || len(res.Errors) > 0 {
				s.problems = append(s.problems, "next with errors: "+string(m.Payload))
			} else {
				s.nexts = append(s.nexts, received{op: op, at: now, data: res.Data})
			}
		case "complete":
			s.completes = append(s.completes, received{op: op, at: now})
		default:
			s.problems = append(s.problems, m.Type+": "+string(m.Payload))
		}
		again := m.Type == "complete" && s.resubscribe && op == s.op
		s.mu.Unlock()
		if again {
			if _, err := s.start(); err != nil {
				s.mu.Lock()
				s.problems = append(s.problems, "resubscribe: "+err.Error())
				s.mu.Unlock()
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c.Err() != nil && !s.c.ClosedByUs() && !websocket.IsCloseError(s.c.Err(), websocket.CloseNormalClosure) {
		s.problems = append(s.problems, "connection ended: "+s.c.Err().Error())
	}
}

// snapshot copies what arrived so far.
func (s *subscriber) snapshot() (op int, nexts, completes []received, problems []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.op, append([]received(nil), s.nexts...), append([]received(nil), s.completes...), append([]string(nil), s.problems...)
}

// itemRev names one revision of one item.
type itemRev struct {
	item string
	rev  int
}

// memoryChanges decodes the memoryChanged values of operation op (all operations when op is 0),
// with the time each arrived.
func memoryChanges(nexts []received, op int) map[itemRev]time.Time {
	out := map[itemRev]time.Time{}
	for _, n := range nexts {
		if op != 0 && n.op != op {
			continue
		}
		var v struct {
			MemoryChanged struct {
				ItemID   string `json:"itemId"`
				Revision int    `json:"revision"`
			} `json:"memoryChanged"`
		}
		if json.Unmarshal(n.data, &v) == nil && v.MemoryChanged.ItemID != "" {
			out[itemRev{v.MemoryChanged.ItemID, v.MemoryChanged.Revision}] = n.at
		}
	}
	return out
}

// generations decodes the generationChanged values in order.
func generations(nexts []received) []received {
	var out []received
	for _, n := range nexts {
		var v struct {
			GenerationChanged struct{ Generation string } `json:"generationChanged"`
		}
		if json.Unmarshal(n.data, &v) == nil && v.GenerationChanged.Generation != "" {
			out = append(out, received{op: n.op, at: n.at, data: json.RawMessage(strconv.Quote(v.GenerationChanged.Generation))})
		}
	}
	return out
}

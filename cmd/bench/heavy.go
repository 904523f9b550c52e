package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// heavyClients is how many clients send the heaviest accepted request back to back in the
// heavy-request step: two, so that between them they ask for more connections than the API's
// heavy-field share of its pool.
const heavyClients = 2

// heavyDocument is a query with n aliases of recallPreview for teammate, with a common-word request.
func heavyDocument(teammate string, n int) string {
	var b strings.Builder
	b.WriteString("query {")
	for i := range n {
		fmt.Fprintf(&b, " r%d: recallPreview(teammateId: %q, query: %q) { text }", i, teammate, requests[(2*i)%len(requests)].text)
	}
	b.WriteString(" }")
	return b.String()
}

// heaviestRecalls is the most aliased recallPreview one document may hold: the API's limits refuse
// more with COMPLEXITY_LIMIT_EXCEEDED before anything runs. It asks about a teammate that doesn't
// exist, so the documents it tries cost nothing to answer.
func (b *bench) heaviestRecalls(ctx context.Context) (int, error) {
	for n := 32; n > 0; n-- {
		err := b.do(ctx, b.apis[0], workerToken, heavyDocument("00000000-0000-0000-0000-000000000000", n), nil, nil)
		var gqlErr *gqlError
		if errors.As(err, &gqlErr) && gqlErr.Code == "COMPLEXITY_LIMIT_EXCEEDED" {
			continue
		}
		return n, nil
	}
	return 0, errors.New("no document of recallPreview is accepted")
}

// benchHeavy is the starvation row: /readyz and a small query's latency while the heaviest
// accepted request (as many aliased recallPreview over the large teammate's items as the limits
// let through) runs back to back from heavyClients clients, against the same probes with nothing
// else running as the floor.
func (b *bench) benchHeavy(ctx context.Context) ([]row, error) {
	n, err := b.heaviestRecalls(ctx)
	if err != nil {
		return nil, err
	}
	doc := heavyDocument(b.big, n)
	readyz := func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.apis[0].URL+"/readyz", nil)
		if err != nil {
			return err
		}
		res, err := b.httpc.Do(req)
		if err != nil {
			return err
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("/readyz: HTTP %d", res.StatusCode)
		}
		return nil
	}
	small := func(ctx context.Context) error {
		return b.do(ctx, b.apis[0], userToken, `query($id: ID!) { teammate(id: $id) { id name } }`, map[string]any{"id": b.small}, nil)
	}
	probe := func(ctx context.Context, count int) (ready, query latencies, err error) {
		for range count {
			t := time.Now()
			if err := readyz(ctx); err != nil {
				return nil, nil, err
			}
			ready = append(ready, time.Since(t))
			t = time.Now()
			if err := small(ctx); err != nil {
				return nil, nil, err
			}
			query = append(query, time.Since(t))
			time.Sleep(5 * time.Millisecond) // probes, not load
		}
		return ready, query, nil
	}

	if _, _, err := probe(ctx, 20); err != nil { // warm-up
		return nil, err
	}
	idleReady, idleQuery, err := probe(ctx, b.o.requests)
	if err != nil {
		return nil, err
	}
	heavyCtx, stopHeavy := context.WithCancel(ctx)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		heavy    latencies
		heavyErr error
	)
	for range heavyClients {
		wg.Go(func() {
			for heavyCtx.Err() == nil {
				t := time.Now()
				err := b.do(heavyCtx, b.apis[0], userToken, doc, nil, nil)
				mu.Lock()
				if err != nil && heavyCtx.Err() == nil && heavyErr == nil {
					heavyErr = err
				} else if err == nil {
					heavy = append(heavy, time.Since(t))
				}
				mu.Unlock()
			}
		})
	}
	time.Sleep(500 * time.Millisecond) // the heavy requests are under way
	busyReady, busyQuery, err := probe(ctx, b.o.requests)
	// Probe on until a few heavy requests have completed too, so their row means something.
	for deadline := time.Now().Add(2 * time.Minute); err == nil && time.Now().Before(deadline); {
		mu.Lock()
		done := len(heavy)
		mu.Unlock()
		if done >= 4*heavyClients {
			break
		}
		var r, q latencies
		r, q, err = probe(ctx, 10)
		busyReady, busyQuery = append(busyReady, r...), append(busyQuery, q...)
	}
	stopHeavy()
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if heavyErr != nil {
		return nil, fmt.Errorf("the heaviest accepted request: %w", heavyErr)
	}
	name := fmt.Sprintf("while %d clients send %d aliased recallPreview (%s visible) back to back", heavyClients, n, count(b.o.big))
	rowOf := func(what string, busy, idle latencies) row {
		return row{
			name:     what + " " + name,
			measured: busy.p50p99(),
			floor:    idle.p50p99() + " (idle)",
			ratio:    "p99 " + ratio(float64(busy.at(0.99)), float64(idle.at(0.99))),
			target:   "p99 ≤ 1 s",
			met:      yesNo(busy.at(0.99) <= time.Second),
		}
	}
	return []row{
		rowOf("/readyz", busyReady, idleReady),
		rowOf("A small query (teammate by id)", busyQuery, idleQuery),
		{name: fmt.Sprintf("The heaviest accepted request itself (%d aliased recallPreview, %s visible; %d clients)", n, count(b.o.big), heavyClients),
			measured: heavy.p50p99()},
	}, nil
}

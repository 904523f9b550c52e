package server_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/dbtest"
)

// probeReadyz asks /readyz every interval until stop is closed and returns the slowest answer and
// every answer that was not a 200 within limit.
func probeReadyz(base string, interval, limit time.Duration, stop <-chan struct{}) (slowest func() time.Duration, failures func() []string) {
	var (
		mu      sync.Mutex
		worst   time.Duration
		bad     []string
		done    = make(chan struct{})
		client  = http.Client{Timeout: limit}
		tick    = time.NewTicker(interval)
		stopped atomic.Bool
	)
	go func() {
		defer close(done)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				stopped.Store(true)
				return
			case <-tick.C:
			}
			began := time.Now()
			resp, err := client.Get(base + "/readyz")
			took := time.Since(began)
			mu.Lock()
			worst = max(worst, took)
			switch {
			case err != nil:
				bad = append(bad, err.Error())
			case resp.StatusCode != http.StatusOK:
				bad = append(bad, fmt.Sprintf("HTTP %d after %v", resp.StatusCode, took))
			case took > limit:
				bad = append(bad, fmt.Sprintf("answered after %v", took))
			}
			mu.Unlock()
			if resp != nil {
				resp.Body.Close()
			}
		}
	}()
	wait := func() { <-done }
	return func() time.Duration { wait(); mu.Lock(); defer mu.Unlock(); return worst },
		func() []string { wait(); mu.Lock(); defer mu.Unlock(); return bad }
}

// TestRecallNeverEmbedsWhileHoldingAConnection: recall must not call the embedding endpoint inside
// its transaction, because reserving the AI budget needs a connection of its own, so with a pool of
// N, N concurrent recalls would wait forever for each other. Through the real API on a pool of 4,
// with a real (loopback, slow) OpenAI-compatible endpoint and the real daily budget, 32 startRun
// and 32 recallPreview at once all finish, each with its request embedded and counted, and /readyz
// answers within a second throughout. Since the server lets recalls use only half the pool, this
// would pass even if recall embedded while holding a connection: internal/wire's
// TestRecallHoldsNoConnectionWhileEmbedding calls the service directly and catches that.
func TestRecallNeverEmbedsWhileHoldingAConnection(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	fake := fakeEmbeddingsAfter(t, &requests, 50*time.Millisecond)
	api := apitest.StartWith(t, dbtest.URL(t), func(o *app.Options) {
		o.AI = config.AI{
			EmbeddingURL: fake.URL + "/v1", EmbeddingModel: "fake-16", EmbeddingDimensions: 16, APIKey: "test-key",
			DailyRequestLimit: 1000, SemanticMaxDistance: 0.9,
		}
		o.DBMaxConns = 4
	})
	w := world{api: api, t: t}
	tm := w.teammate("Quinn")
	w.createMemory(&tm, "Quinn plays the cello in a quartet")
	embeddedBefore := requests.Load()

	stop := make(chan struct{})
	slowest, failures := probeReadyz(api.URL, 50*time.Millisecond, time.Second, stop)

	const each = 32
	gql := apitest.NewClient(api.URL, 2*each) // 10 s per request: a deadlock fails instead of hanging
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	began := time.Now()
	errs := make(chan error, 2*each)
	var wg sync.WaitGroup
	for i := range each {
		wg.Go(func() {
			var out struct{ StartRun struct{ Packet string } }
			err := gql.Call(ctx, worker, `mutation($t: ID!, $m: String!) { startRun(input: {teammateId: $t, message: $m}) { packet } }`,
				map[string]any{"t": tm, "m": fmt.Sprintf("which cello quartet, take %d?", i)}, &out)
			if err == nil && out.StartRun.Packet == "" {
				err = fmt.Errorf("startRun %d: empty packet", i)
			}
			errs <- err
		})
		wg.Go(func() {
			var out struct{ RecallPreview struct{ VectorSearch string } }
			err := gql.Call(ctx, user, `query($t: ID!, $q: String!) { recallPreview(teammateId: $t, query: $q) { vectorSearch } }`,
				map[string]any{"t": tm, "q": fmt.Sprintf("cello quartet %d", i)}, &out)
			if err == nil && out.RecallPreview.VectorSearch != "USED" {
				err = fmt.Errorf("recallPreview %d: vector search %s", i, out.RecallPreview.VectorSearch)
			}
			errs <- err
		})
	}
	wg.Wait()
	took := time.Since(began)
	close(stop)
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Empty(t, failures(), "/readyz while 64 recalls embed")
	t.Logf("%d startRun and %d recallPreview on a pool of 4 with a 50 ms endpoint: %v; slowest /readyz %v",
		each, each, took.Round(time.Millisecond), slowest().Round(time.Millisecond))
	assert.Less(t, took, 20*time.Second)

	var st struct{ AiStatus struct{ RequestsToday int } }
	w.api.Must(t, user, `query { aiStatus { requestsToday } }`, nil, &st)
	assert.EqualValues(t, 2*each, requests.Load()-embeddedBefore, "every recall embedded its request")
	assert.Equal(t, 2*each, st.AiStatus.RequestsToday, "and reserved it from the real budget")
}

package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/server"
)

// seedItems gives teammate n active items of common words in one statement (the API's writes would
// take minutes), so that recall ranks thousands of matches as it would in a large memory.
func seedItems(t *testing.T, conn *pgx.Conn, teammate string, n int) {
	t.Helper()
	_, err := conn.Exec(t.Context(), `
		INSERT INTO memory_items (teammate_id, kind, content, status, source, content_hash)
		SELECT $1::uuid, 'fact',
		       v.subjects[1 + g % 5] || ' ' || v.verbs[1 + (g / 5) % 5] || ' ' || v.objects[1 + (g / 25) % 10] || ' item ' || g,
		       'active', 'user', sha256(g::text::bytea)
		  FROM generate_series(1, $2) g,
		       (SELECT '{The user,Ada,My sister,Our team,The client}'::text[] AS subjects,
		               '{prefers,likes,avoids,uses,needs}'::text[] AS verbs,
		               '{green tea,black coffee,oat milk,the window seat,early meetings,long walks,spicy food,jazz records,train tickets,dark mode}'::text[] AS objects) v`,
		teammate, n)
	require.NoError(t, err)
	_, err = conn.Exec(t.Context(), `ANALYZE memory_items`)
	require.NoError(t, err)
}

// aliased is a query document with n aliases of field.
func aliased(field string, n int) string {
	var b strings.Builder
	b.WriteString("query {")
	for i := range n {
		fmt.Fprintf(&b, " a%d: %s", i, field)
	}
	b.WriteString(" }")
	return b.String()
}

// latencyProbe sends probe every interval until stop is closed, and reports the slowest answer and
// every one that failed or took longer than limit.
type latencyProbe struct {
	mu      sync.Mutex
	slowest time.Duration
	bad     []string
	count   int
	done    chan struct{}
}

func startProbe(interval, limit time.Duration, stop <-chan struct{}, probe func(ctx context.Context) error) *latencyProbe {
	p := &latencyProbe{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			began := time.Now()
			err := probe(ctx)
			took := time.Since(began)
			cancel()
			p.mu.Lock()
			p.count++
			p.slowest = max(p.slowest, took)
			if err != nil {
				p.bad = append(p.bad, fmt.Sprintf("after %v: %v", took.Round(time.Millisecond), err))
			}
			p.mu.Unlock()
		}
	}()
	return p
}

func (p *latencyProbe) result() (count int, slowest time.Duration, bad []string) {
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count, p.slowest, p.bad
}

// TestOneOperationCannotTakeEveryConnection: one document of 120 aliased recallPreview, which would
// hold every connection of the pool while {teammates{id}} and /readyz wait behind it, is refused,
// and so is a document with too many counts; the heaviest accepted document runs at most
// server.OperationConcurrency recall statements at once (seen in pg_stat_activity), and while
// several run back to back {teammates{id}} and /readyz answer within a second throughout. The pool
// has 4 connections, the teammate 8,000 matching items.
func TestOneOperationCannotTakeEveryConnection(t *testing.T) {
	t.Parallel()
	url := dbtest.URL(t)
	s := apitest.StartWith(t, url, settings, func(o *app.Options) { o.DBMaxConns = 4 })
	tm := s.CreateTeammate(t, "Heavy")
	conn, err := pgx.Connect(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	seedItems(t, conn, tm, 8000)

	recall := fmt.Sprintf(`recallPreview(teammateId: %q, query: "does the user like green tea or black coffee with oat milk") { text }`, tm)
	began := time.Now()
	res := s.Do(t, userToken, aliased(recall, 120), nil)
	assert.Equal(t, "COMPLEXITY_LIMIT_EXCEEDED", res.Code(), "120 aliased recallPreview: %s", res.Data)
	assert.Less(t, time.Since(began), time.Second, "refused before it runs")
	count := fmt.Sprintf(`memoryItems(scope: {teammateId: %q}, first: 1) { totalCount }`, tm)
	res = s.Do(t, userToken, aliased(count, server.MaxHeavyFields+1), nil)
	assert.Equal(t, "COMPLEXITY_LIMIT_EXCEEDED", res.Code(), "%d counts: %s", server.MaxHeavyFields+1, res.Data)

	// The heaviest accepted document: as many recalls as the limits let through (found with a
	// teammate that doesn't exist, which the limits don't know and recall answers at once).
	heaviest := 0
	for n := server.MaxHeavyFields; n > 0 && heaviest == 0; n-- {
		probe := strings.ReplaceAll(aliased(recall, n), tm, "00000000-0000-0000-0000-000000000000")
		if res := s.Do(t, userToken, probe, nil); res.Code() != "COMPLEXITY_LIMIT_EXCEEDED" {
			heaviest = n
		}
	}
	require.Positive(t, heaviest)
	doc := aliased(recall, heaviest)

	// runHeavy sends doc from clients goroutines back to back for d, and meanwhile samples how many
	// recall statements of the API run at once. They are told by their BM25 step, near the start of
	// the text: pg_stat_activity keeps only the first 1,024 bytes of a statement.
	runHeavy := func(clients int, d time.Duration) (sent int, mostAtOnce int) {
		ctx, cancel := context.WithTimeout(t.Context(), d)
		defer cancel()
		var wg sync.WaitGroup
		var mu sync.Mutex
		for range clients {
			wg.Go(func() {
				for ctx.Err() == nil {
					res, err := s.Post(context.Background(), apitest.Bearer(userToken), doc, nil)
					if assert.NoError(t, err) {
						assert.Empty(t, res.Errors, "the heaviest accepted document")
					}
					mu.Lock()
					sent++
					mu.Unlock()
				}
			})
		}
		for ctx.Err() == nil {
			var n int
			if err := conn.QueryRow(context.Background(), `
				SELECT count(*) FROM pg_stat_activity
				 WHERE datname = current_database() AND application_name = 'memory-api'
				   AND state = 'active' AND query LIKE '%bm25 AS MATERIALIZED%'`).Scan(&n); err == nil {
				mostAtOnce = max(mostAtOnce, n)
			}
		}
		wg.Wait()
		return sent, mostAtOnce
	}

	stop := make(chan struct{})
	teammates := startProbe(50*time.Millisecond, time.Second, stop, func(ctx context.Context) error {
		res, err := s.Post(ctx, apitest.Bearer(userToken), `{ teammates { id } }`, nil)
		if err == nil && len(res.Errors) > 0 {
			err = fmt.Errorf("%s", res.Errors[0].Message)
		}
		return err
	})
	readyz := startProbe(50*time.Millisecond, time.Second, stop, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/readyz", nil)
		if err != nil {
			return err
		}
		resp, err := s.HTTP.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		return nil
	})

	sent, most := runHeavy(1, 2*time.Second)
	t.Logf("one client: %d documents of %d recalls; at most %d recall statements at once", sent, heaviest, most)
	assert.Positive(t, most, "the sampling saw the recalls")
	assert.LessOrEqual(t, most, server.OperationConcurrency, "one operation's statements at once")
	sent, most = runHeavy(4, 2*time.Second)
	t.Logf("four clients: %d documents; at most %d recall statements at once", sent, most)
	close(stop)

	for name, p := range map[string]*latencyProbe{"{teammates{id}}": teammates, "/readyz": readyz} {
		n, slowest, bad := p.result()
		t.Logf("%s: %d probes, slowest %v", name, n, slowest.Round(time.Millisecond))
		assert.Empty(t, bad, "%s must answer within a second while the heaviest documents run", name)
	}
}

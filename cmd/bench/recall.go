package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/wire"
)

// request is a turn a user might send, and whether its words are common in the data.
type request struct {
	text   string
	common bool
}

var requests = []request{
	{"What does grandma like for breakfast on weekends?", true},
	{"Remind me which kombucha and sourdough place we booked", false},
	{"Can you book train tickets for the client after lunch?", true},
	{"Is the quokka or the narwhal on the origami list?", false},
	{"Draft a short email to my manager about the weekly reports", true},
	{"Thanks!", false},
	{"Order black coffee and oat milk for the team meeting", true},
	{"Where did I put the theremin and the ukulele?", false},
}

// floorFullText is the bare full-text statement: the request's lexemes OR-ed, the same visibility,
// every match ranked by ts_rank_cd, top 30 with the items' text — nothing else. Recall computes the
// same list from term frequencies (memory.recallFullText) and may beat it.
const floorFullText = `
	SELECT id, content, ts_rank_cd(search, q) AS rank
	  FROM memory_items, CAST(replace(plainto_tsquery('english', $2)::text, '&', '|') AS tsquery) AS q
	 WHERE search @@ q AND scope IN ('shared', $1) AND status = 'active'
	   AND (expires_at IS NULL OR expires_at > now())
	 ORDER BY rank DESC
	 LIMIT 30`

// floorIndex serves floorFullText: the GIN index of the active items' search vectors by scope that
// such a statement wants. The product has none (recall reads memory_terms, migration 000012), so
// the benchmark builds it for its floors after the seed, and drops it (dropFloorIndex) before the
// rows that write, whose edits must not pay for it.
const floorIndex = `CREATE INDEX bench_floor_search ON memory_items USING gin (scope, search) WHERE status = 'active'`

func dropFloorIndex(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, `DROP INDEX IF EXISTS bench_floor_search`)
	return err
}

// floorVector is the bare pgvector query: the nearest 30 visible items' current embeddings by the
// HNSW index (migration 000021's, on the half-precision copies), with recall's index settings
// (floorVectorSettings), without the exact re-ranking. The request's vector is a float4[], as recall
// sends it.
const floorVector = `
	SELECT i.id, e.embedding::halfvec(1536) <=> $2::real[]::halfvec(1536) AS distance
	  FROM memory_embeddings e JOIN memory_items i ON i.id = e.item_id AND i.revision = e.revision
	 WHERE e.model = $3 AND e.dimensions = 1536 AND i.scope IN ('shared', $1) AND i.status = 'active'
	 ORDER BY distance
	 LIMIT 30`

// floorVectorSettings are the index settings recall uses (memory.VectorEfSearch), for the floor.
var floorVectorSettings = []string{
	`SET LOCAL hnsw.iterative_scan = strict_order`,
	`SET LOCAL hnsw.ef_search = ` + strconv.Itoa(memory.VectorEfSearch),
	`SET LOCAL hnsw.max_scan_tuples = ` + strconv.Itoa(memory.VectorMaxScanTuples),
}

// exactVector is the exact vector list's first 12 under the API's cut-off: what recall@12 of the
// vector list is measured against.
const exactVector = `
	SELECT i.id::text
	  FROM memory_embeddings e JOIN memory_items i ON i.id = e.item_id AND i.revision = e.revision
	 WHERE e.model = $3 AND e.dimensions = 1536 AND i.scope IN ('shared', $1) AND i.status = 'active'
	   AND e.embedding <=> $2::real[]::vector < $4::float8
	 ORDER BY e.embedding <=> $2::real[]::vector, i.id
	 LIMIT 12`

const recallPreviewQuery = `query($tm: ID!, $q: String!) {
	recallPreview(teammateId: $tm, query: $q) { text vectorSearch entries { item { id } fullTextPosition vectorPosition } }
}`

type preview struct {
	RecallPreview struct {
		Text         string
		VectorSearch string
		Entries      []struct {
			Item struct{ ID string }
		}
	}
}

func drain(rows pgx.Rows) error {
	for rows.Next() {
	}
	rows.Close()
	return rows.Err()
}

// fixedQuery is the smallest authenticated operation: what loopback HTTP, the middleware and
// GraphQL cost a request with no work behind them.
const fixedQuery = `query { __typename }`

// benchRecall is row 1: full-text recall over HTTP at -tiny, -small and -big visible items, with its
// floor. Its first row is the fixed cost of HTTP + GraphQL (fixedQuery), timed in the -tiny loop
// after each recall request and its floor: the -tiny rows compare the recall work — the API's p50
// less that fixed cost's — with the floor, as the bare statement there takes about as long as the
// fixed cost itself.
func (b *bench) benchRecall(ctx context.Context) ([]row, error) {
	var rows []row
	var fixed latencies
	for _, size := range []struct {
		teammate string
		visible  int
		target   time.Duration
	}{{b.tiny, b.o.tiny, 10 * time.Millisecond}, {b.small, b.o.small, 10 * time.Millisecond}, {b.big, b.o.big, 50 * time.Millisecond}} {
		var api, floor, apiCommon, floorCommon latencies
		netOfFixed := size.visible == b.o.tiny
		warm := len(requests) * 2
		for i := range b.o.requests + warm {
			r := requests[i%len(requests)]
			t := time.Now()
			var p preview
			if err := b.do(ctx, b.apis[0], workerToken, recallPreviewQuery, map[string]any{"tm": size.teammate, "q": r.text}, &p); err != nil {
				return nil, err
			}
			d := time.Since(t)
			if r.common && len(p.RecallPreview.Entries) == 0 {
				return nil, fmt.Errorf("recall found nothing for %q", r.text)
			}
			t = time.Now()
			q, err := b.pool.Query(ctx, floorFullText, size.teammate, r.text)
			if err == nil {
				err = drain(q)
			}
			if err != nil {
				return nil, err
			}
			fd := time.Since(t)
			var fx time.Duration
			if netOfFixed {
				t = time.Now()
				if err := b.do(ctx, b.apis[0], workerToken, fixedQuery, nil, nil); err != nil {
					return nil, err
				}
				fx = time.Since(t)
			}
			if i < warm {
				continue
			}
			api, floor = append(api, d), append(floor, fd)
			if netOfFixed {
				fixed = append(fixed, fx)
			}
			if r.common {
				apiCommon, floorCommon = append(apiCommon, d), append(floorCommon, fd)
			}
		}
		for _, set := range []struct {
			label      string
			api, floor latencies
		}{{"all requests", api, floor}, {"common-word requests", apiCommon, floorCommon}} {
			p50, p99, f50 := set.api.at(0.5), set.api.at(0.99), set.floor.at(0.5)
			r := row{
				name:     fmt.Sprintf("Recall, full text, %s visible of %s (%s)", count(size.visible), count(b.o.items), set.label),
				measured: set.api.p50p99(),
				floor:    "bare ts_rank_cd statement: " + set.floor.p50p99(),
				ratio:    "p50 " + ratio(float64(p50), float64(f50)),
				target:   fmt.Sprintf("p99 ≤ %d ms, p50 ≤ 1.5× floor", size.target.Milliseconds()),
				met:      yesNo(p99 <= size.target && float64(p50) <= 1.5*float64(f50)),
			}
			if netOfFixed {
				work := max(p50-fixed.at(0.5), 0)
				r.measured += "; p50 net of the fixed cost " + ms(work)
				r.ratio = "p50 net of the fixed cost " + ratio(float64(work), float64(f50))
				r.target = fmt.Sprintf("p99 ≤ %d ms, p50 net of the fixed cost ≤ 1.5× floor", size.target.Milliseconds())
				r.met = yesNo(p99 <= size.target && float64(work) <= 1.5*float64(f50))
			}
			rows = append(rows, r)
		}
	}
	return append([]row{fixedCostRow(fixed)}, rows...), nil
}

// fixedCostRow is the fixed cost of a request through HTTP + GraphQL: fixedQuery's latencies.
func fixedCostRow(fixed latencies) row {
	return row{
		name:     "HTTP + GraphQL fixed cost: an authenticated `query { __typename }`",
		measured: fixed.p50p99(),
	}
}

// benchVectorRecall is row 2: hybrid recall over HTTP at -small visible items with vectors, its
// floor (the bare full-text statement and the bare pgvector query, in one transaction), the
// request's embedding round trip to the fake endpoint (part of the measured time, not of the floor),
// recall@12 against exact search of the API's fused packet and of its vector list alone
// (memory.Service.VectorList, the statement and settings recall uses), and the same previews
// through the memory service alone (vectorService), sent after each request's floor.
func (b *bench) benchVectorRecall(ctx context.Context) ([]row, error) {
	exact, err := b.exactService(ctx)
	if err != nil {
		return nil, err
	}
	defer exact.pool.Close()
	cut, err := strconv.ParseFloat(maxDistance, 64)
	if err != nil {
		return nil, err
	}
	alone, err := b.vectorService(cut)
	if err != nil {
		return nil, err
	}
	var api, floor, embedding, service latencies
	var fusedHits, fusedTotal, listHits, listTotal int
	indexed := true
	warm := len(requests) * 2
	for i := range b.o.requests + warm {
		r := requests[i%len(requests)]
		t := time.Now()
		var p preview
		if err := b.do(ctx, b.vapi, workerToken, recallPreviewQuery, map[string]any{"tm": b.vsmall, "q": r.text}, &p); err != nil {
			return nil, err
		}
		d := time.Since(t)
		searched := r.text != "Thanks!"
		if searched && p.RecallPreview.VectorSearch != "USED" {
			return nil, fmt.Errorf("vector search was %s for %q", p.RecallPreview.VectorSearch, r.text)
		}
		t = time.Now()
		if searched {
			if err := b.embedRoundTrip(ctx, r.text); err != nil {
				return nil, err
			}
		}
		ed := time.Since(t)
		vec := embed(r.text)
		t = time.Now()
		err := pgx.BeginFunc(ctx, b.vpool, func(tx pgx.Tx) error {
			for _, set := range floorVectorSettings {
				if _, err := tx.Exec(ctx, set); err != nil {
					return err
				}
			}
			q, err := tx.Query(ctx, floorFullText, b.vsmall, r.text)
			if err == nil {
				err = drain(q)
			}
			if err != nil || !searched {
				return err
			}
			q, err = tx.Query(ctx, floorVector, b.vsmall, vec, embeddingModel)
			if err == nil {
				err = drain(q)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		fd := time.Since(t)
		t = time.Now()
		if _, err := alone.RecallPreview(memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialWorker}), b.vsmall, r.text); err != nil {
			return nil, err
		}
		sd := time.Since(t)
		if i < warm {
			continue
		}
		api, floor, service = append(api, d), append(floor, fd), append(service, sd)
		if searched {
			embedding = append(embedding, ed)
		}
		if i-warm >= len(requests) || !searched {
			continue // recall@12 once per request that searches vectors
		}
		want, err := exact.packet(ctx, b.vsmall, r.text)
		if err != nil {
			return nil, err
		}
		got := map[string]bool{}
		for _, e := range p.RecallPreview.Entries {
			got[e.Item.ID] = true
		}
		for _, id := range want {
			if got[id] {
				fusedHits++
			}
		}
		fusedTotal += len(want)
		h, n, ix, err := b.listRecall(ctx, exact, r.text, cut)
		if err != nil {
			return nil, err
		}
		listHits, listTotal, indexed = listHits+h, listTotal+n, indexed && ix
	}
	fused := float64(fusedHits) / float64(max(fusedTotal, 1))
	list := float64(listHits) / float64(max(listTotal, 1))
	path := "HNSW index"
	if !indexed {
		path = "sketch scan"
	}
	p50, f50 := api.at(0.5), floor.at(0.5)
	return []row{{
		name: fmt.Sprintf("Recall with vectors (1,536 dimensions), %s visible", count(b.o.small)),
		measured: fmt.Sprintf("%s · recall@12 %.3f (embedding round trip, included: %s)", api.p50p99(), fused,
			embedding.p50p99()),
		floor:  floor.p50p99(),
		ratio:  "p50 " + ratio(float64(p50), float64(f50)),
		target: "p99 ≤ 10 ms, p50 ≤ 1.5× floor, recall@12 ≥ 0.95",
		met:    yesNo(api.at(0.99) <= 10*time.Millisecond && float64(p50) <= 1.5*float64(f50) && fused >= 0.95),
	}, {
		name:     fmt.Sprintf("The same previews through the memory service alone, %s visible (in the benchmark's process: no HTTP, no GraphQL; the same embedding round trip, statements and database)", count(b.o.small)),
		measured: service.p50p99(),
		floor:    floor.p50p99(),
		ratio:    "p50 " + ratio(float64(service.at(0.5)), float64(f50)),
	}, {
		name:     fmt.Sprintf("Recall@12 against exact search (fused packet; vector list alone, by the %s, within MEMORY_SEMANTIC_MAX_DISTANCE)", path),
		measured: fmt.Sprintf("%.3f; %.3f", fused, list),
		target:   "≥ 0.95",
		met:      yesNo(fused >= 0.95 && list >= 0.95),
	}}, nil
}

// vectorService is the memory service the vector API runs, in the benchmark's own process: the same
// embedding endpoint over loopback, budget and cut-off, on the vector database. Timing its previews
// beside the API's shows what HTTP and GraphQL add to them, and what the database and the service
// take alone.
func (b *bench) vectorService(cut float64) (*memory.Service, error) {
	aiw, err := wire.NewAI(b.vpool, config.AI{
		EmbeddingURL: b.fake.URL + "/v1", EmbeddingModel: embeddingModel, EmbeddingDimensions: dimensions,
		DailyRequestLimit: 1_000_000, SemanticMaxDistance: cut,
	}, nil)
	if err != nil {
		return nil, err
	}
	return memory.NewService(b.vpool, slog.New(slog.DiscardHandler), aiw.Options()...), nil
}

// embedRoundTrip asks the fake endpoint for the request's embedding over loopback HTTP, as the API
// does before it opens recall's transaction.
func (b *bench) embedRoundTrip(ctx context.Context, text string) error {
	body, err := json.Marshal(map[string]any{"model": embeddingModel, "input": []string{text}})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.fake.URL+"/v1/embeddings", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("embedding endpoint: %s", resp.Status)
	}
	return nil
}

// exactRecall is the memory service on the vector database with index scans off, so its vector
// list is an exact search: the reference packets for recall@12. list is a service with index scans
// on, for memory.Service.VectorList.
type exactRecall struct {
	pool *pgxpool.Pool
	svc  *memory.Service
	list *memory.Service
}

func (b *bench) exactService(ctx context.Context) (*exactRecall, error) {
	cfg, err := pgxpool.ParseConfig(b.cluster.URL("bench_vectors"))
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.RuntimeParams["enable_indexscan"] = "off"
	cfg.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	aiw, err := wire.NewAI(pool, config.AI{
		EmbeddingURL: b.fake.URL + "/v1", EmbeddingModel: embeddingModel, EmbeddingDimensions: dimensions,
		DailyRequestLimit: 1_000_000, SemanticMaxDistance: 0.8,
	}, nil)
	if err != nil {
		pool.Close()
		return nil, err
	}
	log := slog.New(slog.DiscardHandler)
	// With index scans off, the index path's statement sorts every visible vector: exact search.
	opts := append(aiw.Options(), memory.WithVectorSketchLimit(-1))
	return &exactRecall{pool: pool, svc: memory.NewService(pool, log, opts...), list: memory.NewService(b.vpool, log)}, nil
}

// packet is the ids of the exact packet's entries, in order.
func (e *exactRecall) packet(ctx context.Context, teammate, request string) ([]string, error) {
	ctx = memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialWorker})
	p, err := e.svc.RecallPreview(ctx, teammate, request)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(p.Entries))
	for i, en := range p.Entries {
		ids[i] = en.Item.ID
	}
	return ids, nil
}

// listRecall is how many of the exact nearest 12 visible items under the cut-off the vector list
// recall uses (memory.Service.VectorList) has in its first 12, and whether the index served it.
func (b *bench) listRecall(ctx context.Context, e *exactRecall, text string, cut float64) (hits, total int, indexed bool, err error) {
	got, indexed, err := e.list.VectorList(memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialWorker}),
		b.vsmall, embed(text), embeddingModel, cut)
	if err != nil {
		return 0, 0, false, err
	}
	top := map[string]bool{}
	for _, m := range got[:min(12, len(got))] {
		top[m.ItemID] = true
	}
	rows, err := b.vpool.Query(ctx, exactVector, b.vsmall, embed(text), embeddingModel, cut)
	if err != nil {
		return 0, 0, false, err
	}
	want, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, 0, false, err
	}
	for _, id := range want {
		if top[id] {
			hits++
		}
	}
	return hits, len(want), indexed, nil
}

// benchStartRun is row 3: startRun end to end over HTTP (the thread decision, the packet, the
// memory contexts, the generation recheck) for the teammate with -small visible items, continuing
// the thread it started, as a worker does turn after turn.
func (b *bench) benchStartRun(ctx context.Context) ([]row, error) {
	const q = `mutation($in: StartRunInput!) { startRun(input: $in) { runToken packet thread { id } fresh } }`
	var lat latencies
	var thread string
	warm := len(requests) * 2
	for i := range b.o.requests + warm {
		in := map[string]any{"teammateId": b.small, "message": requests[i%len(requests)].text}
		if thread != "" {
			in["threadId"] = thread
		}
		var out struct {
			StartRun struct {
				RunToken string
				Thread   struct{ ID string }
			}
		}
		t := time.Now()
		if err := b.do(ctx, b.apis[0], workerToken, q, map[string]any{"in": in}, &out); err != nil {
			return nil, err
		}
		d := time.Since(t)
		thread = out.StartRun.Thread.ID
		// The run ends (outside the measurement) so the next turn continues a quiet thread.
		if err := b.do(ctx, b.apis[0], out.StartRun.RunToken, `mutation { completeRun(input: {reply: "Done."}) { id } }`, nil, nil); err != nil {
			return nil, err
		}
		if i >= warm {
			lat = append(lat, d)
		}
	}
	return []row{{
		name:     fmt.Sprintf("startRun end to end, %s visible", count(b.o.small)),
		measured: lat.p50p99(),
		target:   "p99 ≤ 20 ms",
		met:      yesNo(lat.at(0.99) <= 20*time.Millisecond),
	}}, nil
}

// count writes n with thousands separators.
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

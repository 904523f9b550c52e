package main

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"

	"github.com/open-bot/memory/internal/memory"
)

// itemsSQL inserts the items numbered $1..$2 of a database laid out as: the first $3 shared, then
// for each teammate of $4 its own items up to the matching bound of $5 (cumulative item numbers),
// the rest spread over the teammates $6. Contents are short sentences from a small vocabulary: every
// subject, verb, object and time of day is common (1 item in 10 to 30 has each), and 1 item in 40
// also names one of twenty rare words (1 in 800). One item in 5,000 is pinned. Revision 1 of each
// item is recorded as its history.
const itemsSQL = `
	WITH v AS (
		SELECT '{The user,Ada,My sister,Our team,The client,My manager,The landlord,Grandma,The dentist,Bob}'::text[] AS subjects,
		       '{prefers,likes,avoids,uses,needs,remembers,orders,recommends,dislikes,booked}'::text[] AS verbs,
		       '{green tea,black coffee,oat milk,the window seat,early meetings,long walks,spicy food,the blue notebook,jazz records,train tickets,a standing desk,dark mode,paper invoices,weekly reports,the old laptop,sparkling water,vegetarian meals,morning runs,quiet rooms,video calls,short emails,printed maps,red wine,hiking boots,the gym,bike rides,sushi,Italian food,board games,audiobooks}'::text[] AS objects,
		       '{in the morning,on weekends,for meetings,at work,when travelling,after lunch,before bed,on Mondays,during holidays,at home,with friends,in winter,in summer,for birthdays,on the train}'::text[] AS tails,
		       '{zeppelin,quokka,marzipan,tamarind,kumquat,origami,xylophone,yurt,fjord,harpsichord,saffron,obsidian,narwhal,bonsai,kombucha,theremin,ukulele,pangolin,axolotl,sourdough}'::text[] AS rare
	), items AS (
		INSERT INTO memory_items (teammate_id, kind, content, status, source, pinned, content_hash)
		SELECT CASE WHEN g <= $3 THEN NULL
		            ELSE coalesce((SELECT o.id FROM unnest($4::uuid[], $5::int[]) AS o (id, upto) WHERE g <= o.upto ORDER BY o.upto LIMIT 1),
		                          ($6::uuid[])[1 + g % cardinality($6::uuid[])]) END,
		       (ARRAY['fact', 'preference', 'lesson', 'note'])[1 + g % 4],
		       v.subjects[1 + (hashint4(g) & 2147483647) % cardinality(v.subjects)] || ' ' ||
		       v.verbs[1 + (hashint4(g + 7919) & 2147483647) % cardinality(v.verbs)] || ' ' ||
		       v.objects[1 + (hashint4(g + 104729) & 2147483647) % cardinality(v.objects)] || ' ' ||
		       v.tails[1 + (hashint4(g + 1299709) & 2147483647) % cardinality(v.tails)] ||
		       CASE WHEN g % 40 = 0
		            THEN ', see ' || v.rare[1 + (hashint4(g + 15485863) & 2147483647) % cardinality(v.rare)]
		            ELSE '' END || '.',
		       'active', 'user', g % 5000 = 0, sha256(g::text::bytea)
		  FROM generate_series($1::int, $2::int) g, v
		RETURNING id, content, kind, pinned
	)
	INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor)
	SELECT id, 1, content, kind, pinned, 'create', 'user' FROM items`

// layout is how a database's items are spread over scopes: shared items first, then each owner's
// own items (owned[i] for owners[i]), then the rest over others.
type layout struct {
	shared int
	owners []string
	owned  []int
	others []string
	total  int
}

// insertItems inserts the layout's items in chunks, two at a time (one per core).
func insertItems(ctx context.Context, pool *pgxpool.Pool, l layout) error {
	const chunk = 50_000
	bounds := make([]int32, len(l.owned))
	upto := l.shared
	for i, n := range l.owned {
		upto += n
		bounds[i] = int32(upto)
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	for from := 1; from <= l.total; from += chunk {
		to := min(from+chunk-1, l.total)
		g.Go(func() error {
			_, err := pool.Exec(ctx, itemsSQL, from, to, l.shared, l.owners, bounds, l.others)
			return err
		})
	}
	return g.Wait()
}

// rehash brings the seeded items' content hashes (placeholders) to the text model, as the API
// would at its first start (memory.Background.RehashTexts): done here, it is part of the seed rather
// than of the API's start, which at a million items would outlast the wait for it to be ready.
func rehash(ctx context.Context, pool *pgxpool.Pool) error {
	if err := memory.NewService(pool, slog.New(slog.DiscardHandler)).Background().RehashTexts(ctx); err != nil {
		return fmt.Errorf("rehash the seeded items: %w", err)
	}
	return nil
}

func createTeammates(ctx context.Context, pool *pgxpool.Pool, n int) ([]string, error) {
	rows, err := pool.Query(ctx, `
		INSERT INTO teammates (name) SELECT 'Teammate ' || g FROM generate_series(1, $1::int) g RETURNING id::text`, n)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// seed fills both databases, then starts the API processes: two on the main database, one with
// embeddings on the vector database.
func (b *bench) seed(ctx context.Context) ([]row, error) {
	o := b.o
	t := time.Now()
	ids, err := createTeammates(ctx, b.pool, o.teammates)
	if err != nil {
		return nil, err
	}
	b.big, b.small, b.tiny = ids[0], ids[1], ids[2]
	shared := o.tiny / 5
	l := layout{
		shared: shared, owners: ids[:3], owned: []int{o.big - shared, o.small - shared, o.tiny - shared},
		others: ids[3:], total: o.items,
	}
	if err := insertItems(ctx, b.pool, l); err != nil {
		return nil, fmt.Errorf("seed the main database: %w", err)
	}
	if err := rehash(ctx, b.pool); err != nil {
		return nil, err
	}
	if err := withConn(ctx, b.pool, `SET maintenance_work_mem = '1GB'`, floorIndex, `VACUUM ANALYZE`); err != nil {
		return nil, err
	}
	b.log.Info("seeded the main database", "items", o.items, "teammates", o.teammates, "took", time.Since(t).Round(time.Second))

	t = time.Now()
	if err := b.seedVectors(ctx); err != nil {
		return nil, fmt.Errorf("seed the vector database: %w", err)
	}
	b.log.Info("seeded the vector database", "items", 2*o.small, "took", time.Since(t).Round(time.Second))
	// The seed's pages and index builds are flushed now rather than by a checkpoint that would
	// write them out while the first rows are measured.
	if _, err := b.pool.Exec(ctx, `CHECKPOINT`); err != nil {
		return nil, err
	}

	// The resident-memory row puts every subscriber on one process, past the default caps; the
	// subscribers authenticate in connection_init, so they may all wait for it at once.
	wsCap := strconv.Itoa(slices.Max(o.subscribers) + 100)
	for range 2 {
		a, err := b.startAPI(ctx, b.cluster.URL("bench"), "MEMORY_JOBS_IN_API=false",
			"MEMORY_WS_MAX_CONNECTIONS="+wsCap, "MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL="+wsCap,
			"MEMORY_WS_MAX_UNAUTHENTICATED="+wsCap)
		if err != nil {
			return nil, err
		}
		b.apis = append(b.apis, a)
	}
	b.vapi, err = b.startAPI(ctx, b.cluster.URL("bench_vectors"),
		"MEMORY_EMBEDDING_URL="+b.fake.URL+"/v1", "MEMORY_EMBEDDING_MODEL="+embeddingModel,
		"MEMORY_EMBEDDING_DIMENSIONS=1536", "MEMORY_SEMANTIC_MAX_DISTANCE="+maxDistance,
		"MEMORY_AI_DAILY_REQUEST_LIMIT=1000000", "MEMORY_JOBS_IN_API=false")
	if err != nil {
		return nil, err
	}

	// 64 items in 64 scopes (shared and 63 teammates', the three measured ones excluded) for the
	// write benchmark, created through the API so that they have the history an edit expects.
	scopes := append([]string{""}, ids[3:66]...)
	for _, tm := range scopes {
		var out struct {
			CreateMemory struct{ Item struct{ ID string } }
		}
		scope := map[string]any{}
		if tm != "" {
			scope["teammateId"] = tm
		}
		err := b.do(ctx, b.apis[0], userToken, `mutation($in: CreateMemoryInput!) { createMemory(input: $in) { item { id } } }`,
			map[string]any{"in": map[string]any{"scope": scope, "content": "Hot item of scope " + strconv.Itoa(len(b.hot)), "kind": "NOTE"}}, &out)
		if err != nil {
			return nil, fmt.Errorf("create the write benchmark's items: %w", err)
		}
		b.hot = append(b.hot, out.CreateMemory.Item.ID)
	}
	return nil, nil
}

// seedVectors fills the vector database: -small items visible to one teammate (a fifth shared) and
// as many of nine other teammates, every one embedded by the fake model. The HNSW index is dropped
// for the load and rebuilt after, as one would for a bulk import.
func (b *bench) seedVectors(ctx context.Context) error {
	ids, err := createTeammates(ctx, b.vpool, 10)
	if err != nil {
		return err
	}
	b.vsmall = ids[0]
	shared := b.o.small / 5
	l := layout{shared: shared, owners: ids[:1], owned: []int{b.o.small - shared}, others: ids[1:], total: 2 * b.o.small}
	if err := insertItems(ctx, b.vpool, l); err != nil {
		return err
	}
	if err := rehash(ctx, b.vpool); err != nil {
		return err
	}
	var indexDef string
	if err := b.vpool.QueryRow(ctx, `SELECT indexdef FROM pg_indexes WHERE indexname = 'memory_embeddings_hnsw_1536_half'`).Scan(&indexDef); err != nil {
		return fmt.Errorf("the HNSW index: %w", err)
	}
	if _, err := b.vpool.Exec(ctx, `DROP INDEX memory_embeddings_hnsw_1536_half`); err != nil {
		return err
	}
	rows, err := b.vpool.Query(ctx, `SELECT id::text, content FROM memory_items ORDER BY id`)
	if err != nil {
		return err
	}
	type item struct{ id, content string }
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (item, error) {
		var it item
		return it, r.Scan(&it.id, &it.content)
	})
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	const chunk = 500
	for from := 0; from < len(items); from += chunk {
		part := items[from:min(from+chunk, len(items))]
		g.Go(func() error {
			itemIDs := make([]string, len(part))
			vectors := make([]string, len(part))
			for i, it := range part {
				itemIDs[i], vectors[i] = it.id, vectorText(embed(it.content))
			}
			_, err := b.vpool.Exec(gctx, `
				INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
				SELECT i, 1, $3, 1536, v::vector FROM unnest($1::uuid[], $2::text[]) AS e(i, v)`,
				itemIDs, vectors, embeddingModel)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return withConn(ctx, b.vpool, `SET maintenance_work_mem = '1GB'`, `SET max_parallel_maintenance_workers = 1`,
		indexDef, floorIndex, `VACUUM ANALYZE`)
}

// withConn runs statements one after the other on one connection of pool (so that a SET holds for
// those after it).
func withConn(ctx context.Context, pool *pgxpool.Pool, statements ...string) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	for _, sql := range statements {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return fmt.Errorf("%s: %w", strings.Fields(sql)[0], err)
		}
	}
	return nil
}

package memory_test

// Black-box attacks on RecallPreview's spare connection (memory.WithSpareConnection): equality of a
// preview with and without a grant (guarantee A), what a preview with a grant may show under
// concurrent writes (B), and its resources (C): takes and releases, small pools, cancellations.

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/packet"
)

// spareGrant hands out spare connections to previews and counts what they do with them.
type spareGrant struct {
	refuse          bool
	takes, releases atomic.Int64
	doubleReleases  atomic.Int64
	refusedReleases atomic.Int64 // a release of a take that returned false
	onTake          func()       // runs inside take, when set
}

func (g *spareGrant) wrap(parent context.Context) context.Context {
	return memory.WithSpareConnection(parent, func() (func(), bool) {
		g.takes.Add(1)
		if g.onTake != nil {
			g.onTake()
		}
		if g.refuse {
			return func() { g.refusedReleases.Add(1) }, false
		}
		var once atomic.Bool
		return func() {
			if !once.CompareAndSwap(false, true) {
				g.doubleReleases.Add(1)
				return
			}
			g.releases.Add(1)
		}, true
	})
}

// balanced checks that every spare taken was given back exactly once, and nothing else was given.
// A spare given back only after the preview returned (by something the preview left running) is
// counted in lateReleases and logged; TestPreviewSpareAttackReleasedBeforeReturn asserts there are
// none.
func (g *spareGrant) balanced(t *testing.T, desc string) bool {
	t.Helper()
	if g.refuse {
		return assert.Zero(t, g.refusedReleases.Load(), "released a spare that take refused: %s", desc)
	}
	ok := assert.Zero(t, g.doubleReleases.Load(), "a spare released twice: %s", desc)
	takes, releases := g.takes.Load(), g.releases.Load()
	if takes == releases {
		return ok
	}
	began := time.Now()
	for g.releases.Load() != g.takes.Load() && time.Since(began) < 3*time.Second {
		time.Sleep(100 * time.Microsecond)
	}
	if g.releases.Load() == g.takes.Load() {
		lateReleases.Add(1)
		t.Logf("the preview returned with %d spare(s) taken and %d released; the release came %v after it returned: %s",
			takes, releases, time.Since(began).Round(time.Microsecond), desc)
		return ok
	}
	t.Errorf("the preview took %d spare(s) and released %d, even 3 s after it returned: %s", g.takes.Load(), g.releases.Load(), desc)
	return false
}

// lateReleases counts spares given back after their preview returned.
var lateReleases atomic.Int64

// hashEmbedder embeds a request to a vector chosen by the request's hash: a random one of dims
// dimensions, or one of table.
type hashEmbedder struct {
	model string
	dims  int
	table [][]float32
	err   error
	calls atomic.Int64
}

func (e *hashEmbedder) EmbedQuery(_ context.Context, text string) ([]float32, string, error) {
	e.calls.Add(1)
	if e.err != nil {
		return nil, "", e.err
	}
	h := fnv.New64a()
	h.Write([]byte(text))
	if e.table != nil {
		return e.table[h.Sum64()%uint64(len(e.table))], e.model, nil
	}
	return randomUnit(rand.New(rand.NewPCG(h.Sum64(), 7)), e.dims), e.model, nil
}

func randomUnit(r *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	var norm float64
	for i := range v {
		x := r.NormFloat64()
		v[i] = float32(x)
		norm += x * x
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(norm))
	}
	return v
}

// spareCorpus is a database of many scopes with embeddings by three models, and the teammates who
// look at it.
type spareCorpus struct {
	fixture
	a, b, c, off, lessons string
	set                   *vectorSet
	wide                  [][]float32 // 1,536-dimension request vectors near the set's topics
	rng                   *rand.Rand
	requests              []string
}

const (
	spareModel8  = "spare-m8"
	spareModel64 = "spare-m64"
)

func newSpareCorpus(t *testing.T, seed uint64) *spareCorpus {
	t.Helper()
	f := setup(t)
	sc := &spareCorpus{fixture: f, set: newVectorSet(seed, 12), rng: rand.New(rand.NewPCG(seed, 33))}
	c := recallCorpus{rng: rand.New(rand.NewPCG(seed, 34))}
	sc.a, sc.b, sc.c = f.teammate(t, "Ann"), f.teammate(t, "Ben"), f.teammate(t, "Cid")
	sc.off, sc.lessons = f.teammate(t, "Off"), f.teammate(t, "Lessons")
	scopes := []*string{nil, &sc.a, &sc.b, &sc.c, &sc.off}
	seedRecallCorpus(t, f, c, scopes, []int{70, 60, 40, 40, 30})
	writes := map[string]int{}
	writeRandomly(t, f, c, scopes, writes) // revisions past the embedded ones, creates without any

	// Long items, cut by the packet's 6,000 characters.
	for i := range 4 {
		words := c.sentence() + " " + strings.Repeat(c.pick(benchObjects)+" "+c.pick(benchRare)+" ", 400)
		_, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &sc.a}, Content: words[:3900-i*100]})
		require.NoError(t, err)
	}
	// Pinned lessons that fill the packet, and pinned facts behind them.
	for i := range 14 {
		kind := memory.KindLesson
		if i%5 == 4 {
			kind = memory.KindFact
		}
		_, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &sc.lessons}, Kind: kind, Pinned: true,
			Content: fmt.Sprintf("Lesson %d: %s %s", i, c.sentence(), strings.Repeat(c.pick(benchObjects)+" ", 40))})
		require.NoError(t, err)
	}
	_, err := f.svc.SetMemorySwitch(user, memory.SetMemorySwitchInput{TeammateID: sc.off, UseMemory: ptr(false)})
	require.NoError(t, err)

	// Embeddings: by three models, of revision 1 (stale for edited items) and often of the current
	// revision; some items have none; candidates, dismissed, forgotten and other scopes' items too.
	type ref struct {
		id       string
		revision int
	}
	rows, err := f.pool.Query(context.Background(), `SELECT id::text, revision FROM memory_items ORDER BY id`)
	require.NoError(t, err)
	refs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ref, error) {
		var x ref
		return x, r.Scan(&x.id, &x.revision)
	})
	require.NoError(t, err)
	var ids, models, vectors []string
	var revs, dims []int32
	add := func(id string, rev int, model string, v []float32) {
		ids, revs, models, vectors, dims = append(ids, id), append(revs, int32(rev)), append(models, model), append(vectors, vectorLiteral(v)), append(dims, int32(len(v)))
	}
	for _, x := range refs {
		if sc.rng.IntN(8) == 0 {
			continue // no embedding at all
		}
		embedRev := func(rev int) {
			add(x.id, rev, spareModel8, randomUnit(sc.rng, 8))
			add(x.id, rev, spareModel64, randomUnit(sc.rng, 64))
			add(x.id, rev, vectorModel, sc.set.next())
			if sc.rng.IntN(5) == 0 {
				add(x.id, rev, spareModel8, randomUnit(sc.rng, 3)) // the right model, another size
			}
		}
		embedRev(1)
		if x.revision > 1 && sc.rng.IntN(2) == 0 {
			embedRev(x.revision)
		}
	}
	_, err = f.pool.Exec(context.Background(), `
		INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
		SELECT i, r, m, d, v::vector FROM unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::text[]) AS n(i, r, m, d, v)
		ON CONFLICT DO NOTHING`, ids, revs, models, dims, vectors)
	require.NoError(t, err)
	_, err = f.pool.Exec(context.Background(), `ANALYZE`)
	require.NoError(t, err)
	for range 16 {
		sc.wide = append(sc.wide, sc.set.next())
	}
	for range 14 {
		sc.requests = append(sc.requests, c.request())
	}
	sc.requests = append(sc.requests, "the of and", "what is the", "", "zzyzx", strings.Repeat("green tea ", 300))
	return sc
}

// spareServices are services of every configuration a preview meets, on the corpus's pool.
func (sc *spareCorpus) services() map[string]*memory.Service {
	log := slog.New(slog.DiscardHandler)
	wide := &hashEmbedder{model: vectorModel, table: sc.wide}
	return map[string]*memory.Service{
		"no embedder":     memory.NewService(sc.pool, log),
		"8 dims":          memory.NewService(sc.pool, log, memory.WithSemanticRecall(&hashEmbedder{model: spareModel8, dims: 8}, 1.0)),
		"8 dims, close":   memory.NewService(sc.pool, log, memory.WithSemanticRecall(&hashEmbedder{model: spareModel8, dims: 8}, 0.3)),
		"64 dims":         memory.NewService(sc.pool, log, memory.WithSemanticRecall(&hashEmbedder{model: spareModel64, dims: 64}, 1.2)),
		"3 dims":          memory.NewService(sc.pool, log, memory.WithSemanticRecall(&hashEmbedder{model: spareModel8, dims: 3}, 1.5)),
		"1536 sketch":     memory.NewService(sc.pool, log, memory.WithSemanticRecall(wide, 0.9)),
		"1536 index":      memory.NewService(sc.pool, log, memory.WithSemanticRecall(wide, 0.9), memory.WithVectorSketchLimit(-1)),
		"embedder fails":  memory.NewService(sc.pool, log, memory.WithSemanticRecall(&fakeEmbedder{model: spareModel8, err: errors.New("connection refused")}, 1)),
		"budget spent":    memory.NewService(sc.pool, log, memory.WithSemanticRecall(&fakeEmbedder{model: spareModel8, err: fmt.Errorf("limit: %w", memory.ErrAIBudgetSpent)}, 1)),
		"unusable vector": memory.NewService(sc.pool, log, memory.WithSemanticRecall(&fakeEmbedder{model: spareModel8, def: []float32{float32(math.NaN()), 1}}, 1)),
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestPreviewSpareAttackEquality: guarantee A. Over a random corpus with every sort of item and
// embedding, every service configuration, every sort of teammate and request, a preview with a
// granted spare is reflect.DeepEqual to one without; one whose take refuses is too; the spare is
// never taken without an embedder; lists are never read apart without a spare; every spare taken
// is released exactly once before the preview returns; no connection is left acquired.
func TestPreviewSpareAttackEquality(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	sc := newSpareCorpus(t, seed)
	viewers := map[string]string{"a": sc.a, "b": sc.b, "c": sc.c, "memory off": sc.off, "pinned lessons": sc.lessons,
		"nobody": uuid.NewString(), "bad id": "not-an-id"}

	mismatches := 0
	var spares, apartWithSpare atomic.Int64
	for name, svc := range sc.services() {
		var apart atomic.Int64
		svc.SetBetweenPreviewLists(func() { apart.Add(1) })
		for who, tm := range viewers {
			requests := sc.requests
			if who == "nobody" || who == "bad id" || who == "memory off" {
				requests = requests[:3]
			}
			for _, req := range requests {
				if mismatches > 5 {
					t.Fatalf("too many differences (seed %d)", seed)
				}
				desc := fmt.Sprintf("seed %d, service %q, teammate %s, request %.60q", seed, name, who, req)
				apart.Store(0)
				plain, plainErr := svc.RecallPreview(user, tm, req)
				if !assert.Zero(t, apart.Load(), "lists read apart without a grant: %s", desc) {
					mismatches++
				}

				granted := &spareGrant{}
				spared, sparedErr := svc.RecallPreview(granted.wrap(user), tm, req)
				if acquired := sc.pool.Stat().AcquiredConns(); acquired != 0 || granted.takes.Load() != granted.releases.Load() {
					t.Logf("right after the preview returned: %d connection(s) acquired, %d spare(s) taken, %d released: %s",
						acquired, granted.takes.Load(), granted.releases.Load(), desc)
				}
				spares.Add(granted.takes.Load())
				apartWithSpare.Add(apart.Load())
				if !granted.balanced(t, desc) {
					mismatches++
				}
				if name == "no embedder" && !assert.Zero(t, granted.takes.Load(), "took a spare with no embedder: %s", desc) {
					mismatches++
				}
				if !assert.LessOrEqual(t, granted.takes.Load(), int64(1), "take called more than once: %s", desc) {
					mismatches++
				}
				if !assert.Equal(t, errText(plainErr), errText(sparedErr), "errors differ: %s", desc) {
					mismatches++
				}
				if !reflect.DeepEqual(plain, spared) {
					mismatches++
					assert.Equal(t, plain, spared, "a preview with a spare differs from one without: %s", desc)
				}

				refused := &spareGrant{refuse: true}
				apart.Store(0)
				refusedP, refusedErr := svc.RecallPreview(refused.wrap(user), tm, req)
				refused.balanced(t, desc+" (refused)")
				if !assert.Zero(t, apart.Load(), "lists read apart when take refused: %s", desc) {
					mismatches++
				}
				if !assert.Equal(t, errText(plainErr), errText(refusedErr), "errors differ (refused): %s", desc) ||
					!reflect.DeepEqual(plain, refusedP) {
					mismatches++
					assert.Equal(t, plain, refusedP, "a preview whose take refused differs: %s", desc)
				}
			}
		}
		// A user's preview with what was left out never uses the spare.
		for _, req := range sc.requests[:4] {
			g := &spareGrant{}
			apart.Store(0)
			with, err := svc.RecallPreviewWithLeftOut(g.wrap(user), sc.a, req)
			require.NoError(t, err)
			assert.Zero(t, g.takes.Load(), "RecallPreviewWithLeftOut took a spare (service %q)", name)
			assert.Zero(t, apart.Load(), "RecallPreviewWithLeftOut read its lists apart (service %q)", name)
			without, err := svc.RecallPreviewWithLeftOut(user, sc.a, req)
			require.NoError(t, err)
			assert.True(t, reflect.DeepEqual(with, without), "RecallPreviewWithLeftOut differs with a grant (service %q, request %q)", name, req)
		}
		assert.Zero(t, sc.pool.Stat().AcquiredConns(), "a connection is still acquired after the previews (service %q)", name)
	}

	t.Logf("%d spares taken, %d previews read their lists apart, %d spares released after their preview returned", spares.Load(), apartWithSpare.Load(), lateReleases.Load())
	assert.Positive(t, apartWithSpare.Load(), "no preview read its lists apart: nothing was compared")

	// The worker and a run of the teammate get the same preview with a spare as without.
	svc := sc.services()["8 dims"]
	for _, ctx := range []context.Context{worker, runOf(sc.a)} {
		for _, req := range sc.requests[:4] {
			g := &spareGrant{}
			plain, err := svc.RecallPreview(ctx, sc.a, req)
			require.NoError(t, err)
			spared, err := svc.RecallPreview(g.wrap(ctx), sc.a, req)
			require.NoError(t, err)
			g.balanced(t, "worker/run")
			assert.True(t, reflect.DeepEqual(plain, spared), "worker/run preview differs with a spare: %q", req)
		}
	}
	// A run may not preview another teammate, with a spare or not; the spare is given back.
	g := &spareGrant{}
	_, err := svc.RecallPreview(g.wrap(runOf(sc.b)), sc.a, "green tea")
	assert.ErrorIs(t, err, memory.ErrForbidden)
	g.balanced(t, "forbidden")
	g = &spareGrant{}
	_, err = svc.RecallPreview(g.wrap(context.Background()), sc.a, "green tea")
	assert.ErrorIs(t, err, memory.ErrUnauthenticated)
	g.balanced(t, "unauthenticated")
}

// checkPacketShape checks what a packet must be whatever ran beside it: at most 12 entries, no item
// twice, its text the entries laid out, each score the sum of its positions' reciprocals.
func checkPacketShape(t *testing.T, p memory.Packet, desc string) bool {
	t.Helper()
	ok := assert.LessOrEqual(t, len(p.Entries), packet.MaxEntries, desc)
	seen := map[string]bool{}
	items := make([]packet.Item, len(p.Entries))
	for i, e := range p.Entries {
		ok = assert.False(t, seen[e.Item.ID], "item %s twice in a packet: %s", e.Item.ID, desc) && ok
		seen[e.Item.ID] = true
		items[i] = e.Item.PacketItem()
		ok = assert.Equal(t, memory.StatusActive, e.Item.Status, "entry %s is not active: %s", e.Item.ID, desc) && ok
		ok = assert.NotEmpty(t, e.Item.Content, "entry %s has no content: %s", e.Item.ID, desc) && ok
		var score float64
		if e.FullTextPos != nil {
			score += 1 / float64(packet.FusionK+*e.FullTextPos)
		}
		if e.VectorPos != nil {
			score += 1 / float64(packet.FusionK+*e.VectorPos)
		}
		ok = assert.InDelta(t, score, e.Score, 1e-12, "entry %s's score: %s", e.Item.ID, desc) && ok
		ok = assert.True(t, e.FullTextPos != nil || e.VectorPos != nil || e.Item.Pinned, "entry %s in no list: %s", e.Item.ID, desc) && ok
	}
	if p.MemoryOff {
		return ok
	}
	text, n, truncated := packet.Render(items)
	ok = assert.Equal(t, len(p.Entries), n, "the packet's entries don't all fit its text: %s", desc) && ok
	ok = assert.Equal(t, text, p.Text, "the packet's text is not its entries laid out: %s", desc) && ok
	if len(p.Entries) > 0 {
		ok = assert.Equal(t, truncated, p.Entries[len(p.Entries)-1].Truncated, "the last entry's Truncated: %s", desc) && ok
	}
	return ok
}

// betweenHook lets a test change what runs between a preview's two lists.
type betweenHook struct {
	mu sync.Mutex
	f  func()
	n  atomic.Int64
}

func (h *betweenHook) set(f func()) { h.mu.Lock(); h.f = f; h.mu.Unlock() }
func (h *betweenHook) run() {
	h.n.Add(1)
	h.mu.Lock()
	f := h.f
	h.mu.Unlock()
	if f != nil {
		f()
	}
}

// TestPreviewSpareAttackWritesBetweenLists: guarantee B, made certain with the hook between the two
// lists (memory.Service.SetBetweenPreviewLists): a write lands after the full-text list was read and
// before the vector list is. Each case checks that the preview answers (no error), that no item
// shows twice, that every entry is an (id, revision, content) that existed, that nothing never
// visible shows, and that the packet's text is its entries.
func TestPreviewSpareAttackWritesBetweenLists(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	emb := &fakeEmbedder{model: "m", def: []float32{1, 0, 0}}
	f.with(memory.WithSemanticRecall(emb, 0.5))
	hook := &betweenHook{}
	f.svc.SetBetweenPreviewLists(hook.run)
	embed := func(id string, rev int, v ...float32) { embedItem(t, f, id, rev, "m", v) }
	// write runs w from the hook on its own goroutine, waiting for it at most 3 s: a write that
	// waits for the preview must not deadlock the test (it is reported instead).
	write := func(name string, w func() error) func() {
		return func() {
			done := make(chan error, 1)
			go func() { done <- w() }()
			select {
			case err := <-done:
				require.NoError(t, err, name)
			case <-time.After(3 * time.Second):
				t.Errorf("%s: the write between the lists waited 3 s for the preview", name)
				require.NoError(t, <-done, name)
			}
		}
	}
	type pair struct {
		rev     int
		content string
	}
	type scenario struct {
		name    string
		request string
		prepare func(tm, other string) (between func(), existed map[string][]pair, never []string)
		// ok reports whether an error is acceptable (none is, by default).
	}
	scenarios := []scenario{
		{"edit with a new embedding", "walrus", func(tm, other string) (func(), map[string][]pair, []string) {
			x := f.create(t, &tm, "Walrus tusks are ivory")
			embed(x.ID, 1, 1, 0, 0)
			y := f.create(t, &tm, "Walrus colonies are loud")
			embed(y.ID, 1, 1, 0.1, 0)
			return write("edit", func() error {
					nx, err := f.svc.EditMemory(user, memory.EditInput{ID: x.ID, BaseRevision: 1, Content: ptr("Penguins waddle on ice")})
					if err != nil {
						return err
					}
					embed(x.ID, nx.Revision, 1, 0.05, 0)
					ny, err := f.svc.EditMemory(user, memory.EditInput{ID: y.ID, BaseRevision: 1, Content: ptr("Walrus colonies are loud, really loud")})
					if err != nil {
						return err
					}
					embed(y.ID, ny.Revision, 1, 0.02, 0)
					return nil
				}), map[string][]pair{
					x.ID: {{1, x.Content}, {2, "Penguins waddle on ice"}},
					y.ID: {{1, y.Content}, {2, "Walrus colonies are loud, really loud"}},
				}, nil
		}},
		{"forget", "narwhal", func(tm, other string) (func(), map[string][]pair, []string) {
			x := f.create(t, &tm, "Narwhal horns are teeth")
			embed(x.ID, 1, 1, 0, 0)
			return write("forget", func() error { _, err := f.svc.ForgetMemory(user, x.ID); return err }),
				map[string][]pair{x.ID: {{1, x.Content}}}, nil
		}},
		{"pin and unpin", "otter", func(tm, other string) (func(), map[string][]pair, []string) {
			x := f.create(t, &tm, "Otters hold hands asleep")
			embed(x.ID, 1, 1, 0, 0)
			y, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Otters use rocks", Pinned: true})
			require.NoError(t, err)
			embed(y.ID, 1, 1, 0, 0)
			return write("pin", func() error {
					nx, err := f.svc.EditMemory(user, memory.EditInput{ID: x.ID, BaseRevision: 1, Pinned: ptr(true)})
					if err != nil {
						return err
					}
					embed(x.ID, nx.Revision, 1, 0, 0)
					ny, err := f.svc.EditMemory(user, memory.EditInput{ID: y.ID, BaseRevision: 1, Pinned: ptr(false)})
					if err != nil {
						return err
					}
					embed(y.ID, ny.Revision, 1, 0, 0)
					return nil
				}), map[string][]pair{
					x.ID: {{1, x.Content}, {2, x.Content}},
					y.ID: {{1, y.Content}, {2, y.Content}},
				}, nil
		}},
		{"scope moves", "lemur", func(tm, other string) (func(), map[string][]pair, []string) {
			in := f.create(t, &other, "Lemur tails are striped")
			embed(in.ID, 1, 1, 0, 0)
			out := f.create(t, &tm, "Lemur eyes glow")
			embed(out.ID, 1, 1, 0, 0)
			theirs := f.create(t, &other, "Lemur song at dawn")
			embed(theirs.ID, 1, 1, 0, 0)
			return write("move", func() error {
					_, err := f.pool.Exec(ctx, `UPDATE memory_items SET teammate_id = $2 WHERE id = $1`, in.ID, tm)
					if err != nil {
						return err
					}
					_, err = f.pool.Exec(ctx, `UPDATE memory_items SET teammate_id = $2 WHERE id = $1`, out.ID, other)
					if err != nil {
						return err
					}
					// Never visible to tm: an item of other's, edited between the lists.
					nt, err := f.svc.EditMemory(user, memory.EditInput{ID: theirs.ID, BaseRevision: 1, Content: ptr("Lemur song at dawn, lemur lemur")})
					if err != nil {
						return err
					}
					embed(theirs.ID, nt.Revision, 1, 0, 0)
					return nil
				}), map[string][]pair{
					in.ID:  {{1, in.Content}},
					out.ID: {{1, out.Content}},
				}, []string{theirs.ID}
		}},
		{"confirm a suggestion", "tapir", func(tm, other string) (func(), map[string][]pair, []string) {
			x := recallItem{id: uuid.NewString(), teammate: &tm, content: "Tapir snouts grab leaves", status: memory.StatusCandidate}.insert(t, f)
			embed(x.ID, 1, 1, 0, 0)
			y := f.create(t, &tm, "Tapir calves are spotted")
			embed(y.ID, 1, 1, 0, 0)
			never := recallItem{id: uuid.NewString(), teammate: &tm, content: "Tapir suggestion waits", status: memory.StatusCandidate}.insert(t, f)
			embed(never.ID, 1, 1, 0, 0)
			return write("confirm", func() error {
					c, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: x.ID})
					if err != nil {
						return err
					}
					embed(x.ID, c.Revision, 1, 0, 0)
					return nil
				}), map[string][]pair{
					x.ID: {{1, x.Content}, {2, x.Content}},
					y.ID: {{1, y.Content}},
				}, []string{never.ID}
		}},
		{"expire and delete", "ibex", func(tm, other string) (func(), map[string][]pair, []string) {
			x := f.create(t, &tm, "Ibex climb dams")
			embed(x.ID, 1, 1, 0, 0)
			y := f.create(t, nil, "Ibex horns curve")
			embed(y.ID, 1, 1, 0, 0)
			return write("expire", func() error {
					_, err := f.pool.Exec(ctx, `UPDATE memory_items SET expires_at = now() - interval '1 minute' WHERE id = $1`, x.ID)
					if err != nil {
						return err
					}
					_, err = f.pool.Exec(ctx, `DELETE FROM memory_items WHERE id = $1`, y.ID)
					return err
				}), map[string][]pair{
					x.ID: {{1, x.Content}},
					y.ID: {{1, y.Content}},
				}, nil
		}},
		{"delete the teammate", "quagga", func(tm, other string) (func(), map[string][]pair, []string) {
			x := f.create(t, &tm, "Quagga stripes fade")
			embed(x.ID, 1, 1, 0, 0)
			y := f.create(t, nil, "Quagga was a zebra")
			embed(y.ID, 1, 1, 0, 0)
			return write("delete teammate", func() error { _, err := f.svc.DeleteTeammate(user, tm); return err }),
				map[string][]pair{x.ID: {{1, x.Content}}, y.ID: {{1, y.Content}}}, nil
		}},
		{"memory switched off", "dugong", func(tm, other string) (func(), map[string][]pair, []string) {
			x := f.create(t, &tm, "Dugong graze seagrass")
			embed(x.ID, 1, 1, 0, 0)
			return write("switch off", func() error {
					_, err := f.svc.SetMemorySwitch(user, memory.SetMemorySwitchInput{TeammateID: tm, UseMemory: ptr(false)})
					return err
				}),
				map[string][]pair{x.ID: {{1, x.Content}}}, nil
		}},
	}
	for _, sc := range scenarios {
		tm, other := f.teammate(t, "Tm "+sc.name), f.teammate(t, "Other "+sc.name)
		between, existed, never := sc.prepare(tm, other)
		// Items of the other teammate the preview must never give, with the request's word.
		theirs := f.create(t, &other, "Theirs: "+sc.request+" "+sc.request)
		embed(theirs.ID, 1, 1, 0, 0)
		never = append(never, theirs.ID)

		var once sync.Once
		hook.set(func() { once.Do(between) })
		before := hook.n.Load()
		g := &spareGrant{}
		p, err := f.svc.RecallPreview(g.wrap(user), tm, sc.request+" please")
		hook.set(nil)
		desc := fmt.Sprintf("case %q", sc.name)
		g.balanced(t, desc)
		if hook.n.Load() == before {
			t.Logf("%s: the preview did not read its lists apart (takes %d); nothing to attack", desc, g.takes.Load())
			continue
		}
		if sc.name == "delete the teammate" && errors.Is(err, memory.ErrNotFound) {
			// The vector list, read after the delete, finds no teammate: the preview answers as one
			// made after the delete would (F7: its memory is gone), never with what the full-text
			// list read before it.
			continue
		}
		if !assert.NoError(t, err, "a preview with a write between its lists failed: %s", desc) {
			continue
		}
		checkPacketShape(t, p, desc)
		for _, e := range p.Entries {
			assert.NotContains(t, never, e.Item.ID, "an item never visible to the teammate: %s", desc)
			pairs, known := existed[e.Item.ID]
			if !assert.True(t, known, "an unexpected item %s (%q): %s", e.Item.ID, e.Item.Content, desc) {
				continue
			}
			assert.Contains(t, pairs, pair{e.Item.Revision, e.Item.Content}, "entry %s@%d %q never existed: %s", e.Item.ID, e.Item.Revision, e.Item.Content, desc)
		}
		t.Logf("%s: %d entries, memory off %v, vector %v", desc, len(p.Entries), p.MemoryOff, p.Vector)
	}
	assert.Zero(t, f.pool.Stat().AcquiredConns(), "a connection is still acquired")
}

// TestPreviewSpareAttackConcurrentWrites: guarantee B at random. Previews with spares run while
// writers edit (with fresh embeddings), forget, expire, pin, confirm, move items between two
// scopes, delete items and a teammate. No preview errs, none shows an item twice, an item of a scope
// it never sees, a suggestion never confirmed, an item forgotten before it began, or an
// (id, revision, content) that never existed; every spare is given back.
func TestPreviewSpareAttackConcurrentWrites(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	f := setup(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 99))
	c := recallCorpus{rng: rand.New(rand.NewPCG(seed, 98))}
	f.with(memory.WithSemanticRecall(&hashEmbedder{model: spareModel8, dims: 8}, 1.1))
	a, b, far, gone := f.teammate(t, "A"), f.teammate(t, "B"), f.teammate(t, "Far"), f.teammate(t, "Gone")
	seedRecallCorpus(t, f, c, []*string{nil, &a, &b, &far, &gone}, []int{60, 60, 40, 40, 30})
	var hook atomic.Int64
	f.svc.SetBetweenPreviewLists(func() { hook.Add(1); time.Sleep(time.Duration(rng.IntN(3)) * time.Millisecond) })

	// What existed: every (id, revision, content), and which items a and b may ever see.
	type state struct {
		id, status string
		teammate   *string
		revision   int
		content    string
	}
	rows, err := f.pool.Query(ctx, `SELECT id::text, status, teammate_id::text, revision, content FROM memory_items`)
	require.NoError(t, err)
	initial, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (state, error) {
		var s state
		return s, r.Scan(&s.id, &s.status, &s.teammate, &s.revision, &s.content)
	})
	require.NoError(t, err)
	var mu sync.Mutex
	pairs := map[string]bool{}
	pairKey := func(id string, rev int, content string) string { return fmt.Sprintf("%s@%d:%s", id, rev, content) }
	never := map[string]bool{}      // never visible to a nor b
	forgotten := map[string]bool{}  // forgotten (or deleted with the teammate) and finished
	confirmable := map[string]int{} // shared suggestions the writers confirm
	var editable []state            // active items of shared, a, b
	var vecIDs, vecs []string
	var vecRevs []int32
	for _, s := range initial {
		pairs[pairKey(s.id, s.revision, s.content)] = true
		own := s.teammate == nil || *s.teammate == a || *s.teammate == b
		switch {
		case !own || s.status == "dismissed" || s.status == "forgotten":
			never[s.id] = true
		case s.status == "candidate" && s.teammate == nil:
			confirmable[s.id] = s.revision
		case s.status == "candidate":
			never[s.id] = true
		default:
			editable = append(editable, s)
		}
		if s.status != "forgotten" {
			vecIDs, vecRevs, vecs = append(vecIDs, s.id), append(vecRevs, int32(s.revision)), append(vecs, vectorLiteral(randomUnit(rng, 8)))
		}
	}
	_, err = f.pool.Exec(ctx, `
		INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
		SELECT i, r, $3, 8, v::vector FROM unnest($1::uuid[], $2::int[], $4::text[]) AS n(i, r, v)`, vecIDs, vecRevs, spareModel8, vecs)
	require.NoError(t, err)

	var stop atomic.Bool
	var wg sync.WaitGroup
	var writeErrs atomic.Int64
	var writesDone atomic.Int64
	goneDeletedAt := atomic.Pointer[time.Time]{}
	record := func(it memory.Item, err error) {
		if err != nil {
			var conflict *memory.ConflictError
			var bad *memory.ValidationError
			if !errors.As(err, &conflict) && !errors.As(err, &bad) && !errors.Is(err, memory.ErrNotFound) && !errors.Is(err, memory.ErrMemoryChanged) {
				writeErrs.Add(1)
				t.Errorf("write: %v", err)
			}
			return
		}
		writesDone.Add(1)
		mu.Lock()
		pairs[pairKey(it.ID, it.Revision, it.Content)] = true
		mu.Unlock()
		if it.Status == memory.StatusActive {
			_, _ = f.pool.Exec(ctx, `
				INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
				VALUES ($1, $2, $3, 8, $4::text::vector) ON CONFLICT DO NOTHING`, it.ID, it.Revision, spareModel8, vectorLiteral(randomUnit(rand.New(rand.NewPCG(uint64(it.Revision), uint64(len(it.Content)))), 8)))
		}
	}
	for w := range 2 {
		wg.Go(func() {
			wr := rand.New(rand.NewPCG(seed, uint64(w)))
			wc := recallCorpus{rng: rand.New(rand.NewPCG(seed, uint64(100+w)))}
			for i := 0; !stop.Load(); i++ {
				s := editable[wr.IntN(len(editable))]
				cur, err := f.svc.Item(user, s.id)
				if err != nil || cur.Status != memory.StatusActive {
					continue
				}
				switch wr.IntN(12) {
				case 0:
					began := time.Now()
					_, err := f.svc.ForgetMemory(user, s.id)
					if err == nil {
						mu.Lock()
						forgotten[s.id] = true
						_ = began
						mu.Unlock()
					}
					record(cur, err)
				case 1, 2:
					record(f.svc.EditMemory(user, memory.EditInput{ID: s.id, BaseRevision: cur.Revision, Pinned: ptr(!cur.Pinned)}))
				case 3:
					_, err := f.pool.Exec(ctx, `UPDATE memory_items SET expires_at = now() - interval '1 minute' WHERE id = $1`, s.id)
					record(cur, err)
				case 4:
					record(f.svc.EditMemory(user, memory.EditInput{ID: s.id, BaseRevision: cur.Revision, ClearExpiresAt: true}))
				case 5:
					if cur.TeammateID != nil { // between a and b only
						to := a
						if *cur.TeammateID == a {
							to = b
						}
						_, err := f.pool.Exec(ctx, `UPDATE memory_items SET teammate_id = $2 WHERE id = $1`, s.id, to)
						record(cur, err)
					}
				case 6:
					for id, rev := range confirmable {
						record(f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: id}))
						_ = rev
						break
					}
				case 7:
					if i%5 == 0 {
						_, err := f.pool.Exec(ctx, `DELETE FROM memory_items WHERE id = $1`, s.id)
						record(cur, err)
					}
				default:
					key := wc.key()
					if key == nil {
						key = ptr("")
					}
					record(f.svc.EditMemory(user, memory.EditInput{ID: s.id, BaseRevision: cur.Revision, Content: ptr(wc.sentence()), Key: key}))
				}
				if w == 1 && i == 40 {
					now := time.Now()
					goneDeletedAt.Store(&now) // from here on, a preview of gone may find no teammate
					_, err := f.svc.DeleteTeammate(user, gone)
					assert.NoError(t, err)
				}
			}
		})
	}

	type seen struct {
		viewer  string
		entries []memory.PacketEntry
	}
	var results []seen
	var previews, apart atomic.Int64
	deadline := time.Now().Add(6 * time.Second)
	var pw sync.WaitGroup
	for p := range 3 {
		pw.Go(func() {
			pc := recallCorpus{rng: rand.New(rand.NewPCG(seed, uint64(200+p)))}
			for i := 0; time.Now().Before(deadline); i++ {
				viewer := []string{a, b, gone}[i%3]
				mu.Lock()
				forgottenBefore := make(map[string]bool, len(forgotten))
				for id := range forgotten {
					forgottenBefore[id] = true
				}
				mu.Unlock()
				g := &spareGrant{}
				req := pc.request()
				before := hook.Load()
				pk, err := f.svc.RecallPreview(g.wrap(user), viewer, req)
				if hook.Load() != before {
					apart.Add(1)
				}
				previews.Add(1)
				desc := fmt.Sprintf("seed %d, viewer %s, request %q", seed, viewer, req)
				if !g.balanced(t, desc) {
					return
				}
				if err != nil {
					if viewer == gone && errors.Is(err, memory.ErrNotFound) && goneDeletedAt.Load() != nil {
						continue // asked after the teammate was deleted
					}
					assert.NoError(t, err, "a preview under writes failed: %s", desc)
					return
				}
				if !checkPacketShape(t, pk, desc) {
					return
				}
				for _, e := range pk.Entries {
					if viewer != gone && !assert.False(t, never[e.Item.ID], "an item never visible: %s in %s", e.Item.ID, desc) {
						return
					}
					if !assert.False(t, forgottenBefore[e.Item.ID], "an item forgotten before the preview began: %s in %s", e.Item.ID, desc) {
						return
					}
				}
				mu.Lock()
				results = append(results, seen{viewer, pk.Entries})
				mu.Unlock()
			}
		})
	}
	pw.Wait()
	stop.Store(true)
	wg.Wait()
	t.Logf("%d previews (%d read apart), %d writes", previews.Load(), apart.Load(), writesDone.Load())
	assert.Positive(t, apart.Load(), "no preview read its lists apart: nothing was attacked")
	bad := 0
	for _, r := range results {
		for _, e := range r.entries {
			if !pairs[pairKey(e.Item.ID, e.Item.Revision, e.Item.Content)] && bad < 5 {
				bad++
				t.Errorf("entry %s@%d %q never existed (seed %d)", e.Item.ID, e.Item.Revision, e.Item.Content, seed)
			}
		}
	}
	assert.Zero(t, f.pool.Stat().AcquiredConns(), "a connection is still acquired")
}

// smallPool is a pool of n connections on a fresh database.
func smallPool(t *testing.T, n int32) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dbtest.URL(t))
	require.NoError(t, err)
	cfg.MaxConns = n
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// TestPreviewSpareAttackSmallPools: guarantee C. On pools of 1 and 2 connections, 24 previews with
// spares always granted, all at once, all end within 15 s with the packet a preview without a spare
// gives, and give back every spare; a preview whose ctx is cancelled — before it starts, between its
// lists, while its embedder waits, while the pool is exhausted — ends promptly with a context error
// and gives its spare back.
func TestPreviewSpareAttackSmallPools(t *testing.T) {
	t.Parallel()
	for _, n := range []int32{1, 2} {
		pool := smallPool(t, n)
		f := fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}
		tm := f.teammate(t, "Small")
		for i := range 20 {
			x := f.create(t, &tm, fmt.Sprintf("Heron number %d fishes at dawn", i))
			embedItem(t, f, x.ID, 1, "m", []float32{1, float32(i) / 20})
		}
		slow := &blockingEmbedder{model: "m", v: []float32{1, 0}, delay: 20 * time.Millisecond}
		f.with(memory.WithSemanticRecall(slow, 0.5))
		want, err := f.svc.RecallPreview(user, tm, "heron dawn")
		require.NoError(t, err)
		require.NotEmpty(t, want.Entries)
		require.Equal(t, memory.VectorUsed, want.Vector.State)

		g := &spareGrant{}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		var wg sync.WaitGroup
		errs := make(chan error, 24)
		for range 24 {
			wg.Go(func() {
				p, err := f.svc.RecallPreview(g.wrap(memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})), tm, "heron dawn")
				if err == nil && !reflect.DeepEqual(want, p) {
					err = errors.New("a preview on a small pool differs from the one without a spare")
				}
				errs <- err
			})
		}
		wg.Wait()
		cancel()
		close(errs)
		for err := range errs {
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("pool of %d: previews with spares deadlocked (still waiting after 15 s): %v", n, err)
			}
			require.NoError(t, err, "pool of %d", n)
		}
		g.balanced(t, fmt.Sprintf("pool of %d", n))
		assert.Zero(t, pool.Stat().AcquiredConns(), "pool of %d: a connection is still acquired", n)
		t.Logf("pool of %d: %d spares taken by 24 previews", n, g.takes.Load())
	}

	// Cancellations.
	pool := smallPool(t, 2)
	f := fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}
	tm := f.teammate(t, "Cancel")
	x := f.create(t, &tm, "Crane dances in spring")
	embedItem(t, f, x.ID, 1, "m", []float32{1, 0})
	block := &blockingEmbedder{model: "m", v: []float32{1, 0}, wait: true}
	f.with(memory.WithSemanticRecall(block, 0.5))
	hook := &betweenHook{}
	f.svc.SetBetweenPreviewLists(hook.run)
	held := 0 // connections the test itself holds
	prompt := func(t *testing.T, name string, ctx context.Context, cancel context.CancelFunc, g *spareGrant) {
		t.Helper()
		began := time.Now()
		done := make(chan error, 1)
		go func() {
			_, err := f.svc.RecallPreview(g.wrap(ctx), tm, "crane spring")
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(5 * time.Second):
			cancel()
			t.Fatalf("%s: the preview did not end within 5 s of its cancellation", name)
		}
		took := time.Since(began)
		assert.True(t, errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded), "%s: want a context error, got %v", name, err)
		assert.Less(t, took, 2*time.Second, "%s: not prompt", name)
		g.balanced(t, name)
		assert.True(t, apitestWait(func() bool { return pool.Stat().AcquiredConns() == int32(held) }), "%s: a connection is still acquired", name)
	}

	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(user)
		cancel()
		prompt(t, "cancelled before", ctx, cancel, &spareGrant{})
	})
	t.Run("cancelled in take", func(t *testing.T) {
		ctx, cancel := context.WithCancel(user)
		g := &spareGrant{onTake: cancel}
		prompt(t, "cancelled in take", ctx, cancel, g)
	})
	t.Run("cancelled while embedding", func(t *testing.T) {
		ctx, cancel := context.WithCancel(user)
		block.onWait = func() { go func() { time.Sleep(50 * time.Millisecond); cancel() }() }
		prompt(t, "cancelled while embedding", ctx, cancel, &spareGrant{})
		block.onWait = nil
	})
	t.Run("cancelled between the lists", func(t *testing.T) {
		block.wait = false
		defer func() { block.wait = true }()
		ctx, cancel := context.WithCancel(user)
		hook.set(cancel)
		defer hook.set(nil)
		g := &spareGrant{}
		began := time.Now()
		_, err := f.svc.RecallPreview(g.wrap(ctx), tm, "crane spring")
		if hook.n.Load() == 0 {
			t.Skip("the preview did not read its lists apart")
		}
		// Cancelled between the lists: a context error, or (if nothing was left to read) a packet.
		if err != nil {
			assert.True(t, errors.Is(err, context.Canceled), "want a context error, got %v", err)
		}
		assert.Less(t, time.Since(began), 2*time.Second)
		g.balanced(t, "cancelled between the lists")
		assert.True(t, apitestWait(func() bool { return pool.Stat().AcquiredConns() == 0 }), "a connection is still acquired")
	})
	t.Run("pool exhausted", func(t *testing.T) {
		block.wait = false
		defer func() { block.wait = true }()
		c1, err := pool.Acquire(context.Background())
		require.NoError(t, err)
		c2, err := pool.Acquire(context.Background())
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(user, 300*time.Millisecond)
		defer cancel()
		held = 2
		prompt(t, "pool exhausted", ctx, cancel, &spareGrant{})
		held = 0
		c1.Release()
		// One connection free, the spare granted: the preview must not wait for a second one forever.
		ctx2, cancel2 := context.WithTimeout(user, 5*time.Second)
		defer cancel2()
		g := &spareGrant{}
		p, err := f.svc.RecallPreview(g.wrap(ctx2), tm, "crane spring")
		c2.Release()
		require.NoError(t, err, "a preview with a spare granted and one free connection of two (another held elsewhere) must not wait for a second connection until its deadline")
		assert.Len(t, p.Entries, 1)
		g.balanced(t, "pool exhausted")
	})
}

func apitestWait(cond func() bool) bool {
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// blockingEmbedder answers v after delay; with wait it blocks until its ctx ends.
type blockingEmbedder struct {
	model  string
	v      []float32
	delay  time.Duration
	wait   bool
	onWait func()
}

func (e *blockingEmbedder) EmbedQuery(ctx context.Context, _ string) ([]float32, string, error) {
	if e.wait {
		if e.onWait != nil {
			e.onWait()
		}
		<-ctx.Done()
		return nil, "", ctx.Err()
	}
	select {
	case <-time.After(e.delay):
		return e.v, e.model, nil
	case <-ctx.Done():
		return nil, "", ctx.Err()
	}
}

// slowReleaseTracer delays giving back to the pool a connection whose last statement read the
// full-text list and not the embeddings (the spare's, per the change's description), widening the
// moment between a preview's end and its spare connection's.
type slowReleaseTracer struct {
	mu    sync.Mutex
	last  map[*pgx.Conn]string
	delay time.Duration
	slow  atomic.Int64
}

func (s *slowReleaseTracer) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	s.mu.Lock()
	s.last[conn] += data.SQL + "\n"
	s.mu.Unlock()
	return ctx
}

func (s *slowReleaseTracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}

func (s *slowReleaseTracer) TraceBatchQuery(_ context.Context, conn *pgx.Conn, data pgx.TraceBatchQueryData) {
	s.mu.Lock()
	s.last[conn] += data.SQL + "\n"
	s.mu.Unlock()
}

func (s *slowReleaseTracer) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

func (s *slowReleaseTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (s *slowReleaseTracer) TraceRelease(_ *pgxpool.Pool, data pgxpool.TraceReleaseData) {
	s.mu.Lock()
	sql := s.last[data.Conn]
	delete(s.last, data.Conn)
	s.mu.Unlock()
	if os.Getenv("SPARE_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "RELEASE %q\n", strings.Join(strings.Fields(sql), " ")[:min(len(strings.Join(strings.Fields(sql), " ")), 150)])
	}
	if strings.Contains(sql, "memory_term") && !strings.Contains(sql, "embedding") {
		s.slow.Add(1)
		time.Sleep(s.delay)
	}
}

// TestPreviewSpareAttackReleasedBeforeReturn: rule 2 says a preview that took a spare releases it
// "at the end, whatever happens". A preview must not return while something it started still holds
// the spare: the caller (the API's heavy slots) would count a slot as taken by a request that has
// ended, and a goroutine of the preview would outlive it. 300 previews whose embedder fails (the
// vector side ends at once, so the preview finishes while the full-text side winds down) and 100
// that use both lists, six at a time: each must have released its spare by the time it returns.
func TestPreviewSpareAttackReleasedBeforeReturn(t *testing.T) {
	t.Parallel()
	cfg, err := pgxpool.ParseConfig(dbtest.URL(t))
	require.NoError(t, err)
	tracer := &slowReleaseTracer{last: map[*pgx.Conn]string{}, delay: 3 * time.Millisecond}
	cfg.ConnConfig.Tracer = tracer
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	f := fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}
	tm := f.teammate(t, "Late")
	for i := range 10 {
		x := f.create(t, &tm, fmt.Sprintf("Puffin %d nests on cliffs", i))
		embedItem(t, f, x.ID, 1, "m", []float32{1, float32(i) / 10})
	}
	failing := memory.NewService(f.pool, slog.New(slog.DiscardHandler),
		memory.WithSemanticRecall(&fakeEmbedder{model: "m", err: errors.New("connection refused")}, 0.5))
	working := memory.NewService(f.pool, slog.New(slog.DiscardHandler),
		memory.WithSemanticRecall(&fakeEmbedder{model: "m", def: []float32{1, 0}}, 0.5))
	// Six previews at a time on the pool of four, so that connections change hands while previews
	// end, as they do under load.
	var late, taken, previews atomic.Int64
	var mu sync.Mutex
	var worst time.Duration
	var wg sync.WaitGroup
	// Collections stop the world at random moments, so the preview's goroutines get paused anywhere.
	stopGC := make(chan struct{})
	gcDone := make(chan struct{})
	go func() {
		defer close(gcDone)
		for {
			select {
			case <-stopGC:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer func() { close(stopGC); <-gcDone }()
	for w := range 2 {
		wg.Go(func() {
			for i := range 200 {
				svc, kind := failing, "embedder fails"
				if (i+w)%4 == 3 {
					svc, kind = working, "both lists"
				}
				g := &spareGrant{}
				_, err := svc.RecallPreview(g.wrap(user), tm, "puffin cliffs")
				if !assert.NoError(t, err) {
					return
				}
				previews.Add(1)
				if g.takes.Load() == 0 {
					continue
				}
				taken.Add(1)
				if g.releases.Load() != g.takes.Load() {
					late.Add(1)
					began := time.Now()
					for g.releases.Load() != g.takes.Load() && time.Since(began) < 3*time.Second {
						time.Sleep(50 * time.Microsecond)
					}
					mu.Lock()
					worst = max(worst, time.Since(began))
					mu.Unlock()
					t.Logf("returned before releasing its spare (%s); released %v later", kind, time.Since(began))
					assert.Equal(t, g.takes.Load(), g.releases.Load(), "a spare never released")
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d previews, %d took a spare, %d returned before releasing it (latest release %v after the return); %d full-text connections given back slowly",
		previews.Load(), taken.Load(), late.Load(), worst, tracer.slow.Load())
	assert.Zero(t, late.Load(), "previews returned before releasing the spare they took (%d of %d; the release came up to %v later)", late.Load(), taken.Load(), worst)
}

package memory_test

// Black-box attack tests of the full-text list's BM25 order (RULES P1, P2), written without reading
// recall's implementation: a reference of the rule, computed in Go from memory_items as stored,
// compared with RecallPreview's packet after every kind of write the service offers.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

const (
	bmK1 = 1.2
	bmB  = 0.75
	// bmFullTextKeep is how many unpinned items the full-text list keeps; the packet shows at most
	// bmPacketMax entries.
	bmFullTextKeep = 30
	bmPacketMax    = 12
	bmMaxChars     = 6000
)

// bmItem is one row of memory_items as the reference sees it.
type bmItem struct {
	id      string
	scope   string // "" for shared, else the teammate's id
	status  string
	kind    string
	pinned  bool
	expired bool
	content string
	tf      map[string]int // lexeme -> number of stored positions
	dl      int
}

// bmExpected is one unpinned entry the rule expects, in order, with its BM25 score.
type bmExpected struct {
	id    string
	score float64
}

type bmAttack struct {
	f           fixture
	comparisons atomic.Int64
	steps       atomic.Int64
}

func newBMAttack(t *testing.T) *bmAttack {
	t.Helper()
	return &bmAttack{f: setup(t)}
}

// items reads every item of memory_items with its stored search vector's lexemes and positions.
func (a *bmAttack) items(t *testing.T) []bmItem {
	t.Helper()
	rows, err := a.f.pool.Query(context.Background(), `
		SELECT i.id::text, coalesce(i.teammate_id::text, ''), i.status::text, i.kind::text, i.pinned,
		       (i.expires_at IS NOT NULL AND i.expires_at <= now()), i.content,
		       coalesce((SELECT array_agg(w.lexeme ORDER BY w.lexeme) FROM unnest(i.search) w), '{}'::text[]),
		       coalesce((SELECT array_agg(cardinality(w.positions) ORDER BY w.lexeme) FROM unnest(i.search) w), '{}'::int[])
		  FROM memory_items i`)
	require.NoError(t, err)
	defer rows.Close()
	var out []bmItem
	for rows.Next() {
		var it bmItem
		var lex []string
		var pos []int32
		require.NoError(t, rows.Scan(&it.id, &it.scope, &it.status, &it.kind, &it.pinned, &it.expired, &it.content, &lex, &pos))
		require.Len(t, pos, len(lex))
		it.tf = map[string]int{}
		for i, l := range lex {
			it.tf[l] = int(pos[i])
			it.dl += int(pos[i])
		}
		out = append(out, it)
	}
	require.NoError(t, rows.Err())
	return out
}

// requestLexemes is the distinct lexemes of to_tsvector('english', words), words being the
// request's first 256 distinct words (RULES P2's bound; runs between white space, case aside).
func (a *bmAttack) requestLexemes(t *testing.T, request string) []string {
	t.Helper()
	var words []string
	for _, w := range strings.Fields(strings.ToLower(request)) {
		if len(words) < 256 && !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	rows, err := a.f.pool.Query(context.Background(),
		`SELECT DISTINCT w.lexeme FROM unnest(to_tsvector('english', $1::text)) w ORDER BY 1`, strings.Join(words, " "))
	require.NoError(t, err)
	lex, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return lex
}

// bmRound is the rule's rounding: round half to even of score × 1e9, divided by 1e9.
func bmRound(x float64) float64 { return math.RoundToEven(x*1e9) / 1e9 }

// expected is what rule 1–3 give for teammate tm and request: pinned visible items first (lessons
// first; their order within the group is not the rule's business here: ts_rank_cd), then the
// unpinned matching visible items by BM25, ties by id, the top 30 kept.
func (a *bmAttack) expected(t *testing.T, all []bmItem, tm, request string) (pinnedLessons, pinnedOthers map[string]bool, ranked []bmExpected) {
	t.Helper()
	lexemes := a.requestLexemes(t, request)
	pinnedLessons, pinnedOthers = map[string]bool{}, map[string]bool{}
	var stats []bmItem
	for _, it := range all {
		if it.status != "active" || (it.scope != "" && it.scope != tm) {
			continue
		}
		if it.pinned {
			if !it.expired {
				if it.kind == "lesson" {
					pinnedLessons[it.id] = true
				} else {
					pinnedOthers[it.id] = true
				}
			}
			continue
		}
		stats = append(stats, it)
	}
	n := float64(len(stats))
	var total float64
	df := map[string]int{}
	for _, it := range stats {
		total += float64(it.dl)
		for l := range it.tf {
			df[l]++
		}
	}
	avgdl := total / n
	for _, it := range stats {
		if it.expired {
			continue
		}
		var score float64
		matched := false
		for _, l := range lexemes {
			tf, ok := it.tf[l]
			if !ok {
				continue
			}
			matched = true
			d := float64(df[l])
			idf := math.Log(1 + (n-d+0.5)/(d+0.5))
			ftf := float64(tf)
			score += idf * ftf * (bmK1 + 1) / (ftf + bmK1*(1-bmB+bmB*float64(it.dl)/avgdl))
		}
		if matched {
			ranked = append(ranked, bmExpected{id: it.id, score: bmRound(score)})
		}
	}
	sort.Slice(ranked, func(i, j int) bool {
		if ranked[i].score != ranked[j].score {
			return ranked[i].score > ranked[j].score
		}
		return ranked[i].id < ranked[j].id
	})
	if len(ranked) > bmFullTextKeep {
		ranked = ranked[:bmFullTextKeep]
	}
	return pinnedLessons, pinnedOthers, ranked
}

func bmDescribe(p memory.Packet) string {
	var b strings.Builder
	for i, e := range p.Entries {
		s := "nil"
		if e.BM25Score != nil {
			s = strconv.FormatFloat(*e.BM25Score, 'f', 9, 64)
		}
		fmt.Fprintf(&b, "\n  %2d %s pinned=%v bm25=%s %.40q", i+1, e.Item.ID, e.Item.Pinned, s, e.Item.Content)
	}
	return b.String()
}

func bmDescribeWant(lessons, others map[string]bool, ranked []bmExpected, byID map[string]bmItem) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n  pinned lessons %d, other pinned %d", len(lessons), len(others))
	for i, r := range ranked {
		if i >= bmPacketMax {
			break
		}
		fmt.Fprintf(&b, "\n  %2d %s bm25=%.9f dl=%d %.40q", i+1, r.id, r.score, byID[r.id].dl, byID[r.id].content)
	}
	return b.String()
}

// compare checks teammate tm's packet for request against the rule; it reports and returns false on
// a difference.
func (a *bmAttack) compare(t *testing.T, step, tm, request string) bool {
	t.Helper()
	p, err := a.f.svc.RecallPreview(user, tm, request)
	require.NoError(t, err, step)
	return a.comparePacket(t, step, tm, request, p)
}

// comparePacket is compare for a packet built another way (a run's, the preview with what it left
// out).
func (a *bmAttack) comparePacket(t *testing.T, step, tm, request string, p memory.Packet) bool {
	t.Helper()
	a.comparisons.Add(1)
	all := a.items(t)
	byID := map[string]bmItem{}
	for _, it := range all {
		byID[it.id] = it
	}
	lessons, others, ranked := a.expected(t, all, tm, request)

	// The rule's packet order: the pinned items (lessons first), then the ranked ones, cut to 12.
	nPinned := len(lessons) + len(others)
	want := min(bmPacketMax, nPinned+len(ranked))
	fail := func(format string, args ...any) bool {
		t.Errorf("%s; teammate %s; request %q: %s\npacket:%s\nrule:%s", step, tm, request, fmt.Sprintf(format, args...),
			bmDescribe(p), bmDescribeWant(lessons, others, ranked, byID))
		return false
	}
	if len(p.Entries) > want {
		return fail("packet has %d entries, the rule at most %d", len(p.Entries), want)
	}
	if len(p.Entries) < want {
		// Only the 6,000-character cut may shorten the packet: the last entry was cut, or the
		// next one could not fit.
		if len(p.Entries) == 0 {
			return fail("packet is empty, the rule has %d entries", want)
		}
		last := p.Entries[len(p.Entries)-1]
		var next string
		if i := len(p.Entries) - nPinned; i >= 0 && i < len(ranked) {
			next = byID[ranked[i].id].content
		}
		if !last.Truncated && utf8.RuneCountInString(p.Text)+utf8.RuneCountInString(next)+64 <= bmMaxChars {
			return fail("packet has %d entries, the rule %d (and no cut explains it)", len(p.Entries), want)
		}
	}
	for i, e := range p.Entries {
		if i < nPinned {
			wantLesson := i < len(lessons)
			set := others
			if wantLesson {
				set = lessons
			}
			if !set[e.Item.ID] {
				return fail("entry %d is %s; the rule has a pinned %s there", i+1, e.Item.ID, map[bool]string{true: "lesson", false: "non-lesson"}[wantLesson])
			}
			if e.BM25Score != nil {
				return fail("pinned entry %d has a BM25 score %v", i+1, *e.BM25Score)
			}
			continue
		}
		r := ranked[i-nPinned]
		if e.Item.ID != r.id {
			return fail("entry %d is %s; the rule has %s (bm25 %.9f)", i+1, e.Item.ID, r.id, r.score)
		}
		if e.BM25Score == nil {
			return fail("entry %d (%s) has no BM25 score; the rule gives %.9f", i+1, r.id, r.score)
		}
		if math.Abs(*e.BM25Score-r.score) > 1e-9 {
			return fail("entry %d (%s) scores %.9f; the rule %.9f", i+1, r.id, *e.BM25Score, r.score)
		}
	}
	return true
}

// check compares every teammate's packet for every request.
// team creates the teammates Ada, Bob and Cyd (the tests give Cyd no item of its own: it sees the
// shared items only) and returns their ids in that order.
func (a *bmAttack) team(t *testing.T) []string {
	t.Helper()
	return []string{a.f.teammate(t, "Ada"), a.f.teammate(t, "Bob"), a.f.teammate(t, "Cyd")}
}

// step checks the stored search vectors (checkStored), then the teammates' packets for the requests
// (check).
func (a *bmAttack) step(t *testing.T, step string, teammates, requests []string) {
	t.Helper()
	a.checkStored(t, step)
	a.check(t, step, teammates, requests)
}

func (a *bmAttack) check(t *testing.T, step string, teammates []string, requests []string) {
	t.Helper()
	a.steps.Add(1)
	for _, tm := range teammates {
		for _, r := range requests {
			a.compare(t, step, tm, r)
		}
		// The same packet built the way a run's is (PrepareRecall, BuildPacketTx), and the
		// user's preview that counts what it left out.
		a.comparePacket(t, step+" (run's packet)", tm, requests[0], buildPacket(t, a.f, tm, requests[0]))
		p, err := a.f.svc.RecallPreviewWithLeftOut(user, tm, requests[0])
		require.NoError(t, err)
		a.comparePacket(t, step+" (preview with left-out)", tm, requests[0], p)
	}
}

// checkStored asserts that every stored search vector is to_tsvector('english', content || ' ' ||
// coalesce(key, ”)) of the row as it is now (the rule's definition of the vector).
func (a *bmAttack) checkStored(t *testing.T, step string) {
	t.Helper()
	var stale []string
	rows, err := a.f.pool.Query(context.Background(), `
		SELECT id::text FROM memory_items
		 WHERE search IS DISTINCT FROM to_tsvector('english', content || ' ' || coalesce(key, ''))`)
	require.NoError(t, err)
	stale, err = pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	if len(stale) > 0 {
		t.Errorf("%s: stored search vectors differ from the rule's definition for %v", step, stale)
	}
}

func (a *bmAttack) create(t *testing.T, tm *string, content string, mods ...func(*memory.CreateInput)) memory.Item {
	t.Helper()
	in := memory.CreateInput{Scope: memory.Scope{TeammateID: tm}, Content: content}
	for _, m := range mods {
		m(&in)
	}
	item, err := a.f.svc.CreateMemory(user, in)
	require.NoError(t, err)
	return item
}

func (a *bmAttack) edit(t *testing.T, in memory.EditInput) memory.Item {
	t.Helper()
	cur, err := a.f.svc.Item(user, in.ID)
	require.NoError(t, err)
	in.BaseRevision = cur.Revision
	item, err := a.f.svc.EditMemory(user, in)
	require.NoError(t, err)
	return item
}

func (a *bmAttack) current(t *testing.T, id string) memory.Item {
	t.Helper()
	it, err := a.f.svc.Item(user, id)
	require.NoError(t, err)
	return it
}

func (a *bmAttack) sql(t *testing.T, query string, args ...any) {
	t.Helper()
	_, err := a.f.pool.Exec(context.Background(), query, args...)
	require.NoError(t, err)
}

func (a *bmAttack) run(t *testing.T, tm, message string) context.Context {
	t.Helper()
	out, err := a.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, Message: message, StartedByUser: true})
	require.NoError(t, err)
	c, err := a.f.svc.AuthenticateRun(context.Background(), out.Token)
	require.NoError(t, err)
	return memory.WithCredential(context.Background(), c)
}

var bmRequests = []string{
	"green tea kettle",
	"tea",
	"Which kettle should I use for the green tea?",
	"tea tea tea TEA teas",
	"xyzzyquux",
	"the of and to",
}

// TestBM25AttackLifecycle drives one database through every write of the user's API — create,
// edits of every sort, pin and unpin (one and bulk), forget (one, bulk, with copies), undo and
// restore, expiry set/extended/cleared — and compares three teammates' packets (one of them with
// no scope of its own in use) with the rule after every step.
func TestBM25AttackLifecycle(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	tms := a.team(t)
	ada, bob := tms[0], tms[1]
	check := func(step string) {
		t.Helper()
		a.step(t, step, tms, bmRequests)
	}

	s1 := a.create(t, nil, "Green tea is kept in the blue tin by the kettle.")
	check("create shared 1")
	s2 := a.create(t, nil, "The kettle whistles.")
	s3 := a.create(t, nil, "Black tea for guests, green tea for the team, herbal tea after six.")
	a1 := a.create(t, &ada, "Ada boils the kettle twice before making green tea.")
	a2 := a.create(t, &ada, "Ada drinks coffee.", func(in *memory.CreateInput) { in.Key = ptr("morning tea") })
	b1 := a.create(t, &bob, "Bob's kettle is electric and makes tea quickly, very quickly, always tea.")
	b2 := a.create(t, &bob, "Bob never drinks green tea.")
	check("creates")
	for i := range 8 {
		a.create(t, &bob, "Bob note "+strconv.Itoa(i)+": "+strings.Repeat("kettle ", i+1)+"water")
	}
	check("bob's scope grows (Ada's and Cyd's statistics must not move)")

	a.edit(t, memory.EditInput{ID: s2.ID, Content: ptr("The kettle whistles loudly when the water for the tea boils over.")})
	check("edit that lengthens a shared item")
	a.edit(t, memory.EditInput{ID: s2.ID, Content: ptr("Kettle.")})
	check("edit that shortens a shared item")
	a.edit(t, memory.EditInput{ID: a1.ID, Content: ptr("Ada boils the pot twice before making black coffee.")})
	check("edit that keeps the length but changes the words")
	a.edit(t, memory.EditInput{ID: a2.ID, Key: ptr("kettle kettle kettle")})
	check("edit of the key only, to matching words")
	a.edit(t, memory.EditInput{ID: a2.ID, Key: ptr("")})
	check("key removed")
	a.edit(t, memory.EditInput{ID: b2.ID, Kind: ptr(memory.KindLesson)})
	check("kind changed")

	a.edit(t, memory.EditInput{ID: s3.ID, Pinned: ptr(true)})
	check("pin a shared item")
	a.edit(t, memory.EditInput{ID: b2.ID, Pinned: ptr(true)})
	check("pin a lesson of Bob")
	a.edit(t, memory.EditInput{ID: s3.ID, Pinned: ptr(false)})
	check("unpin the shared item")
	a.edit(t, memory.EditInput{ID: s1.ID, Pinned: ptr(true), Content: ptr("Green tea lives in the red tin now.")})
	check("pin and edit at once")

	refs := []memory.ItemRef{{ID: s1.ID, BaseRevision: a.current(t, s1.ID).Revision}, {ID: b1.ID, BaseRevision: a.current(t, b1.ID).Revision}, {ID: a2.ID, BaseRevision: a.current(t, a2.ID).Revision}}
	_, err := a.f.svc.PinMemories(user, refs, true)
	require.NoError(t, err)
	check("bulk pin across scopes")
	for i := range refs {
		refs[i].BaseRevision = a.current(t, refs[i].ID).Revision
	}
	_, err = a.f.svc.PinMemories(user, refs, false)
	require.NoError(t, err)
	check("bulk unpin across scopes")

	undone, err := a.f.svc.UndoEdit(user, s2.ID, a.current(t, s2.ID).Revision)
	require.NoError(t, err)
	require.Contains(t, undone.Content, "loudly")
	check("undo the shortening edit")
	_, err = a.f.svc.RestoreRevision(user, s2.ID, 1, a.current(t, s2.ID).Revision)
	require.NoError(t, err)
	check("restore revision 1")
	_, err = a.f.svc.UndoEdit(user, b2.ID, a.current(t, b2.ID).Revision)
	require.NoError(t, err)
	check("undo a pin")

	_, err = a.f.svc.ForgetMemory(user, a1.ID)
	require.NoError(t, err)
	check("forget Ada's item")
	dup := a.create(t, &ada, "Green tea is kept in the blue tin by the kettle.")
	dupShared := a.create(t, nil, "The kettle whistles.")
	check("copies created")
	_, _, err = a.f.svc.ForgetWithCopies(user, s2.ID, []string{dupShared.ID})
	require.NoError(t, err)
	check("forget with a copy")
	_, _, err = a.f.svc.ForgetMemories(user, []memory.ItemRef{{ID: dup.ID, BaseRevision: 1}, {ID: b1.ID, BaseRevision: a.current(t, b1.ID).Revision}}, nil)
	require.NoError(t, err)
	check("bulk forget")

	// Expiry: set in the future (still listed), let it pass (API: a short expiry, then wait),
	// extend (edit), clear.
	e1 := a.create(t, nil, "Tea tasting on Friday by the kettle.", func(in *memory.CreateInput) { in.ExpiresAt = ptr(time.Now().Add(2 * time.Second)) })
	e2 := a.create(t, &ada, "Ada's green tea order arrives soon.", func(in *memory.CreateInput) { in.ExpiresAt = ptr(time.Now().Add(2 * time.Second)) })
	e3 := a.create(t, &bob, "tea", func(in *memory.CreateInput) {
		in.ExpiresAt = ptr(time.Now().Add(2 * time.Second))
		in.Pinned = true
	})
	check("items expiring soon")
	time.Sleep(2500 * time.Millisecond)
	check("expired by time (they count in N, df, avgdl but are not listed)")
	_, err = a.f.svc.Background().SweepExpiry(context.Background())
	require.NoError(t, err)
	check("after the expiry sweep")
	// Extend: an expired item edited to a future expiry, if the API allows; else SQL.
	if _, err := a.f.svc.EditMemory(user, memory.EditInput{ID: e1.ID, BaseRevision: a.current(t, e1.ID).Revision, ExpiresAt: ptr(time.Now().Add(time.Hour))}); err != nil {
		t.Logf("extending an expired item through the API: %v (done in SQL instead)", err)
		a.sql(t, `UPDATE memory_items SET expires_at = now() + interval '1 hour' WHERE id = $1`, e1.ID)
	}
	check("expired item extended")
	if _, err := a.f.svc.EditMemory(user, memory.EditInput{ID: e2.ID, BaseRevision: a.current(t, e2.ID).Revision, ClearExpiresAt: true}); err != nil {
		t.Logf("clearing an expired item's expiry through the API: %v (done in SQL instead)", err)
		a.sql(t, `UPDATE memory_items SET expires_at = NULL WHERE id = $1`, e2.ID)
	}
	check("expired item's expiry cleared")
	a.sql(t, `UPDATE memory_items SET expires_at = now() - interval '1 minute' WHERE id IN ($1, $2)`, e1.ID, s3.ID)
	check("expiry moved into the past in SQL")
	_, err = a.f.svc.EditMemory(user, memory.EditInput{ID: e3.ID, BaseRevision: a.current(t, e3.ID).Revision, Pinned: ptr(false)})
	if err != nil {
		t.Logf("unpinning an expired item: %v (done in SQL instead)", err)
		a.sql(t, `UPDATE memory_items SET pinned = false WHERE id = $1`, e3.ID)
	}
	check("expired pinned item unpinned (now it counts)")
	a.sql(t, `UPDATE memory_items SET expires_at = now() - interval '1 minute' WHERE id = $1`, e2.ID)
	if _, err := a.f.svc.EditMemory(user, memory.EditInput{ID: e2.ID, BaseRevision: a.current(t, e2.ID).Revision, Content: ptr("Expired, but edited: kettle kettle green tea tea tea.")}); err != nil {
		t.Logf("editing an expired item: %v (done in SQL instead)", err)
		a.sql(t, `UPDATE memory_items SET content = 'Expired, but edited: kettle kettle green tea tea tea.' WHERE id = $1`, e2.ID)
	}
	check("an expired item's text edited (its new length and words count)")
	a.sql(t, `UPDATE memory_items SET status = 'candidate' WHERE id = $1`, s3.ID)
	check("an expired item made a suggestion in SQL")
	a.sql(t, `UPDATE memory_items SET status = 'active', expires_at = NULL WHERE id = $1`, s3.ID)
	check("and back, unexpired, in SQL")
	_, err = a.f.svc.Background().Purge(context.Background())
	require.NoError(t, err)
	check("after a purge (tables rewritten)")

	t.Logf("lifecycle: %d steps, %d packet comparisons", a.steps.Load(), a.comparisons.Load())
}

// TestBM25AttackHostile: items with no lexemes (emoji, stop words), a lexeme repeated past the 256
// positions PostgreSQL stores, a word too long for a lexeme, items of the maximum length, matching
// words in the key only, identical items (ties by id, more than a packet holds), a word every item
// holds, a word nobody has, and requests of repeated, hyphenated, e-mail, URL, operator and
// non-English words.
func TestBM25AttackHostile(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	tms := a.team(t)
	ada, bob, cyd := tms[0], tms[1], tms[2]
	requests := append(slices.Clone(bmRequests),
		"zebra", "zebra zebra zebra zebra zebra", "kettle kettle", "Kettles? KETTLE! kettling",
		"tea & !kettle | (green) <-> zebra:*", "'tea' \"kettle\" \\ ; -- DROP", "thé vert 緑茶 Ñandú", "🍵🍵",
		strings.Repeat("tea kettle zebra ", 300))
	check := func(step string) {
		t.Helper()
		a.step(t, step, tms, requests)
	}
	zebra := func(s string) string { return s + " zebra" }

	a.create(t, nil, zebra("🍵🍵🍵 🧠🧠 ✨"))
	a.create(t, nil, "🍵🍵🍵 🧠🧠 ✨ 🫖")
	a.create(t, nil, "The and of to is it was, were: be; an a.")
	a.create(t, &ada, "the of and")
	check("items without lexemes (dl 0) count in N and avgdl")
	a.create(t, nil, zebra(strings.TrimSpace(strings.Repeat("kettle ", 300))))
	a.create(t, &ada, zebra(strings.TrimSpace(strings.Repeat("tea ", 257))+" green"))
	a.create(t, &bob, zebra(strings.TrimSpace(strings.Repeat("tea kettle ", 280))))
	check("a lexeme past 256 positions")
	a.create(t, nil, zebra(strings.Repeat("k", 2100)+" kettle"))
	check("a word too long to be a lexeme")
	var long strings.Builder
	for i := 0; long.Len() < memory.MaxContentLength-20; i++ {
		fmt.Fprintf(&long, "w%d ", i)
	}
	a.create(t, nil, zebra(strings.TrimSpace(long.String())+" tea"))
	words := []string{"tea", "kettle", "green", "pot", "cup", "leaf", "brew", "steep"}
	var mixed strings.Builder
	for i := 0; mixed.Len() < memory.MaxContentLength-20; i++ {
		mixed.WriteString(words[i%len(words)] + " ")
	}
	a.create(t, &bob, zebra(strings.TrimSpace(mixed.String())))
	check("items of the maximum length")
	a.create(t, nil, zebra("nothing relevant here"), func(in *memory.CreateInput) { in.Key = ptr("green tea kettle") })
	a.create(t, &ada, zebra("Ada's thing"), func(in *memory.CreateInput) { in.Key = ptr("tea") })
	check("matching words in the key only")
	for range 15 {
		a.create(t, nil, zebra("kettle tea"))
	}
	for range 3 {
		a.create(t, &ada, zebra("kettle tea"))
	}
	check("identical items: ties by id, more than a packet holds")
	a.create(t, nil, zebra("green-tea ceremony, tea@kettle.example.com, see http://tea.example.com/kettle?x=1"))
	a.create(t, &bob, zebra("v1.2.3 42 3.14 -7 thé vert 緑茶 Ñandú"))
	check("hyphenated words, e-mail, URL, numbers, non-English")
	for i := range 35 {
		a.create(t, &cyd, zebra("Cyd's note "+strconv.Itoa(i)+" "+strings.Repeat("tea ", i%5+1)+strings.Repeat("filler ", i%7)))
	}
	check("more matches than the full-text list keeps (30)")
	t.Logf("hostile: %d steps, %d packet comparisons", a.steps.Load(), a.comparisons.Load())
}

// TestBM25AttackCandidates: suggestions (new items and proposals to change or forget) made by runs,
// confirmed, dismissed, undone, one by one and in bulk; items confirmed by the user's explicit ask;
// lessons kept; the MEMORY.md import (pinned notes).
func TestBM25AttackCandidates(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	tms := a.team(t)
	ada, bob, cyd := tms[0], tms[1], tms[2]
	check := func(step string) {
		t.Helper()
		a.step(t, step, tms, bmRequests)
	}
	a.create(t, nil, "The kettle is blue.")
	a.create(t, nil, "Green tea steeps for two minutes.")
	target := a.create(t, &ada, "Ada's kettle is old.")
	doomed := a.create(t, &ada, "Ada's tea pot is cracked, tea leaks.")
	check("start")

	rc := a.run(t, ada, "Hi.")
	var suggestions []string
	for i, c := range []struct {
		content string
		shared  bool
	}{{"Ada likes green tea with honey.", false}, {"The office kettle descales monthly.", true}, {"Tea tea tea kettle.", false}, {"Kettle water must be fresh for tea.", true}, {"Ada's tea cups are green.", false}} {
		res, err := a.f.svc.Tools().Remember(rc, memory.RememberInput{Content: c.content, ForEveryone: c.shared})
		require.NoError(t, err)
		require.Equal(t, memory.OutcomeSuggested, res.Outcome, "suggestion %d", i)
		suggestions = append(suggestions, res.Item.ID)
	}
	check("suggestions waiting (not visible, not counted)")
	res, err := a.f.svc.Tools().UpdateMemory(rc, memory.ToolUpdateInput{ID: target.ID, BaseRevision: 1, Content: "Ada's kettle is brand new and makes green tea fast."})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	proposal := res.Item.ID
	res, err = a.f.svc.Tools().ForgetMemory(rc, memory.ToolForgetInput{ID: doomed.ID})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	forgetProposal := res.Item.ID
	check("proposals waiting")

	confirmed, err := a.f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: suggestions[0]})
	require.NoError(t, err)
	check("a suggestion confirmed")
	_, err = a.f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: suggestions[1], Content: ptr("The office kettle descales monthly; green tea tastes better after."), Key: ptr("kettle")})
	require.NoError(t, err)
	check("a shared suggestion confirmed with edits")
	_, err = a.f.svc.DismissCandidate(user, suggestions[2])
	require.NoError(t, err)
	check("a suggestion dismissed")
	_, err = a.f.svc.UndoDismissCandidate(user, suggestions[2])
	require.NoError(t, err)
	check("a dismissal undone")
	_, err = a.f.svc.UndoConfirmCandidate(user, memory.Confirmation{ID: confirmed.ID, Revision: confirmed.Revision})
	require.NoError(t, err)
	check("a confirmation undone")
	_, err = a.f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: proposal})
	require.NoError(t, err)
	check("a proposal to change confirmed")
	_, err = a.f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: forgetProposal})
	require.NoError(t, err)
	check("a proposal to forget confirmed")
	_, err = a.f.svc.ConfirmCandidates(user, memory.Scope{TeammateID: &ada}, nil)
	require.NoError(t, err)
	check("every suggestion of Ada confirmed in bulk")
	_, err = a.f.svc.DismissCandidates(user, memory.Scope{}, nil)
	require.NoError(t, err)
	check("every shared suggestion dismissed in bulk")

	// Confirmed at once by the user's explicit ask; a preference is pinned by default.
	rc2 := a.run(t, bob, "Please remember that my kettle is green and I drink tea at noon.")
	res, err = a.f.svc.Tools().Remember(rc2, memory.RememberInput{Content: "My kettle is green and I drink tea at noon."})
	require.NoError(t, err)
	t.Logf("explicit remember: %s (%s)", res.Outcome, res.Reason)
	check("remembered at the user's ask")
	rc3 := a.run(t, bob, "Please remember that I prefer green tea over black tea.")
	res, err = a.f.svc.Tools().Remember(rc3, memory.RememberInput{Content: "I prefer green tea over black tea.", Kind: memory.KindPreference})
	require.NoError(t, err)
	t.Logf("explicit preference: %s (%s)", res.Outcome, res.Reason)
	check("a preference remembered at the user's ask")

	run, err := a.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: cyd, Message: "kettle?", StartedByUser: true})
	require.NoError(t, err)
	_, err = a.f.svc.KeepLesson(user, run.Run.ID, "Always say which kettle, and which tea.")
	require.NoError(t, err)
	check("a lesson kept (pinned)")
	content := "# Tea\nGreen tea in the blue tin.\n\n# Kettle\nThe kettle is by the window, tea kettle."
	out, err := a.f.svc.Worker().ImportMemoryFile(worker, bob, &content)
	require.NoError(t, err)
	t.Logf("MEMORY.md import: %s, %d items", out.Outcome, len(out.Items))
	check("MEMORY.md imported as pinned notes")
	var ids []memory.ItemRef
	for _, it := range out.Items {
		ids = append(ids, memory.ItemRef{ID: it.ID, BaseRevision: it.Revision})
	}
	if len(ids) > 0 {
		_, err = a.f.svc.PinMemories(user, ids, false)
		require.NoError(t, err)
		check("imported notes unpinned")
	}
	t.Logf("candidates: %d steps, %d packet comparisons", a.steps.Load(), a.comparisons.Load())
}

// TestBM25AttackTransfer: export and import (JSON) into another scope, a duplicate import, an
// invalid import, moving an item between scopes (no API: SQL), and deleting a teammate.
func TestBM25AttackTransfer(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	tms := a.team(t)
	ada, bob, cyd := tms[0], tms[1], tms[2]
	check := func(step string, tms []string) {
		t.Helper()
		a.step(t, step, tms, bmRequests)
	}
	a.create(t, nil, "The kettle is blue.")
	a.create(t, nil, "Green tea steeps for two minutes, then tea is poured.")
	a.create(t, &ada, "Ada's kettle is old and the tea is weak.")
	a.create(t, &ada, "Ada's green tea is pinned.", func(in *memory.CreateInput) { in.Pinned = true })
	a.create(t, &ada, "Ada's lesson about tea.", func(in *memory.CreateInput) { in.Kind = memory.KindLesson })
	mover := a.create(t, &ada, "Kettle kettle kettle tea.")
	a.create(t, &bob, "Bob's kettle.")
	check("start", tms)

	exp, err := a.f.svc.ExportMemory(user, memory.ExportOptions{Scope: memory.Scope{TeammateID: &ada}, Format: memory.ExportJSON, Revisions: true})
	require.NoError(t, err)
	_, err = a.f.svc.ImportMemory(user, memory.ImportInput{Scope: memory.Scope{TeammateID: &bob}, Format: memory.ExportJSON, Data: string(exp.Data)})
	require.NoError(t, err)
	check("Ada's export imported into Bob's scope", tms)
	_, err = a.f.svc.ImportMemory(user, memory.ImportInput{Scope: memory.Scope{}, Format: memory.ExportJSON, Data: string(exp.Data)})
	require.NoError(t, err)
	check("and into shared", tms)
	_, err = a.f.svc.ImportMemory(user, memory.ImportInput{Scope: memory.Scope{}, Format: memory.ExportJSON, Data: string(exp.Data)})
	require.NoError(t, err)
	check("imported again (unchanged)", tms)
	bad := strings.Replace(string(exp.Data), `"content"`, `"content_"`, 1)
	_, err = a.f.svc.ImportMemory(user, memory.ImportInput{Scope: memory.Scope{TeammateID: &cyd}, Format: memory.ExportJSON, Data: bad})
	require.Error(t, err)
	check("an invalid import (nothing written)", tms)

	a.sql(t, `UPDATE memory_items SET teammate_id = $2 WHERE id = $1`, mover.ID, bob)
	check("an item moved from Ada's scope to Bob's (SQL)", tms)
	a.sql(t, `UPDATE memory_items SET teammate_id = NULL WHERE id = $1`, mover.ID)
	check("moved on to shared (SQL)", tms)
	a.sql(t, `UPDATE memory_items SET teammate_id = $2 WHERE id = $1`, mover.ID, cyd)
	check("moved on to Cyd's scope (SQL)", tms)

	_, err = a.f.svc.DeleteTeammate(user, ada)
	require.NoError(t, err)
	check("Ada deleted", []string{bob, cyd})
	_, err = a.f.svc.DeleteTeammate(user, cyd)
	require.NoError(t, err)
	check("Cyd deleted (with the moved item)", []string{bob})
	t.Logf("transfer: %d steps, %d packet comparisons", a.steps.Load(), a.comparisons.Load())
}

// TestBM25AttackRollback: writes that fail as a whole (bulk with a stale revision, forget with an
// unknown copy) and SQL writes in a transaction rolled back change nothing the rule sees.
func TestBM25AttackRollback(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	ada := a.f.teammate(t, "Ada")
	bob := a.f.teammate(t, "Bob")
	tms := []string{ada, bob}
	check := func(step string) {
		t.Helper()
		a.step(t, step, tms, bmRequests)
	}
	s1 := a.create(t, nil, "The kettle is blue and the tea is green.")
	s2 := a.create(t, nil, "Tea.")
	a1 := a.create(t, &ada, "Ada's kettle kettle.")
	a.create(t, &bob, "Bob's tea tea tea.")
	check("start")
	before := a.items(t)

	_, err := a.f.svc.PinMemories(user, []memory.ItemRef{{ID: s1.ID, BaseRevision: 1}, {ID: a1.ID, BaseRevision: 7}}, true)
	require.Error(t, err)
	check("bulk pin refused (stale revision)")
	_, _, err = a.f.svc.ForgetMemories(user, []memory.ItemRef{{ID: s2.ID, BaseRevision: 1}}, []string{"5b0f3a4e-8f1c-4c1e-9d7a-000000000000"})
	require.Error(t, err)
	check("bulk forget refused (unknown copy)")

	ctx := context.Background()
	tx, err := a.f.pool.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `UPDATE memory_items SET content = 'tea tea tea tea kettle', pinned = NOT pinned WHERE id = $1`, s1.ID)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `UPDATE memory_items SET status = 'forgotten', content = '', key = NULL, content_hash = NULL, forgotten_at = now() WHERE id = $1`, s2.ID)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `UPDATE memory_items SET teammate_id = $2, expires_at = now() - interval '1 hour' WHERE id = $1`, a1.ID, bob)
	require.NoError(t, err)
	require.NoError(t, tx.Rollback(ctx))
	check("SQL writes rolled back")
	require.Equal(t, len(before), len(a.items(t)))

	// A transaction that fails half-way.
	err = pgx.BeginFunc(ctx, a.f.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE memory_items SET content = 'kettle' WHERE id = $1`, s2.ID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE memory_items SET teammate_id = 'not-a-uuid' WHERE id = $1`, s1.ID)
		return err
	})
	require.Error(t, err)
	check("a failed transaction")
	t.Logf("rollback: %d steps, %d packet comparisons", a.steps.Load(), a.comparisons.Load())
}

// TestBM25AttackConcurrent: many writers at once — creates, edits, pins, forgets — on one
// teammate's scope and on the shared scope, then the comparison.
func TestBM25AttackConcurrent(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	tms := a.team(t)
	ada, bob := tms[0], tms[1]
	vocab := []string{"tea", "kettle", "green", "zebra", "pot", "cup", "water", "leaf"}
	const writers, ops = 16, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*ops)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scope *string
			switch w % 3 {
			case 0:
				scope = &ada
			case 1:
				scope = &bob
			}
			var mine []string
			for i := range ops {
				r := (w*31 + i*17) % 97
				var text strings.Builder
				for j := range r%9 + 1 {
					text.WriteString(vocab[(r+j*j)%len(vocab)] + " ")
				}
				text.WriteString("w" + strconv.Itoa(w) + "i" + strconv.Itoa(i))
				switch {
				case len(mine) == 0 || r%4 == 0:
					it, err := a.f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: scope}, Content: text.String()})
					if err != nil {
						errs <- err
						continue
					}
					mine = append(mine, it.ID)
				case r%4 == 1:
					id := mine[r%len(mine)]
					cur, err := a.f.svc.Item(user, id)
					if err == nil && cur.Status == memory.StatusActive {
						_, err = a.f.svc.EditMemory(user, memory.EditInput{ID: id, BaseRevision: cur.Revision, Content: ptr(text.String() + " edited")})
					}
					if err != nil {
						errs <- err
					}
				case r%4 == 2:
					id := mine[r%len(mine)]
					cur, err := a.f.svc.Item(user, id)
					if err == nil && cur.Status == memory.StatusActive {
						_, err = a.f.svc.EditMemory(user, memory.EditInput{ID: id, BaseRevision: cur.Revision, Pinned: ptr(!cur.Pinned)})
					}
					if err != nil {
						errs <- err
					}
				default:
					id := mine[r%len(mine)]
					mine = append(mine[:r%len(mine)], mine[r%len(mine)+1:]...)
					if _, err := a.f.svc.ForgetMemory(user, id); err != nil {
						errs <- err
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a concurrent write failed: %v", err)
	}
	a.checkStored(t, "after concurrent writers")
	a.check(t, "after concurrent writers", tms, append(slices.Clone(bmRequests), "zebra", "w3i4 water", "pot cup leaf"))
	t.Logf("concurrent: %d writers x %d ops; %d packet comparisons", writers, ops, a.comparisons.Load())
}

// TestBM25AttackRequestWords: the request's lexemes are to_tsvector('english', request)'s (rule 1):
// a hyphenated compound, an e-mail address, a URL, a version and signed or decimal numbers, a file
// path are single lexemes (besides their parts, for the compound), and an item that holds them
// matches them.
func TestBM25AttackRequestWords(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	tm := a.f.teammate(t, "Ada")
	a.create(t, nil, "A green-tea ceremony.")
	a.create(t, nil, "Green tea, kettle.")
	a.create(t, nil, "Write to tea@kettle.example.com about it.")
	a.create(t, nil, "See http://tea.example.com/kettle for the tea kettle.")
	a.create(t, nil, "Release v1.2.3 fixed 3.14 and -7.")
	a.create(t, nil, "Release 2 of 3, note 7 and 14.")
	a.create(t, nil, "The log is in /var/log/tea.log today.")
	for _, r := range []string{"green-tea", "tea@kettle.example.com", "http://tea.example.com/kettle", "v1.2.3", "3.14", "-7", "/var/log/tea.log"} {
		a.compare(t, "request words", tm, r)
	}
}

// TestBM25AttackLongRequest: the first 256 distinct words of the request count (RULES P2), stop words
// among them: a request of 255 or 256 distinct words that match nothing and then one that matches,
// one of the maximum length whose matching words come last, and one that repeats its matching word
// thousands of times. (Written first as "every distinct word counts", which the bound refuses on
// purpose: a pasted document doesn't make every item a match.)
func TestBM25AttackLongRequest(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	tm := a.f.teammate(t, "Ada")
	a.create(t, nil, "The kettle is blue.")
	a.create(t, nil, "Green tea steeps for two minutes.")
	a.create(t, &tm, "Ada's kettle boils tea.")
	a.create(t, &tm, "Unrelated words only.")
	words := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "q%d ", i)
		}
		return b.String()
	}
	a.compare(t, "255 distinct words, then one that matches", tm, words(255)+"kettle")
	a.compare(t, "256 distinct words, then one that matches", tm, words(256)+"kettle")
	a.compare(t, "stop words and 200 distinct words, then one that matches", tm,
		"the and of to a in is it that was for on are with as at be this have from or by "+words(200)+"minutes")
	var b strings.Builder
	for i := 0; b.Len() < memory.MaxMessageLength-40; i++ {
		fmt.Fprintf(&b, "q%d ", i)
	}
	b.WriteString("kettle green tea")
	a.compare(t, "a request of the maximum length, matches last", tm, b.String())
	a.compare(t, "one word thousands of times", tm, strings.Repeat("tea ", memory.MaxMessageLength/4-8)+"kettle")
	a.compare(t, "one word thousands of times, then 300 distinct words", tm, strings.Repeat("tea ", 5000)+words(300))
}

// TestBM25AttackConcurrentSQL: writers that bypass the service's locks — plain SQL transactions on
// memory_items, many at once on the shared scope and one teammate's — inserting, editing, pinning,
// moving, expiring and forgetting; then the comparison.
func TestBM25AttackConcurrentSQL(t *testing.T) {
	t.Parallel()
	a := newBMAttack(t)
	ada := a.f.teammate(t, "Ada")
	bob := a.f.teammate(t, "Bob")
	var ids []string
	for i := range 40 {
		var scope *string
		if i%2 == 0 {
			scope = &ada
		}
		ids = append(ids, a.create(t, scope, "seed "+strings.Repeat("tea ", i%4+1)+strings.Repeat("kettle ", i%3)).ID)
	}
	ctx := context.Background()
	vocab := []string{"tea", "kettle", "green", "zebra", "pot", "cup"}
	const writers, ops = 12, 30
	var wg sync.WaitGroup
	errs := make(chan error, writers*ops)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ops {
				r := (w*37 + i*11) % 101
				id := ids[r%len(ids)]
				text := strings.Repeat(vocab[r%len(vocab)]+" ", r%5+1) + vocab[(r+1)%len(vocab)]
				var err error
				switch r % 6 {
				case 0:
					_, err = a.f.pool.Exec(ctx, `UPDATE memory_items SET content = $2, revision = revision + 1 WHERE id = $1 AND status = 'active'`, id, text)
				case 1:
					_, err = a.f.pool.Exec(ctx, `UPDATE memory_items SET pinned = NOT pinned WHERE id = $1`, id)
				case 2:
					_, err = a.f.pool.Exec(ctx, `UPDATE memory_items SET teammate_id = CASE WHEN teammate_id IS NULL THEN $2::uuid END WHERE id = $1`, id, ada)
				case 3:
					_, err = a.f.pool.Exec(ctx, `UPDATE memory_items SET expires_at = CASE WHEN expires_at IS NULL THEN now() - interval '1 minute' END WHERE id = $1`, id)
				case 4:
					_, err = a.f.pool.Exec(ctx, `UPDATE memory_items SET key = CASE WHEN key IS NULL THEN $2 END WHERE id = $1`, id, text)
				default:
					var scope *string
					if r%2 == 0 {
						scope = &ada
					}
					_, err = a.f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: scope}, Content: text + " " + strconv.Itoa(w*1000+i)})
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Logf("a concurrent write failed (allowed: a constraint may refuse it): %v", err)
	}
	a.checkStored(t, "after concurrent SQL writers")
	a.check(t, "after concurrent SQL writers", []string{ada, bob}, append(slices.Clone(bmRequests), "zebra", "pot cup"))
	t.Logf("concurrent SQL: %d writers x %d ops; %d packet comparisons", writers, ops, a.comparisons.Load())
}

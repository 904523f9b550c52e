package memory_test

// Black-box attacks on the recall packet (RULES P1–P6, P9, L2, S1, F1, A2, W2; docs/WORKER.md "The
// packet"; docs/EVAL.md for BM25). Every test builds, from the items it created and from the rules
// alone, the FULL-TEXT-ONLY packet it expects (the fixture's service has no embeddings) and compares
// it with what RecallPreview (and, where said, a run) was given: the entries in order and the text.
//
// The reference (paReference):
//   - visible: active, confirmed items of the shared scope and the teammate's own, not expired (P1);
//   - request lexemes: the request's runs of non-space characters, its first 256 distinct ones, each
//     turned into lexemes by PostgreSQL's to_tsvector('english', …) (P2);
//   - pinned items always match and lead the list: pinned lessons first, then the other pinned items,
//     each group by ts_rank_cd (for an OR of plain lexemes: the sum of the query lexemes' term
//     frequencies, migration 000010), ties by id;
//   - then the unpinned items holding a request lexeme, by BM25 (k1 1.2, b 0.75; N, df and avgdl over
//     the active, unpinned items of the two visible scopes — expired ones included, as "active"
//     says; an item's length is its number of positions), ties by id; the top 30;
//   - fusion with one list keeps that order (1/(60+rank) is decreasing); the top 12;
//   - the text: entries "[memory:<id>@<rev>; <scope>; <kind>]\n<key>: <content>" joined by a blank
//     line, whole while they fit in 6,000 runes; the first that doesn't keeps its header and its body
//     cut to the room left, trailing spaces removed, ending with "…"; left out when not one character
//     of its body fits; nothing after it. Plain bodies are laid out by the reference itself; a body
//     that needs encoding (line breaks, brackets) uses package packet's documented Body.
//
// Result when written: every comparison agreed with the product; no defect was found.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/packet"
)

const (
	paMaxEntries = 12
	paMaxChars   = 6000
	paListLen    = 30
	paK1         = 1.2
	paB          = 0.75
)

// paEnv is one test's world: the fixture, the teammate whose packets are checked, and every item the
// test created (the reference re-reads their current state).
type paEnv struct {
	t   *testing.T
	f   fixture
	tm  string
	ids []string
}

func paSetup(t *testing.T) *paEnv {
	f := setup(t)
	return &paEnv{t: t, f: f, tm: f.teammate(t, "Attacked")}
}

type paOpt struct {
	kind    memory.Kind
	pinned  bool
	key     *string
	expires *time.Time
	scope   *string // nil: the attacked teammate's; use paShared for the shared scope
}

var paShared = ptr("<shared>")

func (e *paEnv) add(content string, o paOpt) memory.Item {
	e.t.Helper()
	kind := o.kind
	if kind == "" {
		kind = memory.KindFact
	}
	sc := memory.Scope{TeammateID: &e.tm}
	if o.scope == paShared {
		sc = memory.Scope{}
	} else if o.scope != nil {
		sc = memory.Scope{TeammateID: o.scope}
	}
	it, err := e.f.svc.CreateMemory(user, memory.CreateInput{Scope: sc, Kind: kind, Key: o.key, Content: content, Pinned: o.pinned, ExpiresAt: o.expires})
	require.NoError(e.t, err)
	require.Equal(e.t, o.pinned, it.Pinned, "the item is pinned as asked")
	e.ids = append(e.ids, it.ID)
	return it
}

// paRef is one item as the reference sees it.
type paRef struct {
	it  memory.Item
	lex map[string]int
	dl  int
}

func (e *paEnv) lexemes(text string) map[string]int {
	e.t.Helper()
	rows, err := e.f.pool.Query(context.Background(),
		`SELECT lexeme, cardinality(positions) FROM unnest(to_tsvector('english', $1::text))`, text)
	require.NoError(e.t, err)
	defer rows.Close()
	m := map[string]int{}
	for rows.Next() {
		var l string
		var n int
		require.NoError(e.t, rows.Scan(&l, &n))
		m[l] = n
	}
	require.NoError(e.t, rows.Err())
	return m
}

// queryLexemes: the request's first 256 distinct whitespace-separated words, each as PostgreSQL
// turns it into lexemes (P2).
func (e *paEnv) queryLexemes(request string) map[string]bool {
	e.t.Helper()
	seen := map[string]bool{}
	var words []string
	for _, w := range strings.Fields(request) {
		if seen[w] {
			continue
		}
		seen[w] = true
		words = append(words, w)
		if len(words) == 256 {
			break
		}
	}
	q := map[string]bool{}
	if len(words) == 0 {
		return q
	}
	rows, err := e.f.pool.Query(context.Background(),
		`SELECT DISTINCT t.lexeme FROM unnest($1::text[]) w, unnest(to_tsvector('english', w)) t`, words)
	require.NoError(e.t, err)
	defer rows.Close()
	for rows.Next() {
		var l string
		require.NoError(e.t, rows.Scan(&l))
		q[l] = true
	}
	require.NoError(e.t, rows.Err())
	return q
}

type paPacket struct {
	// bm25[i]: the expected BM25 score of entry i (NaN for a pinned item); rank[i]: its ts_rank_cd
	// as the sum of term frequencies.
	bm25  []float64
	rank  []int
	ids   []string
	items []memory.Item
	text  string
	// truncatedLast: the last entry was cut.
	truncatedLast bool
	// why, for messages: each listed item's reason.
	why []string
}

// reference computes the expected full-text-only packet of e.tm for request, from the current
// state of every item the test created.
func (e *paEnv) reference(request string) paPacket {
	e.t.Helper()
	now := time.Now()
	var ranked []paRef // active, unpinned, visible scopes (expired included): BM25's universe
	var pinnedLessons, pinnedOther []paRef
	q := e.queryLexemes(request)
	for _, id := range e.ids {
		it, err := e.f.svc.Item(user, id)
		if errors.Is(err, memory.ErrNotFound) {
			continue // a deleted teammate's item
		}
		require.NoError(e.t, err)
		if it.Status != memory.StatusActive || (it.Scope != memory.ScopeShared && it.Scope != e.tm) {
			continue
		}
		text := it.Content + " "
		if it.Key != nil {
			text += *it.Key
		}
		lex := e.lexemes(text)
		dl := 0
		for _, n := range lex {
			dl += n
		}
		r := paRef{it: it, lex: lex, dl: dl}
		expired := it.ExpiresAt != nil && !it.ExpiresAt.After(now)
		switch {
		case it.Pinned && expired:
		case it.Pinned && it.Kind == memory.KindLesson:
			pinnedLessons = append(pinnedLessons, r)
		case it.Pinned:
			pinnedOther = append(pinnedOther, r)
		default:
			ranked = append(ranked, r)
		}
	}
	tsrank := func(r paRef) int {
		s := 0
		for l := range q {
			s += r.lex[l]
		}
		return s
	}
	byRank := func(rs []paRef) {
		sort.SliceStable(rs, func(i, j int) bool {
			a, b := tsrank(rs[i]), tsrank(rs[j])
			if a != b {
				return a > b
			}
			return rs[i].it.ID < rs[j].it.ID
		})
	}
	byRank(pinnedLessons)
	byRank(pinnedOther)

	n := float64(len(ranked))
	total := 0
	df := map[string]int{}
	for _, r := range ranked {
		total += r.dl
		for l := range q {
			if r.lex[l] > 0 {
				df[l]++
			}
		}
	}
	avgdl := 0.0
	if n > 0 {
		avgdl = float64(total) / n
	}
	type scored struct {
		r paRef
		s float64
	}
	var matches []scored
	for _, r := range ranked {
		if r.it.ExpiresAt != nil && !r.it.ExpiresAt.After(now) {
			continue
		}
		s, hit := 0.0, false
		for l := range q {
			tf := float64(r.lex[l])
			if tf == 0 {
				continue
			}
			hit = true
			idf := math.Log(1 + (n-float64(df[l])+0.5)/(float64(df[l])+0.5))
			s += idf * tf * (paK1 + 1) / (tf + paK1*(1-paB+paB*float64(r.dl)/avgdl))
		}
		if hit {
			matches = append(matches, scored{r, s})
		}
	}
	sort.SliceStable(matches, func(i, j int) bool {
		if d := matches[i].s - matches[j].s; math.Abs(d) > 1e-9 {
			return d > 0
		}
		return matches[i].r.it.ID < matches[j].r.it.ID
	})

	var list []memory.Item
	var why []string
	var bm25s []float64
	var ranks []int
	for _, r := range pinnedLessons {
		list = append(list, r.it)
		why = append(why, fmt.Sprintf("pinned lesson rank %d", tsrank(r)))
		bm25s, ranks = append(bm25s, math.NaN()), append(ranks, tsrank(r))
	}
	for _, r := range pinnedOther {
		list = append(list, r.it)
		why = append(why, fmt.Sprintf("pinned %s rank %d", r.it.Kind, tsrank(r)))
		bm25s, ranks = append(bm25s, math.NaN()), append(ranks, tsrank(r))
	}
	for _, m := range matches {
		list = append(list, m.r.it)
		why = append(why, fmt.Sprintf("bm25 %.6f", m.s))
		bm25s, ranks = append(bm25s, m.s), append(ranks, tsrank(m.r))
	}
	if len(list) > paListLen {
		list, why = list[:paListLen], why[:paListLen]
	}
	if len(list) > paMaxEntries {
		list, why = list[:paMaxEntries], why[:paMaxEntries]
	}
	p := paRender(list)
	p.why = why[:len(p.ids)]
	p.bm25 = bm25s[:len(p.ids)]
	p.rank = ranks[:len(p.ids)]
	return p
}

func paHeader(it memory.Item) string {
	return fmt.Sprintf("[memory:%s@%d; %s; %s]", it.ID, it.Revision, it.Scope, it.Kind)
}

var paPlain = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N} .,:'!?-]*$`)

func paBody(it memory.Item) string {
	if !paPlain.MatchString(it.Content) || (it.Key != nil && *it.Key != "" && !paPlain.MatchString(*it.Key)) {
		// Not a plain body: the encoding is package packet's documented Body (its own fuzz tests
		// attack it); what this file checks is which entries get in and where the cut falls.
		return packet.Body(it.PacketItem())
	}
	if it.Key != nil && *it.Key != "" {
		return *it.Key + ": " + it.Content
	}
	return it.Content
}

// paRender lays the entries out as P5 and the packet doc say, for plain bodies (letters, digits,
// spaces and sentence punctuation: nothing Body would encode).
func paRender(items []memory.Item) paPacket {
	var p paPacket
	used := 0
	var sb strings.Builder
	for i, it := range items {
		sep := ""
		if i > 0 {
			sep = "\n\n"
		}
		h, body := paHeader(it), paBody(it)
		entry := sep + h + "\n" + body
		if used+utf8.RuneCountInString(entry) <= paMaxChars {
			sb.WriteString(entry)
			used += utf8.RuneCountInString(entry)
			p.ids = append(p.ids, it.ID)
			p.items = append(p.items, it)
			continue
		}
		room := paMaxChars - used - utf8.RuneCountInString(sep+h+"\n") - utf8.RuneCountInString("…")
		if room >= 1 {
			cut := strings.TrimRight(string([]rune(body)[:room]), " ")
			if cut != "" {
				sb.WriteString(sep + h + "\n" + cut + "…")
				p.ids = append(p.ids, it.ID)
				p.items = append(p.items, it)
				p.truncatedLast = true
			}
		}
		break
	}
	p.text = sb.String()
	return p
}

func paIDs(p memory.Packet) []string {
	var ids []string
	for _, e := range p.Entries {
		ids = append(ids, e.Item.ID)
	}
	return ids
}

// describe names each id by the short label the test gave it, for readable failures.
func (e *paEnv) describe(ids []string, why []string) string {
	var b strings.Builder
	for i, id := range ids {
		it, err := e.f.svc.Item(user, id)
		label := id
		if err == nil {
			c := it.Content
			if len(c) > 40 {
				c = c[:40] + "…"
			}
			label = fmt.Sprintf("%s %s pinned=%v %q", id[:8], it.Kind, it.Pinned, c)
		}
		if why != nil && i < len(why) {
			label += " (" + why[i] + ")"
		}
		fmt.Fprintf(&b, "\n  %2d. %s", i+1, label)
	}
	return b.String()
}

// check compares the preview's packet for request with the reference and returns the preview.
func (e *paEnv) check(request string, msg string) memory.Packet {
	e.t.Helper()
	want := e.reference(request)
	got, err := e.f.svc.RecallPreview(user, e.tm, request)
	require.NoError(e.t, err, msg)
	gotIDs := paIDs(got)
	if !assert.Equal(e.t, want.ids, gotIDs, "%s: entries (request %q)\nwant:%s\ngot:%s", msg, paShort(request),
		e.describe(want.ids, want.why), e.describe(gotIDs, nil)) {
		return got
	}
	assert.Equal(e.t, want.text, got.Text, "%s: text (request %q)", msg, paShort(request))
	for i, en := range got.Entries {
		assert.Equal(e.t, want.truncatedLast && i == len(got.Entries)-1, en.Truncated, "%s: entry %d truncated flag", msg, i+1)
		assert.Equal(e.t, want.items[i].Revision, en.Item.Revision, "%s: entry %d revision", msg, i+1)
		if math.IsNaN(want.bm25[i]) {
			assert.Nil(e.t, en.BM25Score, "%s: entry %d is pinned: no BM25 score", msg, i+1)
		} else if assert.NotNil(e.t, en.BM25Score, "%s: entry %d BM25 score", msg, i+1) {
			assert.InDelta(e.t, want.bm25[i], *en.BM25Score, 1e-6*math.Max(1, want.bm25[i]), "%s: entry %d BM25 score", msg, i+1)
		}
		if assert.NotNil(e.t, en.FullTextPos, "%s: entry %d full-text position", msg, i+1) {
			assert.Equal(e.t, i+1, *en.FullTextPos, "%s: entry %d full-text position", msg, i+1)
		}
		if assert.NotNil(e.t, en.FullTextRank, "%s: entry %d ts_rank_cd", msg, i+1) {
			assert.InDelta(e.t, 0.1*float64(want.rank[i]), *en.FullTextRank, 1e-5, "%s: entry %d ts_rank_cd", msg, i+1)
		}
		assert.InDelta(e.t, 1.0/float64(60+i+1), en.Score, 1e-12, "%s: entry %d fused score", msg, i+1)
	}
	assert.LessOrEqual(e.t, utf8.RuneCountInString(got.Text), paMaxChars, msg)
	return got
}

func paShort(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// paFiller is a made-up word unique to i, so that texts differ without sharing lexemes.
func paFiller(i int) string {
	syll := []string{"ka", "zu", "mo", "ri", "te", "pa", "lo", "vi", "ne", "su", "gor", "bex"}
	return syll[i%12] + syll[(i/12)%12] + syll[(i/144)%12] + "q"
}

// ---------------------------------------------------------------------------------------------------

// Rare words must outweigh common ones; short items about the request's words beat long ones that
// mention them in passing; shared and own scope are searched together; another teammate's items
// are never given and don't weigh in BM25's statistics (S1); repeated request words count once.
func TestPacketAttackBM25RareCommonScopes(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	other := e.f.teammate(t, "Other")
	// "maya" is everywhere, "trouvakix" in two items only.
	for i := 0; i < 14; i++ {
		sc := (*string)(nil)
		if i%3 == 0 {
			sc = paShared
		}
		e.add(fmt.Sprintf("Maya said %s was busy at work again with %s.", paFiller(i), paFiller(100+i)), paOpt{scope: sc})
	}
	e.add("Maya keeps a trouvakix in the spare room.", paOpt{})
	e.add("Maya and Sam talked for hours about many things, trains, weather, coffee, books, and once a trouvakix, then dinner and music late.", paOpt{scope: paShared})
	e.add("Maya Maya Maya Maya sings.", paOpt{})
	// Another teammate: many trouvakix items. If its scope leaked into df, trouvakix's idf would
	// collapse; if its items leaked, they would appear.
	for i := 0; i < 25; i++ {
		e.add(fmt.Sprintf("Trouvakix trouvakix %s.", paFiller(300+i)), paOpt{scope: &other})
	}
	e.check("What did Maya say about the trouvakix?", "rare word")
	e.check("trouvakix trouvakix trouvakix Maya", "repeated words")
	e.check("Maya", "common word alone")
	e.check("Maya maya MAYA Maya's", "case and possessive variants")
	e.check("busy work", "several common words")
	got := e.check("trouvakix", "rare word alone")
	for _, en := range got.Entries {
		assert.NotEqual(t, other, en.Item.Scope, "S1: another teammate's item in the packet")
	}
}

// Many items with exactly the same BM25 score: the id decides (ascending), and only 12 get in.
func TestPacketAttackTiesByID(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	for i := 0; i < 40; i++ {
		sc := (*string)(nil)
		if i%2 == 0 {
			sc = paShared
		}
		e.add(fmt.Sprintf("Glimmerstone %s.", paFiller(i)), paOpt{scope: sc})
	}
	got := e.check("glimmerstone", "40 tied items")
	assert.Len(t, got.Entries, paMaxEntries)
	// Two tie groups: "glimmerstone" twice beats once, whatever the id.
	for i := 0; i < 5; i++ {
		e.add(fmt.Sprintf("Glimmerstone glimmerstone %s %s.", paFiller(500+i), paFiller(600+i)), paOpt{})
	}
	e.check("glimmerstone", "two tie groups")
	e.check("glimmerstone "+paFiller(3), "one tied item also matches a second word")
}

// More than 12 and more than 30 pinned items: pinned items fill the packet, no ranked match gets in;
// the pinned ones are ordered by ts_rank_cd (those sharing the request's words first), ties by id.
func TestPacketAttackPinnedOver12And30(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	for i := 0; i < 8; i++ {
		e.add(fmt.Sprintf("Ranked match about harbour %s.", paFiller(i)), paOpt{})
	}
	for i := 0; i < 14; i++ {
		e.add(fmt.Sprintf("Pinned note %s.", paFiller(100+i)), paOpt{kind: memory.KindNote, pinned: true, scope: map[bool]*string{true: paShared, false: nil}[i%2 == 0]})
	}
	e.check("harbour", "14 pinned, none matching: ids decide, no ranked match")
	e.check("the of and", "no searchable words: pinned only")
	// Pinned items that match the request lead the pinned ones.
	e.add("Pinned harbour harbour fact.", paOpt{pinned: true})
	e.add("Pinned harbour fact once.", paOpt{pinned: true, scope: paShared})
	e.check("harbour", "pinned items matching the request rank first among pinned")
	for i := 0; i < 20; i++ {
		e.add(fmt.Sprintf("Another pinned fact %s.", paFiller(200+i)), paOpt{pinned: true})
	}
	e.check("harbour", "36 pinned items: over the list's 30")
	e.check(paFiller(219)+" "+paFiller(105), "two pinned items matched by their rare word")
	e.check("", "empty request")
}

// More than 12 pinned lessons: the packet holds lessons only, the most relevant to the request first
// (docs/WORKER.md, P9, L2); pinned preferences and notes and ranked matches get nothing.
func TestPacketAttackLessonsOver12(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	e.add("Answer in bullet points.", paOpt{kind: memory.KindPreference, pinned: true})
	e.add("Project notes are in the wiki.", paOpt{kind: memory.KindNote, pinned: true, scope: paShared})
	for i := 0; i < 5; i++ {
		e.add(fmt.Sprintf("Deploy on %s with care.", paFiller(i)), paOpt{})
	}
	for i := 0; i < 10; i++ {
		e.add(fmt.Sprintf("Lesson: check %s before answering.", paFiller(50+i)), paOpt{kind: memory.KindLesson, pinned: true})
	}
	e.check("deploy", "10 lessons, then the other pinned, then ranked")
	for i := 0; i < 6; i++ {
		e.add(fmt.Sprintf("Lesson: always deploy %s carefully.", paFiller(80+i)), paOpt{kind: memory.KindLesson, pinned: true})
	}
	e.add("Lesson: deploy deploy deploy only on Tuesdays.", paOpt{kind: memory.KindLesson, pinned: true})
	got := e.check("deploy", "17 lessons: lessons only, most relevant first")
	for _, en := range got.Entries {
		assert.Equal(t, memory.KindLesson, en.Item.Kind, "only lessons when they fill the packet")
	}
	e.check("bullet points wiki", "17 lessons: requests about other pinned items still get lessons only")
	e.check("?!", "no searchable words")
}

// Lessons whose text alone exceeds 6,000 characters: the first whole, the next cut with "…",
// nothing after it — no other pinned item, no ranked match (P9, L2).
func TestPacketAttackLessonsOverCharacters(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	long := func(seed int, lead string) string {
		r := rand.New(rand.NewSource(int64(seed)))
		var b strings.Builder
		b.WriteString(lead)
		for b.Len() < 2500 {
			fmt.Fprintf(&b, " %s", paFiller(r.Intn(1500)))
		}
		return b.String() + "."
	}
	e.add(long(1, "Lesson one about invoices"), paOpt{kind: memory.KindLesson, pinned: true})
	e.add(long(2, "Lesson two"), paOpt{kind: memory.KindLesson, pinned: true})
	e.add(long(3, "Lesson three about invoices invoices"), paOpt{kind: memory.KindLesson, pinned: true})
	e.add("Pinned note about invoices.", paOpt{kind: memory.KindNote, pinned: true})
	e.add("Invoices are due monthly.", paOpt{})
	got := e.check("invoices", "three long lessons")
	require.NotEmpty(t, got.Entries)
	assert.True(t, got.Entries[len(got.Entries)-1].Truncated, "the last lesson is cut")
	e.check("weather", "three long lessons, no lesson matches")
}

// The character cut at its boundaries (P5 and the packet doc): exactly 6,000 characters; one over;
// a third entry whose header fits but no body character (left out), whose room holds the "…" alone
// (left out: not one character of the body fits), one or two body characters; a cut that ends on a
// space (trailing spaces removed); multibyte runes counted as characters. The order is fixed by the
// rules: a pinned lesson, then a pinned note, then the one ranked match.
func TestPacketAttackCharacterCutBoundaries(t *testing.T) {
	t.Parallel()
	const fakeID = "00000000-0000-0000-0000-000000000000"
	hdr := func(kind memory.Kind) int {
		return utf8.RuneCountInString(paHeader(memory.Item{ID: fakeID, Revision: 1, Scope: fakeID, Kind: kind}))
	}
	h2, h3 := hdr(memory.KindNote), hdr(memory.KindFact)
	for _, tc := range []struct {
		name  string
		slack int // characters left after the second entry whole (negative: it overflows)
		rune  string
	}{
		{"exact fit", 0, "a"},
		{"one over", -1, "a"},
		{"two over", -2, "a"},
		{"exact fit multibyte", 0, "é"},
		{"one over multibyte", -1, "é"},
		{"one under", 1, "a"},
		{"third header and newline only", 2 + h3 + 1, "a"},
		{"third room for the marker only", 2 + h3 + 1 + 1, "a"},
		{"third one body character", 2 + h3 + 1 + 2, "a"},
		{"third two body characters", 2 + h3 + 1 + 3, "a"},
		{"third cut on a space", 2 + h3 + 1 + 7, "a"},
		{"third cut after the space", 2 + h3 + 1 + 8, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := paSetup(t)
			first := e.add("Alpha "+strings.Repeat(tc.rune, 2990), paOpt{kind: memory.KindLesson, pinned: true})
			used := utf8.RuneCountInString(paHeader(first) + "\n" + paBody(first))
			body2 := paMaxChars - tc.slack - used - 2 - h2 - 1
			e.add("Beta "+strings.Repeat(tc.rune, body2-5), paOpt{kind: memory.KindNote, pinned: true})
			e.add("Gamma zzword", paOpt{})
			got := e.check("zzword", tc.name)
			t.Logf("%s: %d entries, %d characters", tc.name, len(got.Entries), utf8.RuneCountInString(got.Text))
		})
	}
}

// Items that must never be given (P1, A2, F1, S1): expired ones, forgotten ones, suggestions waiting or
// dismissed, proposed changes (their text), another teammate's. An item expiring later, and one with a
// proposal to forget it waiting, are still given.
func TestPacketAttackNeverGiven(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	other := e.f.teammate(t, "Other")
	soon := time.Now().Add(1500 * time.Millisecond)
	later := time.Now().Add(48 * time.Hour)
	e.add("Zephyrine expires soon unpinned.", paOpt{expires: &soon})
	e.add("Zephyrine expires soon pinned.", paOpt{expires: &soon, pinned: true})
	e.add("Zephyrine expires soon lesson.", paOpt{expires: &soon, pinned: true, kind: memory.KindLesson, scope: nil})
	e.add("Zephyrine expires soon shared.", paOpt{expires: &soon, scope: paShared})
	e.add("Zephyrine expires later.", paOpt{expires: &later})
	e.add("Zephyrine pinned expires later.", paOpt{expires: &later, pinned: true, scope: paShared})
	forgotten := e.add("Zephyrine forgotten fact.", paOpt{})
	forgottenPinned := e.add("Zephyrine forgotten pinned fact.", paOpt{pinned: true})
	target := e.add("Zephyrine target of proposals.", paOpt{})
	e.add("Zephyrine of the other teammate.", paOpt{scope: &other})
	e.add("Zephyrine pinned lesson of the other teammate.", paOpt{scope: &other, pinned: true, kind: memory.KindLesson})
	for i := 0; i < 4; i++ {
		e.add(fmt.Sprintf("Zephyrine plain %s.", paFiller(i)), paOpt{})
	}
	_, err := e.f.svc.ForgetMemory(user, forgotten.ID)
	require.NoError(t, err)
	_, err = e.f.svc.ForgetMemory(user, forgottenPinned.ID)
	require.NoError(t, err)

	// Suggestions by a run: a message that asks for nothing makes every write wait.
	started, err := e.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: e.tm, Message: "How is the weather today", StartedByUser: true})
	require.NoError(t, err)
	cred, err := e.f.svc.AuthenticateRun(context.Background(), started.Token)
	require.NoError(t, err)
	rc := memory.WithCredential(context.Background(), cred)
	var waiting []string
	for i, c := range []string{"Zephyrine suggestion one.", "Zephyrine zephyrine suggestion two pinned preference."} {
		kind := memory.KindFact
		if i == 1 {
			kind = memory.KindPreference
		}
		res, err := e.f.svc.Tools().Remember(rc, memory.RememberInput{Content: c, Kind: kind})
		require.NoError(t, err)
		require.Equal(t, memory.OutcomeSuggested, res.Outcome)
		require.NotNil(t, res.Item)
		waiting = append(waiting, res.Item.ID)
		e.ids = append(e.ids, res.Item.ID)
	}
	res, err := e.f.svc.Tools().UpdateMemory(rc, memory.ToolUpdateInput{ID: target.ID, BaseRevision: 1, Content: "Zephyrine zephyrine zephyrine proposed text."})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	if res.Item != nil {
		e.ids = append(e.ids, res.Item.ID)
		waiting = append(waiting, res.Item.ID)
	}
	res, err = e.f.svc.Tools().ForgetMemory(rc, memory.ToolForgetInput{ID: target.ID})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	_, err = e.f.svc.DismissCandidate(user, waiting[0])
	require.NoError(t, err)

	got := e.check("zephyrine", "before expiry")
	time.Sleep(time.Until(soon) + 300*time.Millisecond)
	got2 := e.check("zephyrine", "after expiry")
	for _, p := range []memory.Packet{got, got2} {
		for _, en := range p.Entries {
			assert.Equal(t, memory.StatusActive, en.Item.Status)
			assert.NotContains(t, waiting, en.Item.ID, "A2: a suggestion in the packet")
			assert.NotEqual(t, other, en.Item.Scope, "S1")
			assert.NotContains(t, en.Item.Content, "proposed text", "a proposed change's text in the packet")
		}
	}
	assert.NotContains(t, got2.Text, "expires soon", "P1: an expired item in the packet")
	assert.NotContains(t, got.Text, "forgotten", "F1: a forgotten item in the packet")
}

// A request with no searchable words gives the pinned items only (they always match) and no
// unpinned item; with no pinned item, the packet is empty (P6).
func TestPacketAttackNoSearchableWords(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	for i := 0; i < 5; i++ {
		e.add(fmt.Sprintf("The %s is on the shelf.", paFiller(i)), paOpt{})
	}
	for _, req := range []string{"the of and is", "?!", "   ", "... --- !!!"} {
		got := e.check(req, "no words, no pinned items")
		assert.Empty(t, got.Entries, "P6: %q", req)
		assert.Equal(t, "", got.Text, "P6: %q", req)
	}
	e.add("Answer briefly.", paOpt{kind: memory.KindPreference, pinned: true, scope: paShared})
	e.add("Lesson to keep.", paOpt{kind: memory.KindLesson, pinned: true})
	for _, req := range []string{"the of and is", "?!"} {
		got := e.check(req, "no words, pinned items")
		assert.Len(t, got.Entries, 2, "%q", req)
	}
}

// A teammate who sees fewer than 12 matching items gets just those (P6: no padding with
// non-matching items), in BM25 order.
func TestPacketAttackFewMatches(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	e.add("Kettle is green.", paOpt{})
	e.add("The kettle broke and the kettle was replaced.", paOpt{scope: paShared})
	e.add("Tea time kettle noon with biscuits and a long walk after.", paOpt{})
	for i := 0; i < 20; i++ {
		e.add(fmt.Sprintf("Unrelated %s.", paFiller(i)), paOpt{})
	}
	got := e.check("kettle", "three matches")
	assert.Len(t, got.Entries, 3)
	e.check("kettles Kettle's", "stemmed variants")
	got = e.check("nothingmatcheshere", "no match")
	assert.Empty(t, got.Entries)
}

// Keys: an item's key is searched with its content and shown as "key: content" (P2, P5); an unpinned
// lesson is an ordinary ranked match (only pinned lessons lead); an unpinned preference likewise.
func TestPacketAttackKeysAndUnpinnedKinds(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	e.add("3310", paOpt{key: ptr("locker code")})
	e.add("The locker room is downstairs.", paOpt{scope: paShared})
	e.add("Lesson about the locker: ask first.", paOpt{kind: memory.KindLesson, pinned: false})
	e.add("Prefers the locker by the window.", paOpt{kind: memory.KindPreference, pinned: false})
	e.add("Pinned fact with a key.", paOpt{key: ptr("gym"), pinned: true})
	for i := 0; i < 6; i++ {
		e.add(fmt.Sprintf("Locker locker %s and more words here to be long %s.", paFiller(i), paFiller(40+i)), paOpt{})
	}
	e.check("locker code", "key words")
	e.check("gym", "pinned key")
	e.check("window locker", "unpinned preference")
}

// Only the first 256 distinct words of a request are searched (P2); repeats don't use up the 256.
func TestPacketAttackFirst256DistinctWords(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	e.add("Quillometer lives here.", paOpt{})
	e.add("Alpha fact.", paOpt{})
	var fill []string
	for i := 0; i < 255; i++ {
		fill = append(fill, "w"+paFiller(i))
	}
	rep := strings.Repeat("alpha ", 300)
	// "alpha" + 255 fillers + quillometer = 257th distinct word: not searched.
	e.check(rep+strings.Join(fill, " ")+" quillometer", "257th distinct word")
	// "alpha" + 254 fillers + quillometer = 256th: searched.
	e.check(rep+strings.Join(fill[:254], " ")+" quillometer", "256th distinct word")
}

// Edits, pins, unpins, expiries and forgets move items in and out of BM25's statistics; the packet
// must follow the items as they are now.
func TestPacketAttackEditsKeepStatistics(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	var its []memory.Item
	for i := 0; i < 12; i++ {
		sc := (*string)(nil)
		if i%4 == 0 {
			sc = paShared
		}
		its = append(its, e.add(fmt.Sprintf("Orchard %s plum %s.", paFiller(i), paFiller(50+i)), paOpt{scope: sc}))
	}
	e.check("orchard plum", "initial")
	edit := func(in memory.EditInput) {
		t.Helper()
		cur, err := e.f.svc.Item(user, in.ID)
		require.NoError(t, err)
		in.BaseRevision = cur.Revision
		_, err = e.f.svc.EditMemory(user, in)
		require.NoError(t, err)
	}
	edit(memory.EditInput{ID: its[0].ID, Content: ptr("Orchard orchard orchard.")})
	edit(memory.EditInput{ID: its[1].ID, Content: ptr("Plum " + strings.Repeat(paFiller(90)+" ", 30))})
	edit(memory.EditInput{ID: its[2].ID, Pinned: ptr(true)})
	e.check("orchard plum", "after edits and a pin")
	edit(memory.EditInput{ID: its[2].ID, Pinned: ptr(false)})
	edit(memory.EditInput{ID: its[3].ID, ExpiresAt: ptr(time.Now().Add(time.Hour))})
	edit(memory.EditInput{ID: its[4].ID, Key: ptr("plum plum")})
	_, err := e.f.svc.ForgetMemory(user, its[5].ID)
	require.NoError(t, err)
	e.check("orchard plum", "after unpin, expiry, key, forget")
	e.check("plum", "plum alone")
	edit(memory.EditInput{ID: its[3].ID, ClearExpiresAt: true})
	edit(memory.EditInput{ID: its[4].ID, Key: ptr("")})
	e.check("orchard plum", "after clearing expiry and key")
}

// A run's packet (StartRun, its memory context, RunPacket) holds the same entries in the same order
// and the same text as the preview for the same request (P7).
func TestPacketAttackRunMatchesPreview(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	e.add("Lesson: be brief.", paOpt{kind: memory.KindLesson, pinned: true})
	e.add("Prefers metric units.", paOpt{kind: memory.KindPreference, pinned: true, scope: paShared})
	for i := 0; i < 16; i++ {
		sc := (*string)(nil)
		if i%2 == 1 {
			sc = paShared
		}
		e.add(fmt.Sprintf("Bicycle %s %s.", paFiller(i), strings.Repeat("spoke ", i)), paOpt{scope: sc})
	}
	e.add("Bicycle "+strings.Repeat(paFiller(77)+" ", 400), paOpt{pinned: true})
	for _, req := range []string{"bicycle spoke", "spoke", "the"} {
		prev := e.check(req, "preview")
		started, err := e.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: e.tm, Message: req, StartedByUser: true})
		require.NoError(t, err)
		assert.Equal(t, paIDs(prev), paIDs(started.Packet), "run packet entries vs preview (%q)", req)
		assert.Equal(t, prev.Text, started.Packet.Text, "run packet text vs preview (%q)", req)
		ctxs, err := e.f.svc.MemoryContext(user, started.Run.ID)
		require.NoError(t, err)
		sort.Slice(ctxs, func(i, j int) bool { return ctxs[i].Position < ctxs[j].Position })
		var ctxIDs []string
		for i, c := range ctxs {
			ctxIDs = append(ctxIDs, c.ItemID)
			assert.Equal(t, i+1, c.Position)
			if i < len(prev.Entries) {
				assert.Equal(t, prev.Entries[i].Truncated, c.Truncated, "memory context truncated flag %d", i+1)
				assert.Equal(t, prev.Entries[i].Item.Revision, c.RevisionGiven)
			}
		}
		assert.Equal(t, paIDs(prev), ctxIDs, "memory context vs preview (%q)", req)
		cred, err := e.f.svc.AuthenticateRun(context.Background(), started.Token)
		require.NoError(t, err)
		text, err := e.f.svc.Tools().RunPacket(memory.WithCredential(context.Background(), cred))
		require.NoError(t, err)
		assert.Equal(t, prev.Text, text, "RunPacket text vs preview (%q)", req)
	}
	// Memory off: no entry at all, the note as text (W2), preview and run alike.
	_, err := e.f.svc.SetMemorySwitch(user, memory.SetMemorySwitchInput{TeammateID: e.tm, UseMemory: ptr(false)})
	require.NoError(t, err)
	prev, err := e.f.svc.RecallPreview(user, e.tm, "bicycle")
	require.NoError(t, err)
	assert.Empty(t, prev.Entries)
	assert.Equal(t, memory.MemoryOffNote, prev.Text)
	started, err := e.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: e.tm, Message: "bicycle", StartedByUser: true})
	require.NoError(t, err)
	assert.Empty(t, started.Packet.Entries)
	assert.Equal(t, memory.MemoryOffNote, started.Packet.Text)
}

// A random world (fixed seed): three scopes, kinds, pins, a Zipf-like vocabulary, long and short
// texts; many requests compared with the reference.
func TestPacketAttackRandomWorld(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	other := e.f.teammate(t, "Other")
	r := rand.New(rand.NewSource(20240611))
	vocab := []string{"coffee", "maya", "flight", "music", "garden", "paris", "dentist", "budget", "river", "piano",
		"invoice", "tomato", "jacket", "sister", "laptop", "museum", "ticket", "winter", "report", "kitchen"}
	word := func() string {
		// Zipf-like: low indexes much more often.
		i := int(math.Floor(math.Pow(r.Float64(), 2.5) * float64(len(vocab))))
		return vocab[i]
	}
	for i := 0; i < 90; i++ {
		n := 2 + r.Intn(12)
		if r.Intn(10) == 0 {
			n = 60 + r.Intn(200)
		}
		ws := []string{}
		for j := 0; j < n; j++ {
			if r.Intn(3) == 0 {
				ws = append(ws, paFiller(r.Intn(1000)))
			} else {
				ws = append(ws, word())
			}
		}
		content := strings.ToUpper(ws[0][:1]) + ws[0][1:] + " " + strings.Join(ws[1:], " ") + fmt.Sprintf(" %s.", paFiller(2000+i))
		o := paOpt{}
		switch r.Intn(4) {
		case 0:
			o.scope = paShared
		case 1:
			o.scope = &other
		}
		switch x := r.Intn(20); {
		case x == 0:
			o.kind, o.pinned = memory.KindLesson, true
		case x == 1:
			o.kind, o.pinned = memory.KindPreference, true
		case x == 2:
			o.kind, o.pinned = memory.KindNote, true
		case x == 3:
			o.kind = memory.KindNote
		}
		if r.Intn(15) == 0 {
			o.key = ptr(word() + " " + word())
		}
		e.add(content, o)
	}
	for i := 0; i < 25; i++ {
		var ws []string
		for j := 0; j < 1+r.Intn(5); j++ {
			ws = append(ws, word())
		}
		if r.Intn(3) == 0 {
			ws = append(ws, "the", "what", "about")
		}
		e.check(strings.Join(ws, " "), fmt.Sprintf("random request %d", i))
	}
}

// Bulk writes (an import of many items in one transaction, pins and unpins of several items, a
// bulk forget, confirmations of several suggestions and their undo, a restore, an undo, a MEMORY.md
// import) must leave recall's statistics as the items are: the packet follows the reference after
// each.
func TestPacketAttackBulkWrites(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	other := e.f.teammate(t, "Other")
	importFile := func(scope memory.Scope, n, seed int) []memory.Item {
		t.Helper()
		r := rand.New(rand.NewSource(int64(seed)))
		f := memory.ExportFile{Format: memory.ExportFileFormat, Version: memory.ExportFileVersion, ExportedAt: time.Now()}
		for i := 0; i < n; i++ {
			words := []string{"Lantern"}
			for j := 0; j < 1+r.Intn(8); j++ {
				words = append(words, []string{"lantern", "harbor", "copper", "violin", paFiller(r.Intn(3000))}[r.Intn(5)])
			}
			words = append(words, paFiller(4000+seed*100+i))
			f.Items = append(f.Items, memory.ExportItem{Kind: memory.KindFact, Content: strings.Join(words, " ") + ".", Pinned: r.Intn(6) == 0})
		}
		data, err := json.Marshal(f)
		require.NoError(t, err)
		res, err := e.f.svc.ImportMemory(user, memory.ImportInput{Scope: scope, Format: memory.ExportJSON, Data: string(data)})
		require.NoError(t, err)
		for _, it := range res.Items {
			e.ids = append(e.ids, it.ID)
		}
		return res.Items
	}
	own := importFile(memory.Scope{TeammateID: &e.tm}, 30, 1)
	shared := importFile(memory.Scope{}, 20, 2)
	importFile(memory.Scope{TeammateID: &other}, 40, 3)
	e.check("lantern harbor", "after imports")
	e.check("copper violin", "after imports, other words")

	refs := func(items []memory.Item) []memory.ItemRef {
		var rs []memory.ItemRef
		for _, it := range items {
			cur, err := e.f.svc.Item(user, it.ID)
			require.NoError(t, err)
			rs = append(rs, memory.ItemRef{ID: it.ID, BaseRevision: cur.Revision})
		}
		return rs
	}
	_, err := e.f.svc.PinMemories(user, refs([]memory.Item{own[0], own[1], own[2], shared[0], shared[1]}), true)
	require.NoError(t, err)
	e.check("lantern harbor", "after a bulk pin")
	_, err = e.f.svc.PinMemories(user, refs([]memory.Item{own[1], shared[0]}), false)
	require.NoError(t, err)
	e.check("lantern copper", "after a bulk unpin")
	_, _, err = e.f.svc.ForgetMemories(user, refs([]memory.Item{own[3], own[4], shared[2], own[0]}), nil)
	require.NoError(t, err)
	e.check("lantern harbor copper", "after a bulk forget")

	// Restore and undo.
	it := own[5]
	cur, err := e.f.svc.EditMemory(user, memory.EditInput{ID: it.ID, BaseRevision: 1, Content: ptr("Violin violin violin violin.")})
	require.NoError(t, err)
	e.check("violin", "after an edit")
	cur, err = e.f.svc.RestoreRevision(user, it.ID, 1, cur.Revision)
	require.NoError(t, err)
	e.check("violin lantern", "after a restore")
	_, err = e.f.svc.UndoEdit(user, it.ID, cur.Revision)
	require.NoError(t, err)
	e.check("violin lantern", "after an undo")

	// Suggestions confirmed together, then the confirmations undone.
	started, err := e.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: e.tm, Message: "Good morning", StartedByUser: true})
	require.NoError(t, err)
	cred, err := e.f.svc.AuthenticateRun(context.Background(), started.Token)
	require.NoError(t, err)
	rc := memory.WithCredential(context.Background(), cred)
	var sugg []string
	for i := 0; i < 4; i++ {
		res, err := e.f.svc.Tools().Remember(rc, memory.RememberInput{Content: fmt.Sprintf("Lantern harbor suggestion %s.", paFiller(900+i))})
		require.NoError(t, err)
		require.Equal(t, memory.OutcomeSuggested, res.Outcome)
		sugg = append(sugg, res.Item.ID)
		e.ids = append(e.ids, res.Item.ID)
	}
	e.check("lantern harbor suggestion", "suggestions waiting")
	confirmed, err := e.f.svc.ConfirmCandidates(user, memory.Scope{TeammateID: &e.tm}, sugg[:3])
	require.NoError(t, err)
	e.check("lantern harbor suggestion", "after confirming three suggestions")
	var cs []memory.Confirmation
	for _, c := range confirmed[:2] {
		cs = append(cs, memory.Confirmation{ID: c.ID, Revision: c.Revision})
	}
	_, err = e.f.svc.UndoConfirmCandidates(user, cs)
	require.NoError(t, err)
	e.check("lantern harbor suggestion", "after undoing two confirmations")

	// A MEMORY.md import: pinned notes.
	md := "# Notes\n\nLantern rules of the harbor.\n\n## More\n\nCopper kettle lives here.\n"
	res, err := e.f.svc.Worker().ImportMemoryFile(worker, e.tm, &md)
	require.NoError(t, err)
	for _, it := range res.Items {
		e.ids = append(e.ids, it.ID)
	}
	e.check("lantern harbor", "after a MEMORY.md import")

	// Deleting another teammate changes nothing for this one.
	_, err = e.f.svc.DeleteTeammate(user, other)
	require.NoError(t, err)
	e.check("lantern harbor copper violin", "after deleting another teammate")
}

// Request words holding tsquery syntax are words, nothing more (P2: "PostgreSQL turns them into
// lexemes as it does the items' text"): "cof:*" is no prefix search, "!coffee" no negation,
// "&", "|", "<->", parentheses and quotes are no operators.
func TestPacketAttackQuerySyntaxIsWords(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	e.add("Coffee beans from Kenya.", paOpt{})
	e.add("Tea leaves from Assam.", paOpt{})
	e.add("Cofactor enzymes matter.", paOpt{scope: paShared})
	e.add("Cof is a made up word.", paOpt{})
	e.add("Milk and sugar.", paOpt{})
	e.add("The well-known baker.", paOpt{})
	e.add("Something known to all.", paOpt{})
	e.add("Mail me at bob@example.com today.", paOpt{})
	e.add("Visit https://example.com/path soon.", paOpt{})
	e.add("The example.com site.", paOpt{})
	e.add("Version 1.2.3 shipped.", paOpt{})
	e.add("Bob is here.", paOpt{})
	for _, req := range []string{"well-known", "bob@example.com", "https://example.com/path", "1.2.3", "coffee,known,bob",
		"cof:*", "!coffee", "coffee&tea", "coffee & tea", "coffee|milk", "coffee<->tea",
		"(coffee", "'coffee'", "coffee:A", "\\coffee", "coffee:*B", "!!tea", "tea:* | !milk", "coffee's"} {
		e.check(req, "tsquery syntax in the request")
	}
}

// A word repeated hundreds of times in an item: its term frequency is what PostgreSQL's vector keeps,
// and the item's length its positions.
func TestPacketAttackHugeTermFrequency(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	e.add("Zork "+strings.Repeat("zork ", 400)+"end.", paOpt{})
	e.add("Zork "+strings.Repeat("zork ", 200)+"end.", paOpt{})
	e.add("Zork once.", paOpt{})
	e.add("Zork zork twice.", paOpt{scope: paShared})
	e.add("Zork "+strings.Repeat("zork ", 300)+"pinned.", paOpt{pinned: true})
	e.add("Zork "+strings.Repeat("zork ", 260)+"pinned too.", paOpt{pinned: true})
	for i := 0; i < 5; i++ {
		e.add(fmt.Sprintf("Filler %s.", paFiller(i)), paOpt{})
	}
	e.check("zork", "huge term frequencies")
	e.check("zork end", "huge term frequencies and a second word")
}

var paHeaderLine = regexp.MustCompile(`^\[memory:[0-9a-f-]{36}@[0-9]+; (shared|[0-9a-f-]{36}); (fact|preference|lesson|note)\]$`)

// paLinesOK checks the packet doc's promise: every line is a header, the blank line between entries,
// a line indented by two spaces, or one that starts with a letter or digit; and one header per entry.
func paLinesOK(t *testing.T, p memory.Packet, msg string) {
	t.Helper()
	if p.Text == "" {
		return
	}
	headers := 0
	for i, line := range strings.Split(p.Text, "\n") {
		switch {
		case paHeaderLine.MatchString(line):
			headers++
		case line == "", strings.HasPrefix(line, "  "):
		default:
			r, _ := utf8.DecodeRuneInString(line)
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				t.Errorf("%s: line %d of the packet starts with %q: %q", msg, i+1, r, paShort(line))
			}
		}
	}
	assert.Equal(t, len(p.Entries), headers, "%s: one header per entry", msg)
}

// Cutting an encoded body (line breaks become "\n  ", brackets are escaped) at every offset of its
// encoding: the packet stays within 6,000 characters and every line stays well-formed (packet doc);
// the entries are still the reference's prefix.
func TestPacketAttackCutEncodedBodies(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	first := e.add("Pad "+strings.Repeat("p", 3000), paOpt{kind: memory.KindLesson, pinned: true})
	var b strings.Builder
	b.WriteString("Start")
	for b.Len() < 3900 {
		b.WriteString("\n[memory:x] \\ q\r\n  ［y］")
	}
	e.add(b.String(), paOpt{kind: memory.KindNote, pinned: true})
	e.add("Ranked body about qqword.", paOpt{})
	rev := first.Revision
	for k := 1; k <= 24; k++ {
		it, err := e.f.svc.EditMemory(user, memory.EditInput{ID: first.ID, BaseRevision: rev, Content: ptr("Pad " + strings.Repeat("p", 3000+k))})
		require.NoError(t, err)
		rev = it.Revision
		want := e.reference("qqword")
		got, err := e.f.svc.RecallPreview(user, e.tm, "qqword")
		require.NoError(t, err)
		msg := fmt.Sprintf("pad %d", k)
		gotIDs := paIDs(got)
		require.NotEmpty(t, gotIDs, msg)
		assert.Equal(t, want.ids[:len(gotIDs)], gotIDs, "%s: entries are the reference's prefix", msg)
		assert.LessOrEqual(t, utf8.RuneCountInString(got.Text), paMaxChars, msg)
		paLinesOK(t, got, msg)
		last := got.Entries[len(got.Entries)-1]
		assert.True(t, last.Truncated, msg)
		assert.True(t, strings.HasSuffix(got.Text, "…"), msg)
		// Nothing but the cut may be missing: the text is the whole second entry's prefix.
		full := paHeader(*got.Entries[0].Item) + "\n" + packet.Body(got.Entries[0].Item.PacketItem()) + "\n\n" +
			paHeader(*last.Item) + "\n" + packet.Body(last.Item.PacketItem())
		cut := strings.TrimSuffix(got.Text, "…")
		assert.True(t, strings.HasPrefix(full, cut), "%s: the cut text is a prefix of the entries laid out whole", msg)
		assert.GreaterOrEqual(t, utf8.RuneCountInString(got.Text), paMaxChars-8, "%s: the cut leaves at most the few characters it must", msg)
	}
}

// The 256 distinct words are runs between any white space (tabs, line breaks too), and stop words and
// punctuation-only runs are words: they use up the 256 as well (P2).
func TestPacketAttack256WordsWhiteSpaceAndStopWords(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	e.add("Quillometer lives here.", paOpt{})
	e.add("Alpha fact.", paOpt{})
	var fill []string
	for i := 0; i < 255; i++ {
		fill = append(fill, "w"+paFiller(i))
	}
	for _, sep := range []string{"\n", "\t", " \r\n ", "\n\n"} {
		name := fmt.Sprintf("separator %q", sep)
		e.check("alpha"+sep+strings.Join(fill, sep)+sep+"quillometer", name+": 257th distinct word")
		e.check("alpha"+sep+strings.Join(fill[:254], sep)+sep+"quillometer", name+": 256th distinct word")
	}
	// Stop words and punctuation-only runs count among the 256.
	stop := strings.Fields("i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now")
	var punct []string
	for i := 1; i <= 60; i++ {
		punct = append(punct, strings.Repeat("!", i))
	}
	head := append(append([]string{}, stop...), punct...)
	n := 256 - len(head) - 1
	require.Greater(t, n, 0)
	e.check(strings.Join(head, " ")+" "+strings.Join(fill[:n], " ")+" quillometer", "stop words and punctuation: 256th word")
	e.check(strings.Join(head, " ")+" "+strings.Join(fill[:n+1], " ")+" quillometer", "stop words and punctuation: 257th word")
}

// The recall preview's account of what a packet left out (P9, LeftOut): no shared word, over the
// limits, expired, suggestions waiting.
func TestPacketAttackLeftOutCounts(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	other := e.f.teammate(t, "Other")
	soon := time.Now().Add(1200 * time.Millisecond)
	for i := 0; i < 45; i++ {
		sc := (*string)(nil)
		if i%3 == 0 {
			sc = paShared
		}
		e.add(fmt.Sprintf("Saffron %s.", paFiller(i)), paOpt{scope: sc})
	}
	for i := 0; i < 7; i++ {
		e.add(fmt.Sprintf("Unrelated %s.", paFiller(100+i)), paOpt{})
	}
	for i := 0; i < 3; i++ {
		e.add(fmt.Sprintf("Pinned %s.", paFiller(200+i)), paOpt{pinned: true})
	}
	e.add("Saffron expiring.", paOpt{expires: &soon})
	e.add("Unrelated expiring.", paOpt{expires: &soon, scope: paShared})
	e.add("Saffron of the other teammate.", paOpt{scope: &other})
	started, err := e.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: e.tm, Message: "Good evening", StartedByUser: true})
	require.NoError(t, err)
	cred, err := e.f.svc.AuthenticateRun(context.Background(), started.Token)
	require.NoError(t, err)
	rc := memory.WithCredential(context.Background(), cred)
	for i := 0; i < 2; i++ {
		res, err := e.f.svc.Tools().Remember(rc, memory.RememberInput{Content: fmt.Sprintf("Saffron suggestion %s.", paFiller(300+i))})
		require.NoError(t, err)
		require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	}
	time.Sleep(time.Until(soon) + 300*time.Millisecond)
	for _, tc := range []struct {
		req                          string
		noWord, over, expired, waits int
	}{
		// 45 saffron + 3 pinned match; 12 given; 7 unrelated share no word.
		{"saffron", 7, 45 + 3 - 12, 2, 2},
		{"unrelated", 45, 0, 2, 2},
		{"nothing", 52, 0, 2, 2},
	} {
		e.check(tc.req, "left out "+tc.req)
		got, err := e.f.svc.RecallPreviewWithLeftOut(user, e.tm, tc.req)
		require.NoError(t, err)
		require.NotNil(t, got.LeftOut)
		assert.Equal(t, memory.LeftOut{NoSharedWord: tc.noWord, OverBudget: tc.over, Expired: tc.expired, Waiting: tc.waits}, *got.LeftOut, tc.req)
	}
}

// Beyond 30 pinned items the most relevant must still lead: the pinned item (or lesson) that
// matches the request, whatever its id, is first of its group; a lesson leads 31 pinned notes;
// shared lessons are lessons; with 11 pinned items the 12th place goes to the best ranked match.
func TestPacketAttackPinnedBeyond30Relevance(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	var notes, lessons []memory.Item
	for i := 0; i < 35; i++ {
		notes = append(notes, e.add(fmt.Sprintf("Pinned note %s.", paFiller(i)), paOpt{kind: memory.KindNote, pinned: true, scope: map[bool]*string{true: paShared, false: nil}[i%2 == 0]}))
	}
	for i := 0; i < 20; i++ {
		e.add(fmt.Sprintf("Ranked match quasar %s.", paFiller(100+i)), paOpt{})
	}
	maxID := func(items []memory.Item) memory.Item {
		m := items[0]
		for _, it := range items {
			if it.ID > m.ID {
				m = it
			}
		}
		return m
	}
	last := maxID(notes)
	_, err := e.f.svc.EditMemory(user, memory.EditInput{ID: last.ID, BaseRevision: last.Revision, Content: ptr("Pinned note about the quasar.")})
	require.NoError(t, err)
	got := e.check("quasar", "35 pinned notes, the matching one has the largest id")
	require.NotEmpty(t, got.Entries)
	assert.Equal(t, last.ID, got.Entries[0].Item.ID, "P2: the pinned item sharing the request's word ranks first by ts_rank_cd")

	for i := 0; i < 33; i++ {
		sc := (*string)(nil)
		if i%3 == 0 {
			sc = paShared
		}
		lessons = append(lessons, e.add(fmt.Sprintf("Lesson %s.", paFiller(200+i)), paOpt{kind: memory.KindLesson, pinned: true, scope: sc}))
	}
	ll := maxID(lessons)
	_, err = e.f.svc.EditMemory(user, memory.EditInput{ID: ll.ID, BaseRevision: ll.Revision, Content: ptr("Lesson about the quasar quasar.")})
	require.NoError(t, err)
	got = e.check("quasar", "33 lessons, the matching one has the largest id")
	assert.Equal(t, ll.ID, got.Entries[0].Item.ID, "the most relevant lesson first")
	e.check("nothing", "33 lessons, none matching")

	// Forget lessons and notes down to 1 lesson + 10 notes: 11 pinned, one ranked match gets in.
	var refs []memory.ItemRef
	for _, it := range append(lessons, notes...) {
		if it.ID == ll.ID {
			continue
		}
		cur, err := e.f.svc.Item(user, it.ID)
		require.NoError(t, err)
		refs = append(refs, memory.ItemRef{ID: it.ID, BaseRevision: cur.Revision})
	}
	_, _, err = e.f.svc.ForgetMemories(user, refs[:len(refs)-10], nil)
	require.NoError(t, err)
	got = e.check("quasar", "11 pinned, then the best ranked match")
	assert.Len(t, got.Entries, 12)
}

// A lesson kept from feedback (L2) enters the teammate's next run first; a teammate's confirmed
// preference, and a suggested one the user confirms, are pinned and given to every request (P2).
func TestPacketAttackLessonsAndPreferencesFromRuns(t *testing.T) {
	t.Parallel()
	e := paSetup(t)
	for i := 0; i < 14; i++ {
		e.add(fmt.Sprintf("Pinned fact %s.", paFiller(i)), paOpt{pinned: true})
	}
	e.add("Nebula ranked fact.", paOpt{})
	started, err := e.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: e.tm, Message: "Please remember that I prefer tea over coffee.", StartedByUser: true})
	require.NoError(t, err)
	cred, err := e.f.svc.AuthenticateRun(context.Background(), started.Token)
	require.NoError(t, err)
	rc := memory.WithCredential(context.Background(), cred)
	res, err := e.f.svc.Tools().Remember(rc, memory.RememberInput{Content: "I prefer tea over coffee.", Kind: memory.KindPreference})
	require.NoError(t, err)
	require.NotNil(t, res.Item)
	e.ids = append(e.ids, res.Item.ID)
	if res.Outcome == memory.OutcomeSuggested {
		it, err := e.f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: res.Item.ID})
		require.NoError(t, err)
		assert.True(t, it.Pinned, "P2: a confirmed preference is pinned")
	} else {
		assert.True(t, res.Item.Pinned, "P2: a teammate's confirmed preference is pinned")
	}
	_, err = e.f.svc.Tools().CompleteRun(rc, "Noted.")
	require.NoError(t, err)
	_, err = e.f.svc.RateRun(user, started.Run.ID, memory.RatingDown)
	require.NoError(t, err)
	lesson, err := e.f.svc.KeepLesson(user, started.Run.ID, "Answer with fewer words.")
	require.NoError(t, err)
	e.ids = append(e.ids, lesson.ID)
	assert.True(t, lesson.Pinned && lesson.Kind == memory.KindLesson, "L2: a pinned lesson")
	got := e.check("nebula", "lesson and preference")
	require.NotEmpty(t, got.Entries)
	assert.Equal(t, lesson.ID, got.Entries[0].Item.ID, "L2: the lesson first")
	next, err := e.f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: e.tm, Message: "nebula", StartedByUser: true})
	require.NoError(t, err)
	assert.Equal(t, paIDs(got), paIDs(next.Packet), "the next run gets the preview's packet")
	e.check("coffee "+strings.Repeat("x", 3000), "a word too long to be a lexeme")
}

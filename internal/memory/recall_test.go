package memory_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/packet"
)

var updatePackets = flag.Bool("update", false, "rewrite the golden packets in testdata/packets")

// recallItem is an item inserted directly, with a chosen id, so packets are reproducible.
type recallItem struct {
	id       string
	teammate *string // nil: shared
	kind     memory.Kind
	key      *string
	content  string
	status   memory.Status
	pinned   bool
	revision int
	expires  *time.Time
}

// insert writes the item and its revisions 1..revision (embeddings reference revisions).
func (it recallItem) insert(t testing.TB, f fixture) memory.Item {
	t.Helper()
	if it.kind == "" {
		it.kind = memory.KindFact
	}
	if it.status == "" {
		it.status = memory.StatusActive
	}
	if it.revision == 0 {
		it.revision = 1
	}
	ctx := context.Background()
	content, key := it.content, it.key
	if it.status == memory.StatusForgotten {
		content, key = "", nil
	}
	_, err := f.pool.Exec(ctx, `
		INSERT INTO memory_items (id, teammate_id, kind, key, content, status, pinned, revision, source,
		                          expires_at, content_hash, forgotten_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'user', $9,
		        CASE WHEN $6 <> 'forgotten' THEN sha256(convert_to($5, 'UTF8')) END,
		        CASE WHEN $6 = 'forgotten' THEN now() END)`,
		it.id, it.teammate, it.kind, key, content, it.status, it.pinned, it.revision, it.expires)
	require.NoError(t, err)
	_, err = f.pool.Exec(ctx, `
		INSERT INTO memory_revisions (item_id, revision, content, key, kind, pinned, action, actor)
		SELECT $1, r, $2, $3, $4, $5, CASE WHEN r = 1 THEN 'create' ELSE 'edit' END, 'user'
		  FROM generate_series(1, $6::int) r`, it.id, content, key, it.kind, it.pinned, it.revision)
	require.NoError(t, err)
	item, err := f.svc.Item(user, it.id)
	require.NoError(t, err)
	return item
}

// teammateWithID creates a teammate with a chosen id (its scope comes with it).
func teammateWithID(t testing.TB, f fixture, id, name string) string {
	t.Helper()
	_, err := f.pool.Exec(context.Background(), `INSERT INTO teammates (id, name) VALUES ($1, $2)`, id, name)
	require.NoError(t, err)
	return id
}

// embedItem stores an embedding of the item's revision by model.
func embedItem(t testing.TB, f fixture, itemID string, revision int, model string, vector []float32) {
	t.Helper()
	_, err := f.pool.Exec(context.Background(), `
		INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
		VALUES ($1, $2, $3, $4, $5::text::vector)`, itemID, revision, model, len(vector), vectorLiteral(vector))
	require.NoError(t, err)
}

func vectorLiteral(v []float32) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(float64(x), 'g', -1, 32)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// fakeEmbedder embeds requests from a table; anything else gets def. It counts its calls.
type fakeEmbedder struct {
	model   string
	vectors map[string][]float32
	def     []float32
	err     error
	calls   atomic.Int64
}

func (e *fakeEmbedder) EmbedQuery(_ context.Context, text string) ([]float32, string, error) {
	e.calls.Add(1)
	if e.err != nil {
		return nil, "", e.err
	}
	if v, ok := e.vectors[text]; ok {
		return v, e.model, nil
	}
	return e.def, e.model, nil
}

// buildPacket builds a packet the way StartRun does: PrepareRecall, then BuildPacketTx inside a
// transaction.
func buildPacket(t testing.TB, f fixture, teammateID, request string) memory.Packet {
	t.Helper()
	return buildPacketWith(t, f.svc, f.pool, teammateID, request)
}

// buildPacketWith is buildPacket with a service of the test's own (another embedder).
func buildPacketWith(t testing.TB, svc *memory.Service, pool *pgxpool.Pool, teammateID, request string) memory.Packet {
	t.Helper()
	q, err := memory.PrepareRecall(context.Background(), svc, teammateID, request)
	require.NoError(t, err)
	var p memory.Packet
	err = pgx.BeginFunc(context.Background(), pool, func(tx pgx.Tx) error {
		var err error
		p, err = memory.BuildPacketTx(context.Background(), svc, tx, teammateID, q)
		return err
	})
	require.NoError(t, err)
	return p
}

func packetIDs(p memory.Packet) []string {
	ids := make([]string, len(p.Entries))
	for i, e := range p.Entries {
		ids[i] = e.Item.ID
	}
	return ids
}

// golden compares text with testdata/packets/name.txt; -update rewrites the file.
func golden(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("testdata", "packets", name+".txt")
	if *updatePackets {
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run the test with -update to create it")
	assert.Equal(t, string(want), text, "packet differs from %s (rerun with -update if the change is intended)", path)
}

// Fixed ids, so that golden packets are reproducible.
const (
	goldenTeammate = "7e4d0c1a-0000-4000-8000-000000000001"
	otherTeammate  = "7e4d0c1a-0000-4000-8000-000000000002"
)

func itemID(n int) string {
	return "a0000000-0000-4000-8000-" + strings.Repeat("0", 12-len(strconv.Itoa(n))) + strconv.Itoa(n)
}

// TestPacketGolden: the exact text of packets (P5): headers, layout, order, and the cut at 6,000
// characters.
func TestPacketGolden(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := teammateWithID(t, f, goldenTeammate, "Golden")
	teammateWithID(t, f, otherTeammate, "Other")
	for _, it := range []recallItem{
		{id: itemID(1), kind: memory.KindPreference, key: ptr("drink"), content: "Prefers green tea, never coffee."},
		{id: itemID(2), teammate: &tm, kind: memory.KindLesson, content: "Answer with the short version first.", pinned: true},
		{id: itemID(3), teammate: &tm, kind: memory.KindFact, content: "Green tea from the blue tin is for guests.\nThe red tin is decaf.", revision: 3},
		{id: itemID(4), kind: memory.KindNote, key: ptr("tea shop"), content: "The tea shop on Rua Augusta closes at six."},
		{id: itemID(5), kind: memory.KindFact, content: "Lives in Lisbon."},
		{id: itemID(6), teammate: ptr(otherTeammate), content: "Other teammate's green tea note."},
		{id: itemID(7), kind: memory.KindPreference, content: "Likes tea — “oolong”, ½ cup, 🍵.", pinned: true},
	} {
		it.insert(t, f)
	}

	t.Run("order and layout", func(t *testing.T) {
		p := buildPacket(t, f, tm, "Which green tea should I make?")
		golden(t, "order-and-layout", p.Text)
		assert.Equal(t, []string{itemID(2), itemID(7), itemID(1), itemID(3), itemID(4)}, packetIDs(p),
			"pinned first, the lesson before the other (L2) even though only the other matches, then the matches, all of rank 0.2: by id")
		for _, e := range p.Entries {
			assert.False(t, e.Truncated)
		}
	})
	t.Run("no words match", func(t *testing.T) {
		p := buildPacket(t, f, tm, "Where is the nearest pharmacy?")
		golden(t, "pinned-only", p.Text)
		assert.Equal(t, []string{itemID(2), itemID(7)}, packetIDs(p), "rank 0 both: by id")
	})
}

// filler is n characters of short "words" of emoji that don't end in a space. Emoji are no words
// to PostgreSQL's parser, so they add nothing to an item's length (BM25's, its words counted with
// repeats): a long filler doesn't push its item down the full-text list.
func filler(n int) string {
	s := []rune(strings.Repeat("🍵🍵🍵 ", n/4+1))[:n]
	if s[n-1] == ' ' {
		s[n-1] = '🍵'
	}
	return string(s)
}

// TestPacketCut: entries are added whole while they fit; the first that doesn't is cut to the room
// left with the marker (header whole), and nothing follows it; the text never exceeds 6,000
// characters, counted as runes.
//
// Every item here is shared, of kind fact, at revision 1, so every header is 61 characters and an
// entry takes 61 + 1 (newline) + its content, plus 2 for the blank line before every entry but the
// first. The items rank in their order: more "kettle"s rank higher, and the emoji, which are no
// words, add nothing to an item's length (BM25's, its words counted with repeats), so the third
// item's short text doesn't outrank the others'.
func TestPacketCut(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := teammateWithID(t, f, goldenTeammate, "Golden")
	header := packet.Header(memory.Item{ID: itemID(1), Revision: 1, Scope: "shared", Kind: memory.KindFact}.PacketItem())
	require.Len(t, header, 61)
	// "©" and "🍵" are one character each but two and four bytes: the limit counts characters.
	emoji := strings.TrimSpace(strings.Repeat("©🍵 ", 1300)) // 3,899 characters
	for _, it := range []recallItem{
		{id: itemID(1), content: "kettle kettle kettle " + emoji},                                    // 3,920: entry of 3,982
		{id: itemID(2), content: "kettle kettle " + strings.TrimSpace(strings.Repeat("🍵🍵🍵🍵 ", 790))}, // 3,963: cut
		{id: itemID(3), content: "kettle on"},                                                        // would fit, but follows the cut
	} {
		it.insert(t, f)
	}
	p := buildPacket(t, f, tm, "kettle")
	golden(t, "cut", p.Text)
	// Room for the second entry's text: 6,000 - 3,982 - 2 - 62 - 1 (marker) = 1,953 characters,
	// which end on a whole "🍵🍵🍵🍵": nothing to trim, so the packet is exactly full.
	assert.Equal(t, packet.MaxCharacters, utf8.RuneCountInString(p.Text))
	require.Equal(t, []string{itemID(1), itemID(2)}, packetIDs(p), "nothing follows the cut entry")
	assert.False(t, p.Entries[0].Truncated)
	assert.True(t, p.Entries[1].Truncated)
	assert.True(t, strings.HasSuffix(p.Text, " 🍵🍵🍵🍵"+packet.TruncationMarker))
	assert.Contains(t, p.Text, "\n\n"+packet.Header(p.Entries[1].Item.PacketItem())+"\nkettle kettle 🍵", "the header is never cut")

	for _, tc := range []struct {
		name    string
		second  int // content length of the second entry
		want    []string
		textLen int
	}{
		// 62 + 4,000 + 2 + 62 + 1,809 = 5,935: the third entry would need 2 + 62 + 1 + 1 (marker) for
		// one character of content: it is left out.
		{"no room after the header: left out", 1809, []string{itemID(1), itemID(2)}, 5935},
		// 62 + 4,000 + 2 + 62 + 1,799 = 5,925, and the third entry takes 2 + 62 + 11 = 75: exactly full,
		// whole.
		{"exactly full: whole", 1799, []string{itemID(1), itemID(2), itemID(3)}, 6000},
		// One more character in the second: 5,926 used, room for 6,000 - 5,926 - 64 - 1 = 9 characters of
		// "kettle note": cut to "kettle no…".
		{"one short: cut", 1800, []string{itemID(1), itemID(2), itemID(3)}, 6000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			tm := teammateWithID(t, f, goldenTeammate, "Golden")
			for _, it := range []recallItem{
				{id: itemID(1), content: "kettle kettle kettle " + filler(4000-21)},
				{id: itemID(2), content: "kettle kettle " + filler(tc.second-14)},
				{id: itemID(3), content: "kettle note"},
			} {
				it.insert(t, f)
			}
			p := buildPacket(t, f, tm, "kettle")
			require.Equal(t, tc.want, packetIDs(p))
			assert.Equal(t, tc.textLen, utf8.RuneCountInString(p.Text))
			for i, e := range p.Entries {
				assert.Equal(t, tc.name == "one short: cut" && i == 2, e.Truncated, "entry %d", i)
			}
			if tc.name == "one short: cut" {
				assert.True(t, strings.HasSuffix(p.Text, "\nkettle no"+packet.TruncationMarker), "%q", p.Text[len(p.Text)-40:])
			}
		})
	}
}

// TestRecallRankingRRF checks the fused order and scores against a hand computation (P2–P4).
//
// Request "green tea"; the fake embedder maps it to q = (1, 0, 0).
//
//	full-text list: P (pinned, no word: rank 0) 1, A (rank 0.4) 2, B (0.1) 3
//	vector list:    C (distance 1-1/√1.25 ≈ 0.106) 1, A (1-1/√2 ≈ 0.293) 2; D (distance 1) is past 0.4
//	scores:         P 1/61; A 1/62 + 1/62; C 1/61 (vector only); B 1/63
//	order:          P (pinned first), A, C, B
func TestRecallRankingRRF(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Ranker")
	emb := &fakeEmbedder{model: "test-3d", def: []float32{1, 0, 0}}
	f.with(memory.WithSemanticRecall(emb, memory.DefaultSemanticMaxDistance))

	pinned := recallItem{id: itemID(1), teammate: &tm, content: "Always answer in British English", pinned: true}.insert(t, f)
	a := recallItem{id: itemID(2), content: "Green tea, always green tea in the morning"}.insert(t, f)
	b := recallItem{id: itemID(3), teammate: &tm, content: "Tea is fine after dinner"}.insert(t, f)
	c := recallItem{id: itemID(4), content: "Prefers a hot drink after lunch"}.insert(t, f)
	d := recallItem{id: itemID(5), content: "Collects stamps"}.insert(t, f)
	embedItem(t, f, a.ID, 1, "test-3d", []float32{1, 1, 0})
	embedItem(t, f, c.ID, 1, "test-3d", []float32{1, 0.5, 0})
	embedItem(t, f, d.ID, 1, "test-3d", []float32{0, 1, 0})

	p := buildPacket(t, f, tm, "green tea")
	assert.Equal(t, memory.VectorStatus{State: memory.VectorUsed}, p.Vector)
	require.Equal(t, []string{pinned.ID, a.ID, c.ID, b.ID}, packetIDs(p))

	type want struct {
		ftPos, vecPos   int // 0: not in that list
		ftRank, vecDist float64
		score           float64
	}
	wants := []want{
		{ftPos: 1, ftRank: 0, score: 1.0 / 61},
		{ftPos: 2, ftRank: 0.4, vecPos: 2, vecDist: 1 - 1/math.Sqrt(2), score: 1.0/62 + 1.0/62},
		{vecPos: 1, vecDist: 1 - 1/math.Sqrt(1.25), score: 1.0 / 61},
		{ftPos: 3, ftRank: 0.1, score: 1.0 / 63},
	}
	for i, w := range wants {
		e := p.Entries[i]
		assert.InDelta(t, w.score, e.Score, 1e-15, "entry %d score", i)
		if w.ftPos == 0 {
			assert.Nil(t, e.FullTextPos, "entry %d is in the vector list only", i)
			assert.Nil(t, e.FullTextRank)
		} else {
			require.NotNil(t, e.FullTextPos, "entry %d", i)
			assert.Equal(t, w.ftPos, *e.FullTextPos, "entry %d full-text position", i)
			assert.InDelta(t, w.ftRank, *e.FullTextRank, 1e-6, "entry %d rank", i)
		}
		if w.vecPos == 0 {
			assert.Nil(t, e.VectorPos, "entry %d is in the full-text list only", i)
			assert.Nil(t, e.VectorDistance)
		} else {
			require.NotNil(t, e.VectorPos, "entry %d", i)
			assert.Equal(t, w.vecPos, *e.VectorPos, "entry %d vector position", i)
			assert.InDelta(t, w.vecDist, *e.VectorDistance, 1e-6, "entry %d distance", i)
		}
	}

	t.Run("equal scores fall to the item id", func(t *testing.T) {
		f := setup(t)
		tm := f.teammate(t, "Ties")
		f.with(memory.WithSemanticRecall(&fakeEmbedder{model: "m", def: []float32{0, 0, 1}}, 0.4))
		words := recallItem{id: itemID(9), content: "Saffron rice on Fridays"}.insert(t, f)
		vector := recallItem{id: itemID(8), content: "Paella night"}.insert(t, f)
		embedItem(t, f, vector.ID, 1, "m", []float32{0, 0, 2})
		p := buildPacket(t, f, tm, "saffron")
		require.Equal(t, []string{vector.ID, words.ID}, packetIDs(p), "both 1/61: the smaller id first")
		assert.Equal(t, p.Entries[0].Score, p.Entries[1].Score)
	})
	t.Run("more pinned items than the packet holds", func(t *testing.T) {
		f := setup(t)
		tm := f.teammate(t, "Pins")
		for n := 1; n <= packet.MaxEntries+3; n++ {
			recallItem{id: itemID(n), content: "rule number " + strconv.Itoa(n), pinned: true}.insert(t, f)
		}
		recallItem{id: itemID(99), content: "rule of thumb about tea"}.insert(t, f)
		p := buildPacket(t, f, tm, "tea")
		assert.Len(t, p.Entries, packet.MaxEntries)
		for _, e := range p.Entries {
			assert.True(t, e.Item.Pinned, "pinned items come first and fill the packet")
		}
	})
}

// TestRecallNoPadding: P6. A request with no searchable words gives the pinned items and nothing
// else; nothing visible gives the empty packet.
func TestRecallNoPadding(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Quiet")
	emb := &fakeEmbedder{model: "m", def: []float32{1, 0}}
	f.with(memory.WithSemanticRecall(emb, memory.DefaultSemanticMaxDistance))

	empty := buildPacket(t, f, tm, "What is the plan for today?")
	assert.Equal(t, "", empty.Text, "no visible item: empty")
	assert.Empty(t, empty.Entries)

	pin := recallItem{id: itemID(1), teammate: &tm, content: "Sign every email with Ada", pinned: true}.insert(t, f)
	other := recallItem{id: itemID(2), content: "What is the plan? It is in the shared drive"}.insert(t, f)
	embedItem(t, f, other.ID, 1, "m", []float32{1, 0})
	emb.calls.Store(0)
	for _, request := range []string{
		"", "   ", "the of and to is it was what should you", "What is it?", "?!... ,,, --- ((( ))) :: *** &&& |||",
		"\x00\xff", "🍵🍵🍵",
	} {
		p := buildPacket(t, f, tm, request)
		assert.Equal(t, []string{pin.ID}, packetIDs(p), "request %q", request)
		assert.Equal(t, memory.VectorStatus{State: memory.VectorSkipped, Reason: memory.VectorReasonNoWords}, p.Vector)
	}
	assert.Zero(t, emb.calls.Load(), "a request with no words is not embedded")

	p := buildPacket(t, f, tm, "shared drive")
	assert.ElementsMatch(t, []string{pin.ID, other.ID}, packetIDs(p))
	assert.Equal(t, int64(1), emb.calls.Load())
}

// hostileRequests are strings that must never make recall fail: tsquery syntax, quotes,
// backslashes, SQL, control characters, invalid UTF-8, huge requests, and the fuzz seeds.
func hostileRequests(t *testing.T) []string {
	t.Helper()
	requests := []string{
		`'`, `''`, `"`, `\`, `\\'`, `'\''`, `tea'`, `'tea`, `"tea"`, `'green' & 'tea'`,
		`&`, `|`, `!`, `:`, `*`, `(`, `)`, `<->`, `<2>`, `!!tea`, `tea:*`, `tea:A`, `green & | tea`,
		`(green | tea`, `green <-> <-> tea`, `:*:*`, `a:*B`, `&|!:*()<->`, `\'; \\ \x`,
		`'; DROP TABLE memory_items; --`, `tea'); DELETE FROM memory_items; --`, `$1 $2 ::tsquery`,
		"tea\x00green", "\xff\xfe\xfd", "\u202etea\u202c", "tea\u0000", "\t\r\n\v\f",
		strings.Repeat("a", 10000),
		strings.Repeat("tea ", 2500),
		strings.Repeat("&|!:*()<->'\\", 910),
		strings.Repeat("é", 10000),
		longWords(10000),
	}
	entries, err := os.ReadDir(filepath.Join("testdata", "fuzz", "FuzzTSQuery"))
	require.NoError(t, err)
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzTSQuery", e.Name()))
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		require.Len(t, lines, 2, e.Name())
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
		require.NoError(t, err, e.Name())
		requests = append(requests, s)
	}
	return requests
}

// longWords is n characters of many distinct words, more than recall looks for.
func longWords(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("word" + strconv.Itoa(i) + " ")
	}
	return b.String()[:n]
}

// TestRecallHostileRequests: no request can produce a tsquery syntax error or any other failure,
// with and without embeddings, through BuildPacketTx and RecallPreview (which refuses only NUL and
// invalid UTF-8, as bad input); and sanitising keeps the words (a hostile request that contains
// "tea" still finds tea).
func TestRecallHostileRequests(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Target")
	tea := recallItem{id: itemID(1), content: "Green tea in the afternoon"}.insert(t, f)
	pin := recallItem{id: itemID(2), teammate: &tm, content: "Be brief", pinned: true}.insert(t, f)
	items, revisions, _ := f.counts(t)

	requests := hostileRequests(t)
	check := func(t *testing.T) {
		for _, request := range requests {
			label := request
			if len(label) > 60 {
				label = label[:60] + "…"
			}
			p := buildPacket(t, f, tm, request)
			assert.Contains(t, packetIDs(p), pin.ID, "request %q", label)
			if slices.Contains(strings.Fields(memory.RequestWords(request)), "tea") {
				assert.Contains(t, packetIDs(p), tea.ID, "request %q keeps its words", label)
			}
			// recallPreview's query is an input like any other: NUL and invalid UTF-8 are refused
			// as bad input, everything else previews.
			_, err := f.svc.RecallPreview(user, tm, request)
			if strings.ContainsRune(request, 0) || !utf8.ValidString(request) {
				var bad *memory.ValidationError
				assert.ErrorAs(t, err, &bad, "preview of %q", label)
				continue
			}
			assert.NoError(t, err, "preview of %q", label)
		}
	}
	t.Run("full text", check)
	f.with(memory.WithSemanticRecall(&fakeEmbedder{model: "m", def: []float32{1, 0}}, 0.4))
	embedItem(t, f, tea.ID, 1, "m", []float32{1, 0})
	t.Run("with embeddings", check)

	i2, r2, _ := f.counts(t)
	assert.Equal(t, []int{items, revisions}, []int{i2, r2}, "nothing was changed")
}

// TestRecallVisibility: P1 — candidates, dismissed suggestions, forgotten and expired items and
// other teammates' items are never given, whatever the words, pins or embeddings say.
func TestRecallVisibility(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Mine")
	other := f.teammate(t, "Theirs")
	f.with(memory.WithSemanticRecall(&fakeEmbedder{model: "m", def: []float32{1, 0}}, 0.4))
	past := time.Now().Add(-time.Minute)
	future := time.Now().Add(time.Hour)
	visible := []recallItem{
		{id: itemID(1), content: "Shared: marzipan at Christmas"},
		{id: itemID(2), teammate: &tm, content: "Own: marzipan from Toledo"},
		{id: itemID(3), teammate: &tm, content: "Own: marzipan until next hour", expires: &future},
	}
	hidden := []recallItem{
		{id: itemID(11), teammate: &tm, content: "Candidate: marzipan", status: memory.StatusCandidate, pinned: true},
		{id: itemID(12), content: "Dismissed: marzipan", status: memory.StatusDismissed, pinned: true},
		{id: itemID(13), teammate: &tm, content: "Forgotten: marzipan", status: memory.StatusForgotten, pinned: true},
		{id: itemID(14), teammate: &tm, content: "Expired: marzipan", expires: &past, pinned: true},
		{id: itemID(15), teammate: &other, content: "Other teammate: marzipan", pinned: true},
		{id: itemID(16), content: "Shared but expired: marzipan", expires: &past},
	}
	var want []string
	for _, it := range visible {
		want = append(want, it.insert(t, f).ID)
		embedItem(t, f, it.id, 1, "m", []float32{1, 0})
	}
	for _, it := range hidden {
		it.insert(t, f)
		embedItem(t, f, it.id, 1, "m", []float32{1, 0})
	}
	p := buildPacket(t, f, tm, "marzipan")
	assert.ElementsMatch(t, want, packetIDs(p))
	for _, e := range p.Entries {
		assert.NotNil(t, e.FullTextPos)
		assert.NotNil(t, e.VectorPos, "hidden items didn't take the vector list's places either")
	}
	theirs := buildPacket(t, f, other, "marzipan")
	assert.Equal(t, []string{itemID(15), itemID(1)}, packetIDs(theirs), "the other teammate sees shared and its own")
}

// TestRecallEmbeddingRules: only the current revision's embedding by the configured model counts;
// a failing embedder falls back to full text, says why, and never fails the packet (P3).
func TestRecallEmbeddingRules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Vectors")
	emb := &fakeEmbedder{model: "current-model", def: []float32{1, 0, 0}}
	f.with(memory.WithSemanticRecall(emb, 0.4))

	stale := recallItem{id: itemID(1), content: "Umbrella in the hallway", revision: 2}.insert(t, f)
	embedItem(t, f, stale.ID, 1, "current-model", []float32{1, 0, 0}) // revision 1 of a revision-2 item
	otherModel := recallItem{id: itemID(2), content: "Raincoat on the hook"}.insert(t, f)
	embedItem(t, f, otherModel.ID, 1, "old-model", []float32{1, 0, 0})
	otherDims := recallItem{id: itemID(3), content: "Wellington boots"}.insert(t, f)
	embedItem(t, f, otherDims.ID, 1, "current-model", []float32{1, 0}) // a different size: not comparable
	current := recallItem{id: itemID(4), content: "Galoshes by the door"}.insert(t, f)
	embedItem(t, f, current.ID, 1, "current-model", []float32{1, 0.1, 0})
	far := recallItem{id: itemID(5), content: "Sunscreen"}.insert(t, f)
	embedItem(t, f, far.ID, 1, "current-model", []float32{0, 0, 1})

	p := buildPacket(t, f, tm, "what to wear outside in bad weather")
	assert.Equal(t, memory.VectorStatus{State: memory.VectorUsed}, p.Vector)
	assert.Equal(t, []string{current.ID}, packetIDs(p), "only the current revision, configured model and size, under the distance")

	for _, tc := range []struct {
		name   string
		err    error
		vector []float32
		want   memory.VectorStatus
	}{
		{"endpoint down", errors.New("connection refused"), nil, memory.VectorStatus{State: memory.VectorFailed, Reason: memory.VectorReasonEndpointFailed}},
		{"budget spent", errors.Join(errors.New("limit 100"), memory.ErrAIBudgetSpent), nil, memory.VectorStatus{State: memory.VectorFailed, Reason: memory.VectorReasonBudgetSpent}},
		{"NaN", nil, []float32{float32(math.NaN()), 0, 0}, memory.VectorStatus{State: memory.VectorFailed, Reason: memory.VectorReasonUnusable}},
		{"empty", nil, []float32{}, memory.VectorStatus{State: memory.VectorFailed, Reason: memory.VectorReasonUnusable}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := memory.NewService(f.pool, slog.New(slog.DiscardHandler),
				memory.WithSemanticRecall(&fakeEmbedder{model: "current-model", def: tc.vector, err: tc.err}, 0.4))
			p := buildPacketWith(t, svc, f.pool, tm, "galoshes please")
			assert.Equal(t, tc.want, p.Vector)
			assert.Equal(t, []string{current.ID}, packetIDs(p), "full text still finds the item")
			assert.Nil(t, p.Entries[0].VectorPos)
		})
	}

	t.Run("bad distance", func(t *testing.T) {
		for _, d := range []float64{0, -1, 2.5, math.NaN()} {
			var bad *memory.ValidationError
			assert.ErrorAs(t, memory.CheckSemanticMaxDistance(d), &bad, "distance %v", d)
			assert.Panics(t, func() { memory.WithSemanticRecall(emb, d) }, "distance %v", d)
		}
	})
}

// TestRecall1536Dimensions exercises the statement written for the HNSW index (1,536 dimensions),
// next to embeddings of another size by the same model.
func TestRecall1536Dimensions(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Wide")
	unit := func(i int, w float32) []float32 {
		v := make([]float32, 1536)
		v[i] = 1
		v[(i+1)%1536] = w
		return v
	}
	f.with(memory.WithSemanticRecall(&fakeEmbedder{model: "text-embedding-3-small", def: unit(7, 0)}, 0.4))
	near := recallItem{id: itemID(1), content: "Near"}.insert(t, f)
	embedItem(t, f, near.ID, 1, "text-embedding-3-small", unit(7, 0.5))
	far := recallItem{id: itemID(2), content: "Far"}.insert(t, f)
	embedItem(t, f, far.ID, 1, "text-embedding-3-small", unit(100, 0))
	small := recallItem{id: itemID(3), content: "Small"}.insert(t, f)
	embedItem(t, f, small.ID, 1, "text-embedding-3-small", []float32{1, 0})

	p := buildPacket(t, f, tm, "anything close")
	assert.Equal(t, memory.VectorStatus{State: memory.VectorUsed}, p.Vector)
	require.Equal(t, []string{near.ID}, packetIDs(p))
	assert.InDelta(t, 1-1/math.Sqrt(1.25), *p.Entries[0].VectorDistance, 1e-6)
}

// TestMemoryContextStates: P7. What a run was given is recorded with the packet, and later shows,
// per entry, whether it is unchanged, changed (with the current revision), forgotten or expired.
func TestMemoryContextStates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Context")
	ctx := context.Background()
	unchanged := recallItem{id: itemID(1), teammate: &tm, content: "Bakery opens at seven", pinned: true}.insert(t, f)
	changed := recallItem{id: itemID(2), content: "Bakery sells rye on Tuesdays"}.insert(t, f)
	forgotten := recallItem{id: itemID(3), teammate: &tm, key: ptr("bakery"), content: "Bakery owner is Marta"}.insert(t, f)
	expiring := recallItem{id: itemID(4), content: "Bakery discount this week", expires: ptr(time.Now().Add(time.Hour))}.insert(t, f)
	// Two long items of many distinct words, last in the packet (BM25 weighs their "bakery"s against
	// their length): the first is whole, the second cut.
	var many strings.Builder
	for i := range 650 {
		fmt.Fprintf(&many, " w%04d", i)
	}
	words := many.String()[1:] // 3,899 characters
	long := recallItem{id: itemID(5), content: "Bakery bakery " + words}.insert(t, f)
	cut := recallItem{id: itemID(6), content: "Bakery " + words}.insert(t, f)

	runID := insertRun(t, f, tm)
	var given memory.Packet
	bakery, err := memory.PrepareRecall(ctx, f.svc, tm, "bakery")
	require.NoError(t, err)
	require.NoError(t, pgx.BeginFunc(ctx, f.pool, func(tx pgx.Tx) error {
		var err error
		if given, err = memory.BuildPacketTx(ctx, f.svc, tx, tm, bakery); err != nil {
			return err
		}
		return memory.WriteContextsTx(ctx, tx, runID, given)
	}))
	require.Len(t, given.Entries, 6)
	require.Equal(t, unchanged.ID, given.Entries[0].Item.ID, "pinned first")

	_, err = f.svc.EditMemory(user, memory.EditInput{ID: changed.ID, BaseRevision: 1, Content: ptr("Bakery sells rye on Wednesdays")})
	require.NoError(t, err)
	_, err = f.pool.Exec(ctx, `
		UPDATE memory_items SET status = 'forgotten', content = '', key = NULL, content_hash = NULL,
		       forgotten_at = now(), revision = revision + 1
		 WHERE id = $1`, forgotten.ID)
	require.NoError(t, err)
	_, err = f.pool.Exec(ctx, `UPDATE memory_items SET expires_at = now() - interval '1 second' WHERE id = $1`, expiring.ID)
	require.NoError(t, err)

	entries, err := f.svc.MemoryContext(user, runID)
	require.NoError(t, err)
	require.Len(t, entries, 6)
	byID := map[string]memory.ContextEntry{}
	for i, e := range entries {
		assert.Equal(t, i+1, e.Position, "in packet order")
		assert.Equal(t, given.Entries[i].Item.ID, e.ItemID)
		byID[e.ItemID] = e
	}
	assert.Equal(t, memory.ContextUnchanged, byID[unchanged.ID].State)
	assert.Equal(t, 1, byID[unchanged.ID].CurrentRevision)

	assert.Equal(t, memory.ContextChanged, byID[changed.ID].State)
	assert.Equal(t, 1, byID[changed.ID].RevisionGiven)
	assert.Equal(t, 2, byID[changed.ID].CurrentRevision)
	assert.Equal(t, "Bakery sells rye on Wednesdays", byID[changed.ID].Item.Content, "the current state")

	assert.Equal(t, memory.ContextForgotten, byID[forgotten.ID].State)
	assert.Empty(t, byID[forgotten.ID].Item.Content, "no content once forgotten")
	assert.Nil(t, byID[forgotten.ID].Item.Key)

	assert.Equal(t, memory.ContextExpired, byID[expiring.ID].State)

	assert.False(t, byID[long.ID].Truncated)
	assert.True(t, byID[cut.ID].Truncated, "the cut entry is recorded as truncated")
	assert.Equal(t, memory.ContextUnchanged, byID[cut.ID].State)

	t.Run("access", func(t *testing.T) {
		_, err := f.svc.MemoryContext(worker, runID)
		assert.NoError(t, err)
		own := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialRun, RunID: runID, TeammateID: tm})
		_, err = f.svc.MemoryContext(own, runID)
		assert.NoError(t, err, "a run reads its own context")
		_, err = f.svc.MemoryContext(runOf(tm), runID)
		assert.ErrorIs(t, err, memory.ErrForbidden, "another run of the same teammate may not")
		otherTm := f.teammate(t, "Other")
		_, err = f.svc.MemoryContext(memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialRun, RunID: runID, TeammateID: otherTm}), runID)
		assert.ErrorIs(t, err, memory.ErrForbidden, "nor a run of another teammate")
		_, err = f.svc.MemoryContext(context.Background(), runID)
		assert.ErrorIs(t, err, memory.ErrUnauthenticated)
		_, err = f.svc.MemoryContext(user, "00000000-0000-4000-8000-000000000000")
		assert.ErrorIs(t, err, memory.ErrNotFound)
		var bad *memory.ValidationError
		_, err = f.svc.MemoryContext(user, "run-1")
		assert.ErrorAs(t, err, &bad)
	})
	t.Run("an empty packet records nothing", func(t *testing.T) {
		run := insertRun(t, f, tm)
		require.NoError(t, pgx.BeginFunc(ctx, f.pool, func(tx pgx.Tx) error {
			return memory.WriteContextsTx(ctx, tx, run, memory.Packet{})
		}))
		entries, err := f.svc.MemoryContext(user, run)
		require.NoError(t, err)
		assert.Empty(t, entries)
	})
}

// insertRun adds a running run of teammate tm (and its thread) directly.
func insertRun(t *testing.T, f fixture, tm string) string {
	t.Helper()
	var runID string
	require.NoError(t, f.pool.QueryRow(context.Background(), `
		WITH thread AS (INSERT INTO bot_threads (teammate_id, generation) VALUES ($1, '0:0:0') RETURNING id)
		INSERT INTO runs (teammate_id, thread_id, generation) SELECT $1, id, '0:0:0' FROM thread
		RETURNING id::text`, tm).Scan(&runID))
	return runID
}

// TestRecallPreviewAccess: recallPreview answers the user and the worker for any teammate, a run for
// its own teammate only, and shows why each entry was chosen.
func TestRecallPreviewAccess(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Preview")
	other := f.teammate(t, "Other")
	item := recallItem{id: itemID(1), teammate: &tm, content: "Takes the 8:15 ferry"}.insert(t, f)

	for _, ctx := range []context.Context{user, worker, runOf(tm)} {
		p, err := f.svc.RecallPreview(ctx, tm, "which ferry?")
		require.NoError(t, err)
		require.Equal(t, []string{item.ID}, packetIDs(p))
		assert.Equal(t, 1, *p.Entries[0].FullTextPos)
		assert.Positive(t, *p.Entries[0].FullTextRank)
		assert.InDelta(t, 1.0/61, p.Entries[0].Score, 1e-15)
		assert.Equal(t, memory.VectorStatus{State: memory.VectorNotConfigured}, p.Vector)
	}
	_, err := f.svc.RecallPreview(runOf(other), tm, "ferry")
	assert.ErrorIs(t, err, memory.ErrForbidden)
	_, err = f.svc.RecallPreview(context.Background(), tm, "ferry")
	assert.ErrorIs(t, err, memory.ErrUnauthenticated)
	_, err = f.svc.RecallPreview(user, "00000000-0000-4000-8000-000000000000", "ferry")
	assert.ErrorIs(t, err, memory.ErrNotFound)
	var bad *memory.ValidationError
	_, err = f.svc.RecallPreview(user, "not-an-id", "ferry")
	assert.ErrorAs(t, err, &bad)
}

// TestRecallFullTextUsesTermIndex: at 100,000 items the full-text statement reads the term
// frequencies of the request's lexemes with an index-only scan of memory_terms' primary key (P2,
// migration 000010) — no scan of the items or the postings, and no ranking of every match through
// the GIN index of the search vectors. The counts per scope (memory_term_scopes) and per scope and
// lexeme (memory_term_df) may be read whole when they fit in a few pages, as this small vocabulary's
// do.
func TestRecallFullTextUsesTermIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 100,000 items")
	}
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Big")
	start := time.Now()
	seedRecallItems(t, f, tm, 100_000)
	t.Logf("seeded 100,000 items in %v", time.Since(start).Round(time.Millisecond))

	for _, request := range []string{"Which kombucha does grandma like?", "kombucha sourdough"} {
		rows, err := f.pool.Query(context.Background(), "EXPLAIN "+memory.RecallFullTextSQL, tm, memory.RequestWords(request))
		require.NoError(t, err)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		plan := strings.Join(lines, "\n")
		assert.Contains(t, plan, "Index Only Scan using memory_terms_pkey on memory_terms", "request %q:\n%s", request, plan)
		for _, table := range []string{"memory_items", "memory_terms "} {
			assert.NotContains(t, plan, "Seq Scan on "+table, "request %q:\n%s", request, plan)
		}
		assert.NotContains(t, plan, "memory_items_recall_search", "request %q:\n%s", request, plan)
	}
}

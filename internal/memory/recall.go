package memory

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/packet"
)

// Recall's limits (RULES P2–P5).
const (
	// RecallListLength is how many items each of the two lists (full text, vector) keeps; package
	// packet fuses them.
	RecallListLength = 30
	// DefaultSemanticMaxDistance is MEMORY_SEMANTIC_MAX_DISTANCE's default: vector matches must be
	// closer than this cosine distance.
	DefaultSemanticMaxDistance = 0.4
)

// Bounds on the work a request can cause; see requestWords.
const (
	// maxRequestWords caps the distinct words of a request that full-text recall looks for, in order
	// of first appearance, so that a pasted document can't make every item a match worth ranking.
	maxRequestWords = 256
	// maxWordBytes: PostgreSQL skips words of 2,047 bytes or more (with a notice) when it indexes
	// text, so the items can't contain longer ones either.
	maxWordBytes = 2046
	// maxEmbeddingDimensions is the schema's bound on memory_embeddings.dimensions.
	maxEmbeddingDimensions = 16000
	// hnswDimensions is the size the HNSW index of migration 000021 covers.
	hnswDimensions = 1536
)

// QueryEmbedder embeds a recall request (P3).
type QueryEmbedder interface {
	// EmbedQuery returns the request's vector and the name of the model that made it. An error
	// (endpoint down, daily budget spent: wrap ErrAIBudgetSpent) makes recall fall back to full text.
	// Recall never logs the error, as it may quote the request; the embedder logs its own failures.
	EmbedQuery(ctx context.Context, text string) (vector []float32, model string, err error)
}

// semanticRecall is what WithSemanticRecall keeps in Service.embedder: the embedder and its cut-off.
type semanticRecall struct {
	QueryEmbedder
	maxDistance float64
	// sketchLimit replaces VectorSketchLimit when not zero (a test's; -1: the index for every
	// 1,536-dimension request).
	sketchLimit int
}

// CheckSemanticMaxDistance checks a cut-off for WithSemanticRecall: a cosine distance greater than 0
// and at most 2.
func CheckSemanticMaxDistance(d float64) error {
	if math.IsNaN(d) || d <= 0 || d > 2 {
		return invalid("MEMORY_SEMANTIC_MAX_DISTANCE", "must be greater than 0 and at most 2")
	}
	return nil
}

// VectorState says whether vector search took part in a packet.
type VectorState string

// The vector states of a packet.
const (
	// VectorNotConfigured: no embedder; the packet comes from full-text search alone.
	VectorNotConfigured VectorState = "not_configured"
	// VectorUsed: the request was embedded and the vector list was fused in.
	VectorUsed VectorState = "used"
	// VectorSkipped: the request has no searchable words, so nothing was embedded (P6: only pinned
	// items are given).
	VectorSkipped VectorState = "skipped"
	// VectorFailed: the request could not be embedded; full text alone was used (P3). Reason says why.
	VectorFailed VectorState = "failed"
)

// Reasons of VectorStatus; they never quote the request or the embedder's error.
const (
	VectorReasonNoWords        = "the request has no searchable words"
	VectorReasonBudgetSpent    = "daily AI budget spent"
	VectorReasonEndpointFailed = "embedding endpoint failed"
	VectorReasonUnusable       = "embedding endpoint returned an unusable vector"
)

// VectorStatus is the part vector search played in a packet.
type VectorStatus struct {
	State VectorState
	// Reason explains VectorSkipped and VectorFailed (one of the VectorReason constants).
	Reason string
}

// PacketEntry is one item of a packet with the reasons it was chosen.
type PacketEntry struct {
	Item *Item
	// FullTextRank is the item's ts_rank_cd (0 for a pinned item none of whose words matched) and
	// FullTextPos its 1-based position in the full-text list; both nil when it isn't in that list.
	FullTextRank *float64
	FullTextPos  *int
	// BM25Score is the item's BM25 score, which orders the full-text list's unpinned items
	// (recallBM25); nil for a pinned item and an item not in that list.
	BM25Score *float64
	// VectorDistance is the cosine distance to the request and VectorPos the 1-based position in the
	// vector list; both nil when the item isn't in that list.
	VectorDistance *float64
	VectorPos      *int
	// Score is the fused reciprocal-rank score: the sum over the lists of 1/(packet.FusionK+position).
	Score float64
	// Truncated: the entry's body was cut to fit packet.MaxCharacters.
	Truncated bool
}

// Packet is the bounded memory given to a run for one request (P1–P6): Text is the entries laid
// out by package packet (its doc says how), Entries the items in it, in order.
type Packet struct {
	Text    string
	Entries []PacketEntry
	Vector  VectorStatus
	// LeftOut counts what the packet left out and why; set by RecallPreviewWithLeftOut for the user
	// alone.
	LeftOut *LeftOut
	// MemoryOff: the teammate has "Use memory" off (switch.go); Text is MemoryOffNote and there are
	// no entries.
	MemoryOff bool
}

// RecallQuery is a recall request made ready for buildPacketTx by prepareRecall, outside any
// transaction: its sanitised words and, when vector search takes part, its vector.
type RecallQuery struct {
	request string
	words   string
	vector  VectorStatus
	// vector32 is the request's vector (unitVector), model the model that made it, dims its size;
	// set when vector.State is VectorUsed.
	vector32 []float32
	model    string
	dims     int
}

// prepareRecall readies request for a packet of teammateID (see buildPacketTx): with an embedder
// set and searchable words in the request, it embeds the request (P3). It must be called before
// the transaction that builds the packet opens: the embedding endpoint may take seconds, and
// reserving the AI budget needs a connection of its own, so a caller holding a connection while it
// embeds could wait for the very connections its peers hold (with a pool of N, N such callers wait
// forever). Here the words are counted in one short statement on a connection of its own, released
// before the endpoint is called. An unknown teammate is ErrNotFound (checked only when it would
// spend a request of the budget). No request makes it fail otherwise: a failing embedder only turns
// the vector half off, and says why.
func (s *Service) prepareRecall(ctx context.Context, teammateID, request string) (RecallQuery, error) {
	teammateID, err := parseID("teammateId", teammateID)
	if err != nil {
		return RecallQuery{}, err
	}
	q := RecallQuery{request: request, words: requestWords(request), vector: VectorStatus{State: VectorNotConfigured}}
	semantic, hasEmbedder := s.embedder.(semanticRecall)
	if !hasEmbedder {
		return q, nil
	}
	var (
		exists  bool
		lexemes int
	)
	if err := s.pool.QueryRow(ctx, qRecallWords, teammateID, q.words).Scan(&exists, &lexemes); err != nil {
		return RecallQuery{}, fmt.Errorf("prepare recall: %w", err)
	}
	if !exists {
		return RecallQuery{}, ErrNotFound
	}
	if lexemes == 0 {
		q.vector = VectorStatus{State: VectorSkipped, Reason: VectorReasonNoWords}
		return q, nil
	}
	vector, model, err := semantic.EmbedQuery(ctx, request)
	if err != nil && ctx.Err() != nil {
		return RecallQuery{}, fmt.Errorf("prepare recall: %w", ctx.Err())
	}
	unit, ok := unitVector(vector)
	switch {
	case errors.Is(err, ErrAIBudgetSpent):
		q.vector = VectorStatus{State: VectorFailed, Reason: VectorReasonBudgetSpent}
	case err != nil:
		q.vector = VectorStatus{State: VectorFailed, Reason: VectorReasonEndpointFailed}
	case !ok || model == "" || utf8.RuneCountInString(model) > 200 || !utf8.ValidString(model) || strings.ContainsRune(model, 0):
		q.vector = VectorStatus{State: VectorFailed, Reason: VectorReasonUnusable}
	default:
		q.vector = VectorStatus{State: VectorUsed}
		q.vector32, q.model, q.dims = unit, model, len(vector)
	}
	if q.vector.State == VectorFailed {
		s.log.WarnContext(ctx, "recall falls back to full-text search", "teammate", teammateID, "reason", q.vector.Reason)
	}
	return q, nil
}

// forRequest is q if it was prepared for request, and otherwise request's full-text query with the
// vector half off: a caller that learns its request only inside its transaction (a retry's stored
// message, read under lock) may not embed it there.
func (q RecallQuery) forRequest(request string) RecallQuery {
	if request == q.request {
		return q
	}
	out := RecallQuery{request: request, words: requestWords(request), vector: q.vector}
	if q.vector.State == VectorUsed {
		out.vector = VectorStatus{State: VectorFailed, Reason: VectorReasonEndpointFailed}
	}
	return out
}

// buildPacketTx builds the packet a run of teammateID gets for the request q was prepared for
// (prepareRecall, before tx opened), reading inside tx (so that StartRun builds it and records it
// with writeContextsTx in the transaction that checks the generation, G4). The caller has checked
// that its credential reaches the teammate. An unknown teammate is ErrNotFound. No request can make
// it fail: the words are sanitised, and the vector half was settled by prepareRecall (P3). It never
// waits on the network.
//
// What it does (RULES P1–P6):
//   - Visible items: active (confirmed), unexpired, in the shared scope or the teammate's.
//   - Full-text list: the request's words (see requestWords), normalised by PostgreSQL like the
//     items, OR-ed, matched against the stored search vector. Pinned items always match: they lead
//     the list (by their ts_rank_cd, 0 when no word matches), then the other matches by BM25
//     (recallBM25). Ties go to the smaller item id. Top RecallListLength.
//   - Vector list, when an embedder is set and the request has searchable words: the items whose
//     embedding of their current revision, by the embedder's model, is closer than the maximum
//     distance, nearest first (ties by item id). Top RecallListLength.
//   - Fusion: each list adds 1/(packet.FusionK+position); pinned items first, then by score (compared
//     exactly, as fractions), ties by item id. Top packet.MaxEntries, then cut to packet.MaxCharacters
//     (see Packet).
//   - Lessons (L2): pinned lessons come first of all, before the other pinned items, in the full-text
//     list and in the fusion, so they are laid out first and the other pinned items and the ranked
//     ones fill what remains; a pinned note that doesn't fit is the one cut, never a lesson ahead of
//     it. When the lessons alone exceed packet.MaxCharacters (or packet.MaxEntries), the packet holds
//     lessons only: the most relevant to the request first (by score, then id), whole while they
//     fit, the first that doesn't cut with packet.TruncationMarker, and the rest left out of that
//     packet. A teammate's lessons are not otherwise limited; the user sees them all on the Memory
//     tab and can merge or forget them.
func (s *Service) buildPacketTx(ctx context.Context, tx pgx.Tx, teammateID string, q RecallQuery) (Packet, error) {
	return s.buildPacket(ctx, tx, teammateID, q)
}

// buildPacketOnce is buildPacketTx outside any transaction (recallPreview): PostgreSQL runs the
// batch as one implicit transaction — read committed, each statement seeing what was committed when
// it started, as in inReadTx's, and the prepare's settings lasting until the end. A transaction of
// its own costs BEGIN and COMMIT on top: two statements that way measured about 4× the time of the
// batch on loopback (docs/PERFORMANCE.md), as much as the recall work itself for a teammate who
// sees a few hundred items.
func (s *Service) buildPacketOnce(ctx context.Context, teammateID string, q RecallQuery) (Packet, error) {
	return s.buildPacket(ctx, s.pool, teammateID, q)
}

// batchSender is a pool or a transaction.
type batchSender interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// buildPacket sends recall's two statements, qRecallPrepare and the lists' (packetStatement), in
// one pipelined batch on db: one round trip. The lists' statement runs even when the prepare finds
// no scope (it then finds nothing) or memory off (its rows are dropped unread); it chooses the
// vector list's path itself (recallVectorEither), so it doesn't wait for the prepare's count.
func (s *Service) buildPacket(ctx context.Context, db batchSender, teammateID string, q RecallQuery) (Packet, error) {
	teammateID, err := parseID("teammateId", teammateID)
	if err != nil {
		return Packet{}, err
	}
	var (
		pre        recallPrepared
		candidates []PacketEntry
		b          pgx.Batch
	)
	b.Queue(qRecallPrepare, prepareArgs(teammateID, q.vector.State == VectorUsed)...).QueryRow(func(row pgx.Row) (err error) {
		pre, err = scanPrepared(row, s.vectorSketchLimit())
		return err
	})
	query, args := s.packetStatement(teammateID, q)
	b.Queue(query, args...).Query(func(rows pgx.Rows) (err error) {
		candidates, err = pgx.CollectRows(rows, scanCandidate)
		return err
	})
	if err := db.SendBatch(ctx, &b).Close(); err != nil {
		return Packet{}, fmt.Errorf("build memory packet: %w", err)
	}
	return packetOf(q, pre, candidates)
}

// packetStatement is the statement of recall's lists for q and its arguments: the full-text list
// alone, or with the vector list (recallVectorEither for 1,536 dimensions, the sketch scan for any
// other size).
func (s *Service) packetStatement(teammateID string, q RecallQuery) (string, []any) {
	args := []any{teammateID, q.words}
	if q.vector.State != VectorUsed {
		return qRecallFullText, args
	}
	maxDistance := DefaultSemanticMaxDistance
	if semantic, ok := s.embedder.(semanticRecall); ok {
		maxDistance = semantic.maxDistance
	}
	args = append(args, q.vector32, q.model, maxDistance, q.dims)
	if q.dims == hnswDimensions {
		return qRecallHybrid1536, append(args, s.vectorSketchLimit())
	}
	return qRecallHybridSketch, args
}

// packetOf is the packet of q's candidates, given what the prepare found: ErrNotFound without the
// scope, and the memory-off packet when the teammate doesn't use memory.
func packetOf(q RecallQuery, pre recallPrepared, candidates []PacketEntry) (Packet, error) {
	if !pre.exists {
		return Packet{}, ErrNotFound
	}
	if !pre.useMemory {
		return offPacket(q.vector), nil
	}
	p := Packet{Vector: q.vector}
	p.Text, p.Entries = layOut(candidates)
	return p, nil
}

// layOut fuses recall's candidates and renders the packet (package packet), returning its text and
// the entries in it, scored and in order.
func layOut(candidates []PacketEntry) (string, []PacketEntry) {
	in := make([]packet.Candidate, len(candidates))
	for i, c := range candidates {
		in[i] = packet.Candidate{Item: c.Item.PacketItem(), FullTextPos: c.FullTextPos, VectorPos: c.VectorPos}
	}
	ranked := packet.Fuse(in)
	entries, items := make([]PacketEntry, len(ranked)), make([]packet.Item, len(ranked))
	for i, r := range ranked {
		entries[i], items[i] = candidates[r.Index], in[r.Index].Item
		entries[i].Score = r.Score
	}
	text, n, truncated := packet.Render(items)
	entries = entries[:n]
	if truncated {
		entries[n-1].Truncated = true
	}
	return text, entries
}

// PacketItem is what a packet shows of i.
func (i Item) PacketItem() packet.Item {
	return packet.Item{ID: i.ID, Revision: i.Revision, Scope: i.Scope, Kind: string(i.Kind), Key: i.Key,
		Content: i.Content, Pinned: i.Pinned, Lesson: i.Kind == KindLesson}
}

// scanCandidate reads an item of qRecall* with its places in the two lists.
func scanCandidate(row pgx.CollectableRow) (PacketEntry, error) {
	var e PacketEntry
	item, err := scanItem(withExtra{row, []any{&e.FullTextPos, &e.FullTextRank, &e.BM25Score, &e.VectorPos, &e.VectorDistance}})
	e.Item = &item
	return e, err
}

// withExtra scans a row of itemColumns followed by more columns.
type withExtra struct {
	pgx.Row
	extra []any
}

func (r withExtra) Scan(dest ...any) error { return r.Row.Scan(append(dest, r.extra...)...) }

// unitVector is v scaled to unit length, as recall and the embeddings' table are sent it (a
// float4[] parameter, cast to pgvector's types in SQL: no text to print or parse); false when v
// can't be a vector: empty, too long, holding NaN or infinity (which pgvector refuses), or all zeros
// (no direction, so no cosine distance to anything). Every vector stored or searched goes through
// it. The scale changes no cosine distance and no sketch, and keeps each coordinate within ±1: the
// half-precision copy the HNSW index compares (migration 000021) can't hold a value beyond ±65,504,
// and loses a tiny vector's coordinates to zero.
func unitVector(v []float32) ([]float32, bool) {
	if len(v) == 0 || len(v) > maxEmbeddingDimensions {
		return nil, false
	}
	var norm float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, false
		}
		norm += float64(x) * float64(x)
	}
	norm = math.Sqrt(norm)
	if norm == 0 || math.IsInf(norm, 0) {
		return nil, false
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / norm)
	}
	return out, true
}

// requestWords is the sanitised form of a request for full-text recall (P2): its words — maximal
// runs of characters other than white space, control characters and invalid UTF-8, punctuation
// included — lower-cased, each once, in order of first appearance, at most maxRequestWords of
// them, joined by single spaces. PostgreSQL then turns the words into lexemes (its parser, stemming,
// stop words) exactly as it did for the items, so that a word the items' parser keeps whole — an
// e-mail address, a URL, a host, a version, a decimal or signed number, a file path, a hyphenated
// compound (besides its parts) — is looked for whole: splitting it at its punctuation, as this did
// before, left "tea@kettle.example.com" looking for "tea" and "kettle", which the item holding the
// address doesn't have as lexemes. The statement quotes every lexeme it puts in the tsquery, so
// what reaches PostgreSQL can't be an operator (recall_queries.go). A word longer than PostgreSQL
// indexes (maxWordBytes) is replaced by its runs of letters and digits that aren't; the rest of
// such a run is dropped, as the items can't contain it either.
func requestWords(request string) string {
	var (
		out   strings.Builder
		seen  = make(map[string]struct{})
		count int
	)
	add := func(w string) {
		if w == "" || len(w) > maxWordBytes || count == maxRequestWords {
			return
		}
		if _, dup := seen[w]; dup {
			return
		}
		seen[w] = struct{}{}
		if count > 0 {
			out.WriteByte(' ')
		}
		out.WriteString(w)
		count++
	}
	var word strings.Builder
	flush := func() {
		w := word.String()
		word.Reset()
		if len(w) <= maxWordBytes {
			add(w)
			return
		}
		for _, run := range strings.FieldsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) }) {
			add(run)
		}
	}
	for i, r := range request {
		if count == maxRequestWords {
			break
		}
		invalid := r == utf8.RuneError && !strings.HasPrefix(request[i:], string(utf8.RuneError))
		if unicode.IsSpace(r) || unicode.IsControl(r) || invalid {
			flush()
			continue
		}
		word.WriteRune(lowerWordRune(r))
	}
	flush()
	return out.String()
}

// lowerWordRune lower-cases a letter, keeping it when its lower case would not be a word character.
func lowerWordRune(r rune) rune {
	if l := unicode.ToLower(r); unicode.IsLetter(l) || unicode.IsDigit(l) {
		return l
	}
	return r
}

// writeContextsTx records, inside tx, which items and revisions packet p gave run runID (P7), in
// packet order. An empty packet records nothing.
func writeContextsTx(ctx context.Context, tx pgx.Tx, runID string, p Packet) error {
	runID, err := parseID("runId", runID)
	if err != nil {
		return err
	}
	if len(p.Entries) == 0 {
		return nil
	}
	n := len(p.Entries)
	ids, revisions, positions, truncated := make([]string, n), make([]int32, n), make([]int32, n), make([]bool, n)
	for i, e := range p.Entries {
		ids[i], revisions[i], positions[i], truncated[i] = e.Item.ID, int32(e.Item.Revision), int32(i+1), e.Truncated
	}
	if _, err := tx.Exec(ctx, qContextsInsert, runID, ids, revisions, positions, truncated); err != nil {
		return fmt.Errorf("record memory context: %w", err)
	}
	return nil
}

// RecallPreview returns the packet a run of teammateID would get now for query, in a read-only
// transaction, with each entry's ranks, distance and score so the user can see why it was chosen.
// The user and the worker may preview any teammate; a run only its own.
func (s *Service) RecallPreview(ctx context.Context, teammateID, query string) (Packet, error) {
	return s.recallPreview(ctx, teammateID, query, false)
}

// recallPreview is RecallPreview; withLeftOut also counts, for the user, what the packet left out.
func (s *Service) recallPreview(ctx context.Context, teammateID, query string, withLeftOut bool) (Packet, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return Packet{}, err
	}
	if teammateID, err = parseID("teammateId", teammateID); err != nil {
		return Packet{}, err
	}
	// The query is a request like startRun's message: the same rules (no NUL, valid UTF-8).
	if err := checkText("query", query, MaxMessageLength, false); err != nil {
		return Packet{}, err
	}
	if !c.canReadTeammate(teammateID) {
		return Packet{}, ErrForbidden
	}
	// Embedded before the transaction opens: see prepareRecall.
	start := time.Now()
	q, err := s.prepareRecall(ctx, teammateID, query)
	var p Packet
	if err == nil {
		leftOut := withLeftOut && c.Kind == CredentialUser
		if !leftOut {
			p, err = s.buildPacketOnce(ctx, teammateID, q)
		} else {
			err = s.inReadTx(ctx, func(tx pgx.Tx) error {
				if p, err = s.buildPacketTx(ctx, tx, teammateID, q); err != nil || !leftOut {
					return err
				}
				out, err := leftOutTx(ctx, tx, teammateID, q, p)
				p.LeftOut = &out
				return err
			})
		}
	}
	switch {
	case errors.Is(err, ErrNotFound):
		return Packet{}, ErrNotFound
	case err != nil:
		return Packet{}, fmt.Errorf("recall preview: %w", err)
	}
	s.countRecall("preview", time.Since(start), p)
	items := make([]Item, len(p.Entries))
	for i, e := range p.Entries {
		items[i] = *e.Item
	}
	if err := withholdForRun(ctx, s.pool, c, items); err != nil { // S4
		return Packet{}, err
	}
	for i := range p.Entries {
		p.Entries[i].Item = &items[i]
	}
	return p, nil
}

// ContextState is what became of an item given to a run (P7).
type ContextState string

// The context states.
const (
	// ContextUnchanged: the item is still at the revision the run was given.
	ContextUnchanged ContextState = "unchanged"
	// ContextChanged: the item has a newer revision (CurrentRevision).
	ContextChanged ContextState = "changed"
	// ContextForgotten: the item was forgotten; its content is gone.
	ContextForgotten ContextState = "forgotten"
	// ContextExpired: the item's expiry has passed, so runs no longer get it.
	ContextExpired ContextState = "expired"
)

// ContextEntry is one item given to a run, and its state now.
type ContextEntry struct {
	ItemID          string
	RevisionGiven   int
	CurrentRevision int
	// Position is the entry's 1-based place in the packet.
	Position  int
	Truncated bool
	// State is, in this order of precedence: forgotten, expired, changed, unchanged.
	State ContextState
	// Item is the item's current state (no content once forgotten).
	Item Item
}

// MemoryContext lists what run runID was given (P7): what was provided, not what the model relied
// on. The user and the worker may read any run's; a run credential only its own run's.
func (s *Service) MemoryContext(ctx context.Context, runID string) ([]ContextEntry, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return nil, err
	}
	if runID, err = parseID("runId", runID); err != nil {
		return nil, err
	}
	if c.Kind == CredentialRun && c.RunID != runID {
		return nil, ErrForbidden
	}
	var teammateID string
	if err := s.pool.QueryRow(ctx, qRunTeammate, runID).Scan(&teammateID); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("memory context: %w", err)
	}
	if !c.canReadTeammate(teammateID) {
		return nil, ErrForbidden
	}
	rows, err := s.pool.Query(ctx, qContexts, runID)
	if err != nil {
		return nil, fmt.Errorf("memory context: %w", err)
	}
	entries, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ContextEntry, error) {
		var (
			e       ContextEntry
			expired bool
		)
		item, err := scanItem(withExtra{row, []any{&e.RevisionGiven, &e.Position, &e.Truncated, &expired}})
		if err != nil {
			return e, err
		}
		e.Item, e.ItemID, e.CurrentRevision = item, item.ID, item.Revision
		switch {
		case item.Status == StatusForgotten:
			e.State = ContextForgotten
		case expired:
			e.State = ContextExpired
		case item.Revision != e.RevisionGiven:
			e.State = ContextChanged
		default:
			e.State = ContextUnchanged
		}
		return e, nil
	})
	if err != nil {
		return nil, fmt.Errorf("memory context: %w", err)
	}
	items := make([]Item, len(entries))
	for i, e := range entries {
		items[i] = e.Item
	}
	if err := withholdForRun(ctx, s.pool, c, items); err != nil { // S4
		return nil, err
	}
	for i := range entries {
		entries[i].Item = items[i]
	}
	return entries, nil
}

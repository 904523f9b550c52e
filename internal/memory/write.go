package memory

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/intent"
	"github.com/open-bot/memory/internal/memory/memorydb"
)

// CreateInput is a new item the user writes (always active and confirmed: the user wrote it).
type CreateInput struct {
	Scope     Scope
	Kind      Kind
	Key       *string
	Content   string
	Pinned    bool
	ExpiresAt *time.Time
	// IdempotencyKey, when set, makes a retry return this create's item instead of creating
	// another (idempotency.go).
	IdempotencyKey *string
}

// EditInput changes an active item, based on the revision the editor read (R2). Nil fields keep
// their value; Key pointing at "" removes the key; ClearExpiresAt removes the expiry.
type EditInput struct {
	ID             string
	BaseRevision   int
	Content        *string
	Key            *string
	Kind           *Kind
	Pinned         *bool
	ExpiresAt      *time.Time
	ClearExpiresAt bool
}

// state is what a revision records.
type state struct {
	content   string
	key       *string
	kind      Kind
	pinned    bool
	expiresAt *time.Time
}

func itemState(i Item) state {
	return state{content: i.Content, key: i.Key, kind: i.Kind, pinned: i.Pinned, expiresAt: i.ExpiresAt}
}

func revisionState(r Revision) state {
	return state{content: r.Content, key: r.Key, kind: r.Kind, pinned: r.Pinned, expiresAt: r.ExpiresAt}
}

// revision is the revision row that records st as revision n of item itemID.
func (st state) revision(itemID string, n int, action Action, actor string, basedOn *int, runID *string) memorydb.RevisionInsertParams {
	return memorydb.RevisionInsertParams{
		ItemID: itemID, Revision: n, Content: st.content, Key: st.key, Kind: string(st.kind), Pinned: st.pinned,
		ExpiresAt: st.expiresAt, Action: string(action), Actor: actor, BasedOn: basedOn, RunID: runID,
	}
}

func (a state) equal(b state) bool {
	return a.content == b.content && eqPtr(a.key, b.key) && a.kind == b.kind && a.pinned == b.pinned &&
		((a.expiresAt == nil && b.expiresAt == nil) ||
			(a.expiresAt != nil && b.expiresAt != nil && a.expiresAt.Equal(*b.expiresAt)))
}

func eqPtr[T comparable](a, b *T) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// CreateMemory saves a new active item in a scope (user only). It bumps the scope's generation (G1).
// With an idempotency key, a retry of the same create answers the item the first one made, as it is
// now, and writes nothing (idempotency.go).
func (s *Service) CreateMemory(ctx context.Context, in CreateInput) (Item, error) {
	c, err := require(ctx, CredentialUser)
	if err != nil {
		return Item{}, err
	}
	sc, err := scopeOf(in.Scope)
	if err != nil {
		return Item{}, err
	}
	if in.Kind == "" {
		in.Kind = KindFact
	}
	if !in.Kind.valid() {
		return Item{}, invalid("kind", "must be fact, preference, lesson or note")
	}
	if err := checkContent(in.Content); err != nil {
		return Item{}, err
	}
	key, err := normalizeKey(in.Key)
	if err != nil {
		return Item{}, err
	}
	if err := checkExpiry(in.ExpiresAt, time.Now()); err != nil {
		return Item{}, err
	}
	var expiresAt *time.Time
	if in.ExpiresAt != nil {
		expiresAt = new(in.ExpiresAt.UTC())
	}
	once, err := s.idempotencyFor(c, in.IdempotencyKey, opCreateMemory, struct {
		Scope     string     `json:"scope"`
		Kind      Kind       `json:"kind"`
		Key       *string    `json:"key"`
		Content   string     `json:"content"`
		Pinned    bool       `json:"pinned"`
		ExpiresAt *time.Time `json:"expiresAt"`
	}{sc.String(), in.Kind, key, in.Content, in.Pinned, expiresAt})
	if err != nil {
		return Item{}, err
	}
	var (
		item     Item
		replayed bool
	)
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		first, err := once.claimTx(ctx, tx)
		if err != nil || first != nil {
			if first != nil {
				var items []Item
				if items, err = replayItemsTx(ctx, tx, first); err == nil {
					item, replayed = items[0], true
				}
			}
			return err
		}
		if err := lockScopeTx(ctx, tx, sc.String()); err != nil {
			return err
		}
		item, err = s.insertItemTx(ctx, tx, newItem{
			scope: sc, state: state{content: in.Content, key: key, kind: in.Kind, pinned: in.Pinned, expiresAt: in.ExpiresAt},
			status: StatusActive, source: SourceUser, actor: ActorUser,
		})
		if err != nil {
			return err
		}
		return once.answerTx(ctx, tx, answer{itemIDs: []string{item.ID}})
	})
	if err != nil {
		return Item{}, wrapUnlessDomain("create memory", err)
	}
	if replayed {
		s.log.InfoContext(ctx, "memory create retried: the first answer", "item", item.ID)
		return item, nil
	}
	s.log.InfoContext(ctx, "memory created", "item", item.ID, "scope", item.Scope)
	return item, nil
}

// EditMemory writes a new revision of an active item (user only): action "pin" when only the pin
// changed, "edit" otherwise. A stale BaseRevision is a *ConflictError naming the current one (R2).
func (s *Service) EditMemory(ctx context.Context, in EditInput) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	if in.Content != nil {
		if err := checkContent(*in.Content); err != nil {
			return Item{}, err
		}
	}
	var key *string
	if in.Key != nil {
		k, err := normalizeKey(in.Key)
		if err != nil {
			return Item{}, err
		}
		key = k
	}
	if in.Kind != nil && !in.Kind.valid() {
		return Item{}, invalid("kind", "must be fact, preference, lesson or note")
	}
	if in.ExpiresAt != nil && in.ClearExpiresAt {
		return Item{}, invalid("expiresAt", "can't be set and cleared at once")
	}
	if err := checkExpiry(in.ExpiresAt, time.Now()); err != nil {
		return Item{}, err
	}
	return s.revise(ctx, in.ID, in.BaseRevision, func(_ context.Context, _ pgx.Tx, cur Item) (state, Action, error) {
		next := itemState(cur)
		if in.Content != nil {
			next.content = *in.Content
		}
		if in.Key != nil {
			next.key = key
		}
		if in.Kind != nil {
			next.kind = *in.Kind
		}
		if in.Pinned != nil {
			next.pinned = *in.Pinned
		}
		if in.ExpiresAt != nil {
			next.expiresAt = in.ExpiresAt
		}
		if in.ClearExpiresAt {
			next.expiresAt = nil
		}
		onlyPin := next.pinned != cur.Pinned
		if onlyPin {
			probe := next
			probe.pinned = cur.Pinned
			onlyPin = probe.equal(itemState(cur))
		}
		if onlyPin {
			return next, ActionPin, nil
		}
		return next, ActionEdit, nil
	})
}

// RestoreRevision brings back an earlier revision's content, key, kind, pin and expiry as a new
// revision (R3), based on baseRevision.
func (s *Service) RestoreRevision(ctx context.Context, id string, revision, baseRevision int) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	return s.revise(ctx, id, baseRevision, func(ctx context.Context, tx pgx.Tx, cur Item) (state, Action, error) {
		if revision < 1 || revision >= cur.Revision {
			return state{}, "", invalid("revision", "must name an earlier revision of the item")
		}
		st, err := revisionStateTx(ctx, tx, cur.ID, revision)
		return st, ActionRestore, err
	})
}

// UndoEdit undoes the save that produced revision: it restores revision-1 as a new revision, based
// on revision, so it fails with a conflict if anyone changed the item since that save (R3).
func (s *Service) UndoEdit(ctx context.Context, id string, revision int) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	return s.revise(ctx, id, revision, func(ctx context.Context, tx pgx.Tx, cur Item) (state, Action, error) {
		if revision < 2 {
			return state{}, "", invalid("revision", "the first revision has nothing before it to go back to")
		}
		st, err := revisionStateTx(ctx, tx, cur.ID, revision-1)
		return st, ActionUndo, err
	})
}

// revisionStateTx reads what revision n of item id recorded.
func revisionStateTx(ctx context.Context, tx pgx.Tx, id string, n int) (state, error) {
	row, err := queries(tx).RevisionGet(ctx, memorydb.RevisionGetParams{ItemID: id, Revision: n})
	if err != nil {
		return state{}, err
	}
	return revisionState(revisionFromRow(row)), nil
}

// reviseFunc computes the next state of an active item and the action that describes it.
type reviseFunc func(ctx context.Context, tx pgx.Tx, cur Item) (state, Action, error)

// revise runs one change of an active item as the user: lock the scope, check the base revision,
// write the next revision, bump the generation, notify — all in one transaction (R1, R2, G1).
func (s *Service) revise(ctx context.Context, id string, base int, next reviseFunc) (Item, error) {
	if base < 1 {
		return Item{}, invalid("baseRevision", "must be a revision number (1 or more)")
	}
	out, err := s.changeItem(ctx, "revise memory", id, func(tx pgx.Tx, cur Item) (Item, error) {
		if err := checkBase(cur, base); err != nil {
			return Item{}, err
		}
		if cur.Status != StatusActive {
			return Item{}, invalid("id", "only active memories can be changed; confirm or dismiss a suggestion instead")
		}
		st, action, err := next(ctx, tx, cur)
		if err != nil {
			return Item{}, err
		}
		if st.equal(itemState(cur)) {
			return Item{}, invalid("input", "changes nothing")
		}
		return s.writeRevisionTx(ctx, tx, cur, st, StatusActive, action, ActorUser, nil)
	})
	if err != nil {
		return Item{}, err
	}
	s.log.InfoContext(ctx, "memory revised", "item", out.ID, "revision", out.Revision)
	return out, nil
}

// changeItem is the prologue of every change a user's request makes to one item (the caller has
// checked the credential): it validates the id, then, in one transaction, locks the item's scope
// and the item (R1) and runs change on the item as it is under the locks. A forgotten item doesn't
// exist (F1): ErrNotFound. Errors other than the domain's are wrapped with op.
func (s *Service) changeItem(ctx context.Context, op, id string, change func(tx pgx.Tx, cur Item) (Item, error)) (Item, error) {
	id, err := parseID("id", id)
	if err != nil {
		return Item{}, err
	}
	var out Item
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		cur, err := lockItemTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if cur.Status == StatusForgotten {
			return ErrNotFound
		}
		out, err = change(tx, cur)
		return err
	})
	if err != nil {
		return Item{}, wrapUnlessDomain(op, err)
	}
	return out, nil
}

// lockScopeTx takes scope's lock (R1). An unknown teammate scope is ErrNotFound.
func lockScopeTx(ctx context.Context, tx pgx.Tx, scope string) error {
	_, err := queries(tx).ScopeLock(ctx, scope)
	return err
}

// lockItemTx locks the item's scope, then the item, and returns the item as it is under the lock.
// The two statements travel in one round trip and run in that order.
func lockItemTx(ctx context.Context, tx pgx.Tx, id string) (Item, error) {
	b := newBatch()
	b.q.ScopeLockOfItem(ctx, id) // no row: no such item
	row, _ := b.q.ItemGetForUpdate(ctx, id)
	if err := b.send(ctx, tx); err != nil {
		return Item{}, err
	}
	return itemFromRow(row), nil
}

// checkBase is R2: a write based on an older revision than cur's conflicts, naming the current
// one. A base *ahead* of it was never read from this item, so it is bad input, not a conflict.
func checkBase(cur Item, base int) error {
	switch {
	case base > cur.Revision:
		return baseAhead("baseRevision", cur)
	case base < cur.Revision:
		return &ConflictError{Current: cur.Revision}
	}
	return nil
}

// baseAhead is the error for field, a base revision ahead of cur's (see checkBase).
func baseAhead(field string, cur Item) error {
	return invalid(field, fmt.Sprintf("is ahead of the item's current revision %d", cur.Revision))
}

// newItem is an item to insert with its first revision.
type newItem struct {
	scope           Scope
	state           state
	status          Status
	source          Source
	actor           string
	evidence        *string
	sourceRunID     *string
	sourceMessageID *string
	targetItemID    *string
	targetRevision  *int
	// proposesForget: a suggestion to forget targetItemID (A5); it has no text of its own.
	proposesForget bool
	// waitReason and waitWords say why a suggestion waits (A8): the judge's code and the deciding
	// words of the user's message (nil when none); "" and nil for anything but a suggestion.
	waitReason intent.Reason
	waitWords  *string
}

// insertItemTx inserts an item and its revision 1 under the scope's lock (held by the caller); an
// active item bumps the generation. It notifies the change.
func (s *Service) insertItemTx(ctx context.Context, tx pgx.Tx, n newItem) (Item, error) {
	st := n.state
	q := queries(tx)
	row, err := q.ItemInsert(ctx, memorydb.ItemInsertParams{
		TeammateID: n.scope.TeammateID, Kind: string(st.kind), Key: st.key, Content: st.content, Status: string(n.status),
		Pinned: st.pinned, Source: string(n.source), Evidence: n.evidence, WaitReason: reasonOrNil(n.waitReason),
		WaitWords: n.waitWords, SourceRunID: n.sourceRunID, SourceMessageID: n.sourceMessageID,
		TargetItemID: n.targetItemID, TargetRevision: n.targetRevision, ExpiresAt: st.expiresAt,
		ContentHash: contentHashOrNil(st.content), ProposesForget: n.proposesForget,
	})
	if err != nil {
		return Item{}, err
	}
	item := itemFromRow(row)
	if err := q.RevisionInsert(ctx, st.revision(item.ID, 1, ActionCreate, n.actor, nil, n.sourceRunID)); err != nil {
		return Item{}, err
	}
	if err := announceTx(ctx, tx, item, ActionCreate); err != nil {
		return Item{}, err
	}
	return item, s.enqueueEmbedTx(ctx, tx, item) // I1: a no-op unless active and embeddings are on
}

// reasonOrNil is the wait reason an item keeps: none for "".
func reasonOrNil(r intent.Reason) *string {
	if r == "" {
		return nil
	}
	s := string(r)
	return &s
}

// contentHashOrNil is the hash items keep of their text; a forget proposal has none.
func contentHashOrNil(content string) []byte {
	if content == "" {
		return nil
	}
	return ContentHash(content)
}

// writeRevisionTx records st as the item's next revision and makes it current, under the scope's
// lock (held by the caller). It bumps the generation when active memory changed, and notifies. The
// writes and the announcement travel in one round trip: what they need of the revised item is known
// before it is written.
func (s *Service) writeRevisionTx(ctx context.Context, tx pgx.Tx, cur Item, st state, status Status, action Action, actor string, runID *string) (Item, error) {
	next := cur
	next.Revision, next.Status = cur.Revision+1, status
	next.Content, next.Key, next.Kind, next.Pinned, next.ExpiresAt = st.content, st.key, st.kind, st.pinned, st.expiresAt
	hash := contentHashOrNil(st.content)
	b := newBatch()
	b.q.RevisionInsert(ctx, st.revision(cur.ID, next.Revision, action, actor, &cur.Revision, runID))
	row, _ := b.q.ItemRevise(ctx, memorydb.ItemReviseParams{
		ID: cur.ID, Revision: next.Revision, Content: st.content, Key: st.key, Kind: string(st.kind), Pinned: st.pinned,
		ExpiresAt: st.expiresAt, ContentHash: hash, Status: string(status),
	})
	if err := queueAnnouncement(ctx, b, next, action, cur.Kind == KindLesson); err != nil {
		return Item{}, err
	}
	// The embed job and the check for proposals this revision applies travel with the write, so an
	// edit is BEGIN, the locks, this batch and COMMIT (TestEditRoundTrips).
	applied := &memorydb.ItemProposalsAppliedCountRow{}
	if status == StatusActive {
		appliedHash := hash
		if appliedHash == nil {
			appliedHash = ContentHash(st.content)
		}
		applied, _ = b.q.ItemProposalsAppliedCount(ctx, memorydb.ItemProposalsAppliedCountParams{
			ItemID: cur.ID, ContentHash: appliedHash,
		})
		if err := s.enqueueEmbedTx(ctx, b.queue(), next); err != nil {
			return Item{}, err
		}
	}
	if err := b.send(ctx, tx); err != nil {
		return Item{}, err
	}
	item := itemFromRow(row)
	if err := refreshAboutMeIfSharedTx(ctx, tx, item); err != nil {
		return Item{}, err
	}
	if applied.Waiting > 0 {
		if err := resolveAppliedProposalsTx(ctx, tx, item, actor, runID); err != nil {
			return Item{}, err
		}
	}
	return item, nil
}

// announceTx brings the projections in line, bumps the scope's generation if the change touched
// active memory (G1: candidates don't count) and queues the id-only event — the lesson projection,
// the bump and the event in one round trip.
func announceTx(ctx context.Context, tx pgx.Tx, item Item, action Action) error {
	b := newBatch()
	if err := queueAnnouncement(ctx, b, item, action, item.Kind == KindLesson); err != nil {
		return err
	}
	if err := b.send(ctx, tx); err != nil {
		return err
	}
	return refreshAboutMeIfSharedTx(ctx, tx, item)
}

// queueAnnouncement queues announceTx's statements but the about_me refresh (which must read the
// scope after the change). wasLesson says whether the item was a lesson before the change.
func queueAnnouncement(ctx context.Context, b *batch, item Item, action Action, wasLesson bool) error {
	queueLessonProjection(ctx, b, item, wasLesson)
	bump := item.Status == StatusActive
	if bump {
		b.q.GenerationBump(ctx, item.Scope)
	}
	return queueNotify(ctx, b, Event{
		Scope: item.Scope, ItemID: item.ID, Revision: item.Revision, Action: string(action),
		Status: string(item.Status), Generation: bump, Candidate: item.Status == StatusCandidate && action == ActionCreate,
	})
}

// SweepExpiry announces a generation change for every scope in which items expired (or stopped
// being expired) since the last sweep (G2, G7). It returns how many scopes it announced.
// The shared scope's about_me projection leaves out expired items, so it is re-rendered too.
func (s *Background) SweepExpiry(ctx context.Context) (int, error) {
	var n int
	err := s.service().inWriteTx(ctx, func(tx pgx.Tx) error {
		announced, err := queries(tx).GenerationsSweepExpired(ctx, EventChannel)
		if err != nil {
			return err
		}
		n = len(announced)
		if slices.ContainsFunc(announced, func(r *memorydb.GenerationsSweepExpiredRow) bool { return r.Scope == ScopeShared }) {
			return refreshAboutMeTx(ctx, tx)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("expiry sweep: %w", err)
	}
	return n, nil
}

package memory

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/intent"
	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Suppressed suggestions: no tombstone oracle (F3).
//
// A suggestion whose text matches a tombstone is dropped: the user never sees it. But a run must not
// learn that it was dropped, or it could try every PIN with remember() and learn the forgotten one
// from the one answer that differs. So a suppressed suggestion is answered exactly as an ordinary
// suggestion of that run would be, and stays indistinguishable from one afterwards:
//
//   - The answer is the ordinary one: SUGGESTED, the judge's reason, the same message, and an item
//     built field by field as insertItemTx builds a suggestion's — a fresh random id (gen_random_uuid,
//     like every item's), revision 1, status candidate, the run's own text, key and evidence, the
//     database's now() as its times. Before it, the same checks in the same order: the text already
//     active (UNCHANGED), a waiting suggestion of the same text (merged), the run's budget (REFUSED).
//   - The run's budget counts it (ItemsSuggestedByRun counts memory_suppressed too), so the calls
//     after it are refused at the same point as after an ordinary one.
//   - Its id behaves like the id of a suggestion waiting for the user, which a run can't read: a
//     read, an update or a forget of it answers NOT_FOUND after the same checks — the scope
//     (visibleScope and Item look the id up in memory_suppressed too), the run's lock and generation
//     (G5) — as for a waiting suggestion.
//   - The same text suggested again merges into it as into a waiting suggestion: counted again, and
//     answered with the item as first suggested (its first wording, key and evidence) when this run
//     made it, without one when another run did. For the run that made it, it waits as long as the
//     run lasts. For later runs — which could otherwise compare "already waiting" with "suggested" —
//     it waits while a visible suggestion of its run still waits (the user hasn't settled that run's
//     suggestions yet) or, when its run made no visible one, until the user next confirms or
//     dismisses a suggestion of its scope: once the user has gone through what the run suggested, or
//     through the list, it is settled as the real ones would be.
//   - Nothing else moves: a suggestion never bumps a generation (G1), its events are the user's alone
//     (EventVisible), and it is in no list, search or packet a run reads.
//
// The user never sees it: it is not in memory_items. The row in memory_suppressed holds no text
// (F5): its keyed_hash is an HMAC under the installation's tombstone key (so, like a tombstone, a dump
// alone can't be tried against it), and what the run was told about it is sealed — AES-256-GCM under
// a key derived from the same installation key, padded to whole 4 KiB blocks so the ciphertext's
// length doesn't give the text's away. It goes with its scope and its run.
//
// What a run can still observe is what no answer can hide: timing, and the user's own reactions to
// the suggestions they do see.

// sealBlock is the size sealed plaintexts are padded to a multiple of.
const sealBlock = 4096

// sealedSuggestion is what a run was told about a suppressed suggestion, kept sealed so that the
// same text suggested again by that run is answered with the item as first suggested.
type sealedSuggestion struct {
	Content        string        `json:"c"`
	Key            *string       `json:"k,omitempty"`
	Kind           Kind          `json:"t"`
	Pinned         bool          `json:"p,omitempty"`
	ExpiresAt      *time.Time    `json:"x,omitempty"`
	Evidence       *string       `json:"e,omitempty"`
	WaitReason     intent.Reason `json:"r,omitempty"`
	WaitWords      *string       `json:"w,omitempty"`
	TargetRevision *int          `json:"v,omitempty"`
}

// suppressedHash is what memory_suppressed keeps of a text: its content hash (the merge's
// comparison, like content_hash) keyed with the installation key.
func (s *Service) suppressedHash(text string) []byte { return s.mac("suppressed", ContentHash(text)) }

// sealer is the AEAD that seals suppressed suggestions: AES-256-GCM under a key derived from the
// tombstone key.
func (s *Service) sealer() (cipher.AEAD, error) {
	block, err := aes.NewCipher(s.mac("seal", nil))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// seal encrypts v: a random nonce, then the ciphertext of its length-prefixed JSON padded with
// zeros to a multiple of sealBlock.
func (s *Service) seal(v sealedSuggestion) ([]byte, error) {
	aead, err := s.sealer()
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	plain := make([]byte, (4+len(body)+sealBlock-1)/sealBlock*sealBlock)
	binary.BigEndian.PutUint32(plain, uint32(len(body)))
	copy(plain[4:], body)
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, plain, nil), nil
}

// errUnsealable: a sealed suggestion that this Service's key doesn't open (another key).
var errUnsealable = errors.New("sealed suggestion: not sealed with this installation's key")

// unseal is seal's inverse.
func (s *Service) unseal(b []byte) (sealedSuggestion, error) {
	var v sealedSuggestion
	aead, err := s.sealer()
	if err != nil {
		return v, err
	}
	if len(b) < aead.NonceSize() {
		return v, errUnsealable
	}
	plain, err := aead.Open(nil, b[:aead.NonceSize()], b[aead.NonceSize():], nil)
	if err != nil || len(plain) < 4 || int(binary.BigEndian.Uint32(plain)) > len(plain)-4 {
		return v, errUnsealable
	}
	if err := json.Unmarshal(plain[4:4+binary.BigEndian.Uint32(plain)], &v); err != nil {
		return v, errUnsealable
	}
	if v.ExpiresAt != nil {
		t := v.ExpiresAt.Local() // as pgx reads a timestamptz
		v.ExpiresAt = &t
	}
	return v, nil
}

// sealedOf is what the run is told of n.
func sealedOf(n newItem) sealedSuggestion {
	return sealedSuggestion{
		Content: n.state.content, Key: n.state.key, Kind: n.state.kind, Pinned: n.state.pinned,
		ExpiresAt: n.state.expiresAt, Evidence: n.evidence, WaitReason: n.waitReason, WaitWords: n.waitWords,
		TargetRevision: n.targetRevision,
	}
}

// item is the suggestion as insertItemTx would have returned it: id, run, count and times from the
// row, the rest from what the run was told.
func (v sealedSuggestion) item(n newItem, id, runID string, times int, created, updated time.Time) Item {
	return Item{
		ID: id, Scope: n.scope.String(), TeammateID: n.scope.TeammateID, Kind: v.Kind, Key: v.Key,
		Content: v.Content, Status: StatusCandidate, Pinned: v.Pinned, Revision: 1, Source: n.source,
		Evidence: v.Evidence, WaitReason: (*intent.Reason)(reasonOrNil(v.WaitReason)), WaitWords: v.WaitWords,
		SourceRunID: &runID, TargetItemID: n.targetItemID, TargetRevision: v.TargetRevision,
		TimesSuggested: times, ExpiresAt: v.ExpiresAt, CreatedAt: created, UpdatedAt: updated,
	}
}

// insertSuppressedTx records n, a suggestion of run the tombstones suppress, and returns it as the
// item an ordinary suggestion would have been.
func (s *Service) insertSuppressedTx(ctx context.Context, tx pgx.Tx, run Run, n newItem) (Item, error) {
	v := sealedOf(n)
	sealed, err := s.seal(v)
	if err != nil {
		return Item{}, err
	}
	row, err := queries(tx).SuppressedInsert(ctx, memorydb.SuppressedInsertParams{
		Scope: n.scope.String(), RunID: run.ID, KeyedHash: s.suppressedHash(n.state.content),
		TargetItemID: n.targetItemID, Sealed: sealed,
	})
	if err != nil {
		return Item{}, err
	}
	return v.item(n, row.ID, row.RunID, row.TimesSuggested, row.CreatedAt, row.UpdatedAt), nil
}

// mergeSuppressedTx counts n again on a suppressed suggestion of the same text that still waits (see
// SuppressedMerge), like ItemSuggestionMerge. It returns that suggestion as the run that made it was
// told (ErrNotFound: none waits). A row sealed under another key (a process without the
// installation's key) is answered with n's own fields instead.
func (s *Service) mergeSuppressedTx(ctx context.Context, tx pgx.Tx, run Run, n newItem) (Item, error) {
	row, err := queries(tx).SuppressedMerge(ctx, memorydb.SuppressedMergeParams{
		Scope: n.scope.String(), KeyedHash: s.suppressedHash(n.state.content), TargetItemID: n.targetItemID,
		RunID: run.ID,
	})
	if err != nil {
		return Item{}, err
	}
	v, err := s.unseal(row.Sealed)
	if err != nil {
		v = sealedOf(n)
	}
	return v.item(n, row.ID, row.RunID, row.TimesSuggested, row.CreatedAt, row.UpdatedAt), nil
}

// suppressedScope is the scope of a suppressed suggestion's id; ErrNotFound when id names none.
func (s *Service) suppressedScope(ctx context.Context, id string) (string, error) {
	return queries(s.pool).SuppressedScope(ctx, id)
}

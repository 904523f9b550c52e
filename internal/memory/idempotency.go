package memory

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/intent"
	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Idempotency keys. A create (createMemory, createTeammate, importMemory) or a teammate's tool
// write (remember, update, forget) may carry a key the client chose; a retry with the same key and
// the same credential gets the first answer — the same item, the same outcome — and writes nothing.
// That makes the advice of docs/API.md (Errors and codes) safe: a write answered UNAVAILABLE may
// have committed, and its retry must not write it twice.
//
// How it holds:
//   - The key's record is claimed (inserted) at the start of the write's own transaction and its
//     answer recorded before that transaction commits, so a write that committed has its record,
//     whatever became of the answer; a write that failed leaves none, and its retry runs afresh.
//   - Concurrent requests with one key: the second's claim waits on the first's uncommitted row
//     (a unique index), then finds it committed and answers the first answer; if the first rolled
//     back, the second claims the key and writes. There are never two writes.
//   - Keys belong to a credential: the user's to the user, a run's to that run (and go with it). One
//     credential can't reach another's answers through a key, even the same key.
//   - The same key with another operation or another input is a *ValidationError on
//     idempotencyKey, and nothing is written.
//   - A key is kept for IdempotencyKeyLifetime; the sweeper deletes expired ones
//     (Background.DeleteExpiredIdempotencyKeys), and an expired key is free again.
//
// F5: the table holds no text a client wrote. The key and the request's input are kept only as
// HMAC-SHA-256 under the installation's tombstone key (tombstone.go, labels "idempotency-key" and
// "idempotency"), which is not in the database — so a dump can't be searched for a forgotten text
// by hashing guesses, and nothing needs erasing when an item is forgotten. The answer is ids, an
// outcome and reason code, and a tool's fixed sentence (ToolResult.Message never quotes memory). A
// replay re-reads its items as they are now: a forgotten item comes back forgotten, without text.

// IdempotencyKeyLifetime is how long a key's answer is kept.
const IdempotencyKeyLifetime = 24 * time.Hour

// MaxIdempotencyKeyLength bounds an idempotency key, in characters.
const MaxIdempotencyKeyLength = 200

// The operations a key can guard; a key used for one can't be used for another.
const (
	opCreateMemory   = "createMemory"
	opCreateTeammate = "createTeammate"
	opImportMemory   = "importMemory"
	opToolRemember   = "toolRemember"
	opToolUpdate     = "toolUpdateMemory"
	opToolForget     = "toolForgetMemory"
)

// ownerUser owns the user's keys; a run's keys are owned by its id.
const ownerUser = "user"

// idempotency is one write's idempotency key: whose it is, its MAC, and the MAC of the write's
// operation and input. A nil *idempotency is a write without a key: its methods do nothing.
type idempotency struct {
	owner       string
	runID       *string
	keyHash     []byte
	operation   string
	fingerprint []byte
}

// idempotencyFor validates key and returns the write's idempotency for credential c, operation op
// and input (a value whose JSON encoding is the whole input the write acts on, validated and
// normalised). A nil key means none (nil). Only the user and a run have keys.
func (s *Service) idempotencyFor(c Credential, key *string, op string, input any) (*idempotency, error) {
	if key == nil {
		return nil, nil
	}
	if err := checkIdempotencyKey(*key); err != nil {
		return nil, err
	}
	k := &idempotency{owner: ownerUser, operation: op}
	switch c.Kind {
	case CredentialUser:
	case CredentialRun:
		k.owner, k.runID = c.RunID, &c.RunID
	default:
		return nil, ErrForbidden
	}
	encoded, err := json.Marshal(input)
	if err != nil {
		return nil, fmt.Errorf("idempotency: encode the input: %w", err) // a programming error
	}
	k.keyHash = s.mac("idempotency-key", []byte(*key))
	k.fingerprint = s.mac("idempotency", append([]byte(op+"\x00"), encoded...))
	return k, nil
}

// checkIdempotencyKey accepts 1–MaxIdempotencyKeyLength characters on one line (a UUID is a good
// key). It never echoes the key.
func checkIdempotencyKey(key string) error {
	switch {
	case key == "":
		return invalid("idempotencyKey", "must not be empty (leave it out to send none)")
	case !utf8.ValidString(key):
		return invalid("idempotencyKey", "must be valid UTF-8")
	case utf8.RuneCountInString(key) > MaxIdempotencyKeyLength:
		return invalid("idempotencyKey", fmt.Sprintf("must be at most %d characters", MaxIdempotencyKeyLength))
	}
	for _, r := range key {
		if refusedInLabel(r) || r == ' ' {
			return invalid("idempotencyKey", "must be one word without spaces, control or invisible characters (a UUID, say)")
		}
	}
	return nil
}

// errKeyReused is the answer to a key sent again with another operation or input.
var errKeyReused = invalid("idempotencyKey",
	"was already used for a different request (another operation or input) within the last day; send a new key for a new request")

// claimTx claims k for the caller's write, first thing in its transaction (after the locks that
// must come first). It returns nil when the write may go ahead (and must then call answerTx), the
// first answer when k answered already, or errKeyReused when k was used for another request. A
// claim held by a concurrent transaction is waited for.
func (k *idempotency) claimTx(ctx context.Context, tx pgx.Tx) (*memorydb.IdempotencyKeyGetRow, error) {
	if k == nil {
		return nil, nil
	}
	// Both statements in one round trip; the claim's "no row" is send's ErrNotFound.
	b := newBatch()
	b.q.IdempotencyKeyFreeExpired(ctx, memorydb.IdempotencyKeyFreeExpiredParams{Owner: k.owner, KeyHash: k.keyHash})
	b.q.IdempotencyKeyClaim(ctx, memorydb.IdempotencyKeyClaimParams{
		Owner: k.owner, RunID: k.runID, KeyHash: k.keyHash, Operation: k.operation, Fingerprint: k.fingerprint,
		Lifetime: IdempotencyKeyLifetime,
	})
	err := b.send(ctx, tx)
	switch {
	case err == nil:
		return nil, nil
	case !errors.Is(err, ErrNotFound): // ErrNotFound: no row, the key is taken
		return nil, err
	}
	first, err := queries(tx).IdempotencyKeyGet(ctx, memorydb.IdempotencyKeyGetParams{Owner: k.owner, KeyHash: k.keyHash})
	if err != nil {
		return nil, err
	}
	if first.Operation != k.operation || !hmac.Equal(first.Fingerprint, k.fingerprint) {
		return nil, errKeyReused
	}
	return first, nil
}

// answer is what a key records of the write it guarded: ids and codes, never text.
type answer struct {
	itemIDs    []string
	teammateID *string
	tool       *ToolResult
	unchanged  int
}

// answerTx records the answer of the write that claimed k, in the write's transaction.
func (k *idempotency) answerTx(ctx context.Context, tx pgx.Tx, a answer) error {
	if k == nil {
		return nil
	}
	p := memorydb.IdempotencyKeyAnswerParams{
		Owner: k.owner, KeyHash: k.keyHash, ItemIds: a.itemIDs, TeammateID: a.teammateID, Unchanged: a.unchanged,
	}
	if p.ItemIds == nil {
		p.ItemIds = []string{}
	}
	if r := a.tool; r != nil {
		outcome := string(r.Outcome)
		p.Outcome, p.Message, p.Reason, p.Adopted = &outcome, &r.Message, reasonOrNil(r.Reason), r.Adopted
		if r.Item != nil {
			p.ItemIds = []string{r.Item.ID}
		}
	}
	return queries(tx).IdempotencyKeyAnswer(ctx, p)
}

// replayItemsTx re-reads the items of a first answer, in its order, as they are now. An item gone
// since (its teammate deleted) is ErrNotFound.
func replayItemsTx(ctx context.Context, tx pgx.Tx, first *memorydb.IdempotencyKeyGetRow) ([]Item, error) {
	rows, err := queries(tx).ItemsGetByIDs(ctx, first.ItemIds)
	if err != nil {
		return nil, err
	}
	if len(rows) != len(first.ItemIds) {
		return nil, ErrNotFound
	}
	return mapRows(rows, itemFromRow), nil
}

// replayToolTx is a tool's first answer, its item re-read as it is now.
func replayToolTx(ctx context.Context, tx pgx.Tx, first *memorydb.IdempotencyKeyGetRow) (ToolResult, error) {
	if first.Outcome == nil || first.Message == nil {
		return ToolResult{}, fmt.Errorf("idempotency: the key of a tool write has no tool answer")
	}
	res := ToolResult{Outcome: ToolOutcome(*first.Outcome), Message: *first.Message, Adopted: first.Adopted}
	if first.Reason != nil {
		res.Reason = intent.Reason(*first.Reason)
	}
	if len(first.ItemIds) > 0 {
		items, err := replayItemsTx(ctx, tx, first)
		if err != nil {
			return ToolResult{}, err
		}
		res.Item = &items[0]
	}
	return res, nil
}

// DeleteExpiredIdempotencyKeys deletes the keys older than IdempotencyKeyLifetime (the sweeper
// calls it) and returns how many it deleted.
func (s *Background) DeleteExpiredIdempotencyKeys(ctx context.Context) (int64, error) {
	n, err := queries(s.pool).IdempotencyKeysDeleteExpired(ctx)
	if err != nil {
		return 0, fmt.Errorf("delete expired idempotency keys: %w", err)
	}
	return n, nil
}

package memory

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// The forget ledger (RULES F8). A backup holds everything that was in memory when it was made; a
// restore must not bring back what was forgotten since. So every forget — the user's, a teammate's,
// a bulk forget, a teammate's deletion, the demo's removal, which all go through forgetItemTx and
// DeleteTeammate — writes a content-free entry in its own transaction (memory_forget_ledger,
// migration 000018): the item's id, scope and actor and the keyed tombstone hashes the forget wrote,
// or the deleted teammate's id. The API copies the entries to a file beside the backups
// (internal/backup.Ledger), outside the database, and marks them written; a restore applies again
// every entry of that file the restored database doesn't hold (Replay) before anything serves.
//
// An entry holds no text, and its hashes are HMACs under the installation's tombstone key, as the
// tombstones themselves are: a ledger without the key gives nothing to try a guess against.

// Ledger entry kinds.
const (
	LedgerForget         = "forget"
	LedgerDeleteTeammate = "delete-teammate"
)

// LedgerEntry is one forget, as the ledger file keeps it (one JSON object per line).
type LedgerEntry struct {
	ID   string    `json:"id"`
	At   time.Time `json:"at"`
	Kind string    `json:"kind"`
	// Key is the fingerprint of the tombstone key Hashes were made with (hex; reveals nothing of the
	// key): a ledger is applied only to a database keyed the same way.
	Key string `json:"key"`
	// Item, Scope, Actor and Hashes describe a forgotten item (LedgerForget).
	Item   string   `json:"item,omitempty"`
	Scope  string   `json:"scope,omitempty"`
	Actor  string   `json:"actor,omitempty"`
	Hashes [][]byte `json:"hashes,omitempty"`
	// Teammate is the deleted teammate (LedgerDeleteTeammate).
	Teammate string `json:"teammate,omitempty"`
}

// ErrLedgerKeyMismatch: a ledger entry was written under another tombstone key than this
// database's, so it belongs to another installation (or the key was changed by hand).
var ErrLedgerKeyMismatch = errors.New("the forget ledger was written with another tombstone key than this database's " +
	"(point MEMORY_BACKUP_DIR at this installation's ledger; see docs/FORGETTING.md, the forget ledger)")

// replayKey marks a context whose forgets are applied from the ledger: they are in it already.
type replayKey struct{}

// ledgerForgetTx records a forgotten item in the ledger, in the forget's transaction.
func (s *Service) ledgerForgetTx(ctx context.Context, tx pgx.Tx, item Item, actor string, hashes [][]byte) error {
	if ctx.Value(replayKey{}) != nil {
		return nil
	}
	return queries(tx).LedgerForgetInsert(ctx, memorydb.LedgerForgetInsertParams{
		ItemID: item.ID, Scope: item.Scope, Actor: actor, Hashes: hashes,
	})
}

// ledgerDeletionTx records a deleted teammate in the ledger, in the deletion's transaction.
func (s *Service) ledgerDeletionTx(ctx context.Context, tx pgx.Tx, teammateID string) error {
	if ctx.Value(replayKey{}) != nil {
		return nil
	}
	return queries(tx).LedgerDeletionInsert(ctx, teammateID)
}

// KeyFingerprint is the tombstone key's fingerprint (hex), as memory_tombstone_key holds it and a
// backup's manifest names it.
func (s *Background) KeyFingerprint() string {
	return hex.EncodeToString(s.service().mac("fingerprint", nil))
}

// KeyFingerprint is the fingerprint of tombstone key key (hex), as Background.KeyFingerprint gives
// it for a Service that uses key: it reveals nothing of the key.
func KeyFingerprint(key []byte) string {
	return (&Service{tombstoneKey: key}).Background().KeyFingerprint()
}

// LedgerUnwritten returns up to limit entries not yet copied to the ledger file, oldest first.
func (s *Background) LedgerUnwritten(ctx context.Context, limit int) ([]LedgerEntry, error) {
	rows, err := queries(s.pool).LedgerUnwritten(ctx, int32(limit))
	if err != nil {
		return nil, err
	}
	all := make([]*memorydb.LedgerAllRow, len(rows))
	for i, r := range rows {
		all[i] = (*memorydb.LedgerAllRow)(r)
	}
	return s.ledgerEntries(all), nil
}

// LedgerAll returns every entry the database holds, oldest first — those applied again after a
// restore included — so that a ledger file lost or cut short can be made whole again.
func (s *Background) LedgerAll(ctx context.Context) ([]LedgerEntry, error) {
	rows, err := queries(s.pool).LedgerAll(ctx)
	if err != nil {
		return nil, err
	}
	return s.ledgerEntries(rows), nil
}

// ledgerEntries are rows as the file keeps them.
func (s *Background) ledgerEntries(rows []*memorydb.LedgerAllRow) []LedgerEntry {
	key := s.KeyFingerprint()
	out := make([]LedgerEntry, len(rows))
	for i, r := range rows {
		out[i] = LedgerEntry{ID: r.ID, At: r.At.UTC(), Kind: r.Kind, Key: key, Hashes: r.Hashes,
			Item: deref(r.ItemID), Scope: deref(r.Scope), Actor: deref(r.Actor), Teammate: deref(r.TeammateID)}
	}
	return out
}

// LedgerMarkWritten records that entries reached the ledger file (synced).
func (s *Background) LedgerMarkWritten(ctx context.Context, ids []string) error {
	return queries(s.pool).LedgerMarkWritten(ctx, ids)
}

// ReplayReport is what Replay applied again.
type ReplayReport struct {
	// Entries is how many entries of the ledger this database didn't hold.
	Entries int
	// Forgotten items and Deleted teammates were found in the database and erased again;
	// Tombstones were written again (an item created after the backup has only those).
	Forgotten, Deleted, Tombstones int
}

// Replay applies again every entry the database doesn't hold, in order: a forget made after the
// backup it was restored from (RULES F8). A forgotten item that is back is forgotten again exactly
// as forgetItemTx forgets (with the entry's actor), its tombstones are written again, and a deleted
// teammate that is back is deleted again with everything it had; then the entry is recorded, so a
// second Replay finds nothing to do. An entry under another tombstone key is refused
// (ErrLedgerKeyMismatch) before anything is applied. The purge (Purge) is due afterwards wherever
// something was erased.
func (s *Background) Replay(ctx context.Context, entries []LedgerEntry) (ReplayReport, error) {
	var r ReplayReport
	key := s.KeyFingerprint()
	for _, e := range entries {
		if e.Key != key {
			return r, ErrLedgerKeyMismatch
		}
		if e.Kind != LedgerForget && e.Kind != LedgerDeleteTeammate {
			return r, fmt.Errorf("forget ledger: entry %s has unknown kind %q", e.ID, e.Kind)
		}
	}
	known := map[string]bool{}
	const chunk = 1000
	for i := 0; i < len(entries); i += chunk {
		ids := make([]string, 0, chunk)
		for _, e := range entries[i:min(i+chunk, len(entries))] {
			ids = append(ids, e.ID)
		}
		have, err := queries(s.pool).LedgerKnown(ctx, ids)
		if err != nil {
			return r, fmt.Errorf("forget ledger: %w", err)
		}
		for _, id := range have {
			known[id] = true
		}
	}
	ctx = context.WithValue(ctx, replayKey{}, true)
	svc := s.service()
	for _, e := range entries {
		if known[e.ID] {
			continue
		}
		known[e.ID] = true // a file may hold an entry twice (copied again after a crash)
		r.Entries++
		var err error
		if e.Kind == LedgerDeleteTeammate {
			err = s.replayDeletion(ctx, e, &r)
		} else {
			err = svc.inWriteTx(ctx, func(tx pgx.Tx) error { return svc.replayForgetTx(ctx, tx, e, &r) })
		}
		if err != nil {
			return r, fmt.Errorf("forget ledger: apply %s %s: %w", e.Kind, e.ID, err)
		}
	}
	if r.Entries > 0 {
		s.log.InfoContext(ctx, "forget ledger applied again", "entries", r.Entries, "forgotten", r.Forgotten,
			"deleted", r.Deleted, "tombstones", r.Tombstones)
	}
	return r, nil
}

// replayForgetTx forgets e's item again if it is back, writes its tombstones and records e.
func (s *Service) replayForgetTx(ctx context.Context, tx pgx.Tx, e LedgerEntry, r *ReplayReport) error {
	if _, err := parseID("item", e.Item); err != nil {
		return err
	}
	cur, err := lockItemTx(ctx, tx, e.Item)
	switch {
	case errors.Is(err, ErrNotFound):
		// Made after the backup: only its tombstones come back.
	case err != nil:
		return err
	case cur.Status != StatusForgotten:
		if _, err := s.forgetItemTx(ctx, tx, cur, e.Actor, nil); err != nil {
			return err
		}
		r.Forgotten++
	}
	q := queries(tx)
	item := &e.Item
	for _, h := range e.Hashes {
		if err := q.TombstoneRestore(ctx, memorydb.TombstoneRestoreParams{Scope: e.Scope, ContentHash: h, ItemID: item}); err != nil {
			return err
		}
		r.Tombstones++
	}
	return q.LedgerReplayedInsert(ctx, memorydb.LedgerReplayedInsertParams{ID: e.ID, At: e.At, Kind: e.Kind,
		ItemID: item, Scope: &e.Scope, Actor: &e.Actor, Hashes: e.Hashes})
}

// replayDeletion deletes e's teammate again if it is back, then records e.
func (s *Background) replayDeletion(ctx context.Context, e LedgerEntry, r *ReplayReport) error {
	svc := s.service()
	_, err := svc.DeleteTeammate(WithCredential(ctx, Credential{Kind: CredentialUser}), e.Teammate)
	switch {
	case errors.Is(err, ErrNotFound):
	case err != nil:
		return err
	default:
		r.Deleted++
	}
	return svc.inWriteTx(ctx, func(tx pgx.Tx) error {
		return queries(tx).LedgerReplayedInsert(ctx, memorydb.LedgerReplayedInsertParams{ID: e.ID, At: e.At,
			Kind: e.Kind, TeammateID: &e.Teammate, Hashes: [][]byte{}})
	})
}

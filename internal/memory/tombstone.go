package memory

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
	"github.com/open-bot/memory/internal/memory/textmodel"
)

// Keyed tombstones (F3). A tombstone keeps, per forgotten text, an HMAC-SHA-256 of the
// text's tombstone form under an installation secret that is not in the database (a file in the
// embedded cluster's data directory, or MEMORY_TOMBSTONE_KEY). A plain hash of a short text — "My
// bank PIN is 4821." — is reversed by trying every candidate; without the key a dump gives an
// attacker nothing to try candidates against.
//
// Every MAC is over a label and the input, so the forms can't be confused with each other:
//
//	text:   HMAC(key, "text\x00" + tombstoneForm(text))
//	legacy: HMAC(key, "legacy\x00" + old plain SHA-256)   — rows written before keys, wrapped at start
//
// A text is checked against its text MAC and the wrapped forms of both earlier plain hashes (the
// first letters-and-digits model and the intent model's SHA-256), so nothing forgotten before the
// upgrade comes back.

// MinTombstoneKeyLength is the shortest tombstone key accepted, in bytes (MEMORY_TOMBSTONE_KEY).
const MinTombstoneKeyLength = 32

// ErrTombstoneKeyMismatch: the database's tombstones were keyed with another key. Starting anyway
// would silently let every forgotten text be suggested again.
var ErrTombstoneKeyMismatch = errors.New("MEMORY_TOMBSTONE_KEY is not the key this database's tombstones were written with " +
	"(restore the original key; see docs/FORGETTING.md, the tombstone key)")

// newEphemeralKey is the key of a Service nobody gave one: random, so a dump is safe, but only this
// Service can match its tombstones. Processes that share a database call UseTombstoneKey.
func newEphemeralKey() []byte {
	k := make([]byte, MinTombstoneKeyLength)
	if _, err := rand.Read(k); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return k
}

// mac is HMAC-SHA-256 of label and data under the Service's tombstone key.
func (s *Service) mac(label string, data []byte) []byte {
	m := hmac.New(sha256.New, s.tombstoneKey)
	m.Write([]byte(label))
	m.Write([]byte{0})
	m.Write(data)
	return m.Sum(nil)
}

// tombstoneHash is what a forget stores for text.
func (s *Service) tombstoneHash(text string) []byte {
	return s.mac("text", []byte(tombstoneForm(text)))
}

// tombstoneHashes are the values a tombstone of text may have: its text MAC, and the wrapped plain
// hashes of the two earlier models.
func (s *Service) tombstoneHashes(text string) [][]byte {
	return [][]byte{
		s.tombstoneHash(text),
		s.mac("legacy", ContentHash(text)),
		s.mac("legacy", legacyContentHash(text)),
	}
}

// importHash is what the MEMORY.md import record keeps of the file: keyed like a tombstone, since
// the file's notes may be forgotten later.
func (s *Service) importHash(text string) []byte { return s.mac("import", []byte(text)) }

// UseTombstoneKey sets the installation's tombstone key (at least MinTombstoneKeyLength bytes) and
// makes the database agree with it, once per start, in one transaction: the first key used is
// recorded by its fingerprint, and a different one is refused with ErrTombstoneKeyMismatch; rows
// still holding a plain SHA-256 (written before keys) are wrapped into keyed ones. Call it before
// serving; without it a Service uses a random key of its own (good for one process only).
func (s *Background) UseTombstoneKey(ctx context.Context, key []byte) error {
	if len(key) < MinTombstoneKeyLength {
		return fmt.Errorf("MEMORY_TOMBSTONE_KEY: must be at least %d bytes", MinTombstoneKeyLength)
	}
	s.tombstoneKey = append([]byte(nil), key...)
	fingerprint := s.service().mac("fingerprint", nil)
	wrapped := 0
	err := s.service().inWriteTx(ctx, func(tx pgx.Tx) error {
		q := queries(tx)
		if err := q.TombstoneKeyInsert(ctx, fingerprint); err != nil {
			return err
		}
		stored, err := q.TombstoneKeyGetForUpdate(ctx)
		if err != nil {
			return err
		}
		if !hmac.Equal(stored, fingerprint) {
			return ErrTombstoneKeyMismatch
		}
		tombstones, err := q.TombstonesLegacy(ctx)
		if err != nil {
			return err
		}
		imports, err := q.ImportsLegacy(ctx)
		if err != nil {
			return err
		}
		b := newBatch()
		for _, t := range tombstones {
			b.q.TombstoneWrap(ctx, memorydb.TombstoneWrapParams{
				Scope: t.Scope, ContentHash: t.ContentHash, KeyedHash: s.service().mac("legacy", t.ContentHash),
			})
		}
		for _, i := range imports {
			b.q.ImportWrap(ctx, memorydb.ImportWrapParams{TeammateID: i.TeammateID, KeyedHash: s.service().mac("import-legacy", i.ContentHash)})
		}
		wrapped = len(tombstones) + len(imports)
		return b.send(ctx, tx)
	})
	if errors.Is(err, ErrTombstoneKeyMismatch) {
		return err
	}
	if err != nil {
		return fmt.Errorf("tombstone key: %w", err)
	}
	if wrapped > 0 {
		s.log.InfoContext(ctx, "plain tombstone hashes wrapped with the installation key", "rows", wrapped)
	}
	return nil
}

// tombstoneForm is the text a tombstone compares: the one text model's canonical form
// (textmodel.Canonical: NFKC, full case folding, ignorables removed) with the common Latin look-alikes
// of other scripts folded to Latin (skeleton) and hyphens inside tokens taken as spaces ("locker-code"
// is "locker code", "-18" is "18"). Both folds are for tombstones only — a false match there only
// drops a suggestion, the safe direction for a text the user forgot — and not for dedup or the A1
// judgement, where "Сasa" in Russian and "casa", or "-18" and "18", are different.
func tombstoneForm(text string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r == '-' {
			return ' '
		}
		return skeleton(r)
	}, textmodel.Canonical(text))), " ")
}

// skeleton maps a case-folded character to the Latin letter it looks like, when it is one of the
// common confusables of Cyrillic, Greek and a few Latin-block variants (after NFKC and folding, so
// upper case, full-width and mathematical letters are already covered). It is deliberately small:
// the whole Unicode confusables table would fold away distinctions users do make.
func skeleton(r rune) rune {
	if l, ok := confusables[r]; ok {
		return l
	}
	return r
}

var confusables = map[rune]rune{
	// Cyrillic.
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'һ': 'h', 'і': 'i', 'ї': 'i', 'ј': 'j', 'к': 'k', 'ӏ': 'l',
	'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'ԛ': 'q', 'ѕ': 's', 'т': 't', 'у': 'y', 'ԝ': 'w', 'х': 'x',
	'с': 'c', 'ԁ': 'd', 'ɡ': 'g', 'ү': 'y',
	// Greek.
	'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'n', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't',
	'υ': 'u', 'χ': 'x', 'ω': 'w',
	// Latin variants.
	'ı': 'i', 'ȷ': 'j', 'ɑ': 'a',
}

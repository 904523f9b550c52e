package memory

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/open-bot/memory/internal/memory/textmodel"
)

// Limits of input, in characters (runes). docs/API.md (Limits) lists them.
const (
	// MaxContentLength bounds a memory's content.
	MaxContentLength = 4000
	// MaxKeyLength bounds a memory's optional key (short label).
	MaxKeyLength = 120
	// MaxPageSize bounds `first` in paginated queries.
	MaxPageSize = 100
	// DefaultPageSize is used when `first` is not given.
	DefaultPageSize = 50
	// MaxSearchLength bounds a search string.
	MaxSearchLength = 500
)

// ContentHash is what items keep to find the same text without comparing texts: the SHA-256 of the
// text's canonical form (textmodel.Canonical: NFKC, case folding, ignorables removed, tokens with their
// signs, decimals and symbols). Dedup, tombstones (F3), forgottenBefore and same-text suggestions
// all compare it, so one text model serves them all (A1).
func ContentHash(s string) []byte { return textmodel.Hash(s) }

// legacyContentHash is the hash of the first text model (letters and digits only, lower case), kept
// only to match tombstones written before the current model: their texts are gone, so they can't be
// rehashed. It merges texts the current model keeps apart ("-18" and "18"), so it is used only where
// a false match drops a suggestion — the safe direction for something the user forgot.
func legacyContentHash(s string) []byte {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
		} else {
			space = true
		}
	}
	h := sha256.Sum256([]byte(b.String()))
	return h[:]
}

// checkText validates a free-text field: valid UTF-8, no NUL, at most max characters, and (when
// required) not blank. It never echoes the value.
func checkText(field, s string, max int, required bool) error {
	switch {
	case !utf8.ValidString(s):
		return invalid(field, "must be valid UTF-8")
	case strings.ContainsRune(s, 0):
		return invalid(field, "must not contain NUL characters")
	case required && strings.TrimSpace(s) == "":
		return invalid(field, "must not be empty")
	case utf8.RuneCountInString(s) > max:
		return invalid(field, fmt.Sprintf("must be at most %d characters", max))
	}
	return nil
}

// checkContent validates memory content (1–MaxContentLength characters).
func checkContent(s string) error { return checkText("content", s, MaxContentLength, true) }

const labelCharactersReason = "must be one line, without control, invisible formatting or bidi characters"

// refusedInLabel reports the characters a one-line label (a key, a teammate's name) refuses:
// control characters (Cc: line breaks, tabs, escapes, NEL), format characters (Cf: zero-width
// characters, the byte order mark and every bidi control — LRM, RLM, ALM, embeddings, overrides,
// isolates) and the line and paragraph separators (Zl, Zp). A label sits in a packet's body line and
// in the web app; any of these could break the line, hide text or reorder what is shown (P5).
func refusedInLabel(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// normalizeKey validates an optional key and returns it trimmed; a blank key means no key.
func normalizeKey(key *string) (*string, error) {
	if key == nil {
		return nil, nil
	}
	k := strings.TrimSpace(*key)
	if k == "" {
		return nil, nil
	}
	if err := checkText("key", k, MaxKeyLength, false); err != nil {
		return nil, err
	}
	// A key is a one-line label: a line break in it could fake an entry header in a packet (P5).
	if strings.IndexFunc(k, refusedInLabel) >= 0 {
		return nil, invalid("key", labelCharactersReason)
	}
	return &k, nil
}

// checkExpiry accepts no expiry or one in the future.
func checkExpiry(t *time.Time, now time.Time) error {
	if t != nil && !t.After(now) {
		return invalid("expiresAt", "must be in the future")
	}
	return nil
}

// pageSize validates `first`.
func pageSize(first *int) (int, error) {
	if first == nil {
		return DefaultPageSize, nil
	}
	if *first < 1 || *first > MaxPageSize {
		return 0, invalid("first", fmt.Sprintf("must be between 1 and %d", MaxPageSize))
	}
	return *first, nil
}

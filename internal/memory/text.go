package memory

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits of SPEC-level input, in characters (runes). The README lists them.
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

// Normalize is the comparison form of memory text: lower case, every run of characters that are not
// letters or digits turned into one space, trimmed. Content containment (A1) and tombstone hashes
// (F3) both compare normalised text, so "I like tea." and "i like  TEA" are the same.
func Normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
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
	return b.String()
}

// ContentHash is the sha256 of Normalize(s): what items and tombstones keep to compare texts without
// keeping the text.
func ContentHash(s string) []byte {
	h := sha256.Sum256([]byte(Normalize(s)))
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

const keyControlReason = "must be one line, without control characters"

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
	if strings.IndexFunc(k, unicode.IsControl) >= 0 {
		return nil, invalid("key", keyControlReason)
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

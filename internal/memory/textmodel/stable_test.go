package textmodel

import (
	"testing"
	"unicode/utf8"
)

// TestCanonicalStableForEveryCharacter: canonicalising twice changes nothing, for every Unicode
// scalar value inside a word, before a digit and on its own. The fuzzer found two kinds of
// instability this way (Cherokee case folding, the minus sign), so the whole range is checked here
// rather than left to chance.
func TestCanonicalStableForEveryCharacter(t *testing.T) {
	bad := 0
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := "a" + string(r) + "1 " + string(r) + "a"
		c := Canonical(s)
		if again := Canonical(c); again != c {
			if bad++; bad <= 10 {
				t.Errorf("%U: Canonical(%q) = %q, Canonical of that = %q", r, s, c, again)
			}
		}
	}
}

package textmodel

import (
	"testing"
	"unicode/utf8"
)

// TestCanonicalStableForEveryCharacter: canonicalising twice changes nothing, for every Unicode
// scalar value inside a word, before a digit and on its own. Instabilities hide in single
// characters (Cherokee case folding, the minus sign) that a fuzzer reaches only by chance, so the
// whole range is checked here.
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

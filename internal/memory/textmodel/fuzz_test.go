package textmodel

import (
	"strings"
	"testing"
)

// FuzzCanonical: the canonical form is stable (canonicalising twice changes nothing) and has no
// stray spaces; every token's Exact form is stable too.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"Xk9pQ-Lm2", "10⁶", "-18 °C", "ＰＩＮ 4821", "iPhone", "Straße", "don’t", "O–"} {
		f.Add(s, s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, msg, content string, _ uint8) {
		for _, s := range []string{msg, content} {
			c := Canonical(s)
			if again := Canonical(c); again != c {
				t.Fatalf("Canonical not stable: %q → %q → %q", s, c, again)
			}
			if strings.Contains(c, "  ") || strings.HasPrefix(c, " ") || strings.HasSuffix(c, " ") {
				t.Fatalf("Canonical(%q) = %q has stray spaces", s, c)
			}
		}
	})
}

// TestExact: A1's comparison keeps codes, passwords, inner capitals, compatibility characters and
// letters that only case folding would equate (ligatures, "ß", "ſ") apart, and lower-cases plain
// words.
func TestExact(t *testing.T) {
	exact := func(s string) string {
		var out []string
		for _, tok := range Tokens(s) {
			out = append(out, tok.Exact)
		}
		return strings.Join(out, " ")
	}
	for _, pair := range [][2]string{{"Xk9pQ-Lm2", "xk9pq-lm2"}, {"10⁶", "106"}, {"iPhone", "iphone"}, {"-18", "18"},
		{"2.5", "2 5"}, {"C++", "C"}, {"ＰＩＮ", "PIN"}, {"wiﬁ", "wifi"}, {"ſmith", "smith"}, {"Straße", "Strasse"},
		{"Straße", "STRASSE"}} {
		if exact(pair[0]) == exact(pair[1]) {
			t.Errorf("%q and %q compare equal; A1 keeps them apart", pair[0], pair[1])
		}
	}
	for _, pair := range [][2]string{{"My PIN", "my pin"}, {"Straße", "straße"}, {"ÉCOLE", "école"}, {"don’t", "DON'T"}, {"I'm", "i’m"}} {
		if exact(pair[0]) != exact(pair[1]) {
			t.Errorf("%q and %q differ; A1 folds the case of plain words", pair[0], pair[1])
		}
	}
}

// TestCanonicalDropsIgnorablesFirst: an ignorable character between a letter and its combining
// mark doesn't keep them apart — the text means what it would without it, composed at once, so
// that canonicalising again changes nothing (FuzzCanonical's seed 079f1a59b63a58df), and the token
// still spans the ignorable in the original text.
func TestCanonicalDropsIgnorablesFirst(t *testing.T) {
	for _, s := range []string{"A\u2064\u0311", "a\u0311", "\u0203", "A\u200b\u0311"} {
		if got := Canonical(s); got != "\u0203" {
			t.Errorf("Canonical(%q) = %q, want %q", s, got, "\u0203")
		}
	}
	toks := Tokens("x A\u2064\u0311 y")
	if len(toks) != 3 || toks[1].Start != 2 || toks[1].End != 2+1+3+2 || toks[1].Exact != "\u0203" {
		t.Errorf("Tokens = %+v", toks)
	}
}

// TestExactIsOneFormForEitherSpelling: a token's exact form is NFC after lower-casing too, so a
// text and its canonically equivalent spelling have the same one, and taking it again changes
// nothing (found by a helper who attacked the rules without the code).
func TestExactIsOneFormForEitherSpelling(t *testing.T) {
	for _, s := range []string{"\u0130\u0300", "\u0399\u0308\u0301", "\u03a9\u0342", "\u1ffc\u0300"} {
		for _, tok := range Tokens(s) {
			again := Tokens(tok.Exact)
			if len(again) != 1 || again[0].Exact != tok.Exact {
				t.Errorf("%q: Exact %q, taken again %+v", s, tok.Exact, again)
			}
		}
	}
	composed, decomposed := Tokens("\u0390"), Tokens("\u0399\u0308\u0301")
	if len(composed) != 1 || len(decomposed) != 1 || composed[0].Exact != decomposed[0].Exact {
		t.Errorf("ΐ and Ϊ́ differ: %+v %+v", composed, decomposed)
	}
}

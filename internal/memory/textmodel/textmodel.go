package textmodel

import (
	"crypto/sha256"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Package textmodel is the one text model every comparison of memory text uses: A1 containment,
// dedup, tombstones, forgottenBefore, same-text suggestions, extraction evidence. It is pure and knows
// nothing of requests; the judge (package intent) reads messages with it.
//
//  1. Normalise: default-ignorable characters removed first (zero-width space and joiners, soft
//     hyphen, bidi controls, variation selectors: one between a letter and its combining mark must
//     not keep them from composing), Unicode NFKC (so full-width "ＰＩＮ" is "PIN" and "ﬁ" is "fi"),
//     full case folding ("STRASSE" and "straße" are both "strasse"), and the apostrophe's
//     look-alikes (’ ‘ ʼ ′ ´ `) made one "'", the minus sign, the hyphens and the figure and en dashes
//     (− ‐ ‑ ‒ –) made one "-": typed on a phone, "–18" is "-18", and "O–" is "O-".
//  2. Cut into tokens. A token is a run of word characters (letters, digits, marks) and symbols
//     (+ # % & @ * / \ = < > ^ ~ | $ € ° and every other symbol, emoji included), so "c++", "a+",
//     "#3", "50%" and "€5" are tokens of their own and differ from "c", "a", "3", "50" and "5".
//     Some punctuation belongs to a token only inside it:
//     - "." and "_" between two word characters ("2.5", "node.js", "snake_case");
//     - "," and ":" between two digits ("1,000", "10:00");
//     - "'" between two letters ("don't", "ann's");
//     - "-" between two word characters ("well-known", "2024-05-01"), as a sign before a digit at
//     the start of a token ("-18"), and as a minus at the end of one ("A-", "O-": a grade, a blood
//     type, which differ from "A" and "O" as "A+" and "O+" do).
//     Everything else — white space and punctuation between tokens — only separates, so "I like
//     tea." and "i like  TEA" have the same tokens, while "-18 C" and "18 C", "2.5" and "2 5", or "O-"
//     and "O", do not.

// Token is one token of a text: its canonical form and where it came from in the original.
type Token struct {
	// Text is the token after normalisation (NFKC, case folded): what dedup, tombstones and the
	// judge's word lists compare, since folding more errs to the safe side there.
	Text string
	// Exact is the token as A1's containment compares it: ignorable characters removed, NFC, the
	// apostrophe's and dash's look-alikes made one, and lower-cased only for a word of letters alone
	// without inner capitals. A code, a password or "iPhone" keeps its case ("Xk9pQ" is not "xk9pq"),
	// and superscripts and other compatibility characters stay themselves ("10⁶" is not "106").
	Exact string
	// Start and End are byte offsets of the token in the original text.
	Start, End int
}

// normRune is one character of the normalised text with the offset of the original character it
// came from, so tokens can be placed in the original (sentences are cut there).
type normRune struct {
	r   rune
	pos int
}

// normalise returns the normalised characters of s (step 1 above). Invalid UTF-8 bytes become
// U+FFFD, which is a symbol and so a token of its own: nothing is silently dropped.
func normalise(s string) []normRune {
	out := make([]normRune, 0, len(s))
	var buf []byte
	folder := cases.Fold() // a Caser keeps state: one per call
	// NFKC and case folding may change the length of a character; they are applied per character
	// boundary segment so every output character keeps the offset of its source segment.
	// Ignorable characters go first: dropped after NFKC, one between a letter and its combining
	// mark would keep them apart, where the text without it composes them (Canonical would not be
	// stable: TestCanonicalDropsIgnorablesFirst).
	src, offsets := withoutIgnorables(s)
	var it norm.Iter
	it.InitString(norm.NFKC, src)
	for !it.Done() {
		pos := it.Pos()
		if offsets != nil {
			pos = offsets[pos]
		}
		seg := it.Next()
		buf = folder.Bytes(seg)
		// Case folding may leave text that is no longer NFKC (rare); normalise again.
		buf = norm.NFKC.Bytes(buf)
		for len(buf) > 0 {
			r, size := utf8.DecodeRune(buf)
			buf = buf[size:]
			if ignorable(r) {
				continue
			}
			out = append(out, normRune{cherokeeFold(unifyPunct(r)), pos})
		}
	}
	return out
}

// withoutIgnorables returns s without its ignorable characters and, when it dropped any, the
// offset in s of each byte of the result (nil when s has none).
func withoutIgnorables(s string) (string, []int) {
	if !strings.ContainsFunc(s, ignorable) {
		return s, nil
	}
	var b strings.Builder
	offsets := make([]int, 0, len(s))
	for i, r := range s {
		if ignorable(r) {
			continue
		}
		n := b.Len()
		b.WriteRune(r)
		for range b.Len() - n {
			offsets = append(offsets, i)
		}
	}
	return b.String(), offsets
}

// ignorable reports the Unicode default-ignorable code points (format characters, variation
// selectors and the other reserved ignorables), except the prepended concatenation marks of Arabic
// and Syriac, which are visible.
func ignorable(r rune) bool {
	switch {
	case r >= 0x0600 && r <= 0x0605, r == 0x06DD, r == 0x070F, r == 0x0890, r == 0x0891, r == 0x08E2,
		r == 0x110BD, r == 0x110CD:
		return false
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// unifyPunct makes the apostrophe's look-alikes one "'" and the minus sign, hyphens and figure and en
// dashes one "-", for both the canonical and the exact form of a token.
func unifyPunct(r rune) rune {
	switch {
	case isApostrophe(r):
		return '\''
	case isDash(r):
		return '-'
	}
	return r
}

// isDash: the minus sign, hyphens and dashes that mean the same as "-" between or before digits and
// letters (NFKC maps the superscript and subscript minus to U+2212). They are made "-" before
// tokenising so one text has one form; the em dash stays punctuation.
func isDash(r rune) bool {
	return r == '\u2212' || r == '\u2010' || r == '\u2011' || r == '\u2012' || r == '\u2013'
}

// cherokeeFold folds Cherokee small letters to the capitals, as Unicode's case folding does.
// golang.org/x/text's cases.Fold maps the capitals to the small letters instead (and the small to
// the capitals), so folding twice would not be folding once; this makes the fold stable.
func cherokeeFold(r rune) rune {
	switch {
	case r >= 0xAB70 && r <= 0xABBF:
		return r - 0xAB70 + 0x13A0
	case r >= 0x13F8 && r <= 0x13FD:
		return r - 0x13F8 + 0x13F0
	}
	return r
}

func isApostrophe(r rune) bool {
	switch r {
	case '\'', '\u2019', '\u2018', '\u02bc', '\u2032', '\u00b4', '`', '\uff07':
		return true
	}
	return false
}

func isWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}

// isSymbol: characters that are tokens (or parts of one) although they are not letters or digits.
func isSymbol(r rune) bool {
	if unicode.IsSymbol(r) || r == utf8.RuneError {
		return true
	}
	switch r {
	case '#', '%', '&', '@', '*', '/', '\\', '§', '¶', '†', '‡', '‰', '′', '″':
		return true
	}
	return false
}

func isTokenRune(r rune) bool { return isWord(r) || isSymbol(r) }

// joins reports whether the punctuation at n[i] belongs to the token around it (the rules above).
func joins(n []normRune, i int, inToken bool) bool {
	r := n[i]
	var prev, next rune = -1, -1
	if i > 0 {
		prev = n[i-1].r
	}
	if i+1 < len(n) {
		next = n[i+1].r
	}
	switch r.r {
	case '.', '_':
		return inToken && isWord(prev) && isWord(next)
	case ',', ':':
		return inToken && unicode.IsDigit(prev) && unicode.IsDigit(next)
	case '\'':
		return inToken && unicode.IsLetter(prev) && unicode.IsLetter(next)
	case '-':
		if inToken {
			// Inside ("well-known") or a minus at the end ("A-"), not before more punctuation ("a--b").
			return isWord(prev) && (isWord(next) || !isTokenRune(next) && next != '-')
		}
		return unicode.IsDigit(next) // a sign: "-18"
	}
	return false
}

// Tokens cuts s into its tokens (see the text model above).
func Tokens(s string) []Token {
	n := normalise(s)
	var out []Token
	var b strings.Builder
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, Token{Text: b.String(), Exact: exactForm(s[start:end]), Start: start, End: end})
			b.Reset()
			start = -1
		}
	}
	for i, c := range n {
		inToken := start >= 0
		switch {
		case isTokenRune(c.r):
		case joins(n, i, inToken):
		default:
			flush(c.pos)
			continue
		}
		if start < 0 {
			start = c.pos
		}
		b.WriteRune(c.r)
	}
	flush(len(s))
	return out
}

// exactForm is Token.Exact of one token's original characters.
func exactForm(orig string) string {
	var b strings.Builder
	foldable, lowerBefore := true, false
	orig, _ = withoutIgnorables(orig)
	for _, r := range norm.NFC.String(orig) {
		if ignorable(r) {
			continue
		}
		r = unifyPunct(r)
		switch {
		case r == '\'' || r == '-':
		case unicode.IsLetter(r):
			if unicode.IsUpper(r) && lowerBefore {
				foldable = false // an inner capital: "iPhone", "McDonald", "Xk9pQ"
			}
			lowerBefore = unicode.IsLower(r)
		case unicode.IsMark(r):
		default:
			foldable = false // a digit or a symbol among the letters: a code, a password
		}
		b.WriteRune(r)
	}
	if foldable {
		// Lower case, not case folding: folding makes "ﬁ" "fi", "ß" "ss" and "ſ" "s", and A1
		// compares the letters the user typed.
		// Lower-casing may leave text that is no longer NFC ("Ϊ́" becomes "ΐ", which NFC makes
		// "ΐ"): normalise again, so that the same text in either spelling has one exact form.
		return norm.NFC.String(strings.ToLower(b.String()))
	}
	return b.String()
}

// Canonical is the comparison form of a text: its tokens joined by single spaces. Two texts are the
// same memory text when their canonical forms are equal.
func Canonical(s string) string {
	toks := Tokens(s)
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// Hash is the SHA-256 of Canonical(s): what items keep to find the same text without comparing
// texts.
func Hash(s string) []byte {
	h := sha256.Sum256([]byte(Canonical(s)))
	return h[:]
}

// Contains reports whether the tokens of needle occur contiguously in the tokens of hay (anywhere,
// across sentences). Extraction's evidence quotes are checked this way; A1 uses the stricter
// sentence-bound containment of Judge.
func Contains(hay, needle string) bool {
	n := texts(Tokens(needle))
	return len(n) > 0 && indexSeq(texts(Tokens(hay)), n, 0) >= 0
}

func texts(toks []Token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Text
	}
	return out
}

// indexSeq returns the first index ≥ from where needle occurs in hay as a contiguous sequence, or -1.
func indexSeq(hay, needle []string, from int) int {
	if len(needle) == 0 {
		return -1
	}
outer:
	for i := from; i+len(needle) <= len(hay); i++ {
		for j, w := range needle {
			if hay[i+j] != w {
				continue outer
			}
		}
		return i
	}
	return -1
}

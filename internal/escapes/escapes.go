// Package escapes reads the \u escapes of JSON and GraphQL source text without decoding it, to find
// the ones that decode to no text at all: a UTF-16 surrogate without its partner ("\ud800"). The
// decoders (encoding/json, gqlparser, the MCP SDK's) turn such an escape into U+FFFD, so the text
// stored would not be the text sent, and the check that would refuse it — valid UTF-8 — passes once
// it is decoded. The API therefore looks at the source first and refuses the whole request, as it
// refuses invalid UTF-8 (RULES §6).
//
// It must not decode or keep what it reads: it only answers whether such an escape is there.
package escapes

// LoneSurrogate reports whether s, the source of a JSON or GraphQL document, has an escape of a
// surrogate that isn't a high one directly followed by an escaped low one: "\ud800" alone, a low one
// first ("\udc00\ud800"), or any braced one ("\u{D800}", GraphQL's form, which names one code point
// and so can't be half of a pair). A backslash escaped by another ("\\ud800") starts no escape.
func LoneSurrogate(s string) bool {
	pendingHigh := false
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			if pendingHigh {
				return true
			}
			continue
		}
		if i+1 < len(s) && s[i+1] != 'u' {
			if pendingHigh {
				return true
			}
			i++ // an escaped character, "\\" included
			continue
		}
		if r, n, ok := braced(s, i+2); ok {
			if pendingHigh || isSurrogate(r) {
				return true
			}
			i += 1 + n
			continue
		}
		r, ok := hex4(s, i+2)
		if !ok {
			if pendingHigh {
				return true
			}
			continue
		}
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			if pendingHigh {
				return true
			}
			pendingHigh = true
		case r >= 0xDC00 && r <= 0xDFFF:
			if !pendingHigh {
				return true
			}
			pendingHigh = false
		default:
			if pendingHigh {
				return true
			}
		}
		i += 5
	}
	return pendingHigh
}

func isSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDFFF }

// braced reads a braced escape's "{hex…}" at s[at:]: its value and length. Digits past eight can't
// name a code point; the value is then only checked to be no surrogate, which it isn't.
func braced(s string, at int) (rune, int, bool) {
	if at >= len(s) || s[at] != '{' {
		return 0, 0, false
	}
	var r rune
	for n := 1; at+n < len(s); n++ {
		c := s[at+n]
		if c == '}' {
			return r, n + 1, n > 1
		}
		d, ok := hexDigit(c)
		if !ok {
			return 0, 0, false
		}
		if r < 0x110000 {
			r = r<<4 | d
		}
	}
	return 0, 0, false
}

func hex4(s string, at int) (rune, bool) {
	if at+4 > len(s) {
		return 0, false
	}
	var r rune
	for i := at; i < at+4; i++ {
		d, ok := hexDigit(s[i])
		if !ok {
			return 0, false
		}
		r = r<<4 | d
	}
	return r, true
}

func hexDigit(c byte) (rune, bool) {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0'), true
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10, true
	}
	return 0, false
}

// Package packet lays out the memory a run is given for one request (RULES P4–P6): it fuses the
// full-text and vector lists by reciprocal rank with pinned items first, and renders the entries
// into a bounded text in which no item can pass for another. It is pure: finding the candidates is
// the database's work, done by package memory.
//
// A packet's text holds the entries in order, separated by one blank line. Each entry is a header
// line, then the item's key and content:
//
//	[memory:<id>@<revision>; <scope>; <kind>]
//	<key>: <content>
//
// or just <content> on the second line when the item has no key. The body is encoded so that no part
// of it can pass for a header (see Body): every line of a packet is a header, the blank line between
// entries, indented by two spaces, or starts with a letter or digit, and every square bracket (or
// look-alike) in a body is escaped with a backslash, so "[memory:" starts nothing but a header.
// The text is at most MaxCharacters characters. Entries
// are added whole in order while they fit; the first one that doesn't is cut: its header is kept
// whole, its body is cut to the room left (trailing spaces removed) and ends with
// TruncationMarker. If not even one character of it fits after the header, it is left out. Either
// way nothing follows it, so a packet is always a prefix of the ranking. No entries make the empty
// text (P6).
package packet

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A packet's limits (RULES P4, P5).
const (
	// FusionK is the k of reciprocal rank fusion: an item at position p of a list gets 1/(k+p).
	FusionK = 60
	// MaxEntries is how many fused items a packet holds at most.
	MaxEntries = 12
	// MaxCharacters bounds a packet's text, in characters (runes), separators included.
	MaxCharacters = 6000
	// TruncationMarker ends the body of the entry that was cut to fit the packet.
	TruncationMarker = "…"
)

// Item is what a packet shows of a memory item, and what orders it besides its positions.
type Item struct {
	ID       string
	Revision int
	// Scope is "shared" or the teammate's id.
	Scope   string
	Kind    string
	Key     *string
	Content string
	Pinned  bool
	// Lesson: the item is a lesson; pinned lessons go before the other pinned items (L2).
	Lesson bool
}

// Candidate is an item recall found, with its 1-based position in the full-text list and in the
// vector list (nil when it isn't in that list).
type Candidate struct {
	Item        Item
	FullTextPos *int
	VectorPos   *int
}

// Ranked is a candidate's place in the fused order.
type Ranked struct {
	// Index is the candidate's index in the slice given to Fuse.
	Index int
	// Score is the fused reciprocal-rank score: the sum over the lists of 1/(FusionK+position).
	Score float64
}

// Fuse orders the candidates (P4): pinned first — pinned lessons before the other pinned items
// (L2) — then by fused score, highest first, compared as exact fractions so that equal sums are
// equal, ties by item id. It keeps MaxEntries. The order doesn't depend on the candidates' order.
func Fuse(candidates []Candidate) []Ranked {
	ranked := make([]Ranked, len(candidates))
	for i, c := range candidates {
		num, den := score(c)
		ranked[i] = Ranked{Index: i, Score: float64(num) / float64(den)}
	}
	slices.SortFunc(ranked, func(x, y Ranked) int {
		a, b := candidates[x.Index], candidates[y.Index]
		if a.Item.Pinned != b.Item.Pinned {
			return boolFirst(a.Item.Pinned)
		}
		if al, bl := pinnedLesson(a.Item), pinnedLesson(b.Item); al != bl {
			return boolFirst(al)
		}
		an, ad := score(a)
		bn, bd := score(b)
		if c := cmp.Compare(bn*ad, an*bd); c != 0 {
			return c
		}
		return strings.Compare(a.Item.ID, b.Item.ID)
	})
	return ranked[:min(len(ranked), MaxEntries)]
}

// score is a candidate's fused score as an exact fraction num/den.
func score(c Candidate) (num, den int64) {
	num, den = 0, 1
	for _, pos := range []*int{c.FullTextPos, c.VectorPos} {
		if pos != nil {
			k := int64(FusionK + *pos)
			num, den = num*k+den, den*k
		}
	}
	return num, den
}

func pinnedLesson(i Item) bool { return i.Pinned && i.Lesson }

// boolFirst orders two different flags: the one that is true (first) comes before the other.
func boolFirst(first bool) int {
	if first {
		return -1
	}
	return 1
}

// Header is the header line of an item (P5).
func Header(i Item) string {
	return "[memory:" + i.ID + "@" + strconv.Itoa(i.Revision) + "; " + i.Scope + "; " + i.Kind + "]"
}

// Body is the line (or lines) under an item's header: "key: content", or the content alone, encoded
// so that no line of it can pass for a header (P5): every line break a reader might honour — CR LF,
// LF, CR, VT, FF, NEL, LS, PS — becomes "\n" followed by two spaces, and a first line that starts
// with anything but a letter or a digit is indented too: "[", but also a space, an invisible or
// bidi character in front of "[" (a reader doesn't see it, a model may skip it) or a look-alike
// bracket. Indenting alone would still leave "  [memory:…; shared; lesson]" reading like an entry
// to a model, so every square bracket and look-alike (isBracket) is escaped as "\[" — and a
// backslash as "\\", so the escaping can't be forged either. So content (an imported MEMORY.md
// above all, which is pinned into every run) can't fake an entry.
func Body(i Item) string {
	body := i.Content
	if i.Key != nil {
		body = *i.Key + ": " + i.Content
	}
	const indent = "  "
	var b strings.Builder
	b.Grow(len(body) + 8)
	if first, _ := utf8.DecodeRuneInString(body); !unicode.IsLetter(first) && !unicode.IsDigit(first) {
		b.WriteString(indent)
	}
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRuneInString(body[i:])
		switch r {
		case '\r':
			if strings.HasPrefix(body[i+size:], "\n") {
				size++
			}
			fallthrough
		case '\n', '\v', '\f', '\u0085', '\u2028', '\u2029':
			b.WriteString("\n" + indent)
		case '\\':
			b.WriteString(`\\`)
		default:
			if isBracket(r) {
				b.WriteByte('\\')
			}
			b.WriteString(body[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isBracket reports whether r is a square bracket or a character a reader (or a model) could take
// for one: the ASCII pair, their fullwidth and small forms, and the white, tortoise-shell, quill and
// lenticular brackets. Body escapes them.
func isBracket(r rune) bool {
	switch r {
	case '[', ']', '\uff3b', '\uff3d', '\ufe5d', '\ufe5e', '\u27e6', '\u27e7', '\u301a', '\u301b',
		'\u3014', '\u3015', '\u3018', '\u3019', '\u2045', '\u2046', '\u3010', '\u3011', '\u3016', '\u3017',
		'\u298b', '\u298c', '\u298d', '\u298e', '\u298f', '\u2990', '\u27ec', '\u27ed', '\u2983', '\u2984':
		return true
	}
	return false
}

// Entry is an item laid out whole, header and body, as a packet shows it; for lists of items
// outside a packet (search results) that must read the same way and be as hard to forge.
func Entry(i Item) string { return Header(i) + "\n" + Body(i) }

// Render lays items out in order and cuts them to MaxCharacters, as the package doc describes. It
// returns the text, how many of the items it holds, and whether the last of those was cut.
func Render(items []Item) (text string, n int, truncated bool) {
	const separator = "\n\n"
	var (
		b    strings.Builder
		used int
	)
	for _, item := range items {
		sep := ""
		if n > 0 {
			sep = separator
		}
		header, body := Header(item), Body(item)
		fixed := utf8.RuneCountInString(sep) + utf8.RuneCountInString(header) + 1
		if size := utf8.RuneCountInString(body); used+fixed+size <= MaxCharacters {
			b.WriteString(sep + header + "\n" + body)
			used += fixed + size
			n++
			continue
		}
		room := MaxCharacters - used - fixed - utf8.RuneCountInString(TruncationMarker)
		if cut := strings.TrimRightFunc(firstRunes(body, room), unicode.IsSpace); cut != "" {
			b.WriteString(sep + header + "\n" + cut + TruncationMarker)
			n++
			truncated = true
		}
		break
	}
	return b.String(), n, truncated
}

// firstRunes returns the first n runes of s ("" when n < 1).
func firstRunes(s string, n int) string {
	if n < 1 {
		return ""
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

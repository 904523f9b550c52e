package memory

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Exported for the external tests of recall (recall_test.go, recall_bench_test.go).
var (
	// RecallFullTextSQL is the full-text recall statement, for the EXPLAIN test.
	RecallFullTextSQL = qRecallFullText
	// RecallFullTextListSQL is its full-text list whole (all 30, with no items read), for the
	// reference test.
	RecallFullTextListSQL = `WITH ` + recallQuery + `, ` + recallFullText + `
		SELECT f.id, f.pos AS ft_pos, f.rank::float8 AS ft_rank, f.bm25 AS ft_bm25 FROM fts f`
	// recallFullTextUncut is qRecallFullText without its cut to packet.MaxEntries.
	recallFullTextUncut = strings.Replace(qRecallFullText, "WHERE f.pos <= "+packetEntriesText, "", 1)
	// RequestWords is the request sanitiser, so benchmarks can feed the bare SQL the same words.
	RequestWords = requestWords
)

// FuzzTSQuery: whatever the request, the words that reach PostgreSQL are its words — runs without
// white space, control characters or invalid UTF-8, lower case, distinct, bounded in number and
// size, joined by single spaces — and the statement quotes each of their lexemes, so the tsquery
// built from them can't be malformed (P2). The nasty seeds in testdata/fuzz/FuzzTSQuery also run
// through the real query in TestRecallHostileRequests.
func FuzzTSQuery(f *testing.F) {
	for _, seed := range []string{
		"green tea", "", "the of and", "'; DROP TABLE memory_items; --", `a & b | !c <-> d:* (e)`,
		`\\'\"`, "naïve café ÉTÉ", "e\u0301cole", "\u0301start with a mark", "İstanbul ǅ", "x\x00y\xff\xfez",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, request string) {
		out := requestWords(request)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 in %q", out)
		}
		if out == "" {
			return
		}
		if strings.HasPrefix(out, " ") || strings.HasSuffix(out, " ") || strings.Contains(out, "  ") {
			t.Fatalf("words not joined by single spaces: %q", out)
		}
		lowered := strings.Map(lowerWordRune, request)
		words := strings.Split(out, " ")
		if len(words) > maxRequestWords {
			t.Fatalf("%d words, more than %d", len(words), maxRequestWords)
		}
		seen := make(map[string]bool, len(words))
		for _, w := range words {
			if seen[w] {
				t.Fatalf("word %q twice", w)
			}
			seen[w] = true
			if len(w) > maxWordBytes {
				t.Fatalf("word of %d bytes", len(w))
			}
			for _, r := range w {
				if unicode.IsSpace(r) || unicode.IsControl(r) {
					t.Fatalf("word %q holds %U", w, r)
				}
				if l := unicode.ToLower(r); l != r && (unicode.IsLetter(l) || unicode.IsDigit(l)) {
					t.Fatalf("word %q is not lower case", w)
				}
			}
			if !strings.Contains(lowered, w) {
				t.Fatalf("word %q is not in the request", w)
			}
		}
		if again := requestWords(out); again != out {
			t.Fatalf("not idempotent: %q then %q", out, again)
		}
	})
}

// TestTSQueryWordBounds: the bounds requestWords keeps, which the fuzzer rarely reaches (long inputs
// make it slow): words PostgreSQL would not index are dropped (a longer run of punctuated words is
// split at its punctuation first), and only the first maxRequestWords distinct words are kept.
func TestTSQueryWordBounds(t *testing.T) {
	longest := strings.Repeat("a", maxWordBytes)
	if got := requestWords(longest + " " + strings.Repeat("b", maxWordBytes+1) + " tea"); got != longest+" tea" {
		t.Errorf("a word of %d bytes is kept, one of %d is dropped: got %d bytes", maxWordBytes, maxWordBytes+1, len(got))
	}
	if got := requestWords("kettle," + strings.Repeat("c", maxWordBytes) + ",tea," + strings.Repeat("d", maxWordBytes+1) + ".green"); got != "kettle "+strings.Repeat("c", maxWordBytes)+" tea green" {
		t.Errorf("a long punctuated run is split into its words: got %d bytes", len(got))
	}
	var many []string
	for i := range maxRequestWords + 10 {
		many = append(many, "w"+strings.Repeat("x", i))
	}
	request := strings.Join(many, " ") + " " + strings.Join(many, " ")
	if got := requestWords(request); got != strings.Join(many[:maxRequestWords], " ") {
		t.Errorf("want the first %d distinct words, got %d", maxRequestWords, len(strings.Fields(got)))
	}
	if got := requestWords("Tea TEA tea Thé THÉ"); got != "tea thé" {
		t.Errorf("case-folded, each once: got %q", got)
	}
	for request, want := range map[string]string{
		"Write to Tea@Kettle.example.com!": "write to tea@kettle.example.com!",
		"green-tea v1.2.3 -7 3.14":         "green-tea v1.2.3 -7 3.14",
		"/var/log/tea.log\x00\tkettle\xff": "/var/log/tea.log kettle",
		"a\u00a0b\u2003c":                  "a b c",
	} {
		if got := requestWords(request); got != want {
			t.Errorf("requestWords(%q) = %q, want %q: words are split at white space, control characters and invalid UTF-8 alone", request, got, want)
		}
	}
}

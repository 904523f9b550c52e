package intent

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func seedCorpus(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.Msg, c.Content, uint8(len(c.Msg)))
	}
}

// FuzzNegatorNeverConfirms: putting a negator in front of any token of the message never turns a
// suggestion into a confirmation, of a save or of a forget of an item with that text (A1, A5:
// negation fails closed).
func FuzzNegatorNeverConfirms(f *testing.F) {
	seedCorpus(f)
	negs := []string{"not", "never", "don't", "no", "nothing", "forbidden", "stop", "without"}
	f.Fuzz(func(t *testing.T, msg, content string, pick uint8) {
		if !utf8.ValidString(msg) || !utf8.ValidString(content) || len(msg) > 2000 || len(content) > 400 {
			t.Skip()
		}
		w := Write{Kind: Save, Content: content, Shared: pick&1 == 1}
		if pick&0x80 != 0 {
			w = Write{Kind: Forget, Shared: pick&1 == 1, Target: Item{Content: content}}
		}
		if Judge(msg, w).Verdict == Confirmed {
			return
		}
		toks := Tokens(msg)
		at := len(msg)
		if len(toks) > 0 {
			at = toks[int(pick)%len(toks)].Start
		}
		neg := negs[int(pick/2)%len(negs)]
		negated := msg[:at] + " " + neg + " " + msg[at:]
		if d := Judge(negated, w); d.Verdict == Confirmed {
			t.Fatalf("adding %q turned a suggestion into a confirmation of the %s: %q (content %q)", neg, w.Kind, negated, content)
		}
	})
}

// FuzzChangedTokenNeverConfirms: replacing one token of a confirmed text with a token the message
// doesn't hold never keeps the confirmation (A1: the text must be the user's own words).
func FuzzChangedTokenNeverConfirms(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, msg, content string, pick uint8) {
		if !utf8.ValidString(msg) || !utf8.ValidString(content) || len(msg) > 2000 || len(content) > 400 {
			t.Skip()
		}
		if Judge(msg, Write{Kind: Save, Content: content}).Verdict != Confirmed {
			return
		}
		ctoks := Tokens(content)
		tok := ctoks[int(pick)%len(ctoks)]
		// A replacement that is one token and occurs nowhere in the message.
		have := Canonical(msg)
		repl := "zq"
		for strings.Contains(" "+have+" ", " "+repl+" ") {
			repl += "q"
		}
		for _, sign := range []string{repl, "-" + tok.Text, tok.Text + "0"} {
			if len(Tokens(sign)) != 1 || strings.Contains(" "+have+" ", " "+Canonical(sign)+" ") {
				continue
			}
			changed := content[:tok.Start] + sign + content[tok.End:]
			if len(Tokens(changed)) != len(ctoks) {
				continue // the replacement merged with a neighbour: not a one-token change
			}
			if Judge(msg, Write{Kind: Save, Content: changed}).Verdict == Confirmed {
				t.Fatalf("changed token %q → %q still confirmed: %q in %q", tok.Text, sign, changed, msg)
			}
		}
	})
}

// FuzzCanonical: the canonical form is stable (canonicalising twice changes nothing) and its tokens
// are the text's tokens.
func FuzzCanonical(f *testing.F) {
	seedCorpus(f)
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

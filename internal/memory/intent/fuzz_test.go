package intent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/open-bot/memory/internal/memory/textmodel"
)

// confirmedSeeds are corpus messages the judge confirms, with their writes: the fuzzers start from
// requests that pass and check that what they add never keeps them passing wrongly.
func confirmedSeeds(f *testing.F) []corpusCase {
	var out []corpusCase
	for _, c := range loadCorpus(f) {
		if c.Want == "confirmed" {
			out = append(out, c)
		}
	}
	return out
}

// FuzzUnknownSentenceNeverConfirms appends a sentence to a confirmed message. If the judge doesn't
// understand that sentence on its own as neutral (A1 c), the message must no longer confirm — an
// unfamiliar take-back ("Scrap that.", "🙅", "ah non, pas ça") must never slip through.
func FuzzUnknownSentenceNeverConfirms(f *testing.F) {
	seeds := confirmedSeeds(f)
	for _, extra := range []string{"Scrap that.", "Nvm.", "Oops, no.", "EDIT: don't.", "or not.", "🙅‍♂️", "ah non, pas ça",
		"Yeah right.", "🙄", "That was a test, ignore it.", "I wish.", "Thanks!", "I moved last week.", "Zorblax quux."} {
		for i := range 4 {
			f.Add(uint16(i*37), extra)
		}
	}
	f.Fuzz(func(t *testing.T, pick uint16, extra string) {
		if !utf8.ValidString(extra) || len(extra) > 300 || strings.TrimSpace(extra) == "" {
			t.Skip()
		}
		c := seeds[int(pick)%len(seeds)]
		msg := strings.TrimRight(c.Msg, " ") + "\n" + extra
		d := Judge(msg, c.write())
		if d.Verdict != Confirmed {
			return
		}
		// Confirmed: then every sentence of the added text must be neutral on its own, read as the
		// judge reads it beside a request (a greeting, a plain statement, another request …).
		m := read(msg)
		req := d.Trace.Sentence
		for i := range m.sentences {
			s := &m.sentences[i]
			if s.index == req || s.end <= len(strings.TrimRight(c.Msg, " ")) {
				continue
			}
			if bad := m.neutral(s, c.write()); bad != nil && !(bad.reason == ReasonPasted && m.task(s)) {
				t.Fatalf("confirmed %q with an added sentence it doesn't understand (%s): %q", msg, bad.reason, m.whole(s))
			}
			for _, r := range s.roles {
				if r&(RoleNegation|RoleTakeBack|RoleSarcasm|RoleHedge|RoleCondition) != 0 {
					t.Fatalf("confirmed %q though an added sentence holds a take-back or hedge: %q", msg, m.whole(s))
				}
			}
		}
	})
}

// FuzzWrappedRequestNeverConfirms wraps a confirmed request in someone else's voice — quotes, a
// code fence, a block quote, a pasted email, a translation, a role marker, role-play — and checks
// that it never confirms (A7).
func FuzzWrappedRequestNeverConfirms(f *testing.F) {
	seeds := confirmedSeeds(f)
	wrappers := []string{
		"\"%s\"", "“%s”", "'%s'", "```\n%s\n```", "> %s", "Translate into French:\n%s", "Summarise this email:\n%s",
		"From: ben@example.com\nSubject: notes\n\n%s", "SYSTEM: %s", "Assistant: %s", "Pretend you're my bank. %s",
		"Imagine this: %s", "My boss wrote: \"%s\"", "Reply to this: %s", "Here's the doc:\n%s", "<|im_start|>system\n%s",
		"Hypothetically, %s", "Proofread: %s", "«%s»", "`%s`",
	}
	for i := range wrappers {
		f.Add(uint16(i*53), uint8(i))
	}
	f.Fuzz(func(t *testing.T, pick uint16, wrap uint8) {
		c := seeds[int(pick)%len(seeds)]
		msg := strings.Replace(wrappers[int(wrap)%len(wrappers)], "%s", c.Msg, 1)
		if d := Judge(msg, c.write()); d.Verdict == Confirmed {
			t.Fatalf("a wrapped request was confirmed (%s): %q", d.Reason, msg)
		}
	})
}

// FuzzNegatorNeverConfirms: putting a negator in front of any token of a message never turns a
// suggestion into a confirmation (A1, A5: negation fails closed).
func FuzzNegatorNeverConfirms(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.Msg, c.Content, uint8(len(c.Msg)))
	}
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
		at := len(msg)
		if toks := read(msg).sentences; len(toks) > 0 {
			all := toks[int(pick)%len(toks)]
			at = all.toks[0].Start
		}
		neg := negs[int(pick/2)%len(negs)]
		negated := msg[:at] + " " + neg + " " + msg[at:]
		if d := Judge(negated, w); d.Verdict == Confirmed {
			t.Fatalf("adding %q turned a suggestion into a confirmation of the %s: %q (content %q)", neg, w.Kind, negated, content)
		}
	})
}

// FuzzChangedTokenNeverConfirms: replacing one token of a confirmed text with one the message
// doesn't hold — or changing only its case where case counts, or a superscript to a digit — never
// keeps the confirmation (A1: exactly the user's words).
func FuzzChangedTokenNeverConfirms(f *testing.F) {
	seeds := confirmedSeeds(f)
	for i := range 64 {
		f.Add(uint16(i*31), uint8(i))
	}
	f.Fuzz(func(t *testing.T, pick uint16, which uint8) {
		c := seeds[int(pick)%len(seeds)]
		if c.Kind == "forget" {
			return
		}
		toks := textmodel.Tokens(c.Content)
		tok := toks[int(which)%len(toks)]
		for _, repl := range []string{"zqx", "-" + tok.Text, tok.Text + "0", strings.ToUpper(tok.Text[:1]) + "Q" + tok.Text[1:]} {
			changed := c.Content[:tok.Start] + repl + c.Content[tok.End:]
			ct := textmodel.Tokens(changed)
			if len(ct) != len(toks) || strings.Contains(c.Msg, repl) || ct[int(which)%len(toks)].Exact == tok.Exact {
				continue // not a one-token change the text model sees
			}
			w := c.write()
			w.Content = changed
			if d := Judge(c.Msg, w); d.Verdict == Confirmed {
				t.Fatalf("changed token %q → %q still confirmed: %q in %q", tok.Text, repl, changed, c.Msg)
			}
		}
	})
}

// String names the kind in the fuzzers' failure messages. It lives here because no code outside the
// tests prints a Kind.
func (k Kind) String() string {
	switch k {
	case Save:
		return "save"
	case Update:
		return "update"
	case Forget:
		return "forget"
	}
	return "unknown"
}

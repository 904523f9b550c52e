package intent

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Kind says what a teammate's memory tool proposes; saves and updates (A1, A4) and forgets (A5) are
// judged by different rules.
type Kind int

const (
	// Save is a new item (toolRemember, toolRememberAboutUser).
	Save Kind = iota + 1
	// Update is new text for an existing item (toolUpdateMemory): a save of the new text that must
	// also point at the item (A4).
	Update
	// Forget erases an existing item (toolForgetMemory) (A5).
	Forget
)

// String names the kind for logs and test output.
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

// Item is an existing item as far as the judgement needs it: what the user can call it by.
type Item struct {
	Key     string
	Content string
}

// Write is the part of a tool call the judgement reads. It carries no ids: the verdict depends only
// on what the user said and what the teammate wants to write.
type Write struct {
	Kind Kind
	// Content is the text to save (Save, Update); unused for Forget.
	Content string
	// Key is the label the teammate chose for a Save ("" for none). An Update keeps the item's key.
	Key string
	// Shared is set when the write changes the shared scope, which needs the user to name every
	// teammate (A3, S3).
	Shared bool
	// Target is the item an Update or a Forget changes, as it is now.
	Target Item
}

// Verdict is the judgement. The zero value is no verdict, so a forgotten assignment can't pass for a
// confirmation.
type Verdict int

const (
	// Confirmed: the user asked for exactly this; the write happens.
	Confirmed Verdict = iota + 1
	// Suggested: the write waits for the user as a suggestion (A2), a proposed change (A4) or a
	// proposed forget (A5). Nothing confirmed changes.
	Suggested
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case Confirmed:
		return "confirmed"
	case Suggested:
		return "suggested"
	}
	return "unknown"
}

// Decision is a verdict with the reason the tool passes on to the teammate. Reason is one of a
// fixed set of sentences (Reasons) and never quotes the message or the memory (F5).
type Decision struct {
	Verdict Verdict
	Reason  string
}

// The reasons. The further a message got towards a confirmation, the later its reason in this list;
// a message that fails in several sentences reports the furthest.
const (
	ReasonUnknownKind      = "this kind of memory write is unknown, so nothing was changed"
	ReasonEmpty            = "the text has no words to compare with the user's message"
	ReasonNoRequest        = "the user's message doesn't ask to remember, save, keep, update or correct anything"
	ReasonNoForgetRequest  = "the user's message doesn't ask to forget, delete, remove or erase anything"
	ReasonNotARequest      = "the user's message mentions remembering or forgetting but doesn't ask for it (\"I remember when…\", \"it is forbidden to…\")"
	ReasonQuestion         = "the user's message asks a question there, which is not a request"
	ReasonNotInSentence    = "the sentence that asks doesn't contain this text word for word"
	ReasonPartial          = "the text is only part of what the sentence says; it must run to the end of a clause"
	ReasonKeyNotInSentence = "the sentence that asks doesn't contain the key word for word"
	ReasonNegated          = "the sentence that asks also says no, not or never (or similar), so it may ask not to"
	ReasonForgetNegated    = "the sentence that asks to forget also says no, not or never (or similar), so it may ask not to"
	ReasonForgetKeeps      = "the sentence that asks to forget also asks to keep or remember something, which may be this memory"
	ReasonNotThisItem      = "the sentence that asks doesn't name this memory (its key, or at least half of its words)"
	ReasonOtherObject      = "the sentence that asks shares words with this memory, but what it asks to change or forget is mostly something else"
	ReasonNotForEveryone   = "the sentence that asks doesn't say this is for all teammates; shared memory changes only when the user says so"
	ReasonRevoked          = "the user's message takes the request back (never mind, scratch that, don't …)"
	ReasonConfirmed        = "the user's message asks to remember this and contains it"
	ReasonConfirmedShared  = "the user's message asks to remember this for all teammates and contains it"
	ReasonUpdateConfirmed  = "the user's message asks to change this memory and contains the new text"
	ReasonForgetConfirmed  = "the user's message asks to forget this memory"
)

// Reasons lists every reason Judge gives, for tests that check no other text escapes.
var Reasons = []string{
	ReasonUnknownKind, ReasonEmpty, ReasonNoRequest, ReasonNoForgetRequest, ReasonNotARequest, ReasonQuestion,
	ReasonNotInSentence, ReasonPartial, ReasonKeyNotInSentence, ReasonNegated, ReasonForgetNegated, ReasonForgetKeeps, ReasonNotThisItem,
	ReasonOtherObject, ReasonNotForEveryone, ReasonRevoked, ReasonConfirmed, ReasonConfirmedShared, ReasonUpdateConfirmed,
	ReasonForgetConfirmed,
}

// progress orders the ways a sentence can fall short, for choosing the reason to report.
var progress = map[string]int{
	ReasonNoRequest: 0, ReasonNoForgetRequest: 0, ReasonNotARequest: 1, ReasonQuestion: 1, ReasonNotInSentence: 2,
	ReasonPartial: 3, ReasonKeyNotInSentence: 4, ReasonNegated: 5, ReasonForgetNegated: 5, ReasonForgetKeeps: 5,
	ReasonNotThisItem: 6, ReasonOtherObject: 7, ReasonNotForEveryone: 8,
}

// Judge decides whether a teammate's write is confirmed or waits for the user, from the run's user
// message alone (A1–A5, S3). Teammates infer; only the user's own words may turn an inference into a
// fact, change a confirmed one or erase one, so anything short of an explicit, unnegated request, in
// one sentence, that contains the text (and names the item it changes) waits for the user. See the
// package documentation for the rules.
func Judge(message string, w Write) Decision {
	suggest := func(reason string) Decision { return Decision{Verdict: Suggested, Reason: reason} }
	var content, key []string
	switch w.Kind {
	case Save, Update:
		content = texts(Tokens(w.Content))
		if len(content) == 0 {
			return suggest(ReasonEmpty)
		}
		if w.Kind == Save {
			key = texts(Tokens(w.Key))
		}
	case Forget:
	default:
		return suggest(ReasonUnknownKind)
	}
	sentences := Sentences(message)
	for _, s := range sentences {
		if s.revokes(w.Kind) {
			return suggest(ReasonRevoked)
		}
	}
	best := ReasonNoRequest
	if w.Kind == Forget {
		best = ReasonNoForgetRequest
	}
	for _, s := range sentences {
		var reason string
		if w.Kind == Forget {
			reason = s.judgeForget(w)
		} else {
			reason = s.judgeSave(w, content, key)
		}
		if reason == "" {
			switch {
			case w.Kind == Forget:
				return Decision{Verdict: Confirmed, Reason: ReasonForgetConfirmed}
			case w.Kind == Update:
				return Decision{Verdict: Confirmed, Reason: ReasonUpdateConfirmed}
			case w.Shared:
				return Decision{Verdict: Confirmed, Reason: ReasonConfirmedShared}
			}
			return Decision{Verdict: Confirmed, Reason: ReasonConfirmed}
		}
		if progress[reason] > progress[best] {
			best = reason
		}
	}
	return suggest(best)
}

// Sentence is one sentence of a message: its tokens, and the gaps between them.
type Sentence struct {
	Tokens []string
	// Start and End are the byte offsets of its first and last token in the message.
	Start, End int
	// Question: the sentence ends with a question mark or opens like a question.
	Question bool
	// breakAfter[i]: punctuation (a comma, colon, dash, bracket…) separates token i from token i+1.
	breakAfter []bool
	offsets    [][2]int // each token's byte offsets in the message
}

// sentenceEnds end a sentence (after NFKC, so full-width forms are included).
func sentenceEnd(r rune) bool {
	switch r {
	case '.', '!', '?', ';', '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029', '\u203c', '\u2047',
		'\u2048', '\u2049', '\u3002', '\uff61', '\u061f', '\u0964', '\u0965', '\u061b', '\u06d4':
		return true
	}
	return false
}

func questionMark(r rune) bool {
	return r == '?' || r == '\u061f' || r == '\u2047' || r == '\u2048' || r == '\u2049'
}

// Sentences cuts a message into sentences: at . ! ? ; … and their other-script forms, at line and
// paragraph breaks, and before topic shifts ("by the way", "btw", "on another note"). A full stop
// inside a token ("2.5", "node.js") ends nothing.
func Sentences(message string) []Sentence {
	toks := Tokens(message)
	var out []Sentence
	cur := Sentence{}
	openQuestion := false
	end := func(question bool) {
		if len(cur.Tokens) > 0 {
			cur.Question = question || openQuestion || questionStarts[cur.firstWord()]
			out = append(out, cur)
		}
		cur = Sentence{}
		openQuestion = false
	}
	for i, t := range toks {
		gapStart := 0
		if i > 0 {
			gapStart = toks[i-1].End
		}
		gap := norm.NFKC.String(message[gapStart:t.Start])
		if i > 0 {
			ends, question := false, false
			for j, r := range gap {
				if r == '.' && j == 0 && abbreviations[toks[i-1].Text] && strings.TrimSpace(gap) == "." {
					continue // "Dr. Ruiz"
				}
				if sentenceEnd(r) {
					ends = true
				}
				if questionMark(r) {
					question = true
				}
			}
			if ends {
				end(question)
			} else if len(cur.Tokens) > 0 {
				cur.breakAfter[len(cur.breakAfter)-1] = strings.IndexFunc(gap, func(r rune) bool { return !unicode.IsSpace(r) }) >= 0
			}
		}
		if strings.ContainsRune(gap, '¿') {
			openQuestion = true
		}
		if len(cur.Tokens) == 0 {
			cur.Start = t.Start
		}
		cur.End = t.End
		cur.offsets = append(cur.offsets, [2]int{t.Start, t.End})
		cur.Tokens = append(cur.Tokens, t.Text)
		cur.breakAfter = append(cur.breakAfter, false)
	}
	question := false
	if len(toks) > 0 {
		for _, r := range norm.NFKC.String(message[toks[len(toks)-1].End:]) {
			if questionMark(r) {
				question = true
			}
		}
	}
	end(question)
	return splitTopicShifts(out)
}

// splitTopicShifts starts a new sentence at every topic shift that isn't already at the start.
func splitTopicShifts(in []Sentence) []Sentence {
	var out []Sentence
	for _, s := range in {
		from := 0
		for i := 0; i < len(s.Tokens); i++ {
			n := matchAny(s.Tokens, i, topicShifts)
			if n == 0 {
				continue
			}
			if i > from {
				out = append(out, s.slice(from, i))
				from = i
			}
			i += n - 1 // "on an unrelated note" is one shift, not two
		}
		out = append(out, s.slice(from, len(s.Tokens)))
	}
	return out
}

func (s Sentence) slice(from, to int) Sentence {
	part := Sentence{Tokens: s.Tokens[from:to], breakAfter: s.breakAfter[from:to], offsets: s.offsets[from:to],
		Start: s.offsets[from][0], End: s.offsets[to-1][1]}
	// Only the last part carries the question mark; each part may open like a question.
	part.Question = (to == len(s.Tokens) && s.Question) || questionStarts[part.firstWord()]
	return part
}

// firstWord is the first token after fillers.
func (s Sentence) firstWord() string {
	i := skip(s.Tokens, 0, len(s.Tokens), fillers)
	if i < len(s.Tokens) {
		return s.Tokens[i]
	}
	return ""
}

// matchAny returns the length of the longest phrase of ps that starts at toks[i], or 0.
func matchAny(toks []string, i int, ps [][]string) int {
	best := 0
	for _, p := range ps {
		if len(p) > best && hasPrefix(toks[i:], p) {
			best = len(p)
		}
	}
	return best
}

func hasPrefix(toks, p []string) bool {
	if len(p) > len(toks) {
		return false
	}
	for j, w := range p {
		if toks[j] != w {
			return false
		}
	}
	return true
}

// skip returns the first index in [i, end) that doesn't start one of ps (skipping them all).
func skip(toks []string, i, end int, ps ...[][]string) int {
	for i < end {
		n := 0
		for _, p := range ps {
			n = max(n, matchAny(toks[:end], i, p))
		}
		if n == 0 {
			return i
		}
		i += n
	}
	return end
}

// revokes: the sentence takes the request back — after fillers it opens with a revocation ("never
// mind", "scratch that", "on second thought") or a negator ("please don't", "no wait", "not now");
// or it opens with the opposite request and holds a negator or names nothing: against a save,
// "forget it" ("forget that", "forget about this"); against a forget, "keep it" ("actually, remember
// that"). Which words open it and whether it holds a negator only, and the opening is read with the
// negators passed over: no word added to a revoking sentence, a negator inside "on second thought"
// included, can turn it back into a request; and "Forget the old one" after "Remember my new
// address …" takes nothing back.
func (s Sentence) revokes(kind Kind) bool {
	var rest []string // the sentence without its negators
	var at []int      // where each of rest's tokens stands in the sentence
	for j, t := range s.Tokens {
		if !negator(t) {
			rest = append(rest, t)
			at = append(at, j)
		}
	}
	i := skip(rest, 0, len(rest), fillers)
	opening := len(s.Tokens) // the opening word's place in the sentence
	if i < len(rest) {
		opening = at[i]
	}
	for _, t := range s.Tokens[:opening] {
		if negator(t) {
			return true // "please don't", "thank you, no"; "Okay." takes nothing back
		}
	}
	if i == len(rest) {
		return false
	}
	for _, p := range revocations {
		if opensWith(s.Tokens[opening:], p) {
			return true
		}
	}
	opposite := forgetVerbs[rest[i]]
	if kind == Forget {
		opposite = saveVerbs[rest[i]] || keepVerbs[rest[i]]
	}
	if !opposite || len(rest) < len(s.Tokens) {
		return opposite // the opposite request and a negator: "forget the old one, don't keep anything"
	}
	for _, w := range rest[i+1:] {
		if !vagueObjects[w] && !trailers[w] {
			return false
		}
	}
	return true
}

// opensWith reports whether toks open with the phrase p, negators that p doesn't have passed over:
// "on second, no, thought" and "I am never joking" take a request back as surely as the phrases do.
func opensWith(toks, p []string) bool {
	j := 0
	for _, w := range p {
		for j < len(toks) && toks[j] != w && negator(toks[j]) {
			j++
		}
		if j == len(toks) || toks[j] != w {
			return false
		}
		j++
	}
	return true
}

// negator reports a token that says no (negators, or any "…n't").
func negator(t string) bool { return negators[t] || strings.HasSuffix(t, "n't") }

// span is a half-open range of token indexes.
type span struct{ from, to int }

func (p span) contains(i int) bool { return i >= p.from && i < p.to }

// verbs returns the spans of the request verbs of set in the sentence ("remember", "keep in mind").
// A save verb whose object is a person ("correct me if I'm wrong", "save me a seat", "update us on
// the build") asks for something else, and so does "correct" or "update" on its own before a
// punctuation mark ("Correct, I am vegetarian" agrees; "Update: the build is green" reports).
func (s Sentence) verbs(kind Kind) []span {
	var out []span
	for i, t := range s.Tokens {
		last := i+1 == len(s.Tokens)
		switch {
		case kind == Forget && forgetVerbs[t]:
			out = append(out, span{i, i + 1})
		case kind != Forget && saveVerbs[t] && (last || !personObjects[s.Tokens[i+1]]) &&
			!(bareVerbs[t] && (last || s.breakAfter[i])):
			out = append(out, span{i, i + 1})
		case kind != Forget && keepVerbs[t]:
			if n := matchAny(s.Tokens, i+1, keepObjects); n > 0 {
				out = append(out, span{i, i + 1 + n})
			}
		}
	}
	return out
}

// asks reports whether the words before the verb make it a request: nothing but fillers, audience
// phrases and one lead-in ("please", "I want you to", "for all teammates, …").
func (s Sentence) asks(v span) bool {
	i := skip(s.Tokens, 0, v.from, fillers, audiences)
	if n := matchAny(s.Tokens[:v.from], i, leadIns); n > 0 {
		i = skip(s.Tokens, i+n, v.from, fillers)
	}
	return i == v.from
}

// occurrences returns every span where the token sequence seq occurs in the sentence.
func (s Sentence) occurrences(seq []string) []span {
	var out []span
	for i := indexSeq(s.Tokens, seq, 0); i >= 0; i = indexSeq(s.Tokens, seq, i+1) {
		out = append(out, span{i, i + len(seq)})
	}
	return out
}

// holdsOutside reports a token for which is holds anywhere in the sentence outside the given spans.
func (s Sentence) holdsOutside(is func(string) bool, keep ...span) bool {
next:
	for i, t := range s.Tokens {
		for _, k := range keep {
			if k.contains(i) {
				continue next
			}
		}
		if is(t) {
			return true
		}
	}
	return false
}

// negatorOrForget: in a save's sentence a forget verb says no as much as a negator does.
func negatorOrForget(t string) bool { return negator(t) || forgetVerbs[t] }

// keeps: a save or keep verb. A sentence that asks to forget one thing and keep another ("forget my
// dog but keep the note about my cat") may name, in its other half, the very item a teammate wants
// to erase.
func keeps(t string) bool { return saveVerbs[t] || keepVerbs[t] }

// audienceOutside reports an audience phrase (A3) outside the span that names who the memory is for.
// A phrase that says so itself ("for all teammates", "tell everyone", "everyone should know") always
// does; the others are nouns ("all of you", "my teammates", "my profile") and do only as the
// request's audience: opening the sentence, after a punctuation break or after for, to, with, in,
// into, on, among or across, and ending it, a clause or the request. "Keep it from my teammates",
// "unlike all of you", "thank you all" and "my profile picture" name no audience.
func (s Sentence) audienceOutside(c span) bool {
	for i := range s.Tokens {
		n := matchAny(s.Tokens, i, audiences)
		if n == 0 || (i+n > c.from && i < c.to) {
			continue
		}
		if audienceLeads[s.Tokens[i]] {
			return true
		}
		opens := skip(s.Tokens, 0, i, fillers) == i || s.breakAfter[i-1] || audiencePreps[s.Tokens[i-1]]
		end := i + n
		ends := end == len(s.Tokens) || s.breakAfter[end-1] || clauseJoins[s.Tokens[end]] || trailers[s.Tokens[end]]
		if opens && ends {
			return true
		}
	}
	return false
}

// placed reports whether content at c is governed by the verb at v the way a request is phrased:
// after the verb, ending at the sentence's end, a punctuation break or a joining word ("remember
// that I like tea, please"), or before it, with nothing but fillers around ("I don't eat pork,
// remember that").
func (s Sentence) placed(v, c span) bool {
	n := len(s.Tokens)
	switch {
	case c.from >= v.to:
		if !s.asks(v) {
			return false
		}
		return c.to == n || s.breakAfter[c.to-1] || clauseJoins[s.Tokens[c.to]] || s.onlyTrailers(c.to, n)
	case c.to <= v.from:
		return skip(s.Tokens, 0, c.from, fillers, audiences) == c.from &&
			skip(s.Tokens, c.to, v.from, fillers) == v.from && s.onlyTrailers(v.to, n)
	}
	return false
}

// onlyTrailers: every token in [from, to) is a trailer or part of an audience phrase.
func (s Sentence) onlyTrailers(from, to int) bool {
	for i := from; i < to; {
		if n := matchAny(s.Tokens[:to], i, audiences); n > 0 {
			i += n
			continue
		}
		if !trailers[s.Tokens[i]] {
			return false
		}
		i++
	}
	return true
}

// maxPairs bounds the (text occurrence, verb) pairs judgeSave weighs in one sentence.
const maxPairs = 64

// judgeSave returns "" when this sentence confirms the save or update, or why it doesn't.
func (s Sentence) judgeSave(w Write, content, key []string) string {
	var verbs []span
	all := s.verbs(w.Kind)
	for _, v := range all {
		// A request: the verb opens the sentence (after fillers and a lead-in), or closes it after
		// the text ("…, remember that").
		if s.asks(v) || s.onlyTrailers(v.to, len(s.Tokens)) {
			verbs = append(verbs, v)
		}
	}
	switch {
	case len(all) == 0:
		return ReasonNoRequest
	case len(verbs) == 0:
		return ReasonNotARequest
	case s.Question:
		return ReasonQuestion
	}
	reason := ReasonNotInSentence
	better := func(r string) {
		if progress[r] > progress[reason] {
			reason = r
		}
	}
	pairs := 0
	for _, c := range s.occurrences(content) {
		better(ReasonPartial)
		for _, v := range verbs {
			// Each pair costs a pass over the sentence; a sentence that repeats the text and the
			// verb hundreds of times is no plain request, and stops here: fail closed, in bounded time.
			if pairs++; pairs > maxPairs {
				return reason
			}
			if !s.placed(v, c) {
				continue
			}
			keep := []span{c}
			if len(key) > 0 {
				ks := s.occurrences(key)
				if len(ks) == 0 {
					better(ReasonKeyNotInSentence)
					continue
				}
				keep = append(keep, ks...)
			}
			if s.holdsOutside(negatorOrForget, keep...) {
				better(ReasonNegated)
				continue
			}
			if w.Kind == Update {
				if r := s.pointsAt(w.Target, c, v); r != "" {
					better(r)
					continue
				}
			}
			if w.Shared && !s.audienceOutside(c) {
				better(ReasonNotForEveryone)
				continue
			}
			return ""
		}
	}
	return reason
}

// judgeForget returns "" when this sentence confirms the forget, or why it doesn't.
func (s Sentence) judgeForget(w Write) string {
	reason := ReasonNoForgetRequest
	for _, v := range s.verbs(Forget) {
		if !s.asks(v) {
			reason = ReasonNotARequest
			continue
		}
		if s.Question {
			return ReasonQuestion
		}
		// The item's own words may hold a negation ("forget that I don't eat pork").
		keep := append(s.occurrences(texts(Tokens(w.Target.Content))), s.occurrences(texts(Tokens(w.Target.Key)))...)
		aim := s.pointsAt(w.Target, span{}, v)
		switch {
		case s.holdsOutside(negator, keep...):
			reason = ReasonForgetNegated
		case s.holdsOutside(keeps, keep...):
			reason = ReasonForgetKeeps
		case aim != "":
			reason = aim
		case w.Shared && !s.audienceOutside(span{}):
			reason = ReasonNotForEveryone
		default:
			return ""
		}
	}
	return reason
}

// pointsAt returns "" when the sentence points at the item with the verb at v (A4, A5), or why it
// doesn't: it must name the item (namesItem), and what the verb acts on must be the item, not
// something that merely holds one of its words (actsOnItem): "Remove the cat hair from my sofa"
// names "Has a cat" but acts on the hair.
func (s Sentence) pointsAt(it Item, c, v span) string {
	switch {
	case !s.namesItem(it, c, v):
		return ReasonNotThisItem
	case !s.actsOnItem(it, c, v):
		return ReasonOtherObject
	}
	return ""
}

// namesItem reports whether the sentence, outside the new text at c and the verb at v, names the
// item: its key word for word, or at least half (and at least one) of the distinct words of its
// current text that aren't stop words.
func (s Sentence) namesItem(it Item, c, v span) bool {
	outside := make(map[string]bool, len(s.Tokens))
	var rest []string
	for i, t := range s.Tokens {
		if c.contains(i) || v.contains(i) {
			rest = append(rest, "\x00") // keeps sequences from joining across the gap
			continue
		}
		outside[t] = true
		rest = append(rest, t)
	}
	if key := texts(Tokens(it.Key)); len(key) > 0 && !allStopWords(key) && indexSeq(rest, key, 0) >= 0 {
		return true // a key of stop words alone ("it", "that") names nothing
	}
	words := contentWords(it.Content)
	found := 0
	for w := range words {
		if outside[w] {
			found++
		}
	}
	return found >= 1 && 2*found >= len(words)
}

// actsOnItem reports whether the verb's object — the words after the verb at v to the end of the
// sentence, or to a word that opens a clause of its own ("because", "since" …), without the new text
// at c — is mostly the item's words: the distinct words of its key and text that it holds outnumber
// all its other words, each of those counted as often as it occurs. Stop words don't count, nor do
// the words that point at a memory rather than at a thing (objectFraming: "note" in "the note about
// …", "memory" in "from your memory", "for good") or name the audience ("for all teammates"). A word is the item's when it
// is one of them, give or take a final "s" or "es" ("I like coffee" points at "Likes coffee"). So
// "the cat hair from my sofa" (cat; hair, sofa) doesn't point at "Has a cat", nor "the coffee stain
// and the tea stain" (coffee, tea; stain, stain) at "Likes coffee and tea"; "my old address, 12 Elm
// Street" (12, elm, street; old, address) points at "Lives at 12 Elm Street".
func (s Sentence) actsOnItem(it Item, c, v span) bool {
	words := contentWords(it.Key + " " + it.Content)
	own := map[string]bool{}
	other := 0
	for i := v.to; i < len(s.Tokens); {
		if c.contains(i) {
			i++
			continue
		}
		if objectEnds[s.Tokens[i]] {
			break
		}
		if n := max(matchAny(s.Tokens, i, objectFraming), matchAny(s.Tokens, i, audiences)); n > 0 {
			i += n
			continue
		}
		if t := s.Tokens[i]; !stopWords[t] {
			if w, ok := itemWord(words, t); ok {
				own[w] = true
			} else {
				other++
			}
		}
		i++
	}
	return len(own) > other
}

// itemWord returns the word of words that t is, give or take a final "s" or "es".
func itemWord(words map[string]bool, t string) (string, bool) {
	for _, w := range []string{t, t + "s", t + "es", strings.TrimSuffix(t, "s"), strings.TrimSuffix(t, "es")} {
		if words[w] {
			return w, true
		}
	}
	return "", false
}

// contentWords returns the distinct tokens of text that aren't stop words.
func contentWords(text string) map[string]bool {
	words := map[string]bool{}
	for _, t := range Tokens(text) {
		if !stopWords[t.Text] {
			words[t.Text] = true
		}
	}
	return words
}

func allStopWords(toks []string) bool {
	for _, t := range toks {
		if !stopWords[t] {
			return false
		}
	}
	return true
}

// SourceSentence returns the sentence of message that a text most likely came from — the one that
// holds the most of the text's distinct words (stop words aside) — as written in the message, or ""
// when no sentence holds any. Suggestions show it so the user sees where a teammate got the idea.
func SourceSentence(message, text string) string {
	words := contentWords(text)
	best, bestN := "", 0
	for _, s := range Sentences(message) {
		seen := map[string]bool{}
		for _, t := range s.Tokens {
			if words[t] {
				seen[t] = true
			}
		}
		if len(seen) > bestN {
			best, bestN = message[s.Start:s.End], len(seen)
		}
	}
	return best
}

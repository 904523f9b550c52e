package memory

import (
	"bytes"
	"iter"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is MemoryCoordinator.actor of the seed: the pure decision, from the run's user message
// alone, of whether a teammate's memory write is a confirmed fact, a candidate for the user to
// confirm, or refused (SPEC A1, A2, A3, A5, S3). It does no I/O, so every rule is testable in
// isolation; the tools call it inside their transaction and act on the verdict.
//
// The rules, precisely:
//
//   - The message is cut into words (letters and digits; an apostrophe between two word characters
//     joins them, so "don't", "don’t" and "dont" are one word) and into clauses, which end at
//     . ! ? ; … (and their full-width forms), at line breaks, and at the words "but" and "however".
//     A full stop between two digits ("3.5") ends nothing. Commas do not end a clause, so "never,
//     ever save this" stays negated.
//   - A keyword is negated when a negator stands among the negationWindow words before it in the same
//     clause. "no" is a negator only when a word follows it directly ("no need to save"), not as an
//     interjection ("No, remember that …").
//   - A save intent is an intent word that is not negated, or a forget word that is negated ("don't
//     forget that …", "never forget …" ask to remember, and the negations cancel, so "don't forget
//     to save" doesn't negate "save"). An unnegated forget word negates the gerunds after it in the
//     window ("forget about saving that", "forget deleting it"), but not other words: "forget the
//     old one, remember the new one" asks to remember. "keep" directly followed by a word ending in
//     "ing" is the auxiliary ("I keep forgetting"), not an intent.
//   - A save or edit is confirmed when the message has a save intent and contains the content
//     (Normalize of both, matched as whole words). When the message also negates an intent, the
//     content must be governed by an unnegated one: the nearest intent word before it in its clause
//     (or, failing that, after it) is unnegated, and no negated intent word lies inside it — so
//     "don't save my address 1 Main St but remember my name is Ann" confirms the name, never the
//     address. For the shared scope the message must also hold an unnegated everyone-word (A3).
//   - A forget is confirmed when a forget word is not negated, no forget word is negated anywhere
//     in the message ("delete my phone number but don't forget my address": Actor can't tell which
//     item is meant, and a forget can't be undone), and, for the shared scope, an unnegated
//     everyone-word is present (S3). Otherwise it is refused, never a candidate (A5).
//   - Messages in other scripts are judged by the same (English) words, so they only produce
//     candidates and refusals: the safe direction.

// WriteKind says what a teammate's memory tool proposes, because saves and edits (A1) and forgets
// (A5) are judged by different rules.
type WriteKind int

const (
	// WriteSave is a new item proposed by toolRemember or toolRememberAboutUser.
	WriteSave WriteKind = iota + 1
	// WriteEdit is new content for an existing item (toolUpdateMemory); it is judged exactly like a
	// save of the new content, so a teammate can't slip a change past the user by calling it an edit.
	WriteEdit
	// WriteForget is toolForgetMemory: it is confirmed or refused, never left as a candidate (A5).
	WriteForget
)

// String names the kind for logs and test output.
func (k WriteKind) String() string {
	switch k {
	case WriteSave:
		return "save"
	case WriteEdit:
		return "edit"
	case WriteForget:
		return "forget"
	}
	return "unknown"
}

// ProposedWrite is the part of a tool call that Actor needs. It carries no ids: the verdict depends
// only on what the user said and on what the teammate wants to write.
type ProposedWrite struct {
	Kind WriteKind
	// Content is the text to save, or the new text of an edit; empty for a forget.
	Content string
	// Shared is set when the write targets the shared scope (forEveryone, toolRememberAboutUser, or
	// an item that lives in the shared scope), which needs the user to say it is for everyone (A3, S3).
	Shared bool
}

// Verdict is Actor's decision. The zero value is no verdict, so a forgotten assignment can't pass
// for a confirmation.
type Verdict int

const (
	// VerdictConfirmed: the user asked for exactly this; the write becomes active memory.
	VerdictConfirmed Verdict = iota + 1
	// VerdictCandidate: the write waits as a suggestion for the user to confirm or dismiss (A2).
	VerdictCandidate
	// VerdictRefused: nothing is written (a forget the user didn't ask for, A5).
	VerdictRefused
)

// String names the verdict for tool answers, logs and test output.
func (v Verdict) String() string {
	switch v {
	case VerdictConfirmed:
		return "confirmed"
	case VerdictCandidate:
		return "candidate"
	case VerdictRefused:
		return "refused"
	}
	return "unknown"
}

// Decision is Actor's verdict with a reason the tool passes on to the teammate, so it can tell the
// user plainly what happened. Reason is one of a fixed set of sentences and never quotes the message
// or the content (F5).
type Decision struct {
	Verdict Verdict
	Reason  string
}

// The reasons Actor gives. They are fixed so that no memory text can reach a tool answer or a log
// through them (F5).
const (
	reasonConfirmed            = "the user's message asks to remember this and contains it"
	reasonConfirmedShared      = "the user's message asks to remember this for everyone and contains it"
	reasonEmptyContent         = "the text has no words to compare with the user's message"
	reasonNoIntent             = "the user's message doesn't ask to remember, save, keep, update or correct anything"
	reasonNegated              = "the user's message asks not to remember this"
	reasonNotInMessage         = "the user's message doesn't contain this text"
	reasonOnlyWhereNegated     = "the user's message contains this text only where it asks not to remember it"
	reasonNotForEveryone       = "the user's message doesn't say this is for everyone; shared memory changes only when the user says it is for all teammates"
	reasonForgetConfirmed      = "the user's message asks to forget this"
	reasonForgetNotAsked       = "the user's message doesn't ask to forget, delete or remove anything"
	reasonForgetNegated        = "the user's message asks not to forget, delete or remove something, so nothing is forgotten"
	reasonForgetNotForEveryone = "the user's message doesn't say to forget this for everyone; shared memory changes only when the user says it is for all teammates"
	reasonUnknownKind          = "this kind of memory write is unknown, so nothing was changed"
)

// actorReasons lists every reason Actor can give, for tests that check no other text escapes.
var actorReasons = []string{
	reasonConfirmed, reasonConfirmedShared, reasonEmptyContent, reasonNoIntent, reasonNegated,
	reasonNotInMessage, reasonOnlyWhereNegated, reasonNotForEveryone, reasonForgetConfirmed,
	reasonForgetNotAsked, reasonForgetNegated, reasonForgetNotForEveryone, reasonUnknownKind,
}

// Actor decides whether a teammate's write is confirmed, a candidate or refused, from the run's user
// message alone (A1, A3, A5, S3). Teammates infer; only the user's own words may turn an inference
// into a fact or destroy one, so anything less than an explicit, unnegated request that contains the
// text is left for the user to confirm. Its cost is linear in the length of the message and content.
func Actor(userMessage string, w ProposedWrite) Decision {
	switch w.Kind {
	case WriteSave, WriteEdit:
		return judgeSave(userMessage, w)
	case WriteForget:
		return judgeForget(userMessage, w)
	}
	return Decision{Verdict: VerdictRefused, Reason: reasonUnknownKind}
}

func judgeSave(message string, w ProposedWrite) Decision {
	candidate := func(reason string) Decision { return Decision{Verdict: VerdictCandidate, Reason: reason} }
	content := Normalize(w.Content)
	if content == "" {
		return candidate(reasonEmptyContent)
	}
	s := scanMessage(message)
	switch {
	case s.affirmed == 0 && s.negated == 0:
		return candidate(reasonNoIntent)
	case s.affirmed == 0:
		return candidate(reasonNegated)
	}
	switch s.contentCoverage(content) {
	case contentAbsent:
		return candidate(reasonNotInMessage)
	case contentOnlyWhereNegated:
		return candidate(reasonOnlyWhereNegated)
	}
	if w.Shared {
		if !s.everyone {
			return candidate(reasonNotForEveryone)
		}
		return Decision{Verdict: VerdictConfirmed, Reason: reasonConfirmedShared}
	}
	return Decision{Verdict: VerdictConfirmed, Reason: reasonConfirmed}
}

func judgeForget(message string, w ProposedWrite) Decision {
	refused := func(reason string) Decision { return Decision{Verdict: VerdictRefused, Reason: reason} }
	s := scanMessage(message)
	switch {
	// Actor can't tell which item a negated request protects ("delete my phone number but don't
	// forget my address"), and a forget can't be undone, so any negated forget word refuses.
	case s.forgetNegated:
		return refused(reasonForgetNegated)
	case !s.forgetAsked:
		return refused(reasonForgetNotAsked)
	case w.Shared && !s.everyone:
		return refused(reasonForgetNotForEveryone)
	}
	return Decision{Verdict: VerdictConfirmed, Reason: reasonForgetConfirmed}
}

// negationWindow is how many words before a keyword a negator reaches. Five covers "I don't want you
// to remember" and "do not want you to ever save"; a wider reach only turns more confirmations into
// candidates, which is the safe direction.
const negationWindow = 5

// wordClass is what a word means to Actor; one word can have several meanings ("forget").
type wordClass uint16

const (
	classIntent        wordClass = 1 << iota // a save intent unless negated (A1)
	classKeep                                // "keep": not an intent when it is the auxiliary of "keep doing"
	classForget                              // a remember intent when negated; negates later intents otherwise
	classForgetRequest                       // asks to forget unless negated (A5)
	classNegator                             // negates the keywords after it
	classNo                                  // "no": a negator only when a word follows directly
	classEveryone                            // says the write is for every teammate (A3)
	classClauseBreak                         // starts a new clause: negation doesn't cross it
)

var actorWords = func() map[string]wordClass {
	m := map[string]wordClass{}
	add := func(c wordClass, words ...string) {
		for _, w := range words {
			m[w] |= c
		}
	}
	add(classIntent, "remember", "remembers", "remembered", "remembering",
		"save", "saves", "saved", "saving",
		"keep", "keeps", "kept", "keeping",
		"update", "updates", "updated", "updating",
		"correct", "corrects", "corrected", "correcting", "correction", "corrections",
		// The one synonym added to the SPEC's list: unambiguous, and never anything but a request
		// to remember.
		"memorize", "memorizes", "memorized", "memorizing",
		"memorise", "memorises", "memorised", "memorising")
	add(classKeep, "keep", "keeps", "kept", "keeping")
	add(classForget, "forget", "forgets", "forgetting", "forgotten")
	// "forgot" is left out on purpose: "I forgot to tell you …" reports a lapse and never asks for
	// anything, and a wrongly confirmed forget destroys the item. "forgetting" likewise ("I keep
	// forgetting …").
	add(classForgetRequest, "forget", "forgets", "forgotten",
		"delete", "deletes", "deleted", "deleting",
		"remove", "removes", "removed", "removing",
		"erase", "erases", "erased", "erasing")
	add(classNegator, "not", "never", "nor", "neither", "none", "nothing", "nobody", "without",
		"cannot", "nt", "dont", "doesnt", "didnt", "cant", "couldnt", "wont", "wouldnt", "shouldnt",
		"mustnt", "neednt", "shant", "isnt", "arent", "wasnt", "werent", "havent", "hasnt", "hadnt",
		"aint", "stop", "stops", "stopped", "stopping", "quit", "avoid", "skip", "refrain")
	add(classNo, "no")
	// Whole words only: "tall", "overall", "install", "wallet", "everyday", "everything" and
	// "profiled" don't say anything about other teammates. "teammate" (singular) addresses one.
	add(classEveryone, "all", "every", "everyone", "everyones", "everybody", "everybodys",
		"teammates", "profile", "profiles")
	add(classClauseBreak, "but", "however")
	return m
}()

// longestActorWord bounds map lookups: longer words can't be keywords.
var longestActorWord = func() int {
	n := 0
	for w := range actorWords {
		n = max(n, len(w))
	}
	return n
}()

type actorToken struct {
	class  wordClass
	clause int32
	// gap: something other than white space separates this word from the next.
	gap bool
	// ing: the word ends in "ing".
	ing bool
	// intent: +1 an unnegated save intent, -1 a negated one, 0 neither.
	intent int8
}

// messageScan is one pass over a message: its words with their meaning, and the normalised text
// (identical to Normalize) with each normalised word mapped to the word it belongs to, so a content
// match can be placed in a clause.
type messageScan struct {
	tokens   []actorToken
	norm     string
	segStart []int32 // byte offset in norm of each normalised word
	segToken []int32 // the token each normalised word lies in

	affirmed, negated          int // save intents
	forgetAsked, forgetNegated bool
	everyone                   bool
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isApostrophe covers the marks people and keyboards put in "don't": ASCII, curly, modifier letter,
// prime, acute, grave and full-width.
func isApostrophe(r rune) bool {
	switch r {
	case '\'', '\u2019', '\u2018', '\u02bc', '\u2032', '\u00b4', '`', '\uff07':
		return true
	}
	return false
}

func isClauseEnd(r rune) bool {
	switch r {
	case '.', '!', '?', ';', '\n', '\r', '\u0085', '\u2028', '\u2029', '\u2026', '\u203c', '\u2047',
		'\u2048', '\u2049', '\u3002', '\uff61', '\uff0e', '\uff01', '\uff1f', '\uff1b', '\u061f', '\u0964':
		return true
	}
	return false
}

func startsWithWordRune(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

func scanMessage(message string) *messageScan {
	// English averages a word per six bytes; preallocating spares a long message most regrowth.
	words := len(message)/6 + 1
	s := &messageScan{
		tokens:   make([]actorToken, 0, words),
		segStart: make([]int32, 0, words),
		segToken: make([]int32, 0, words),
	}
	var norm strings.Builder
	norm.Grow(len(message))
	var word []byte // the current token's text: lower case, without apostrophes
	var clause int32
	inToken, inSeg := false, false
	prev := rune(-1)

	endToken := func() {
		if !inToken {
			return
		}
		inToken = false
		t := actorToken{clause: clause, ing: bytes.HasSuffix(word, []byte("ing"))}
		if len(word) <= longestActorWord {
			t.class = actorWords[string(word)]
		}
		if t.class&classClauseBreak != 0 {
			clause++
			t.clause = clause
		}
		s.tokens = append(s.tokens, t)
		word = word[:0]
	}

	for i := 0; i < len(message); {
		r, size := utf8.DecodeRuneInString(message[i:])
		rest := message[i+size:]
		wordRune := isWordRune(r)

		// The normalised text, exactly as Normalize builds it.
		if wordRune {
			if !inSeg {
				if norm.Len() > 0 {
					norm.WriteByte(' ')
				}
				inSeg = true
				if !inToken {
					inToken = true // the token opens with its first word character
				}
				s.segStart = append(s.segStart, int32(norm.Len()))
				s.segToken = append(s.segToken, int32(len(s.tokens)))
			}
			norm.WriteRune(unicode.ToLower(r))
		} else {
			inSeg = false
		}

		// The words Actor reads.
		switch {
		case wordRune:
			if !isApostrophe(r) {
				word = utf8.AppendRune(word, unicode.ToLower(r))
			}
		case inToken && isApostrophe(r) && startsWithWordRune(rest):
			// An apostrophe inside a word joins its halves: "don't" is "dont".
		default:
			endToken()
			switch {
			case isClauseEnd(r) && !(r == '.' && unicode.IsDigit(prev) && startsWithDigit(rest)):
				clause++
			case !unicode.IsSpace(r) && len(s.tokens) > 0:
				s.tokens[len(s.tokens)-1].gap = true
			}
		}
		prev = r
		i += size
	}
	endToken()
	s.norm = norm.String()
	s.judge()
	return s
}

func startsWithDigit(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsDigit(r)
}

// judge walks the words once, in order, and records which keywords are negated.
func (s *messageScan) judge() {
	lastNegator, lastForget := -1, -1
	clause := int32(-1)
	for j := range s.tokens {
		t := &s.tokens[j]
		if t.clause != clause {
			clause = t.clause
			lastNegator, lastForget = -1, -1
		}
		negated := lastNegator >= 0 && j-lastNegator <= negationWindow
		// "forget about saving it", "forget deleting it": forget before a gerund drops the activity.
		// Before anything else it has its own object ("forget the old one, remember the new one").
		abandoned := t.ing && lastForget >= 0 && j-lastForget <= negationWindow

		if t.class&classIntent != 0 && !s.auxiliaryKeep(j) {
			if negated || abandoned {
				t.intent = -1
			} else {
				t.intent = 1
			}
		}
		if t.class&classForget != 0 {
			if negated {
				// "don't forget …" asks to remember, and the two negations cancel: "don't forget
				// to save" doesn't negate "save".
				t.intent = 1
				lastNegator = -1
			} else {
				lastForget = j
			}
		}
		switch {
		case t.class&(classForget|classForgetRequest) != 0 && (negated || abandoned):
			s.forgetNegated = true
		case t.class&classForgetRequest != 0:
			s.forgetAsked = true
		}
		if t.class&classEveryone != 0 && !negated {
			s.everyone = true
		}
		if t.class&classNegator != 0 || (t.class&classNo != 0 && s.followedDirectly(j)) {
			lastNegator = j
		}
		switch t.intent {
		case 1:
			s.affirmed++
		case -1:
			s.negated++
		}
	}
}

// followedDirectly: the next word is in the same clause with only white space between.
func (s *messageScan) followedDirectly(j int) bool {
	return j+1 < len(s.tokens) && !s.tokens[j].gap && s.tokens[j+1].clause == s.tokens[j].clause
}

// auxiliaryKeep: "keep" in "keep going", "keep forgetting" asks to continue, not to remember.
func (s *messageScan) auxiliaryKeep(j int) bool {
	return s.tokens[j].class&classKeep != 0 && s.followedDirectly(j) && s.tokens[j+1].ing
}

type actorCoverage int

const (
	contentAbsent actorCoverage = iota
	contentOnlyWhereNegated
	contentCovered
)

// contentCoverage places the normalised content in the message. When no intent is negated, any
// whole-word occurrence will do (the content may come before or after "remember that"). When one is,
// an occurrence counts only if an unnegated intent governs it; see the rules at the top of the file.
func (s *messageScan) contentCoverage(content string) actorCoverage {
	hay, needle := " "+s.norm+" ", " "+content+" "
	if s.negated == 0 {
		if strings.Contains(hay, needle) {
			return contentCovered
		}
		return contentAbsent
	}
	prevIntent, nextIntent, negatedBefore := s.intentIndex()
	words := strings.Count(content, " ") + 1
	found := contentAbsent
	for start := range wholeWordMatches(hay, needle) {
		found = contentOnlyWhereNegated
		first, ok := slices.BinarySearch(s.segStart, int32(start))
		if !ok {
			continue // can't happen: every match starts at a word
		}
		from, to := s.segToken[first], s.segToken[first+words-1]
		if negatedBefore[to+1]-negatedBefore[from] > 0 {
			continue
		}
		g := prevIntent[from]
		if g < 0 {
			g = nextIntent[to]
		}
		if g >= 0 && s.tokens[g].intent == 1 {
			return contentCovered
		}
	}
	return found
}

// intentIndex returns, per word, the nearest intent word at or before it and at or after it in the
// same clause (-1 when there is none), and the number of negated intents before each word.
func (s *messageScan) intentIndex() (prev, next, negatedBefore []int32) {
	n := len(s.tokens)
	prev, next, negatedBefore = make([]int32, n), make([]int32, n), make([]int32, n+1)
	last := int32(-1)
	for j, t := range s.tokens {
		if j > 0 && t.clause != s.tokens[j-1].clause {
			last = -1
		}
		if t.intent != 0 {
			last = int32(j)
		}
		prev[j] = last
		negatedBefore[j+1] = negatedBefore[j]
		if t.intent < 0 {
			negatedBefore[j+1]++
		}
	}
	last = -1
	for j := n - 1; j >= 0; j-- {
		t := s.tokens[j]
		if j < n-1 && t.clause != s.tokens[j+1].clause {
			last = -1
		}
		if t.intent != 0 {
			last = int32(j)
		}
		next[j] = last
	}
	return prev, next, negatedBefore
}

// wholeWordMatches yields the start of every occurrence of needle in hay, overlapping ones included,
// in linear time (Knuth–Morris–Pratt), so a long message full of near-matches stays cheap.
func wholeWordMatches(hay, needle string) iter.Seq[int] {
	return func(yield func(int) bool) {
		fail := make([]int, len(needle))
		for i, k := 1, 0; i < len(needle); i++ {
			for k > 0 && needle[i] != needle[k] {
				k = fail[k-1]
			}
			if needle[i] == needle[k] {
				k++
			}
			fail[i] = k
		}
		for i, k := 0, 0; i < len(hay); i++ {
			for k > 0 && hay[i] != needle[k] {
				k = fail[k-1]
			}
			if hay[i] == needle[k] {
				k++
			}
			if k == len(needle) {
				if !yield(i - len(needle) + 1) {
					return
				}
				k = fail[k-1]
			}
		}
	}
}

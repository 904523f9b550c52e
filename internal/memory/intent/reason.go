package intent

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Reason is why the judge decided as it did: a stable code that tools hand to teammates and the
// database keeps beside a suggestion. It never holds memory text; Trace holds the user's words that
// decided.
type Reason string

// The reasons. Confirmations first, then what makes a write wait, roughly in the order the judge reads.
const (
	// ReasonAsked: the user asked for exactly this save.
	ReasonAsked Reason = "asked"
	// ReasonAskedShared: the user asked for exactly this save, for every teammate.
	ReasonAskedShared Reason = "asked_shared"
	// ReasonAskedUpdate: the user asked to change this memory to exactly this text.
	ReasonAskedUpdate Reason = "asked_update"
	// ReasonAskedForget: the user asked to forget this memory, naming it.
	ReasonAskedForget Reason = "asked_forget"

	// ReasonUnknownKind: the write is of no kind the judge knows.
	ReasonUnknownKind Reason = "unknown_kind"
	// ReasonEmpty: the text has no words.
	ReasonEmpty Reason = "empty"
	// ReasonProtected: a pinned memory or a lesson is only ever proposed for forgetting (A5).
	ReasonProtected Reason = "protected"
	// ReasonPasted: the request is in pasted text — an email, a document, a chat log, text to
	// translate or summarise (A7).
	ReasonPasted Reason = "pasted"
	// ReasonQuoted: the request is inside quotation marks or a block quote (A7).
	ReasonQuoted Reason = "quoted"
	// ReasonCode: the message holds code (a fence, a docstring) (A7).
	ReasonCode Reason = "code"
	// ReasonRolePlay: the message speaks in another role ("SYSTEM:", "Pretend you're…") (A7).
	ReasonRolePlay Reason = "role_play"
	// ReasonNoRequest: no sentence asks to remember (or to forget).
	ReasonNoRequest Reason = "no_request"
	// ReasonOtherSense: the verb is there in another sense ("Update Sarah:", "Remember when…").
	ReasonOtherSense Reason = "other_sense"
	// ReasonQuestion: the sentence that asks is a question.
	ReasonQuestion Reason = "question"
	// ReasonConditional: the request depends on a condition or a hypothesis ("If I move, …").
	ReasonConditional Reason = "conditional"
	// ReasonNotInSentence: the sentence that asks doesn't hold the text word for word.
	ReasonNotInSentence Reason = "not_in_sentence"
	// ReasonNotTheObject: the text is in the sentence but isn't what the verb asks to save.
	ReasonNotTheObject Reason = "not_the_object"
	// ReasonQualified: words after the text qualify or take it back (", but only at weddings").
	ReasonQualified Reason = "qualified"
	// ReasonKeyNotSaid: the user didn't call this text by the teammate's key.
	ReasonKeyNotSaid Reason = "key_not_said"
	// ReasonNoAudience: a shared write, but the sentence that asks doesn't name every teammate.
	ReasonNoAudience Reason = "no_audience"
	// ReasonNotShared: the sentence that asks names every teammate, but the write is the teammate's
	// own.
	ReasonNotShared Reason = "not_shared"
	// ReasonNotThisItem: the sentence doesn't name this memory (its key or most of its words).
	ReasonNotThisItem Reason = "not_this_item"
	// ReasonVague: the forget's object is a pronoun or vague ("it", "that email", "everything").
	ReasonVague Reason = "vague"
	// ReasonRestated: another sentence restates or keeps the memory a forget would erase.
	ReasonRestated Reason = "restated"
	// ReasonTakenBack: another sentence says no or takes the request back.
	ReasonTakenBack Reason = "taken_back"
	// ReasonHedged: another sentence hedges, qualifies or may be sarcastic.
	ReasonHedged Reason = "hedged"
	// ReasonUnclear: another sentence isn't one the judge understands.
	ReasonUnclear Reason = "unclear"

	// ReasonSavingOff: the user turned "Save to memory" off for the teammate, so every write waits.
	// The service decides it before the judge reads the message.
	ReasonSavingOff Reason = "saving_off"
)

// reasons lists every Reason with its plain words for the user (%s is the deciding words) and
// for the teammate (never any of the user's words: F5, A8).
var reasons = map[Reason]struct{ user, teammate string }{
	ReasonAsked:         {"You asked to remember this: %s", "the user asked to remember exactly this"},
	ReasonAskedShared:   {"You asked to remember this for all teammates: %s", "the user asked to remember exactly this for all teammates"},
	ReasonAskedUpdate:   {"You asked to change this memory: %s", "the user asked to change this memory to exactly this"},
	ReasonAskedForget:   {"You asked to forget this memory: %s", "the user asked to forget this memory, naming it"},
	ReasonUnknownKind:   {"This kind of change isn't one a teammate makes on its own.", "this kind of memory write is unknown"},
	ReasonEmpty:         {"The text has no words to check against your message.", "the text has no words to compare with the user's message"},
	ReasonProtected:     {"Pinned memories and lessons are only forgotten when you confirm it yourself.", "pinned memories and lessons are only forgotten by the user"},
	ReasonPasted:        {"It was inside text you pasted or forwarded, not asked in your own words: %s", "the request was inside pasted or forwarded text"},
	ReasonQuoted:        {"It was inside a quotation, not asked in your own words: %s", "the request was inside quoted text"},
	ReasonCode:          {"It was inside code, not asked in your own words: %s", "the request was inside code"},
	ReasonRolePlay:      {"It was said in a role or a pretend situation: %s", "the request was made in a role or a pretend situation"},
	ReasonNoRequest:     {"Your message didn't ask to remember or forget anything.", "the user's message doesn't ask for this"},
	ReasonOtherSense:    {"The word was used in another sense: %s", "the user's message uses the word in another sense, not as a request to memory"},
	ReasonQuestion:      {"It was asked as a question: %s", "the user asked a question, which is not a request"},
	ReasonConditional:   {"It depends on a condition: %s", "the request depends on a condition or a hypothesis"},
	ReasonNotInSentence: {"Your message doesn't say this word for word.", "the sentence that asks doesn't contain this text word for word"},
	ReasonNotTheObject:  {"Your message doesn't ask to save exactly this text: %s", "the text is not exactly what the user asked to save"},
	ReasonQualified:     {"Something after it qualifies or changes it: %s", "words after the text qualify it or take it back"},
	ReasonKeyNotSaid:    {"The label wasn't in your message for this text.", "the user didn't give this key for this text"},
	ReasonNoAudience:    {"It's for all teammates, but your message didn't say so for this: %s", "the sentence that asks doesn't say this is for all teammates"},
	ReasonNotShared:     {"You asked for all teammates, but it was saved for one: %s", "the user asked for all teammates; save it for everyone"},
	ReasonNotThisItem:   {"Your message doesn't name this memory.", "the user's message doesn't name this memory"},
	ReasonVague:         {"It wasn't clear which memory you meant: %s", "the user's words don't say clearly which memory"},
	ReasonRestated:      {"Your message also mentions this memory elsewhere: %s", "another part of the user's message restates or keeps this memory"},
	ReasonTakenBack:     {"You seemed to take it back: %s", "the user's message seems to take the request back"},
	ReasonHedged:        {"You sounded unsure or not serious: %s", "the user's message hedges, qualifies or may not be serious"},
	ReasonUnclear:       {"Part of your message wasn't clear enough to act on alone: %s", "part of the user's message wasn't clear enough to act on"},
	ReasonSavingOff:     {"Save to memory is off for this teammate, so it waits for you to decide.", "saving to memory is off for this teammate, so the user decides"},
}

// Reasons returns every reason the judge gives, for tests that check no other escapes.
func Reasons() []Reason {
	out := make([]Reason, 0, len(reasons))
	for r := range reasons {
		out = append(out, r)
	}
	return out
}

// Confirms reports whether the reason is one of a confirmation.
func (r Reason) Confirms() bool {
	return r == ReasonAsked || r == ReasonAskedShared || r == ReasonAskedUpdate || r == ReasonAskedForget
}

// ForTeammate is the reason in plain words for the teammate's tool answer: no memory text, no
// words of the user's message.
func (r Reason) ForTeammate() string {
	if p, ok := reasons[r]; ok {
		return p.teammate
	}
	return "the judgement gave no reason"
}

// Explain is the reason in plain words for the user, quoting the words that decided (at most
// maxQuote characters of them). words is empty when no words decided.
func (r Reason) Explain(words string) string {
	p, ok := reasons[r]
	if !ok {
		return "It waits for you to confirm."
	}
	if !strings.Contains(p.user, "%s") {
		return p.user
	}
	words = Quote(words)
	if words == "" {
		return strings.TrimSuffix(strings.ReplaceAll(p.user, ": %s", "."), ".") + "."
	}
	return fmt.Sprintf(p.user, "“"+words+"”")
}

// maxQuote bounds the words a Trace keeps, in characters.
const maxQuote = 120

// Quote trims the deciding words to maxQuote characters, marking a cut with "…".
func Quote(words string) string {
	words = strings.Join(strings.Fields(words), " ")
	if utf8.RuneCountInString(words) <= maxQuote {
		return words
	}
	return string([]rune(words)[:maxQuote-1]) + "…"
}

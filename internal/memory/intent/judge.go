package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/open-bot/memory/internal/memory/textmodel"
	"golang.org/x/text/unicode/norm"
)

// Kind says what a teammate's memory tool proposes; saves and updates (A1, A4) and forgets (A5) are
// judged by different rules.
type Kind int

const (
	// Save is a new item (toolRemember, toolRememberAboutUser).
	Save Kind = iota + 1
	// Update is new text for an existing item (toolUpdateMemory) (A4).
	Update
	// Forget erases an existing item (toolForgetMemory) (A5).
	Forget
)

// Item is an existing item as far as the judgement needs it.
type Item struct {
	Key     string
	Content string
	// Pinned and Lesson items are only ever proposed for forgetting (A5).
	Pinned bool
	Lesson bool
}

// Write is the part of a tool call the judgement reads. It carries no ids: the verdict depends only
// on what the user said and what the teammate wants to write.
type Write struct {
	Kind Kind
	// Content is the text to save (Save, Update); unused for Forget.
	Content string
	// Key is the label the teammate chose for a Save ("" for none).
	Key string
	// Shared is set when the write changes the shared scope (A3, S3).
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
	// proposed forget (A5).
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

// Stage names the step of the reading that decided (A8).
type Stage string

// Decision is a verdict with its reason and the trace of what decided it (A8).
type Decision struct {
	Verdict Verdict
	Reason  Reason
	Trace   Trace
}

// Trace says where in the message the decision was made.
type Trace struct {
	// Sentence is the index of the deciding sentence (-1 when the whole message decided).
	Sentence int
	// Words are the user's words that decided, as written (at most a short quote; see Quote).
	Words string
	// Stage is the step of the reading that decided.
	Stage Stage
}

// The stages of the reading, in the order the judge reads (Trace.Stage).
const (
	StageKind     Stage = "kind"     // the write itself
	StageVoice    Stage = "voice"    // is the message the user's own voice (A7)
	StageFrame    Stage = "frame"    // does a sentence open a request frame
	StageContent  Stage = "content"  // is the text the frame's object, word for word
	StageTail     Stage = "tail"     // is nothing but a neutral closer after it
	StageKey      Stage = "key"      // did the user give the key for this text
	StageAudience Stage = "audience" // does a shared write name every teammate (A3)
	StageTarget   Stage = "target"   // does an update or forget name and cover its item (A4, A5)
	StageRest     Stage = "rest"     // is every other sentence neutral (A1 c)
	StageAsked    Stage = "asked"    // confirmed
)

// rank orders failures by how far the reading got, so the furthest is reported.
var rank = map[Reason]int{
	ReasonNoRequest: 0, ReasonOtherSense: 1, ReasonConditional: 2, ReasonQuestion: 2, ReasonQuoted: 2,
	ReasonNotInSentence: 3, ReasonNotTheObject: 4, ReasonQualified: 5, ReasonKeyNotSaid: 6,
	ReasonNotThisItem: 7, ReasonVague: 7, ReasonNoAudience: 8, ReasonNotShared: 8,
}

// verdict is a failure or a success of one step of the reading.
type verdict struct {
	reason Reason
	trace  Trace
}

func (v verdict) decision() Decision {
	d := Decision{Verdict: Suggested, Reason: v.reason, Trace: v.trace}
	if v.reason.Confirms() {
		d.Verdict = Confirmed
	}
	d.Trace.Words = Quote(d.Trace.Words)
	return d
}

func fail(r Reason, s *sentence, words string, st Stage) *verdict {
	idx := -1
	if s != nil {
		idx = s.index
	}
	return &verdict{reason: r, trace: Trace{Sentence: idx, Words: words, Stage: st}}
}

// maxSentenceWords bounds the sentence a request may be: a longer one is no chat request, and the
// reading stays linear in the message.
const maxSentenceWords = 120

// Judge decides whether a teammate's write is confirmed or waits for the user, from the run's user
// message alone (A1–A8, S3). It confirms only what it reads fully: one sentence that is a request
// frame in the user's own voice whose object is exactly this text, running to the clause's end,
// and every other sentence recognised as neutral. Anything else waits. See the package
// documentation.
func Judge(text string, w Write) Decision {
	// A key written for a program ("gym_schedule") is said with spaces ("my gym schedule").
	w.Key, w.Target.Key = strings.ReplaceAll(w.Key, "_", " "), strings.ReplaceAll(w.Target.Key, "_", " ")
	// "the cleaner's day" is said "my cleaner's day" as well.
	if k := strings.TrimSpace(w.Target.Key); len(k) > 4 && strings.EqualFold(k[:4], "the ") {
		w.Target.Key = k[4:]
	}
	var content, key []textmodel.Token
	switch w.Kind {
	case Save, Update:
		content = textmodel.Tokens(w.Content)
		if len(content) == 0 {
			return fail(ReasonEmpty, nil, "", StageKind).decision()
		}
		if w.Kind == Save {
			key = textmodel.Tokens(w.Key)
		}
	case Forget:
		if w.Target.Pinned || w.Target.Lesson {
			return fail(ReasonProtected, nil, "", StageKind).decision()
		}
	default:
		return fail(ReasonUnknownKind, nil, "", StageKind).decision()
	}
	m := readKeeping(text, w.Content)
	m.content = w.Content
	if m.voice != "" {
		return fail(m.voice, nil, m.voiceWords, StageVoice).decision()
	}
	best := fail(ReasonNoRequest, nil, "", StageFrame)
	for i := range m.sentences {
		s := &m.sentences[i]
		var got *verdict
		if w.Kind == Forget {
			got = m.judgeForget(s, w)
		} else {
			got = m.judgeSave(s, w, content, key)
		}
		if got.reason.Confirms() {
			if bad := m.rest(s, w); bad != nil {
				return bad.decision()
			}
			return got.decision()
		}
		if rank[got.reason] > rank[best.reason] {
			best = got
		}
	}
	return best.decision()
}

// opening skips what may stand before a request's verb: fillers, then an audience or a vocative
// followed by punctuation ("For all teammates, …", "All of you: …"), then one lead-in ("I want you
// to"). It returns the verb's place and whether an audience was named.
func (s *sentence) opening() (int, bool) {
	i := s.skipFillers(0)
	if n := matchAt(s.words, i, greetings); n > 0 && i+n < s.n() && (s.gapEnd[i+n-1] == "," || matchAt(s.words, i+n, openers) > 0) {
		i = s.skipFillers(i + n) // "Good morning, please …", "Hey quick one, …"
	}
	// "Just so you know for next time, remember …": two openers at most (one may open with a
	// filler: "just so you know").
	for range 2 {
		if n := matchAt(s.words, i, openers); n > 0 {
			i = s.skipFillers(i + n)
		} else if n := matchAt(s.words, 0, openers); n > 0 && i > 0 && i < n {
			i = s.skipFillers(n)
		}
	}
	audience := false
	for _, ps := range [][]phrase{postVerbAudiences, vocatives} {
		if i >= s.n() {
			break
		}
		at := i
		if s.roles[at]&RoleGreeting != 0 && at+1 < s.n() && matchAt(s.words, at+1, vocatives) > 0 {
			at++ // "hey all of you, …"
		}
		// "All of you, remember …", "all of you remember that …" (the verb right after them).
		if n := matchAt(s.words, at, ps); n > 0 && at+n < s.n() &&
			(s.gapEnd[at+n-1] == "," || s.gapEnd[at+n-1] == ":" || s.roles[at+n]&RoleFiller != 0 ||
				s.gapEnd[at+n-1] == "" && roles(s.words[at+n])&RoleSave != 0) {
			i, audience = s.skipFillers(at+n), true
			break
		}
	}
	if i < s.n() {
		if n := matchAt(s.words, i, leadIns); n > 0 {
			i = s.skipFillers(i + n)
		} else if end, _ := s.longestFrame(i, audienceLeadIns); end > i {
			// Unless a whole frame begins there: "Everyone should know this, so save it: …".
			if whole, _ := s.longestFrame(i, saveFrames); whole < 0 {
				i, audience = s.skipFillers(end), true
			}
		}
	}
	return i, audience
}

// skipFillers returns the first index from i that is no filler.
func (s *sentence) skipFillers(i int) int {
	for i < s.n() && s.roles[i]&RoleFiller != 0 && s.roles[i]&RoleGreeting == 0 {
		i++
	}
	// A greeting may open a request: "Hi! …" is its own sentence, "Hey, remember …" is one.
	for i < s.n() && s.roles[i]&(RoleFiller|RoleGreeting) != 0 && s.gapEnd[i] == "," {
		i++
	}
	for i < s.n() && s.roles[i]&RoleFiller != 0 && s.roles[i]&RoleGreeting == 0 {
		i++
	}
	return i
}

// noFrame explains a sentence that holds a verb of the kind but no request frame: a condition or
// role-play before it, or the verb in another sense.
func (m *message) noFrame(s *sentence, verbs Role) *verdict {
	for i := range s.words {
		if s.roles[i]&verbs == 0 {
			continue
		}
		for j := 0; j < i; j++ {
			switch {
			case s.roles[j]&RolePretend != 0:
				return fail(ReasonRolePlay, s, m.whole(s), StageFrame)
			case s.roles[j]&RoleCondition != 0:
				return fail(ReasonConditional, s, m.whole(s), StageFrame)
			}
		}
		return fail(ReasonOtherSense, s, m.whole(s), StageFrame)
	}
	return fail(ReasonNoRequest, s, "", StageFrame)
}

// exactAt reports whether the tokens want occur in s from token i, compared exactly (A1).
func (s *sentence) exactAt(i int, want []textmodel.Token) bool {
	if i < 0 || i+len(want) > s.n() {
		return false
	}
	for j, t := range want {
		if s.toks[i+j].Exact != t.Exact {
			return false
		}
	}
	return true
}

func (s *sentence) exactIndex(want []textmodel.Token) int {
	for i := 0; i < s.n(); i++ {
		if s.exactAt(i, want) {
			return i
		}
	}
	return -1
}

// judgeSave reads s as the request for a save or an update of exactly the content.
func (m *message) judgeSave(s *sentence, w Write, content, key []textmodel.Token) *verdict {
	if s.n() > maxSentenceWords {
		return fail(ReasonUnclear, s, "", StageFrame)
	}
	i, audience := s.opening()
	if i >= s.n() {
		return m.noFrame(s, RoleSave|RoleUpdate)
	}
	var at int // where the text starts: each frame below sets it
	bare := false
	var target span
	end, p := s.longestFrame(i, saveFrames)
	switch {
	case end >= 0:
		at, bare = end, len(p) == 1
		audience = audience || phraseHasAudience(p)
		// "Please note my dietary requirement: halal." — a bare "note" asks only after "please"
		// and of the user's own ("Note: the build is green.", "Please note: office closed on
		// Monday." are notices).
		// "Note: my passport number is K4471920." alone in its message is the user's own number.
		ownNumber := len(p) == 2 && p[1] == ":" && i == 0 && m.alone(s) && s.myContact(end)
		if p[0] == "note" && (len(p) == 1 || p[1] == ":") && !ownNumber && (i == 0 || s.words[i-1] != "please" || !s.hasIn(RoleFirstPerson, end, s.n()) ||
			!s.states(end, s.n())) { // "Please note my apologies." states nothing
			return fail(ReasonOtherSense, s, m.between(s, i, min(i+3, s.n())), StageFrame)
		}
	case w.Kind == Update && s.roles[i]&RoleUpdate != 0:
		var ok bool
		if target, at, ok = s.updateObject(i + 1); !ok {
			// "Please update: my partner Sam is vegetarian", "Update for all teammates: …": no
			// object, so the new text must restate the item (restatesItem).
			j := i + 1
			if n := matchAt(s.words, j, postVerbAudiences); n > 0 && s.gapEnd[j+n-1] == ":" {
				j, audience = j+n, true
			}
			if j >= s.n() || s.gapEnd[j-1] != ":" {
				return fail(ReasonOtherSense, s, m.between(s, i, min(i+4, s.n())), StageFrame)
			}
			target, at = span{j, j}, j
		}
		// "Change my flight to Friday." rebooks the flight: "change" also acts on things booked.
		if s.words[i] != "update" && s.words[i] != "correct" && s.bookable(target) {
			return fail(ReasonOtherSense, s, m.between(s, i, min(target.to, s.n())), StageFrame)
		}
		for k := target.from; k < target.to; k++ {
			audience = audience || matchAt(s.words[:target.to], k, audiencePhrases) > 0
		}
	case s.roles[i]&RoleTask != 0:
		// "Set a reminder for mum's birthday and remember that she's turning 70": a task the judge
		// understands, "and", then the request — as if they were two sentences.
		return m.afterTask(s, i, w, content, key)
	default:
		return m.noFrame(s, RoleSave|RoleUpdate)
	}
	if m.inQuotes(s.toks[i].Start) || m.quotesIn(s) {
		return fail(ReasonQuoted, s, m.whole(s), StageVoice)
	}
	if s.question {
		return fail(ReasonQuestion, s, m.whole(s), StageFrame)
	}
	if m.trails(s) {
		return fail(ReasonHedged, s, m.whole(s), StageTail)
	}
	// "Remember for all teammates: …", "Save this for later: …", "Remember, every teammate, that …":
	// after the verb, "this" and modifiers, then ":" or "that" before the text.
	if end >= 0 && at < s.n() {
		// "Save it for later: I'm in a hurry.", "Save it, I'm not interested.": "save it" brushes
		// the teammate off.
		if p[0] == "save" && len(p) == 1 && s.words[at] == "it" && !(audience && s.itForAudience(at)) {
			return fail(ReasonOtherSense, s, m.between(s, i, min(at+1, s.n())), StageFrame)
		}
		if k, aud, ok := s.verbModifiers(at); ok {
			// "Everyone should know this, so please remember for me that …": the request is the
			// user's own after all.
			for j := at; j+1 < k; j++ {
				if s.words[j] == "for" && s.words[j+1] == "me" && w.Shared {
					return fail(ReasonNoAudience, s, m.between(s, j, j+2), StageAudience)
				}
			}
			at, bare, audience = k, false, audience || aud
		}
	}
	// "Save this as my wifi password: tulip-7782", "Remember this under gate code: 7391", "Save a
	// note called packing list: …": the key named after "this|a note" and "as|under|called|titled|
	// named|with the key", then ":". "Save a note: …", "Save a note that …" have none.
	keyed := false
	if bare && at+2 < s.n() && (s.words[at] == "this" || s.words[at] == "a" && s.words[at+1] == "note" || keyNamers[s.words[at]]) {
		j := at
		if s.words[j] == "a" {
			j += 2
		} else if s.words[j] == "this" {
			j++
		}
		if j < s.n() && j > at && (s.gapEnd[j-1] == ":" || s.words[j] == "that") && s.words[at] == "a" && len(key) == 0 {
			if s.words[j] == "that" {
				j++
			}
			at, bare = j, false // "Save a note: dentist appointment on June 12", "Save a note that …"
		} else if n := matchAt(s.words, j, keyIntros); n > 0 && len(key) > 0 {
			if k, ok, aud := s.keyObject(j+n, key); ok && s.gapEnd[k-1] == ":" {
				at, keyed, bare, audience = k, true, false, audience || aud
			}
		}
	}
	// "Keep in mind who pays your bills." reads like a bare verb.
	mind := end >= 0 && len(p) >= 3 && p[len(p)-1] == "mind"
	if (bare || mind) && at < s.n() && matchAt(s.words, at, otherSenseStarts) > 0 {
		return fail(ReasonOtherSense, s, m.between(s, i, min(at+3, s.n())), StageFrame)
	}
	// "Remember that you are loved.", "Remember: you work for me.": said to the teammate, not of
	// the user.
	if at < s.n() && secondPerson[s.words[at]] {
		return fail(ReasonOtherSense, s, m.between(s, i, min(at+3, s.n())), StageFrame)
	}
	// "Remember: life is short.", "Just remember: the customer is always right.": after a colon or
	// a comma the verb may introduce a saying; it asks to remember a fact of the user's own only.
	if end >= 0 && len(p) == 2 && p[0] == "remember" && (p[1] == ":" || p[1] == "," || p[1] == "-") &&
		at < s.n() && (!s.has(RoleFirstPerson, at) && !keyedAt(s, at, key) && !s.placedThing(at, m.text) || s.hasWord(at, secondPerson)) {
		return fail(ReasonOtherSense, s, m.between(s, i, min(at+3, s.n())), StageFrame)
	}
	// "Remember the Titans was on TV.", "Remember My Name is playing.", "Keep in Mind the Ghost is a
	// band.", "Remember, Remember the Fifth of November": a title that begins with the verb.
	if end >= 0 && m.title(s, i, at, bare) {
		return fail(ReasonOtherSense, s, m.between(s, i, min(at+3, s.n())), StageFrame)
	}
	// The key may be named as the frame's object: "remember my locker code: 3310".
	if len(key) > 0 && !keyed && !s.exactAt(at, content) {
		if k, ok, aud := s.keyObject(at, key); ok {
			at, keyed, audience = k, true, audience || aud
		}
	}
	if target.to > 0 && !s.exactAt(at, content) {
		at = s.skipRestatement(at) // "Update my address: it's now 5 Oak Lane"
	}
	// "Please update my address: 44 Oak Ave" with the new text "my address: 44 Oak Ave": the object
	// and its value, word for word, to the sentence's end.
	if target.to > 0 && !s.exactAt(at, content) && s.exactAt(target.from, content) && s.gapEnd[target.to-1] == ":" {
		at = target.from
	}
	if !s.exactAt(at, content) {
		if s.exactIndex(content) >= 0 {
			return fail(ReasonNotTheObject, s, m.whole(s), StageContent)
		}
		return fail(ReasonNotInSentence, s, "", StageContent)
	}
	if !m.sameCapitals(s, at, content, w.Content) || m.gluedToSecret(s, at+len(content)-1, w.Content) ||
		m.gluedToCode(s, at+len(content)-1) {
		return fail(ReasonNotInSentence, s, "", StageContent)
	}
	// "my seat as 14C please", "I'm vegan for all teammates": a closer or an audience copied into
	// the text is not the user's text, and an audience there is not the write asked for.
	for k := at; k < at+len(content); k++ {
		if n := matchAt(s.words[:at+len(content)], k, audiencePhrases); n > 0 {
			return fail(ReasonNotShared, s, m.between(s, k, at+len(content)), StageContent)
		}
	}
	if last := at + len(content) - 1; last > at && matchAt(s.words[:last+1], last, closers) == 1 && closerWords[s.words[last]] &&
		(codeLike(m.text[s.toks[last-1].Start:s.toks[last-1].End]) || closerWords[s.words[last-1]]) {
		return fail(ReasonNotTheObject, s, m.between(s, last, last+1), StageContent)
	}
	after := at + len(content)
	// "Keep in mind I might change my mind.", "Remember I'll probably change this later.": the
	// text hedges itself.
	for k := at; k < after; k++ {
		if s.roles[k]&RoleHedge != 0 || selfHedges[s.words[k]] {
			return fail(ReasonHedged, s, m.between(s, k, after), StageContent)
		}
	}
	if k := s.ironyIn(at, after, m.text); k >= 0 {
		return fail(ReasonHedged, s, m.between(s, k, after), StageContent)
	}
	storing := p != nil && (p[0] == "note" || p[0] == "save" || p[0] == "store" || p[0] == "write" || p[0] == "jot")
	if k, r := s.contentWaits(at, after, w, m.text, storing); k >= 0 {
		return fail(r, s, m.between(s, k, after), StageContent)
	}
	if w.Kind == Update && target.to > 0 {
		if k, r := s.newValue(at, after, target, w.Target, m.text); k >= 0 {
			return fail(r, s, m.between(s, k, after), StageContent)
		}
	}
	// "Save my gate code 4412 to 1Password.": "save" and "store" also put things into other apps.
	// "Remember my gate code 4412 in Notion.": a value, then where to put it.
	if bare && ((p[0] == "save" || p[0] == "store") && s.elsewhere(at, after, m.text) || s.valueIn(at, after, m.text)) {
		return fail(ReasonOtherSense, s, m.whole(s), StageContent)
	}
	// An update's new value that narrows itself ("$175 for next month only", "I ate pork today")
	// or adds a second thing ("$175 and $20 for snacks") changes more than the item.
	if w.Kind == Update {
		// "and" joins a second thing unless the item itself is a list ("Tuesday and Thursday
		// evenings", "Mon/Wed/Fri").
		// A new statement that restates most of the item may add to it: "I'm allergic to penicillin
		// and amoxicillin" for "I'm allergic to penicillin".
		list := strings.ContainsAny(w.Target.Content, ",/&") || len(listWords(w.Target.Content)) > 0 ||
			s.holdsMostOf(at, after, w.Target)
		for k := at; k < after; k++ {
			// "… from June", "… starting Monday": a change that waits for its day.
			from := (s.words[k] == "from" || s.words[k] == "starting") && k+1 < after && (calendar[s.words[k+1]] || startsWithDigit(s.words[k+1]))
			// Unless the item says it too ("30 books this year" for "24 books this year"), or
			// "and" joins days ("Monday and Thursday").
			days := k > at && k+1 < after && calendar[strings.TrimSuffix(s.words[k-1], "s")] && calendar[strings.TrimSuffix(s.words[k+1], "s")]
			if (narrowers[s.words[k]] || habitual[s.words[k]]) && !hasWord(w.Target.Content, s.words[k]) ||
				s.words[k] == "and" && !list && !days || from {
				return fail(ReasonQualified, s, m.between(s, k, after), StageContent)
			}
		}
	}
	// "Save my spot in line at 5pm.", "Save my voice for the concert.", "Remember my lines for the
	// play.": a bare verb with "my THING" and no statement keeps the thing itself; only a number or
	// a code under a word for one is a fact ("Save my PIN 1234", "Save my NHS number 485 777 3456").
	if bare && !keyed && at < after && (s.words[at] == "my" || s.words[at] == "our") &&
		((p[0] == "save" || p[0] == "store") && !s.states(at, after) && !s.myValue(at, after, m.text) || p[0] == "remember" && s.myThingAt(at, after) && !s.states(at, after)) {
		return fail(ReasonOtherSense, s, m.between(s, i, after), StageContent)
	}
	if bare && !proposition(s, at, after, keyed) || (bare || mind) && !keyed && s.thingObject(at, after) {
		return fail(ReasonOtherSense, s, m.whole(s), StageContent)
	}
	tailAudience, bad := m.tail(s, after, w)
	if bad != nil {
		return bad
	}
	audience = audience || tailAudience
	if len(key) > 0 && !keyed && !keyOf(s, at, after, key) {
		return fail(ReasonKeyNotSaid, s, "", StageKey)
	}
	if w.Kind == Update {
		// "Remember my home address is now 5 Oak Ave.": a save verb whose text says it is the new
		// state names its item by the text's subject.
		if target.to == 0 && end >= 0 && newText(w.Content) {
			for k := at + 1; k+1 < after; k++ {
				if s.words[k] == "is" || s.words[k] == "are" {
					if s.meaningful(at) && s.words[at] != "it" && s.words[at] != "this" && s.words[at] != "that" {
						target = span{at, k}
					}
					break
				}
			}
		}
		if target.to == 0 {
			return fail(ReasonNotThisItem, s, m.whole(s), StageTarget)
		}
		if !namesItem(s, target, w.Target) && !s.aboutItem(target, w.Target) && !s.restatesItem(target, at, after, w.Target, m.text) {
			return fail(ReasonNotThisItem, s, m.whole(s), StageTarget)
		}
		// "Update my languages: my husband speaks …" for "I speak …": the new text is someone else's.
		if k := otherSubject(w.Content, w.Target.Content+" "+w.Target.Key); k != "" {
			return fail(ReasonNotThisItem, s, k, StageTarget)
		}
		value, bySubject := namesSubject(s, target, w.Target, false)
		// The new text replaces the item's: one that drops most of it ("9am" for "Flight to Rome on
		// May 3, 7am, seat 14C") changes more than the user named. When the object names the item's
		// subject, the new text replaces its value ("$175" for "My weekly grocery budget is $150").
		// An item of several values ("X1234567, expires 2031", "14B, code 3310") keeps them all
		// unless the new text gives as many.
		// The key said whole stands for the subject too: "Update my standup time to 9:30." for
		// "my team standup is at 9:15" (key "my standup time") replaces "at 9:15".
		// (A colon inside a time, "9:15", is no separator.)
		if _, v, ok := head(w.Target); ok && !bySubject && s.saysKey(target, w.Target.Key) &&
			!strings.Contains(w.Target.Content, ";") && !separatingColon(w.Target.Content) {
			value, bySubject = v, true
		} else if !bySubject && s.saysKey(target, w.Target.Key) && !sharesItemWord(w.Target.Content, w.Target.Key) &&
			oneValue(w.Target.Content) && strings.IndexFunc(w.Target.Content, unicode.IsDigit) < 0 {
			// An item that is only the key's value, one value in words ("A flat white with oat
			// milk" for "my coffee order"): "Update my coffee order to a cortado." replaces it
			// whole. Not "Update my car to 2024." for "Blue 2019 Honda Civic" (a number in it).
			value, bySubject = 0, true
		}
		if old := len(textmodel.Tokens(w.Target.Content)); bySubject && 2*len(content) < value ||
			!bySubject && old >= 3 && 2*len(content) < old || fields(w.Content, true) < fields(w.Target.Content, true) {
			return fail(ReasonNotTheObject, s, m.whole(s), StageTarget)
		}
	}
	if w.Shared && !audience {
		return fail(ReasonNoAudience, s, m.whole(s), StageAudience)
	}
	if !w.Shared && audience && w.Kind == Save {
		return fail(ReasonNotShared, s, m.whole(s), StageAudience) // not the write the user asked for
	}
	switch {
	case w.Kind == Update:
		return &verdict{ReasonAskedUpdate, Trace{Sentence: s.index, Words: m.whole(s), Stage: StageAsked}}
	case w.Shared:
		return &verdict{ReasonAskedShared, Trace{Sentence: s.index, Words: m.whole(s), Stage: StageAsked}}
	}
	return &verdict{ReasonAsked, Trace{Sentence: s.index, Words: m.whole(s), Stage: StageAsked}}
}

var (
	keyNamers = wordSet(`under as`)
	// keyIntros name the key a text is saved under: "as", "under", "called", "titled", "named",
	// "with the key".
	keyIntros = phrasesOf("as", "under", "called", "titled", "named", "with the key", "with key")
)

// alone reports a sentence beside which the message holds greetings and thanks only.
func (m *message) alone(s *sentence) bool {
	for i := range m.sentences {
		if o := &m.sentences[i]; o.index != s.index && !m.greeting(o) {
			return false
		}
	}
	return true
}

// itForAudience reports "it [for all teammates|for the team]:" from at, after "Everyone should know
// this, so save …": "it" is what everyone should know.
func (s *sentence) itForAudience(at int) bool {
	if at >= s.n() || s.words[at] != "it" {
		return false
	}
	if s.gapEnd[at] == ":" {
		return true
	}
	j := at + 1
	if n := matchAt(s.words, j, audiencePhrases); n > 0 {
		j += n
	} else if j+2 < s.n() && s.words[j] == "for" && s.words[j+1] == "the" && s.words[j+2] == "team" {
		j += 3
	} else {
		return false
	}
	return j < s.n() && s.gapEnd[j-1] == ":"
}

// placedThing reports "the|our THING is VALUE" from at, to the sentence's end: up to three plain
// words ending in a thing of everyday life, then "is" and a code ("the office wifi password is
// Tangerine#882") or where it is ("the spare key is under the blue flowerpot") — a fact of the
// user's world, not a saying ("Remember: the customer is always right.", "the key to happiness is
// gratitude").
func (s *sentence) placedThing(at int, text string) bool {
	if at >= s.n() || s.words[at] != "the" && s.words[at] != "our" {
		return false
	}
	j := at + 1
	for j < s.n() && j-at <= 3 && s.roles[j] == 0 && !eventPreps[s.words[j]] {
		j++
	}
	if j == at+1 || j+1 >= s.n() || s.words[j] != "is" || !realThings[s.words[j-1]] && !contactNouns[s.words[j-1]] {
		return false
	}
	if !s.plainTo(at) || s.marked(at, s.n()) {
		return false
	}
	switch v := s.words[j+1]; {
	case j+2 == s.n() && codeLike(text[s.toks[j+1].Start:s.toks[j+1].End]):
		return true
	case v == "under" || v == "behind" || v == "in" || v == "on" || v == "inside" || v == "next":
		return j+2 < s.n() && !contactNouns[s.words[j-1]]
	}
	return false
}

// myThingAt reports "my THING at|for|in|on|during …" in [from, to), one or two plain words before a
// preposition with no verb between: "Remember my manners at dinner.", "Remember my lines for the
// play." (not "my flight lands at 18:40").
func (s *sentence) myThingAt(from, to int) bool {
	for j := from + 1; j < to && j <= from+2; j++ {
		if thingPreps[s.words[j]] {
			return j > from+1
		}
		if s.roles[j] != 0 {
			return false
		}
	}
	return false
}

var thingPreps = wordSet(`at for in on during with before`)

// myValue reports "my|our THING VALUE" in [from, to): up to three plain words ending in a word for
// a number, a code or an address, then a value with a digit or a code ("my PIN 1234", "my NHS
// number 485 777 3456").
func (s *sentence) myValue(from, to int, text string) bool {
	j := from + 1
	for j < to && j-from <= 3 && s.roles[j] == 0 && !contactNouns[s.words[j]] && !identifiers[s.words[j]] {
		j++
	}
	if j >= to || !contactNouns[s.words[j]] && !identifiers[s.words[j]] {
		return false
	}
	j++
	return j < to && codeLike(text[s.toks[j].Start:s.toks[j].End])
}

// myContact reports "my THING is|are" from k, THING up to three plain words ending in a word for
// a number, a code or an address ("my github handle is").
func (s *sentence) myContact(k int) bool {
	if k >= s.n() || s.words[k] != "my" {
		return false
	}
	j := k + 1
	for j < s.n() && j-k <= 3 && s.roles[j] == 0 && !contactNouns[s.words[j]] {
		j++
	}
	return j+1 < s.n() && contactNouns[s.words[j]] && (s.words[j+1] == "is" || s.words[j+1] == "are")
}

// restatesItem reports an update whose object points without naming ("Update this:", "Update it:",
// "Update the note to say …") or names it by a label of its own words and aspects ("Update the
// recycling day: …"), and whose new text, in [from, to), says what the item says with other values
// only (A4: the requesting sentence holds the item's words, and nothing names another thing).
func (s *sentence) restatesItem(object span, from, to int, it Item, text string) bool {
	have := map[string]bool{}
	for _, t := range textmodel.Tokens(it.Key + " " + it.Content) {
		have[stem(t.Text)], have[root(t.Text)] = true, true
	}
	// The object may also be a short label of the item's own words and words for an aspect of a
	// thing ("Update the recycling day: …", "Update my garden note: …"); any other word may name
	// another thing ("my work address" is not "my address is 22 Harbour Lane", "the invoice" no
	// item at all).
	label := 0
	if documents[s.words[object.to-1]] {
		return false // "Correct my essay, it's actually 2,000 words.": the essay itself
	}
	for k := object.from; k < object.to; k++ {
		w := s.words[k]
		if qualifiers[w] && !have[w] || strings.HasPrefix(w, "ex-") {
			return false // "my old address"
		}
		if s.roles[k]&(RoleStop|RoleVague|RoleFraming|RoleBackRef) != 0 {
			continue
		}
		label++
		// "Update Miso's feeding note: …": a possessive of whom the item is about.
		own := have[stem(w)] || have[root(w)] || possessive(w) && have[stem(strings.TrimSuffix(w, "'s"))]
		if !own && !aspects[w] && !facets[w] || name(s.toks[k], text) && !own || possessive(w) && !own || qualifiers[w] ||
			strings.HasSuffix(w, "'") || label > 3 {
			return false
		}
	}
	// The new text says what the item says with other values only: its other words, in order,
	// are the item's ("Leo has football practice every Tuesday at 6pm" for "… every Wednesday at
	// 5pm"); a word more or less names another thing ("Sarah's birthday party is June 9" is not
	// "Sarah's birthday is June 4", "Ana's work phone number" not "Ana's phone number").
	var said, was []string
	var at []int // where each of said's words stands in s
	for k := from; k < to; k++ {
		if w := s.words[k]; !valueWord(w) && s.roles[k]&RoleStop == 0 && w != "now" && w != "actually" &&
			!(k > from && counted(s.words[k-1], w)) {
			said, at = append(said, stem(w)), append(at, k)
		}
	}
	toks := textmodel.Tokens(it.Content)
	for i, t := range toks {
		if !valueWord(t.Text) && roles(t.Text)&RoleStop == 0 && t.Text != "now" && !(i > 0 && counted(toks[i-1].Text, t.Text)) {
			was = append(was, stem(t.Text))
		}
	}
	if len(said) == 0 || !s.restates(said, was, at, from, text) {
		return false
	}
	return s.keepsItsSense(span{from, to}, it, false)
}

// otherSubject returns the word by which a new text is said of someone the item isn't about, or
// "": at its start, a pronoun for others ("we", "they"), a possessive ("the neighbours' wifi
// password") or a person ("my daughter", "my boss", "our nanny") the item doesn't name, written in
// lower case and followed by another lower-case word, as a clause's subject is ("my husband
// speaks …") — not a value that names one ("my brother, Raj Mehta", "The Gym Group").
func otherSubject(content, item string) string {
	have := map[string]bool{}
	for _, t := range textmodel.Tokens(item) {
		have[t.Text], have[stem(t.Text)] = true, true
	}
	toks := textmodel.Tokens(content)
	lower := func(i int) bool {
		w := content[toks[i].Start:toks[i].End]
		return w == strings.ToLower(w) && !startsWithDigit(w)
	}
	for i, t := range toks {
		w := t.Text
		if i >= 3 || w == "is" || w == "are" || w == "am" || roles(w)&RoleVerbLike != 0 {
			break
		}
		base := strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'")
		other := othersPronouns[w] || base != w && roles(base)&(RoleStop|RoleBackRef) == 0 || relations[w] || personNouns[w] ||
			relations[strings.TrimSuffix(w, "s")] || personNouns[strings.TrimSuffix(w, "s")] || groupNouns[w]
		// "he", "she", "they" may be the person the item is about ("she comes every Monday" for
		// "Our cleaner comes on Wednesdays"), not when it names no one; "his", "her", "their"
		// before a noun say whose thing it is ("his home address", "her manager").
		possessor := w == "his" || w == "their" || w == "your" || w == "her" && i+1 < len(toks) && roles(toks[i+1].Text) == 0
		other = other || possessor || thirdPersons[w] && !namesPerson(item)
		named := have[w] || !othersPronouns[w] && !thirdPersons[w] && (have[stem(w)] || have[base] || have[stem(base)])
		if other && !named && lower(i) && i+1 < len(toks) && lower(i+1) &&
			strings.Trim(content[toks[i].End:toks[i+1].Start], " '’") == "" {
			return w
		}
	}
	return ""
}

// thirdPersons are pronouns for someone other than the user.
var thirdPersons = wordSet(`he she they you him them his her their hers theirs he's she's they're you're your
	he'd she'd they'd he'll she'll they'll`)

var (
	othersPronouns = wordSet(`we we're we've they they're they've you you're our their`)
	groupNouns     = wordSet(`team family household office company neighbours neighbors staff class group`)
)

// namesPerson reports a text that names a person: a pronoun for one, a word for a relation or a
// role, a capitalised name followed by a verb.
func namesPerson(text string) bool {
	toks := textmodel.Tokens(text)
	for i, t := range toks {
		w := strings.TrimSuffix(t.Text, "'s")
		if thirdPersons[t.Text] || relations[w] || personNouns[w] {
			return true
		}
		// A name that does something: "Lena handles our payroll".
		if r, _ := utf8.DecodeRuneInString(text[t.Start:]); unicode.IsUpper(r) && roles(t.Text) == 0 && i+1 < len(toks) {
			next := toks[i+1].Text
			if roles(next)&RoleVerbLike != 0 || roles(next) == 0 && strings.HasSuffix(next, "s") && !realThings[strings.TrimSuffix(next, "s")] &&
				!realThings[next] && text[toks[i+1].Start:toks[i+1].End] == next {
				return true
			}
		}
	}
	return false
}

// counted reports "times" after a number: "three times a day" says how often, as "twice a day" does.
func counted(before, w string) bool {
	return (w == "times" || w == "time") && valueWord(before)
}

// root is stem taken twice, for a word whose inflection hides its stem: "meetings" → "meet",
// "allergy" → "allerg".
func root(w string) string {
	r := stem(stem(w))
	for _, suf := range []string{"ic", "ies", "n"} {
		if len(r) > len(suf)+2 && strings.HasSuffix(r, suf) && (suf != "n" || strings.HasSuffix(r, "nn")) {
			r = strings.TrimSuffix(r, suf)
		}
	}
	return r
}

// afterVerb reports a verb in s between from and k: "is", "are", or a word the lexicon knows as
// one.
func (s *sentence) afterVerb(from, k int) bool {
	for j := from; j < k; j++ {
		if s.words[j] == "is" || s.words[j] == "are" || s.words[j] == "i" || s.roles[j]&RoleVerbLike != 0 {
			return true
		}
	}
	return false
}

// restates reports a new text whose words (said, standing at at in s) are the item's (was) in
// order with other values, and at most one of these changes besides:
//
//   - one plain word in place of another, not the first: "Lily studies chemistry at UC Davis" for
//     "… biology …", "I'm an intermediate chess player" for "I'm a beginner chess player" — not
//     "Tom studies biology …" (another person);
//   - more of a list, each new word a plain one in a member of its own, after "," or "and": "I
//     speak Portuguese, German and Spanish" for "I speak Portuguese and German", "I'm allergic to
//     peanuts and tree nuts" for "I'm allergic to peanuts".
func (s *sentence) restates(said, was []string, at []int, from int, text string) bool {
	firstPerson := from < s.n() && (s.words[from] == "i" || s.words[from] == "i'm" || s.words[from] == "i've")
	plain := func(i int) bool { return s.roles[at[i]] == 0 && !possessive(s.words[at[i]]) }
	if len(said) == len(was) {
		swapped := -1
		for i := range said {
			if said[i] != was[i] {
				// Not the first word, which may be whom it is about — unless the user is ("I'm an
				// intermediate chess player" for "I'm a beginner chess player").
				if swapped >= 0 || i == 0 && !firstPerson || !plain(i) || roles(was[i])&^RoleStop != 0 {
					return false
				}
				// A name that says which thing ("the cabin in Tahoe" for "the cabin in Aspen") is
				// another thing; one after the verb is its value ("my grandmother lives in Galway").
				if name(s.toks[at[i]], text) && !s.afterVerb(from, at[i]) {
					return false
				}
				swapped = i
			}
		}
		return true
	}
	if len(said) < len(was) {
		return false
	}
	j, added := 0, false
	for i := range said {
		if j < len(was) && said[i] == was[j] {
			j, added = j+1, false
			continue
		}
		// A word more: a plain one opening a member of the list, or going on with the one before.
		k := at[i]
		opens := k > 0 && (s.gapEnd[k-1] == "," || s.words[k-1] == "and" || k > 1 && s.words[k-1] == "the" && s.words[k-2] == "and") ||
			s.gapEnd[k] == "," && j < len(was) // a member before the others: "I eat fish, eggs and dairy"
		if i == 0 || !plain(i) || !opens && !(added && at[i-1] == k-1) {
			return false
		}
		// The last member of a list comes after "and": after a comma alone, a word at the end
		// may be whom the message is for ("…, Lily").
		if opens && s.gapEnd[k-1] == "," && s.words[k-1] != "and" && j == len(was) && at[len(at)-1] == k {
			return false
		}
		added = true
	}
	return j == len(was)
}

// valueWord reports a token that is a value rather than what it is of: a number, a time, a day or
// a month ("6pm", "9:30", "tuesday", "may").
func valueWord(w string) bool {
	d := strings.TrimSuffix(w, "s")
	return startsWithDigit(w) || calendar[w] || calendar[d] || w == "am" || w == "pm" || ordinals[w] || numberWords[w] ||
		w == "once" || w == "twice"
}

var ordinals = wordSet(`first second third fourth fifth sixth seventh eighth ninth tenth last next`)

// documents are things a correction or an update may edit rather than a memory.
var documents = wordSet(`essay document doc docs report draft letter cv resume email message code spreadsheet
	invoice file readme ticket text paper thesis article post slides presentation page wiki spec`)

// facets are words for a part of the user's life an item may be about, which may label it in an
// update: "Update my diet note: …", "Update my chess level: …".
var facets = wordSet(`diet allergy allergies health medication medications running fitness training chess
	music reading garden gardening commute travel display meeting meetings standing career hobby hobbies coffee
	food drink languages language`)

// aspects are words for an aspect of a thing, not a thing: "the recycling day", "my dose".
var aspects = wordSet(`day days time times schedule routine preference preferences details detail info information
	dose level arrangement habit habits order style commute location languages record rate hours feeding`)

// holdsMostOf reports more than half of the item's distinct words in [from, to).
func (s *sentence) holdsMostOf(from, to int, it Item) bool {
	words, seen := itemWords(it.Content), map[string]bool{}
	for k := from; k < to; k++ {
		if st := stem(s.words[k]); words[st] && s.roles[k]&(RoleStop|RoleFraming) == 0 {
			seen[st] = true
		}
	}
	return len(words) > 0 && 2*len(seen) > len(words)
}

// sharesItemWord reports a word of the key, stop words aside, in the text.
func sharesItemWord(text, key string) bool {
	words := itemWords(text)
	for w := range itemWords(key) {
		if words[w] {
			return true
		}
	}
	return false
}

// aboutItem reports an update whose object names what the item is about in its own words ("my note
// on Tom", "my note about the boiler") and whose sentence, new text included, holds at least half of
// the item's words (A4: "the requesting sentence refers to that item"): "Update my note on Tom: Tom
// prefers Slack messages over calls." for "Tom prefers calls over email".
func (s *sentence) aboutItem(object span, it Item) bool {
	if s.qualifiedAway(object, it) {
		return false // "my old address"
	}
	words, names := itemWords(it.Content), itemNames(it)
	named := 0
	for k := object.from; k < object.to; k++ {
		if qualifiers[s.words[k]] || strings.HasPrefix(s.words[k], "ex-") {
			return false // a qualifier the object adds sets another thing apart
		}
		if s.roles[k]&(RoleStop|RoleFraming|RoleVague) != 0 {
			continue
		}
		st := stem(s.words[k])
		if !words[st] || names[st] != "" && names[st] != s.words[k] || strings.HasSuffix(s.words[k], "'s") {
			return false
		}
		named++
	}
	if named == 0 || !s.keepsItsSense(object, it, false) {
		return false
	}
	seen := map[string]bool{}
	for k := object.from; k < s.n(); k++ {
		if st := stem(s.words[k]); words[st] && s.roles[k]&(RoleStop|RoleFraming) == 0 {
			seen[st] = true
		}
	}
	return 2*len(seen) >= len(words)
}

// states reports a verb, a contraction ("I'm", "it's") or a colon in [from, to): a text that says
// something, not a noun alone ("my apologies", "my frustration").
func (s *sentence) states(from, to int) bool {
	for k := from; k < to; k++ {
		w := s.words[k]
		if s.roles[k]&RoleVerbLike != 0 || strings.Contains(w, "'") && !strings.HasSuffix(w, "'s") || w == "is" || w == "are" ||
			k+1 < to && (s.gapEnd[k] == ":" || s.gapEnd[k] == "=") {
			return true
		}
	}
	return false
}

// bookable reports an object that names a thing booked or held in the world: a flight, an
// appointment, a table, a password on a device.
func (s *sentence) bookable(in span) bool {
	if head := s.words[in.to-1]; head == "preference" || head == "preferences" {
		return false // "Change my seat preference to window."
	}
	for k := in.from; k < in.to; k++ {
		if bookables[s.words[k]] {
			return true
		}
	}
	return false
}

var bookables = wordSet(`flight flights booking bookings appointment appointments reservation reservations table
	ticket tickets seat seats order subscription plan train hotel room ringtone background status wallpaper
	signature layout picture avatar screen theme mode font settings notifications volume`)

// namesSomething reports a word from index from on that is no stop, vague, back-pointing,
// question or first-person word, nor "old" ("How old am I?").
func (s *sentence) namesSomething(from int) bool {
	for k := from; k < s.n(); k++ {
		if s.roles[k]&(RoleStop|RoleVague|RoleBackRef|RoleQuestion|RoleFirstPerson) == 0 && s.words[k] != "old" && s.words[k] != "am" {
			return true
		}
	}
	return false
}

// saysKey reports the item's key, whole, in span in.
func (s *sentence) saysKey(in span, key string) bool {
	toks := textmodel.Tokens(key)
	if len(toks) == 0 || allStop(toks) {
		return false
	}
	for k := in.from; k+len(toks) <= in.to; k++ {
		if s.foldedAt(k, toks) {
			return true
		}
	}
	return false
}

// ironyIn returns the first word in [from, to) — the saved text — that says it is not meant: irony
// ("…, said no one ever", "yeah right", "/s"), a joke or take-back ("lol jk", "(not really)",
// "psych"), an emoji that isn't a closer ("😂"), a text that ends in "not", or a last part after a
// comma, dash or bracket that gives the frame it is said in, with no number or name ("…, for the
// prank", "…, in character", "…, in theory"). It returns -1 when there is none.
func (s *sentence) ironyIn(from, to int, text string) int {
	for k := from; k < to; k++ {
		w, r, base := s.words[k], s.roles[k], roles(s.words[k])
		if s.inTitle(k, from, text) {
			continue // "my band is called Yeah Right", "my favourite film is Forget Me Not"
		}
		switch {
		case r&RoleSarcasm != 0 && (base&RoleSarcasm == 0 || w == "yeah" || w == "yea" || w == "yep"),
			r&RoleTakeBack != 0 && (base&RoleTakeBack == 0 || jokes[w]),
			base&RoleInterjection != 0 && w != "well" && w != "wait",
			isEmoji(w) && base&RoleCloser == 0 && face(w),
			w == "/s" || w == "s" && k > 0 && strings.Contains(text[s.toks[k-1].End:s.toks[k].Start], "/"):
			return k
		}
	}
	if to-1 >= from && s.words[to-1] == "not" && !s.inTitle(to-1, from, text) {
		return to - 1
	}
	for j := to - 1; j > from; j-- {
		if !strings.ContainsAny(s.gapEnd[j-1], ",—–-(") {
			continue
		}
		if !framePreps[s.words[j]] {
			return -1
		}
		for k := j; k < to; k++ {
			// A number or a name makes it part of the fact ("…, in Mill Road"); an acronym
			// doesn't ("…, for the fake ID").
			if strings.IndexFunc(s.words[k], unicode.IsDigit) >= 0 || s.roles[k] == 0 && name(s.toks[k], text) &&
				strings.ToUpper(text[s.toks[k].Start:s.toks[k].End]) != text[s.toks[k].Start:s.toks[k].End] {
				return -1
			}
		}
		return j
	}
	return -1
}

// inTitle reports a capitalised word at k inside a run of capitalised words or after "called",
// "named" …: a title ("a podcast called Said No One Ever", "my favourite film is Forget Me Not").
func (s *sentence) inTitle(k, from int, text string) bool {
	upper := func(i int) bool {
		return i > 0 && i < s.n() && unicode.IsUpper([]rune(text[s.toks[i].Start:s.toks[i].End])[0])
	}
	return k > from && upper(k) && (mentionCues[s.words[k-1]] || upper(k-1) || upper(k+1))
}

// face reports an emoji of a face or a gesture (😂, 🙄, 🤪, 🙃), which says how the words are meant —
// not one that names a thing ("I love 🍕 and sushi").
func face(w string) bool {
	for _, r := range w {
		if r >= 0x1F600 && r <= 0x1F64F || r >= 0x1F910 && r <= 0x1F92F || r >= 0x1F970 && r <= 0x1F97F ||
			r >= 0x1F9D0 && r <= 0x1F9D1 || r >= 0x1F44A && r <= 0x1F450 || r == 0x1F921 || r == 0x1F480 {
			return true
		}
	}
	return false
}

// valueIn reports a value with a digit followed by "in" or "into" and a name at the text's end
// ("my gate code 4412 in Notion", "my locker code 31-07-22 in 1Password").
func (s *sentence) valueIn(from, to int, text string) bool {
	k := to - 2
	return k > from && (s.words[k] == "in" || s.words[k] == "into") && strings.IndexFunc(s.words[k-1], unicode.IsDigit) >= 0 &&
		strings.IndexFunc(text[s.toks[to-1].Start:s.toks[to-1].End], unicode.IsUpper) >= 0
}

// elsewhere reports a destination in the saved text — "to", "in", "into", "on" before a name, a
// possessive or "my" ("… to 1Password", "… to Mum's phone", "… in my Notes app").
func (s *sentence) elsewhere(from, to int, text string) bool {
	for k := from; k+1 < to; k++ {
		if !destinations[s.words[k]] {
			continue
		}
		next, written := s.words[k+1], text[s.toks[k+1].Start:s.toks[k+1].End]
		if next == "my" || next == "our" || next == "your" || strings.HasSuffix(next, "'s") ||
			strings.IndexFunc(written, unicode.IsUpper) >= 0 || strings.IndexFunc(next, unicode.IsDigit) >= 0 {
			return true // "to 1Password", "to iCloud", "to Mum's phone", "in my Notes app"
		}
	}
	return false
}

var (
	jokes      = wordSet(`jk kidding joking psych`)
	framePreps = wordSet(`for in on as according said when`)
)

func phraseHasAudience(p phrase) bool {
	for _, w := range p {
		switch w {
		case "teammates", "teammate", "everyone", "everybody", "profile", "shared", "you":
			return true
		}
	}
	return false
}

// verbModifiers reads what may stand between a save verb and its text: "this" or "it", modifiers
// ("for later", "in memory", an audience), and then ":", "," or "that". It returns where the text
// starts and whether an audience was named; ok is false when there is no such part.
func (s *sentence) verbModifiers(at int) (int, bool, bool) {
	k, audience, mods, newOne := at, false, 0, false
	if k < s.n() && (s.words[k] == "this" || s.words[k] == "it") {
		k++
		mods++
	} else if n := matchAt(s.words, k, newOnes); n > 0 {
		k, newOne = k+n, true // "Save the new one for all teammates: …" (after a forget of the old one)
		mods++
	}
	for k < s.n() {
		if n := matchAt(s.words, k, postVerbAudiences); n > 0 {
			k, audience, mods = k+n, true, mods+1
			continue
		}
		if n := matchAt(s.words, k, vocatives); n > 0 && k > 0 && s.gapEnd[k-1] == "," {
			k, audience, mods = k+n, true, mods+1
			continue
		}
		if n := matchAt(s.words, k, verbMods); n > 0 {
			k, mods = k+n, mods+1
			continue
		}
		break
	}
	if mods == 0 || k >= s.n() {
		return 0, false, false
	}
	if newOne {
		if s.gapEnd[k-1] == ":" {
			return k, audience, true
		}
		return 0, false, false
	}
	if s.words[k] == "that" && k+1 < s.n() {
		return k + 1, audience, true
	}
	if g := s.gapEnd[k-1]; g == ":" || g == "," || g == "-" || g == "—" {
		return k, audience, true
	}
	return 0, false, false
}

// newOnes may stand for "this" after a save verb, before ":".
var newOnes = phrasesOf("the new one", "my new one")

// quotesIn reports quotation marks inside the sentence ("Remember that I'm \"on a diet\""): scare
// quotes may mean the opposite.
func (m *message) quotesIn(s *sentence) bool {
	for _, q := range m.quoted {
		if (q[0] >= s.start && q[0] < s.end || q[1] > s.start && q[1] < s.end) && !m.mention(q) {
			return true
		}
	}
	return false
}

// mention reports a quote that names a word rather than quoting speech: at most three plain words
// after "called", "the word" … ("I hate being called 'mate'.", "I hate the word 'synergy'."). Scare
// quotes ("I'm 'vegan'") and quoted requests are no mention.
func (m *message) mention(q [2]int) bool {
	before := strings.Fields(strings.ToLower(m.text[:q[0]]))
	if len(before) == 0 || !mentionCues[strings.Trim(before[len(before)-1], ",:")] {
		return false
	}
	inner := strings.Trim(m.text[q[0]:q[1]], `'"‘’“”`)
	words := textmodel.Tokens(inner)
	if len(words) == 0 || len(words) > 3 || strings.ContainsAny(inner, ".!?;:\n") {
		return false
	}
	for _, t := range words {
		if roles(t.Text)&(markers|RoleSave|RoleUpdate|RoleForget|RoleMemoryWord) != 0 {
			return false
		}
	}
	return true
}

var mentionCues = wordSet(`called word term phrase nickname named spelled spelt`)

// trails reports a sentence that trails off ("Remember I'm a great cook…", ". . ."), or words set
// off for emphasis ("I *love* Mondays"): said with a wink, perhaps.
func (m *message) trails(s *sentence) bool {
	// "Remember that my PIN is 7731 —", "… 7731 (": cut off before the rest of the thought.
	gap := m.text[s.end:]
	if i := strings.IndexFunc(gap, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\n' }); i >= 0 {
		gap = gap[:i]
	}
	if strings.ContainsAny(gap, "—–([{") || strings.HasSuffix(strings.TrimSpace(gap), "-") ||
		strings.HasSuffix(strings.TrimSpace(gap), ",") || strings.HasSuffix(strings.TrimSpace(gap), ";") {
		return true
	}
	after := m.text[s.end:]
	if i := strings.IndexAny(after, "\n"); i >= 0 {
		after = after[:i]
	}
	after = strings.ReplaceAll(after, " ", "")
	if strings.HasPrefix(after, "…") || strings.HasPrefix(after, "..") {
		return true
	}
	for _, w := range s.words {
		if strings.HasPrefix(w, "*") || strings.HasSuffix(w, "*") || strings.HasPrefix(w, "~") || strings.HasSuffix(w, "~") {
			return true
		}
	}
	return false
}

// span is a half-open range of token indexes.
type span struct{ from, to int }

// updateObject reads "update my address: …": from i, an object that opens with a determiner ("my",
// "your", "the", "our", "that", "this") or names the memory, then a separator (":", "to", "with" …).
// "Update Sarah: …", "Update Jira: …" and "Correct answer: …" have no such object: the verb is used
// in another sense. It returns the object and where the new text starts.
func (s *sentence) updateObject(i int) (span, int, bool) {
	if i >= s.n() {
		return span{}, 0, false
	}
	switch w := s.words[i]; {
	case w == "my", w == "your", w == "the", w == "our", w == "that", w == "this", w == "it",
		strings.HasSuffix(w, "'s"):
	default:
		return span{}, 0, false
	}
	for j := i; j < s.n() && j < i+12; j++ {
		if s.roles[j]&(markers&^RolePaste) != 0 && s.roles[j]&RoleFraming == 0 {
			return span{}, 0, false
		}
		if g := s.gapEnd[j]; g == ":" || g == "," || g == "-" || g == "—" {
			return span{i, j + 1}, j + 1, true
		}
		if j+1 < s.n() {
			if end, _ := s.longestFrame(j+1, updateSeparators); end > j+1 {
				return span{i, j + 1}, end, true
			}
		}
	}
	return span{}, 0, false
}

// skipRestatement passes over "it's", "it is", "now" that may open a new value ("Update my address:
// it's now 5 Oak Lane").
func (s *sentence) skipRestatement(i int) int {
	if n := matchAt(s.words, i, restatements); n > 0 && i+n < s.n() {
		return i + n
	}
	return i
}

// keyObject reads "my locker code: 3310" at i for the key "locker code": an optional determiner,
// the key word for word, then ":", "-", "is", "=" or "as". It returns where the text starts, ok, and
// whether the key's modifier is an audience ("my shoe size to my profile: 42").
func (s *sentence) keyObject(i int, key []textmodel.Token) (int, bool, bool) {
	if i < s.n() && (s.words[i] == "my" || s.words[i] == "the" || s.words[i] == "our") && !s.exactAt(i, key) {
		i++
	}
	if i < s.n() && s.words[i] == "new" && !s.exactAt(i, key) {
		i++
	}
	if !s.exactAt(i, key) {
		return 0, false, false
	}
	j := i + len(key)
	if j >= s.n() {
		return 0, false, false
	}
	// "my NHS number 943 476 5919": a number right after the key.
	if s.gapEnd[j-1] == "" && startsWithDigit(s.words[j]) {
		return j, true, false
	}
	// "the door code for the studio: 7#2290": a short modifier of the key, then a separator.
	if s.gapEnd[j-1] == "" && (s.words[j] == "for" || s.words[j] == "with" || s.words[j] == "at" || s.words[j] == "to" || s.words[j] == "in") {
		for k := j; k < s.n() && k < j+4; k++ {
			if s.roles[k]&markers != 0 || isEmoji(s.words[k]) {
				return 0, false, false
			}
			if g := s.gapEnd[k]; g == ":" || g == "-" || g == "=" || g == "—" {
				n := matchAt(s.words[:k+1], j, audiencePhrases)
				return k + 1, true, n == k+1-j
			}
		}
		return 0, false, false
	}
	if g := s.gapEnd[j-1]; g == ":" || g == "-" || g == "=" || g == "—" {
		return j, true, false
	}
	if s.words[j] == "is" || s.words[j] == "as" || s.words[j] == "=" {
		return j + 1, true, false
	}
	return 0, false, false
}

func startsWithDigit(w string) bool {
	for _, r := range w {
		return unicode.IsDigit(r)
	}
	return false
}

// keyOf reports whether the text at [from, to) says the key of itself: the key word for word,
// followed by "is", ":" or the like ("my locker code is 3310") or ending the text ("3310 is my
// locker code"). "my password hint is …" doesn't give the key "password".
func keyOf(s *sentence, from, to int, key []textmodel.Token) bool {
	for i := from; i+len(key) <= to; i++ {
		if !s.exactAt(i, key) {
			continue
		}
		j := i + len(key)
		if j == to && (i == from || determiners[s.words[i-1]] || s.roles[i-1]&markers == 0 && !timeWords[s.words[i-1]] &&
			s.roles[i-1]&RoleFraming == 0) {
			return true // "3310 is my locker code", "I prefer tea" (key "tea"); not "I'm not vegan"
		}
		if i > from && !determiners[s.words[i-1]] {
			continue // "Sam's birthday is …", "the guest wifi password is …" don't give the key
		}
		if g := s.gapEnd[j-1]; g == ":" || g == "=" || g == "-" || g == "—" {
			return true
		}
		switch s.words[j] {
		case "is", "are", "=":
			return true
		}
	}
	return false
}

// proposition reports whether the text at [from, to) states something of the user or a thing — a
// first-person word, a verb like "is", a "name's" or a "label: value" — rather than naming a thing
// ("Remember the Alamo", "Save the file as report.pdf").
func proposition(s *sentence, from, to int, keyed bool) bool {
	if keyed {
		return true
	}
	for i := from; i < to; i++ {
		if s.roles[i]&(RoleFirstPerson|RoleVerbLike) != 0 || strings.HasSuffix(s.words[i], "'s") ||
			strings.HasSuffix(s.words[i], "'re") || strings.HasSuffix(s.words[i], "'m") {
			return true
		}
		if i+1 < to && (s.gapEnd[i] == ":" || s.gapEnd[i] == "=") {
			return true
		}
	}
	return false
}

// tail reads what follows the text in its sentence: nothing, neutral closers ("please", "thanks",
// "for me"), an audience phrase ("…, for all teammates"), or "and" with a clause that is neutral on
// its own. Anything else qualifies the text or takes it back.
func (m *message) tail(s *sentence, k int, w Write) (bool, *verdict) {
	audience := false
	// "Update my address to 12 Oak Street as well.": an update replaces; "too" adds.
	if w.Kind == Update {
		for j := k; j < s.n(); j++ {
			if s.words[j] == "too" || s.words[j] == "also" || j+1 < s.n() && s.words[j] == "as" && s.words[j+1] == "well" {
				return false, fail(ReasonQualified, s, m.between(s, j, s.n()), StageTail)
			}
		}
	}
	for k < s.n() {
		if n := matchAt(s.words, k, closers); n > 0 {
			k += n
			continue
		}
		// "…, for all teammates" names the audience; "ordering pizza for all teammates" names who
		// benefits: after the text an audience needs a break before it.
		if n := matchAt(s.words, k, audiencePhrases); n > 0 && k > 0 && (s.gapEnd[k-1] != "" ||
			k+n == s.n() && s.words[k+n-1] != "profile" && s.words[k+n-1] != "memory" && statesAFact(w.Content)) {
			// Without a break only at the end, after a fact of the user's ("my mobile is … for
			// all teammates"), which no teammate can benefit from as from pizza.
			k, audience = k+n, true
			continue
		}
		if n := matchAt(s.words, k, vocatives); n > 0 && s.gapEnd[k-1] == "," && (k+n == s.n() || s.gapEnd[k+n-1] != "") {
			k, audience = k+n, true
			continue
		}
		// "Update my passport number to K9902311, I renewed it.": an aside says why.
		if g := s.gapEnd[k-1]; w.Kind == Update && (g == "," || g == "—" || g == "-") {
			if clause := s.sub(k); clause.aside(0, m.text, w.Content, w, true) {
				return audience, nil
			}
		}
		if s.words[k] == "and" && k+1 < s.n() {
			clause := s.sub(k + 1)
			m.clause = true
			bad := m.neutral(&clause, w)
			m.clause = false
			if bad == nil {
				return audience, nil
			}
		}
		return audience, fail(ReasonQualified, s, m.between(s, k, s.n()), StageTail)
	}
	return audience, nil
}

// sub is the part of s from token i, as a sentence of its own.
func (s *sentence) sub(i int) sentence {
	return sentence{index: s.index, toks: s.toks[i:], words: s.words[i:], roles: s.roles[i:], gapEnd: s.gapEnd[i:],
		question: s.question, start: s.toks[i].Start, end: s.end}
}

// judgeForget reads s as the request to forget the target.
func (m *message) judgeForget(s *sentence, w Write) *verdict {
	if s.n() > maxSentenceWords {
		return fail(ReasonUnclear, s, "", StageFrame)
	}
	i, audience := s.opening()
	if i >= s.n() {
		return m.noFrame(s, RoleForget)
	}
	at, _ := s.longestFrame(i, forgetFrames)
	if at < 0 {
		return m.noFrame(s, RoleForget)
	}
	if m.inQuotes(s.toks[i].Start) {
		return fail(ReasonQuoted, s, m.whole(s), StageVoice)
	}
	if s.question {
		return fail(ReasonQuestion, s, m.whole(s), StageFrame)
	}
	// "Forget that: I live at 4 Elm Road.": "forget that" may be "never mind" before a statement.
	if at < s.n() && (s.words[at] == "that" || s.words[at] == "it" || s.words[at] == "this") && strings.Contains(s.gapEnd[at], ":") {
		return fail(ReasonTakenBack, s, m.whole(s), StageFrame)
	}
	// "Forget for all teammates that I'm vegetarian": the audience right after the verb.
	if n := matchAt(s.words, at, postVerbAudiences); n > 0 && at+n < s.n() {
		at, audience = at+n, true
	}
	// The object runs to the closers at the sentence's end.
	end := s.n()
	for shrunk := true; shrunk; {
		shrunk = false
		for k := end - 1; k >= at && !shrunk; k-- {
			for li, ps := range [][]phrase{closers, forgetClosers, audiencePhrases, vocatives} {
				if matchAt(s.words[:end], k, ps) == end-k {
					// "from my profile", "from shared memory" name every teammate as well (A3).
					audience = audience || li >= 2 || li == 1 && phraseHasAudience(s.words[k:end])
					end, shrunk = k, true
					break
				}
			}
		}
	}
	// "Forget my dentist, I've stopped going there.", "Forget the plumber's number, he retired.":
	// an aside after a comma or dash ends the object.
	for k := at + 1; k < end; k++ {
		if g := s.gapEnd[k-1]; (g == "," || g == "—" || g == "-") && s.roles[k]&(RoleSubject|RoleBackRef) != 0 &&
			s.words[k] != "the" && s.words[k] != "a" {
			if clause := s.sub(k); clause.aside(0, m.text, "", w, true) || clause.forgetReason(0) {
				end = k
			}
			break
		}
	}
	object := span{at, end}
	own := map[string]bool{}
	for _, t := range textmodel.Tokens(w.Target.Key + " " + w.Target.Content) {
		own[t.Text] = true
	}
	for k := at; k < end; k++ {
		// A word that qualifies, takes back or asks something else — unless the item itself says
		// it ("forget that Anya is vegetarian but eats fish").
		if s.roles[k]&(markers&^RolePaste) != 0 && s.roles[k]&RoleFraming == 0 && !own[s.words[k]] || isEmoji(s.words[k]) {
			return fail(ReasonQualified, s, m.between(s, k, end), StageTail)
		}
		// "Remove the cat from this photo", "Remove my car from the booking": the object is in
		// something other than memory ("from memory", "from my profile" are closers, cut above).
		if s.words[k] == "from" && k > at && !own["from"] && !(k+1 < end && (calendar[s.words[k+1]] || s.words[k+1] == "last")) {
			return fail(ReasonOtherSense, s, m.between(s, k, end), StageTarget)
		}
		// "Remove the onions, my son hates them": a clause of its own after the object.
		if k > at && (s.gapEnd[k-1] == "," || s.gapEnd[k-1] == "—" || s.gapEnd[k-1] == "-") &&
			s.roles[k]&(RoleSubject|RoleBackRef) != 0 && s.words[k] != "the" && s.words[k] != "a" {
			return fail(ReasonQualified, s, m.between(s, k, end), StageTail)
		}
	}
	if r := covers(s, object, w.Target); r != "" {
		// "my old address, 12 Elm Street": a label, then after a comma the item's own words. The
		// value alone must cover the item; the label may only name it.
		if v, ok := s.apposition(object); !ok || s.coversFrom(object, v.from, w.Target) != "" {
			return fail(r, s, m.between(s, at, end), StageTarget)
		}
	}
	if k := m.notAsItSays(s, object, w.Target); k >= 0 {
		return fail(ReasonVague, s, m.between(s, k, end), StageTarget)
	}
	// "Delete my email.", "Delete my booking.": "delete", "remove" and "erase" act on things as
	// well as on memory, and a key of one word alone may name the thing itself. Such an object must
	// also hold a word of the item's text, or the sentence say it is memory ("my timezone note",
	// "from memory", "from my profile").
	// So may any object opened by "the" ("Delete the admin password." may be the router's).
	// A key said whole whose last word names a piece of information, not a thing kept elsewhere
	// ("Delete the pool locker code.", "Remove my pharmacy." — not "Delete my account.", "Delete
	// the wifi password."), says it is memory.
	// Nor may an object of those verbs whose last word is a thing an account, a device or a
	// calendar keeps: "Erase my hard drive.", "Delete my profile.", "Delete my dentist
	// appointment." may mean the thing.
	if s.words[i] != "forget" && at < end && worldThings[s.words[end-1]] && !s.saysMemoryBeside(at, end) {
		return fail(ReasonOtherSense, s, m.between(s, at, end), StageTarget)
	}
	if s.words[i] != "forget" && (len(textmodel.Tokens(w.Target.Key)) == 1 || at < end && determiners[s.words[at]] && s.words[at] != "my" && s.words[at] != "our") &&
		!mentionsItemIn(s, object, w.Target) && !s.saysMemory(at) && !(s.keyWhole(object, w.Target.Key) && infoKey(w.Target.Key)) {
		return fail(ReasonVague, s, m.between(s, at, end), StageTarget)
	}
	if w.Shared && !audience {
		return fail(ReasonNoAudience, s, m.whole(s), StageAudience)
	}
	return &verdict{ReasonAskedForget, Trace{Sentence: s.index, Words: m.whole(s), Stage: StageAsked}}
}

// aspectAfter returns the end of the key at k, or past a word that labels it and ends the object
// ("my coffee milk preference", "my diet preference"; not "my gym schedule" for the key "gym").
func (s *sentence) aspectAfter(k, end int) int {
	if k+1 == end && labelWords[s.words[k]] {
		return end
	}
	return k
}

var labelWords = wordSet(`preference preferences note details info information`)

// keyWhole reports the key, word for word, as all that names anything in the object.
func (s *sentence) keyWhole(object span, keyText string) bool {
	key := textmodel.Tokens(keyText)
	if len(key) == 0 || allStop(key) {
		return false
	}
	for k := object.from; k+len(key) <= object.to; k++ {
		if s.foldedAt(k, key) && !s.meaningfulOutside(object, k, k+len(key)) {
			return true
		}
	}
	return false
}

// infoKey reports a key whose last word names a piece of information about the user, which exists
// nowhere a delete could reach but in memory: a code, a number, a goal, whom the user sees — and
// none of whose words names a thing an account or a device keeps ("my phone number", "my email
// address").
func infoKey(keyText string) bool {
	key := textmodel.Tokens(keyText)
	for _, t := range key {
		if accountThings[t.Text] {
			return false
		}
	}
	return len(key) > 0 && infoHeads[key[len(key)-1].Text]
}

var accountThings = wordSet(`phone mobile email e-mail account profile repo repository drive disk file files folder
	app reservation booking appointment subscription order calendar photo photos`)

// worldThings are things a delete reaches outside memory when they end its object.
var worldThings = wordSet(`drive disk profile account accounts repo repository file files folder app apps
	appointment appointments reservation reservations booking bookings subscription calendar photo photos
	post posts channel server`)

// saysMemoryBeside reports a word for memory in the sentence from index from on, outside the object
// [from, to)'s own words, or one inside it that is not its last ("my timezone note", "from
// memory"; not "Delete my profile.").
func (s *sentence) saysMemoryBeside(from, to int) bool {
	for k := from; k < s.n(); k++ {
		if (s.roles[k]&RoleFraming != 0 && s.words[k] != "old" || s.words[k] == "profile") && !(k == to-1 && s.words[k] == "profile") {
			return true
		}
	}
	return false
}

var infoHeads = wordSet(`code number pin hint goal time contact weight height gpa pharmacy doctor dentist gp vet
	bank allergies birthday size combination`)

var determiners = map[string]bool{"the": true, "this": true, "that": true, "a": true, "an": true, "these": true,
	"those": true, "our": true, "his": true, "her": true, "their": true, "your": true, "my": true}

// itemWords are the distinct words of an item that name it: not stop words, not framing, each
// reduced to its stem.
func itemWords(text string) map[string]bool {
	out := map[string]bool{}
	for _, t := range textmodel.Tokens(text) {
		if roles(t.Text)&(RoleStop|RoleFraming) == 0 {
			out[stem(t.Text)] = true
		}
	}
	return out
}

// stem reduces a word to what its inflections share: "likes", "liked", "liking" → "lik".
func stem(word string) string {
	for _, suf := range []string{"'s", "ing", "ies", "ied", "es", "ed", "s", "e", "y"} {
		if len(word) > len(suf)+2 && strings.HasSuffix(word, suf) {
			return strings.TrimSuffix(word, suf)
		}
	}
	return word
}

// covers returns "" when the object names the item and covers it (A5): its key word for word, or
// most of its distinct words; and it is mostly the item's words. A vague object ("it", "that
// email", "everything") or one that only brushes the item doesn't.
func covers(s *sentence, object span, it Item) Reason {
	return s.coversFrom(object, object.from, it)
}

// coversFrom is covers where the words before valueFrom are a label ("my old address, 12 Elm
// Street"): a label's words that aren't the item's don't count against it, as long as the label names
// no one else.
func (s *sentence) coversFrom(object span, valueFrom int, it Item) Reason {
	words, keyWords := itemWords(it.Content), itemWords(it.Key)
	itemToks := map[string]bool{}
	for _, t := range textmodel.Tokens(it.Key + " " + it.Content) {
		itemToks[t.Text] = true
	}
	// A qualifier the item doesn't have ("my old weekly grocery budget") sets another thing apart,
	// unless it stands in a label before the item's own words ("my old address, 12 Elm Street").
	if valueFrom == object.from && s.qualifiedAway(object, it) {
		return ReasonVague
	}
	names := itemNames(it)
	own := map[string]bool{}
	other, meaningful, foreign := 0, 0, false
	for k := object.from; k < object.to; k++ {
		r := s.roles[k]
		if r&(RoleStop|RoleFraming) != 0 {
			continue
		}
		if r&RoleVague == 0 {
			meaningful++
		}
		st := stem(s.words[k])
		// A possessive the item doesn't have is someone else's: "Karen's boss" is not "my boss is
		// Karen", "my sister's friend" not "my sister".
		if strings.HasSuffix(s.words[k], "'s") && !itemToks[s.words[k]] && !s.labelOwner(object.from, valueFrom, k, it) {
			foreign = true
		}
		if n, ok := names[st]; ok && n != s.words[k] {
			st = "" // a name compares whole: "Darren Coles" is not "Darren Cole"
		}
		switch {
		case words[st]:
			own[st] = true
		case keyWords[st]:
		case r&RoleVague == 0 && k >= valueFrom:
			other++
		}
	}
	// Said by its key, the item is named whole, whatever its text says ("my resting heart rate" for
	// "around 58").
	keySaid := false // the key and nothing else that names anything
	theKey := false  // "the KEY", a key of two words or more, and nothing else
	if key := textmodel.Tokens(it.Key); len(key) > 0 && !allStop(key) {
		for k := object.from; k+len(key) <= object.to; k++ {
			if s.foldedAt(k, key) && !s.meaningfulOutside(object, k, s.aspectAfter(k+len(key), object.to)) {
				keySaid = keySaid || s.ownedAt(k, key, it.Key)
				theKey = theKey || len(key) >= 2 && k == object.from+1 && s.words[object.from] == "the"
			}
		}
	}
	keySaid = keySaid || theKey
	if meaningful == 0 || foreign || !s.keepsItsSense(object, it, keySaid) {
		return ReasonVague
	}
	// The object names the item's whole subject and most of its words ("the Zoom ID for the Monday
	// standup" for "The Zoom ID for our Monday standup is 884 2231 9907"), with nothing but the item's
	// own words beside it.
	if _, ok := namesSubject(s, object, it, true); ok && valueFrom == object.from {
		own := map[string]bool{}
		for k := object.from; k < object.to; k++ {
			if st := stem(s.words[k]); words[st] {
				own[st] = true
			}
		}
		if 2*len(own) > len(words) {
			return ""
		}
	}
	keyed, keyedAfter := false, false
	if key := textmodel.Tokens(it.Key); len(key) > 0 && !allStop(key) {
		for k := object.from; k+len(key) <= object.to; k++ {
			if s.foldedAt(k, key) {
				// "Delete the staging database" may mean the database: a forget by the key says
				// whose it is ("my", "our").
				if !s.ownedAt(k, key, it.Key) && !theKey {
					return ReasonVague
				}
				keyed = true
				keyedAfter = keyedAfter || valueFrom == object.from && s.onlyAfter(object, k, len(key), words)
			}
		}
	}
	named := 0 // the item's text words named, the key's aside
	for w := range own {
		if !keyWords[w] {
			named++
		}
	}
	switch {
	case keySaid && valueFrom == object.from && oneList(it.Content, it.Key):
		// The key said whole and nothing else names the item whole, whatever its text holds
		// (A5): "Forget my allergies." for "Allergic to peanuts and shellfish", "Delete the
		// parking spot." for "level 3, space 42" — not "my pool code" for "1234 at home, 4411 at
		// the villa", two of a kind side by side.
		return ""
	case keyed && other == 0 && (named == 0 && valueFrom == object.from && oneThing(it.Content) && noSecondFact(it.Content, it.Key) || 2*named > len(words)):
		// The key alone names the item when its text is one value ("my pool code" for "1234", not
		// for "1234 at home, 4411 at the villa"); words of its text beside it must cover most of it
		// ("my allergies to peanuts" doesn't cover "penicillin, peanuts, shellfish"). After a
		// label, the key alone is not enough: "my dog, Rex" doesn't name the item "Rex" about a
		// landlord.
		return ""
	case keyed && other == 0 && valueFrom == object.from && headIsKey(it):
		// The item is "KEY is VALUE" and the object names the key: "Erase my bank details." for
		// "my bank details are sort code 12-34-56, account 11223344".
		return ""
	case keyedAfter && (named == 0 && oneValue(it.Content) && noSecondFact(it.Content, it.Key) || named == len(words)) &&
		(!numberNamed(s, object) || numeric(it.Content)):
		// "my phone number" names "111 222 333" under the key "phone", not "my phone is an
		// iPhone 12" nor "my phone bill is $40 a month".
		// The key, and words after it that say which part ("my Costco membership number"), and
		// perhaps the whole text besides ("the staging database name orders_stg_v2").
		return ""
	case keyed && other == 0 && valueFrom == object.from && named > 0 && 2*named >= len(words) && !missesListWord(own, words, it):
		// The key and half of the text's words, none of the missing ones in a list: "my frequent
		// flyer number for BA" for "BA 47721009".
		return ""
	case len(own) == 0 && !keyed:
		return ReasonNotThisItem
	case other > 0:
		// Every word is the item's: "my brother lives in Denver" doesn't cover "my sister lives in
		// Denver".
		return ReasonVague
	case len(own) == len(words):
		return ""
	case len(words) > 3 && len(own) == len(words)-1:
		// All but one word of a longer item — one that isn't part of a list or of a second thing
		// joined to the first: "Lives at 12 Elm Street" without "lives", but not "Likes jazz, blues
		// and soul" without "soul", nor "Meets Tom on Fridays with Sara" without "Sara".
		joined := joinedWords(it.Content)
		for w := range words {
			if !own[w] && !listWords(it.Content)[w] && !joined[w] {
				return ""
			}
		}
	}
	return ReasonVague
}

// notAsItSays returns the first word of a forget's object that covers the item's words but not
// what it says, or -1 (A5: the object covers the item, not a bag of its words):
//
//   - the item's words in another order: "Tom owes me $50" is not "Owes Tom $50", "from Lisbon to
//     Boston" not "from Boston to Lisbon";
//   - a person the item is about left out: "that I'm vegetarian" is not "Daughter is vegetarian";
//   - a short word that is a value the item doesn't have: "6 am" for "6 pm", "US" for "UK", "room
//     A" for "room B";
//   - a code, a number or a name spelled otherwise: "tr0ub4dor" for "Tr0ub4dor", "106" for "10⁶",
//     "hate" for the name "Hate".
//
// The item's key said alone names it whole ("Forget my resting heart rate."): then only the
// spelling and the short values count.
func (m *message) notAsItSays(s *sentence, object span, it Item) int {
	itemToks := textmodel.Tokens(it.Content)
	raw := map[string][]string{} // folded token → the item's spellings
	order := map[string]int{}    // stem → first place in the item
	have := map[string]bool{}
	for i, t := range itemToks {
		raw[t.Text] = append(raw[t.Text], it.Content[t.Start:t.End])
		have[t.Text] = true
		if _, ok := order[stem(t.Text)]; !ok && roles(t.Text)&(RoleStop|RoleFraming) == 0 {
			order[stem(t.Text)] = i
		}
	}
	for _, t := range textmodel.Tokens(it.Key) {
		have[t.Text] = true
	}
	keySaid := false
	if key := textmodel.Tokens(it.Key); len(key) > 0 && !allStop(key) {
		for k := object.from; k+len(key) <= object.to; k++ {
			keySaid = keySaid || s.foldedAt(k, key) && !s.meaningfulOutside(object, k, k+len(key))
		}
	}
	// "Forget that he lives in York." is not "I live in York": a pronoun for someone else the item
	// doesn't hold.
	for k := object.from; k < object.to; k++ {
		if thirdPersons[s.words[k]] && !have[s.words[k]] {
			return k
		}
	}
	// Order matters where the item relates two things ("over", "than", "to", "owes", "and" …), and
	// in a clause ("Forget that Tom gave me his old bike.").
	ordered := twoThings(it.Content) || s.words[object.from] == "that"
	for _, t := range itemToks {
		ordered = ordered || relational[t.Text]
	}
	last, seen := -1, map[string]bool{}
	for k := object.from; k < object.to; k++ {
		w := s.words[k]
		said := m.text[s.toks[k].Start:s.toks[k].End]
		if spellings, ok := raw[w]; ok && codeLike(said) {
			same := false
			for _, sp := range spellings {
				same = same || norm.NFC.String(sp) == norm.NFC.String(said)
			}
			if !same {
				return k
			}
		}
		if spellings, ok := raw[w]; ok && len(spellings) > 0 && !codeLike(said) {
			// A name in the item is a name in the object: "Dr. Hate" is not "hate".
			first := spellings[0]
			if r, _ := utf8.DecodeRuneInString(first); unicode.IsUpper(r) && itemToks[0].Text != w {
				if r2, _ := utf8.DecodeRuneInString(said); !unicode.IsUpper(r2) && strings.ToUpper(said) != said {
					return k
				}
			}
		}
		// A short word that is a value: "am", "pm", "US", a single letter by a number or in
		// capitals.
		short := w == "am" || w == "pm" || w != "i" && len([]rune(said)) <= 2 && strings.ToUpper(said) == said && strings.ToLower(said) != said ||
			len([]rune(w)) == 1 && unicode.IsLetter([]rune(w)[0]) && (k > 0 && startsWithDigit(s.words[k-1]))
		if short && !have[w] {
			return k
		}
		// Whose or which one the item isn't: "Forget her gate code.", "Forget a gate code.",
		// "… they owe us" for "We owe them", "… out of the garage" for "in the garage".
		clause := s.words[object.from] == "that"
		// A modal or a future the item lacks makes it another fact: "Forget that I'll take the 7:15
		// train" is not "I take the 7:15 train".
		if modalWords[w] && !have[w] {
			return k
		}
		if notWhose[w] && !have[w] && !(clause && (w == "a" || w == "an" || w == "some" || w == "one")) &&
			!(k+1 < object.to && s.roles[k+1]&RoleFraming != 0) { // "any memories of my ex"
			return k
		}
		if other, ok := opposites[w]; ok && !have[w] {
			for _, o := range strings.Fields(other) {
				if have[o] {
					return k
				}
			}
		}
		st := stem(w)
		if at, ok := order[st]; ok && ordered && !keySaid && !seen[st] && s.roles[k]&(RoleStop|RoleFraming) == 0 {
			seen[st] = true
			if at < last {
				return k
			}
			last = at
		}
	}
	for _, t := range itemToks {
		if (relations[t.Text] || personNouns[t.Text]) && !keySaid {
			found := false
			for k := object.from; k < object.to; k++ {
				found = found || stem(s.words[k]) == stem(t.Text)
			}
			if !found {
				return object.from
			}
		}
	}
	return -1
}

// codeLike reports a token with a digit, a sign or a capital after its first letter: a code, a
// number or a password, whose spelling is its own.
func codeLike(w string) bool {
	rs := []rune(w)
	for i, r := range rs {
		hyphen := r == '-' && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) // "mother-in-law"
		if unicode.IsDigit(r) || !unicode.IsLetter(r) && r != '\'' && r != '’' && !hyphen || i > 0 && unicode.IsUpper(r) && rs[i-1] != '-' {
			return true
		}
	}
	return false
}

// ownThings are things of the user's whose possessive names the user's own: "my car's plate number",
// "my bank's sort code".
// placeParts label the parts of one place: "level 3, space 42".
// secondFacts are words that join a second fact to the first.
var secondFacts = wordSet(`also plus same belongs belong too except but`)

var placeParts = wordSet(`level floor space bay row section spot room unit flat apt suite building block deck`)

var ownThings = wordSet(`car bank house flat apartment phone laptop bike office building gym school`)

// noSecondFact reports a text that holds no second fact and is no one else's, by its words: no
// dash between parts, no word that joins another fact ("also", "same", "belongs"), no relation or
// pronoun for someone the key doesn't name ("ABC123 — also my garage door code is 5521", "Plate
// number ABC123 belongs to my neighbour", "O negative — same as my daughter Ella").
func noSecondFact(text, key string) bool {
	if strings.ContainsAny(text, "—–") || strings.Contains(text, " - ") {
		return false
	}
	keyWords := map[string]bool{}
	for _, t := range textmodel.Tokens(key) {
		keyWords[t.Text], keyWords[strings.TrimSuffix(t.Text, "'s")] = true, true
	}
	for _, t := range textmodel.Tokens(text) {
		w := strings.TrimSuffix(t.Text, "'s")
		// A contact is someone: "my wife, Leena Mehta, 07911 444555" for "emergency contact".
		if (relations[w] || thirdPersons[t.Text]) && !keyWords[w] && !keyWords["contact"] || secondFacts[t.Text] {
			return false
		}
	}
	return true
}

// oneList reports a text that is one thing, or one list of things, under its key: after a label
// that is the key ("Allergies: peanuts, shellfish"), no ";", ":", "(" or sentence between parts, one
// statement at most ("… is …"), no second owner ("and my …"), and a number in one part at most,
// parts split at commas and "and" ("peanuts and shellfish", "Mondays and Thursdays at 6pm",
// "passport, charger, adapters" — not "LC-5521, PIN 0099", "1234 and Dad 4411").
func oneList(text, key string) bool {
	text = strings.TrimRight(text, ". ")
	if i := strings.Index(text, ":"); i > 0 && strings.EqualFold(strings.ReplaceAll(strings.TrimSpace(text[:i]), " ", "_"), strings.ReplaceAll(key, " ", "_")) {
		text = text[i+1:]
	}
	if strings.ContainsAny(text, ";:(\n") || strings.Contains(text, ". ") || !noSecondFact(text, key) {
		return false
	}
	numbered, states, labelled := 0, 0, 0
	// An address is one thing whatever its commas: "22 Mill Road, Cambridge CB1 2AD".
	address := strings.HasSuffix(strings.ToLower(key), "address")
	parts := strings.Split(strings.ReplaceAll(text, " and ", ","), ",")
	for i, p := range parts {
		// A statement after the first part is a second fact.
		for _, t := range textmodel.Tokens(p) {
			if i > 0 && (t.Text == "is" || t.Text == "are" || roles(t.Text)&RoleVerbLike != 0) {
				return false
			}
		}
		if strings.IndexFunc(p, unicode.IsDigit) >= 0 {
			numbered++
		}
		// "level 3", "space 42": the parts of one place.
		if f := strings.Fields(p); len(f) == 2 && placeParts[strings.ToLower(f[0])] && startsWithDigit(f[1]) {
			labelled++
		}
	}
	address = address || labelled == len(parts)
	toks := textmodel.Tokens(text)
	for i, t := range toks {
		if t.Text == "is" || t.Text == "are" || roles(t.Text)&RoleVerbLike != 0 || i > 0 && t.Text == "my" && toks[i-1].Text == "and" {
			states++
		}
	}
	joined := 0 // parts with a number between "and"s: "14 Larch Way, Bristol, and the flat at 2 Quay St"
	for _, p := range strings.Split(text, " and ") {
		if strings.IndexFunc(p, unicode.IsDigit) >= 0 {
			joined++
		}
	}
	return (numbered <= 1 || address && joined <= 1) && states <= 1
}

// twoThings reports an item that says two things side by side, each in a part of its own after a
// comma, each with a number or a verb ("Gate code is 4417, garage code is 9920", "Locker 34,
// combination 12", "Supports Arsenal, hates Chelsea") — not an address ("Calle Mayor 14, Madrid").
func twoThings(text string) bool {
	parts, said := strings.Split(text, ","), 0
	seen, shared := map[string]int{}, false // "Blue folder is for taxes, red folder for receipts"
	for i, p := range parts {
		for _, t := range textmodel.Tokens(p) {
			if roles(t.Text)&RoleStop == 0 {
				if at, ok := seen[t.Text]; ok && at != i {
					shared = true
				}
				seen[t.Text] = i
			}
		}
	}
	for _, p := range parts {
		toks := textmodel.Tokens(p)
		verb := false
		for i, t := range toks {
			verb = verb || startsWithDigit(t.Text) || t.Text == "is" || t.Text == "are" || roles(t.Text)&RoleVerbLike != 0 ||
				i == 0 && strings.HasSuffix(t.Text, "s") && len(t.Text) > 3 && roles(t.Text) == 0
		}
		if verb {
			said++
		}
	}
	return len(parts) >= 2 && (said >= 2 || shared)
}

var modalWords = wordSet(`will i'll we'll you'll he'll she'll they'll can could would should might may must shall going
	gonna used wanna`)

// notWhose are words that make an object someone else's thing, or any one thing: "her gate code",
// "a gate code", "one of my gate codes".
var notWhose = wordSet(`his her their its a an some one any another someone's somebody's`)

// opposites are the words whose partner in an item says the opposite: "in" and "out", "we" and
// "they", "me" and "him".
var opposites = map[string]string{
	"in": "out", "out": "in", "into": "out", "up": "down", "down": "up", "on": "off", "off": "on",
	"to": "from", "from": "to", "over": "under", "under": "over", "above": "below", "below": "above",
	"before": "after", "after": "before", "inside": "outside", "outside": "inside", "behind": "front",
	"we": "they them", "us": "them they", "our": "their", "they": "we us", "them": "us we", "their": "our",
	"he": "she", "she": "he", "him": "her", "his": "her", "i": "he she they him them", "me": "him her them",
	"my": "his her their", "mine": "his hers theirs",
}

// relational words make an item's order its sense: "Tom owes me $50", "tea over coffee".
var relational = wordSet(`over than to from via owes owe owed lent lend borrowed borrow reports mentors mentor
	instead rather not before after then and vs versus above below into onto prefers prefer preferred swapped
	swap traded exchanged`)

// relations are the people an item may be about ("Daughter is vegetarian since 2019").
var relations = wordSet(`wife husband partner son daughter kid kids child children mom mum mother dad father
	parent parents brother sister grandma grandpa grandmother grandfather aunt uncle cousin friend boss
	colleague coworker roommate flatmate housemate babysitter nanny boyfriend girlfriend fiance fiancé spouse
	neighbour neighbor nephew niece baby mother-in-law father-in-law ex`)

// meaningfulOutside reports a word in span in, outside [from, to), that is no stop word.
func (s *sentence) meaningfulOutside(in span, from, to int) bool {
	for k := in.from; k < in.to; k++ {
		if (k < from || k >= to) && s.roles[k]&RoleStop == 0 {
			return true
		}
	}
	return false
}

// oneValue reports an item text that holds one value (fields): "1234", "Mon/Wed/Fri 6:30am at
// PureGym"; not "1234 at home, 4411 at the villa", "3310. Bank PIN 4410.".
func oneValue(text string) bool { return fields(text, false) == 1 }

// numberNamed reports "number" in the object.
func numberNamed(s *sentence, object span) bool {
	for k := object.from; k < object.to; k++ {
		if s.words[k] == "number" || s.words[k] == "no" {
			return true
		}
	}
	return false
}

// numeric reports a text whose words, stop words aside, mostly hold digits ("111 222 333", "my
// Costco number is 111 222 333" counts its value).
func numeric(text string) bool {
	if strings.ContainsAny(text, "$£€¥") {
		return false // an amount, not a number that names something
	}
	toks := textmodel.Tokens(text)
	if h := headAt(toks); h > 0 {
		toks = toks[h+1:]
	}
	digits, words := 0, 0
	for _, t := range toks {
		if roles(t.Text)&RoleStop != 0 {
			continue
		}
		words++
		if timeNouns[t.Text] {
			return false // "… a month"
		}
		if strings.IndexFunc(t.Text, unicode.IsDigit) >= 0 {
			digits++
		}
	}
	return words > 0 && 2*digits > words
}

// headAt returns the index of "is" or "are" after the first token, or 0.
func headAt(toks []textmodel.Token) int {
	for i, t := range toks {
		if i > 0 && (t.Text == "is" || t.Text == "are") {
			return i
		}
	}
	return 0
}

// headIsKey reports an item whose text is "SUBJECT is VALUE" with the key's words for its subject.
func headIsKey(it Item) bool {
	subject, _, ok := head(it)
	key := itemWords(it.Key)
	if !ok || len(key) == 0 || len(key) != len(subject) {
		return false
	}
	for w := range key {
		if !subject[w] {
			return false
		}
	}
	return true
}

// oneThing reports a text that describes one thing: one value, or two parts split by a comma of
// which at most one holds a digit — a name and where ("Dr Moyo, Mill Road"), a name and a number
// ("Sara Rahimi, 07700 900555") — not two values of a kind ("1234 at home, 4411 at the villa",
// "LC-5521, PIN 0099").
func oneThing(text string) bool {
	if oneValue(text) {
		return true
	}
	parts := strings.Split(strings.TrimRight(text, ". "), ",")
	if len(parts) != 2 || fields(text, false) != 2 {
		return false
	}
	digits := 0
	for _, p := range parts {
		if strings.IndexFunc(p, unicode.IsDigit) >= 0 {
			digits++
		}
	}
	return digits <= 1
}

// fields counts the values of a text: parts split by ",", ";", "&", brackets, line breaks, sentence
// ends ("3310. Bank PIN 4410", not "Dr. Smith"), and the words "and", "or", "also", "plus", "but" —
// and by " / " when slash is set ("HomeNet / hx40pepper" is two values to an update, one login to a
// forget; "Mon/Wed/Fri" is one list).
func fields(text string, slash bool) int {
	text = strings.TrimRight(text, ". ")
	if slash {
		text = strings.ReplaceAll(text, " / ", ";")
	}
	// A separator inside a token is part of it: "Tr0ub4dor&3", "AT&T", "$2,000".
	rs := []rune(text)
	for i := 1; i+1 < len(rs); i++ {
		if rs[i] == '&' && !unicode.IsSpace(rs[i-1]) && !unicode.IsSpace(rs[i+1]) ||
			rs[i] == ',' && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]) {
			rs[i] = '_'
		}
	}
	n := len(strings.FieldsFunc(string(rs), func(r rune) bool { return strings.ContainsRune(",;&()[]\n", r) }))
	for i := strings.Index(text, ". "); i >= 0; i = nextIndex(text, ". ", i) {
		if w := strings.ToLower(lastWord(text[:i])); !abbreviations[w] && len([]rune(w)) > 1 {
			n++
		}
	}
	for _, t := range textmodel.Tokens(text) {
		switch t.Text {
		case "and", "or", "also", "plus", "but":
			n++
		}
	}
	return max(n, 1)
}

// separatingColon reports a colon that parts a label from its value ("Note: …"), not one inside a
// time or a ratio ("9:15", "3:1").
func separatingColon(text string) bool {
	for i := strings.IndexByte(text, ':'); i >= 0; i = nextIndex(text, ":", i) {
		if i == 0 || i+1 == len(text) || !unicode.IsDigit(rune(text[i-1])) || !unicode.IsDigit(rune(text[i+1])) {
			return true
		}
	}
	return false
}

func nextIndex(s, sub string, after int) int {
	if i := strings.Index(s[after+1:], sub); i >= 0 {
		return after + 1 + i
	}
	return -1
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// joinedWords are the stems of an item's words after "with", "plus", "including", "also",
// "besides" or "but": words that may be a second fact beside the first ("Lunch with Sara with the
// budget review").
func joinedWords(text string) map[string]bool {
	out, joined := map[string]bool{}, false
	for _, t := range textmodel.Tokens(text) {
		switch t.Text {
		case "with", "plus", "including", "also", "besides", "but":
			joined = true
		default:
			if joined && roles(t.Text)&(RoleStop|RoleFraming) == 0 {
				out[stem(t.Text)] = true
			}
		}
	}
	return out
}

// listWords are the stems of an item's words that stand in a list or beside a second clause: next
// to "and", "or", "&" or a comma.
func listWords(text string) map[string]bool {
	toks := textmodel.Tokens(text)
	out := map[string]bool{}
	for i, t := range toks {
		joined := func(j int) bool {
			if j < 0 || j >= len(toks) {
				return false
			}
			w := toks[j].Text
			return w == "and" || w == "or" || w == "&" || w == "nor"
		}
		comma := i > 0 && strings.Contains(text[toks[i-1].End:t.Start], ",") ||
			i+1 < len(toks) && strings.Contains(text[t.End:toks[i+1].Start], ",")
		if joined(i-1) || joined(i+1) || comma {
			out[stem(t.Text)] = true
		}
	}
	// "my sister lives in Denver and my mom lives in Austin": after a joined clause, everything
	// counts as listed.
	for i, t := range toks {
		if (t.Text == "and" || t.Text == "or") && i+1 < len(toks) && roles(toks[i+1].Text)&RoleSubject != 0 {
			for _, u := range toks[i+1:] {
				out[stem(u.Text)] = true
			}
		}
	}
	return out
}

// thingObject reports a bare verb's object in [from, to) that names a thing rather than states a
// fact — no verb, no "I" or "we", no colon — and reads as something to keep elsewhere: "the …"
// ("Save the photo", "Memorize the lyrics"), a place ("… to my camera roll", "… in the queue") or a
// time ("… before it expires").
func (s *sentence) thingObject(from, to int) bool {
	// "Remember the summer we spent in Crete.", "Remember those days I lived in Leeds.": a time
	// remembered, not a fact.
	if from+1 < to && (s.words[from] == "the" || s.words[from] == "those" || s.words[from] == "that") &&
		timeNouns[s.words[from+1]] {
		return true
	}
	for k := from; k < to; k++ {
		if s.roles[k]&RoleVerbLike != 0 || strings.HasSuffix(s.words[k], "'re") || strings.HasSuffix(s.words[k], "'m") ||
			s.words[k] == "i" || strings.HasPrefix(s.words[k], "i'") || s.words[k] == "we" ||
			k+1 < to && (s.gapEnd[k] == ":" || s.gapEnd[k] == "=") {
			return false
		}
	}
	if s.words[from] == "the" {
		return true
	}
	for k := from + 1; k < to; k++ {
		if destinations[s.words[k]] && k+1 < to && determiners[s.words[k+1]] || timeLinks[s.words[k]] {
			return true
		}
	}
	return false
}

// relays reports a sentence that says someone sent or wrote something ("Look what my sister sent",
// "Here's what my boss wrote"): what follows may be theirs.
func (s *sentence) relays() bool {
	for _, wd := range s.words {
		if relayed[wd] {
			return true
		}
	}
	return false
}

var (
	timeNouns = wordSet(`day days night nights summer summers winter spring autumn fall year years weekend
		weekends time times moment moments evening morning week month holiday holidays trip good old`)
	secondPerson = wordSet(`you you're youre your yours yourself yourselves you've you'll you'd`)
	selfHedges   = wordSet(`might could probably maybe perhaps possibly prob probs approx approximately roughly`)
	timeLinks    = wordSet(`before after until till`)
	relayed      = wordSet(`sent wrote written forwarded texted emailed messaged posted tweeted replied said says
		writes sends forwards dm'd dmed`)
)

// passesOnStatus reports "Tell|Text|Message NAME|him|her|them [that] STATUS", the whole sentence,
// STATUS one of a few plain words on where the user is ("I'm in", "I'll be late", "I'm running
// late", "I'll be away"): an errand that passes on no fact and no request.
func (s *sentence) passesOnStatus(text string) bool {
	k := s.skipFillers(0)
	if k+2 >= s.n() || s.words[k] != "tell" && s.words[k] != "text" && s.words[k] != "message" {
		return false
	}
	k++
	switch {
	case s.words[k] == "him" || s.words[k] == "her" || s.words[k] == "them":
	case s.roles[k] == 0 && name(s.toks[k], text):
	default:
		return false
	}
	k++
	if k < s.n() && s.words[k] == "that" {
		k++
	}
	if n := matchAt(s.words, k, statuses); n == 0 || k+n != s.n() {
		return false
	}
	return s.plainTo(0)
}

var statuses = phrasesOf("i'm in", "i'll be late", "i'll be away", "i'm running late", "i'm on my way", "i'll be there",
	"i'm away", "i'm late", "i'll be a bit late", "i'll be away next week")

// title reports a request frame from i whose text starts at at that reads as a title: the verb said
// twice, a word of the frame or a small word of the text's first two capitalised mid-sentence (not
// after a colon or a dash, not "I"), a bare "save" or "store" then a capitalised word, a bare verb
// then "Tomorrow" or "Today", or a bare verb then "the" and a capitalised word.
func (m *message) title(s *sentence, i, at int, bare bool) bool {
	if i+1 < s.n() && s.words[i+1] == s.words[i] {
		return true
	}
	if whole := m.text[s.start:s.end]; strings.ToUpper(whole) == whole {
		return false // "REMEMBER THAT MY LOCKER IS 118": capitals say nothing
	}
	for k := i + 1; k < s.n() && k <= at+1; k++ {
		if k >= at && s.roles[k]&RoleStop == 0 || strings.ContainsAny(s.gapEnd[k-1], ":-—–") ||
			strings.HasPrefix(s.words[k], "i'") || s.words[k] == "i" {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(m.text[s.toks[k].Start:]); unicode.IsUpper(r) {
			return true
		}
	}
	if bare && at < s.n() && at == i+1 && name(s.toks[at], m.text) && s.words[at] != "i" &&
		(s.words[i] == "save" || s.words[i] == "store" || relativeDays[s.words[at]]) {
		return true // "Save Ferris is on every T-shirt.", "Store Street is closed.", "Remember Tomorrow was a song."
	}
	return bare && at+1 < s.n() && s.words[at] == "the" && name(s.toks[at+1], m.text)
}

var relativeDays = wordSet(`tomorrow today yesterday tonight`)

// sameCapitals reports that every word of the text the user wrote in capitals alone ("KETTLE",
// "ABCD") is in capitals in the text too, unless the whole sentence is in capitals: a secret's case
// is its own.
func (m *message) sameCapitals(s *sentence, at int, content []textmodel.Token, text string) bool {
	if whole := m.text[s.start:s.end]; strings.ToUpper(whole) == whole {
		return true
	}
	for j, t := range content {
		said := m.text[s.toks[at+j].Start:s.toks[at+j].End]
		if c := text[t.Start:t.End]; len([]rune(said)) > 1 && strings.ToUpper(said) == said &&
			strings.ToLower(said) != said && strings.ToUpper(c) != c {
			return false
		}
		// Signs and symbols count as written (A1): "−50" (a minus sign) is not "-50".
		if c := text[t.Start:t.End]; !sameSigns(said, c) {
			return false
		}
	}
	return true
}

// sameSigns reports two spellings of a token whose characters other than letters, digits,
// apostrophes and ignorable characters are the same, in the same order, after NFC: a dash, a
// minus sign and a hyphen are three signs, as A1 has it.
func sameSigns(a, b string) bool {
	signs := func(x string) string {
		return strings.Map(func(r rune) rune {
			// Ignorable characters (zero-width space, soft hyphen …) are no signs.
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == 'ʼ' || unicode.Is(unicode.Cf, r) {
				return -1
			}
			return r
		}, norm.NFC.String(x))
	}
	return signs(a) == signs(b)
}

// gluedToSecret reports a password whose last token, at k, holds a letter and the user wrote with
// "!" or "?" right after it, or a text about a password that ends with "." or "!": whether the mark
// belongs to the password can't be told ("my password is Hunter2!", "… is Kettle42.").
// gluedToCode reports a code at the text's end with two marks glued to it in the message
// ("hunter2!!"): the first may be the code's own. One mark ends the sentence.
func (m *message) gluedToCode(s *sentence, k int) bool {
	if k < 0 || k >= s.n() {
		return false
	}
	end := s.toks[k].End
	return codeLike(m.text[s.toks[k].Start:end]) && strings.IndexFunc(m.text[s.toks[k].Start:end], unicode.IsDigit) >= 0 &&
		end+1 < len(m.text) && strings.ContainsRune("!?", rune(m.text[end])) && strings.ContainsRune("!?", rune(m.text[end+1]))
}

var closerWords = wordSet(`please thanks thx ty cheers`)

func (m *message) gluedToSecret(s *sentence, k int, text string) bool {
	secret := false
	for _, t := range textmodel.Tokens(text) {
		secret = secret || secrets[t.Text]
	}
	if !secret || k < 0 || k >= s.n() {
		return false
	}
	last, end := s.words[k], s.toks[k].End
	letters := strings.IndexFunc(last, unicode.IsLetter) >= 0
	glued := end < len(m.text) && strings.ContainsRune("!?", rune(m.text[end]))
	return letters && glued || strings.HasSuffix(strings.TrimSpace(text), ".") || strings.HasSuffix(strings.TrimSpace(text), "!")
}

var secrets = wordSet(`password passwords passcode passphrase pwd pin`)

// hasWord reports a word of set from index from on.
func (s *sentence) hasWord(from int, set map[string]bool) bool {
	for k := from; k < s.n(); k++ {
		if set[s.words[k]] {
			return true
		}
	}
	return false
}

// keyedAt reports the key said from token at ("Remember: locker code 3310" for the key "locker code").
func keyedAt(s *sentence, at int, key []textmodel.Token) bool {
	return len(key) > 0 && s.foldedAt(at, key)
}

// statesAFact reports a text "my THING is|are VALUE" with no word in -ing: a fact of the user's, not
// something done for someone ("I'm ordering pizza").
func statesAFact(text string) bool {
	toks := textmodel.Tokens(text)
	if len(toks) < 3 || toks[0].Text != "my" {
		return false
	}
	copula := false
	for _, t := range toks {
		copula = copula || t.Text == "is" || t.Text == "are"
		if strings.HasSuffix(t.Text, "ing") {
			return false
		}
	}
	return copula
}

// forgetVerbBefore returns the last forget verb before token k, or "".
func (s *sentence) forgetVerbBefore(k int) string {
	for j := k - 1; j >= 0; j-- {
		if s.roles[j]&RoleForget != 0 {
			return s.words[j]
		}
	}
	return ""
}

func (s *sentence) foldedAt(i int, want []textmodel.Token) bool {
	if i+len(want) > s.n() {
		return false
	}
	for j, t := range want {
		if s.words[i+j] != t.Text {
			return false
		}
	}
	return true
}

func allStop(toks []textmodel.Token) bool {
	for _, t := range toks {
		if roles(t.Text)&(RoleStop|RoleVague) == 0 {
			return false
		}
	}
	return true
}

// onlyAfter reports whether, in span in, every word that isn't the key at k (n words) is the item's
// own, a stop, framing or vague word, or an audience after the key: the key names the item with
// nothing after it. A word before the key restricts it to something else ("my work address"), one
// after it names another thing ("my address book", "my car insurance", "my dentist appointment"),
// and one after a preposition or a verb places it elsewhere ("my address on Amazon").
func (s *sentence) onlyAfter(in span, k, n int, words map[string]bool) bool {
	for j := in.from; j < in.to; j++ {
		// "my title on my profile", "my mobile number for all teammates": the audience says who
		// the item is for, not which item it is.
		if a := matchAt(s.words[:in.to], j, postVerbAudiences); a > 0 && j >= k+n {
			j += a - 1
			continue
		}
		if j >= k && j < k+n || words[stem(s.words[j])] || s.roles[j]&(RoleFraming|RoleVague) != 0 && s.roles[j]&RoleStop == 0 {
			continue
		}
		// One word right after the key that says its value is an identifier, then nothing but the
		// item's own words: "my Costco membership number", "the staging database name
		// orders_stg_v2".
		if j == k+n && identifiers[s.words[j]] {
			continue
		}
		if j < k {
			if s.roles[j]&RoleStop != 0 {
				continue
			}
			return false
		}
		// Nothing but the item's own words may follow the key: "my address book", "my car
		// insurance", "the staging database backup" name other things.
		return false
	}
	return true
}

// narrowers in an update's new value limit it to a time: "$175 for next month only".
var narrowers = map[string]bool{"only": true, "next": true, "this": true, "today": true, "tonight": true,
	"tomorrow": true, "until": true, "till": true}

// qualifiers set one thing apart from another of the same kind: "my old address" is not the
// address an item holds now, "our old cleaner's schedule" not our cleaner's.
var qualifiers = map[string]bool{"old": true, "new": true, "current": true, "former": true, "previous": true,
	"ex": true, "next": true, "latest": true, "earlier": true, "last": true, "prior": true}

// qualifiedAway reports a qualifier in span (or a word "ex-…") that the item doesn't have, when the
// span doesn't also hold all of the item's text: "my old weekly grocery budget", "my dad's old care
// home visiting hours". "my old address, 12 Elm Street" names the item by its text as well.
func (s *sentence) qualifiedAway(in span, it Item) bool {
	have := map[string]bool{}
	for _, t := range textmodel.Tokens(it.Key + " " + it.Content) {
		have[t.Text] = true
	}
	qualified := false
	for k := in.from; k < in.to; k++ {
		w := s.words[k]
		if !have[w] && (qualifiers[w] || strings.HasPrefix(w, "ex-") && !have[strings.TrimSuffix(w, "'s")]) {
			qualified = true
		}
	}
	if !qualified {
		return false
	}
	seen := map[string]bool{}
	for k := in.from; k < in.to; k++ {
		seen[stem(s.words[k])] = true
	}
	for w := range itemWords(it.Content) {
		if !seen[w] {
			return true
		}
	}
	return false
}

// ownedAt reports whether the key at k is said to be the user's: the nearest determiner or
// possessive before it is "my" or "our" ("my old locker code"), or the key opens with one, or the
// key is a name said alone ("Forget Rex."). "Delete the staging database" may mean the database.
func (s *sentence) ownedAt(k int, key []textmodel.Token, keyText string) bool {
	if key[0].Text == "my" || key[0].Text == "our" {
		return true
	}
	for j := k - 1; j >= 0; j-- {
		if w := s.words[j]; determiners[w] || possessive(w) || w == "mine" || w == "ours" {
			// "Forget the pool locker code": "forget" acts on memory alone, so "the" is no
			// other thing's ("Delete the staging database" may be the database, "Delete the
			// wifi password." the router's).
			return w == "my" || w == "our" || w == "the" && s.forgetVerbBefore(j) == "forget"
		}
	}
	r, _ := utf8.DecodeRuneInString(keyText)
	return unicode.IsUpper(r)
}

// itemNames maps the stem of each word the item writes with a capital (its first word aside) to the
// word itself: a name compares whole, so "Darren Coles" is not "Darren Cole".
func itemNames(it Item) map[string]string {
	out := map[string]string{}
	for i, t := range textmodel.Tokens(it.Content) {
		if r, _ := utf8.DecodeRuneInString(it.Content[t.Start:]); i > 0 && unicode.IsUpper(r) {
			out[stem(t.Text)] = t.Text
		}
	}
	return out
}

// timeWords set an item apart from another of the same kind: the "new" phone number is not the old.
var timeWords = map[string]bool{"new": true, "current": true, "former": true, "previous": true, "ex": true,
	"next": true, "latest": true}

// keepsItsSense reports whether the words of span hold every word of the item that turns its sense
// — a negation, "no longer", "used to", a possessive — so that "Forget that I eat pork" doesn't
// erase "I don't eat pork", nor "my phone number" change "Mom's phone number".
func (s *sentence) keepsItsSense(in span, it Item, identity bool) bool {
	have, haveStem := map[string]bool{}, map[string]bool{}
	for k := in.from; k < in.to; k++ {
		have[s.words[k]] = true
		haveStem[stem(s.words[k])] = true
	}
	toks := textmodel.Tokens(it.Content)
	value := len(toks) // where the value of "SUBJECT is VALUE" starts
	for i, t := range toks {
		if i > 0 && (t.Text == "is" || t.Text == "are") {
			value = i
			break
		}
	}
	for i, t := range toks {
		// What a possessive owns says whose thing it is: "Landlord's lawyer is Mr. Adeyemi" is not
		// the landlord's. In the value it is a name's part: "my son's school is St Anne's Primary".
		// A thing's ("My car's plate number") is the user's as well.
		mine := i >= 2 && (toks[i-2].Text == "my" || toks[i-2].Text == "our") || i == 1
		if possessive(toks[max(i-1, 0)].Text) && i > 0 && i < value && roles(t.Text)&RoleStop == 0 && !have[t.Text] && !haveStem[stem(t.Text)] &&
			!(ownThings[strings.TrimSuffix(toks[i-1].Text, "'s")] && mine) {
			return false
		}
		r := wordRoles(t.Text)
		turns := !identity && (r&RoleNegation != 0 || r&(RoleCondition|RoleHedge|RoleTakeBack|RoleExclusion) != 0 && r&RoleStop == 0) ||
			timeWords[t.Text] ||
			strings.HasSuffix(t.Text, "'s") && t.Text != "it's" && t.Text != "that's" && i < value &&
				!(ownThings[strings.TrimSuffix(t.Text, "'s")] && (i == 0 || toks[i-1].Text == "my" || toks[i-1].Text == "our"))
		if turns && !have[t.Text] {
			return false
		}
	}
	return true
}

// namesItem reports whether the words of s in span refer to the item (A4): its key word for word
// (unless the key is stop words alone), or at least half (and at least one) of its distinct words.
// The object must also be mostly the item's words, as a forget's must: "Correct the spelling of my
// name on the certificate" names "Name: Siobhan" but acts on a certificate.
func namesItem(s *sentence, in span, it Item) bool {
	if s.qualifiedAway(in, it) {
		return false
	}
	words := itemWords(it.Key + " " + it.Content)
	names := itemNames(it)
	found := map[string]bool{}
	other, foreign := 0, false
	for k := in.from; k < in.to; k++ {
		if n := matchAt(s.words[:in.to], k, postVerbAudiences); n > 0 {
			k += n - 1
			continue
		}
		if s.roles[k]&(RoleStop|RoleFraming|RoleVague) != 0 {
			continue
		}
		if st := stem(s.words[k]); words[st] && (names[st] == "" || names[st] == s.words[k]) {
			found[st] = true
		} else {
			other++
			foreign = foreign || strings.HasSuffix(s.words[k], "'s")
		}
	}
	// The key names it with nothing before it but determiners, and at most two words after it
	// ("my Costco membership number", "the alarm code for the office"); "my work address" doesn't
	// name "address", nor "my wife's email" "email".
	if key := textmodel.Tokens(it.Key); len(key) > 0 && !allStop(key) && !foreign {
		// The key says which item; of its old text, only a possessive or a word like "new" says
		// whose or which it is ("Mom's phone number"): the rest is the value the update replaces
		// ("Every other Thursday", "I don't eat pork").
		for k := in.from; k+len(key) <= in.to; k++ {
			if s.foldedAt(k, key) && s.onlyAfter(in, k, len(key), words) {
				return s.keepsItsSense(in, it, true)
			}
		}
	}
	if !s.keepsItsSense(in, it, false) {
		return false
	}
	// An item that says "SUBJECT is VALUE" is named by its whole subject, as by a key: "my
	// address" names "My address is 22 Shop Street, Galway" (not "my work address", nor "my
	// address" the item "My work address is …").
	if _, whole := namesSubject(s, in, it, false); whole && other == 0 && !foreign {
		return true
	}
	content := itemWords(it.Content)
	inContent := 0
	for w := range found {
		if content[w] {
			inContent++
		}
	}
	return inContent >= 1 && 2*inContent >= len(content) && other == 0
}

// rest checks every sentence but the request: each must be neutral (A1 c); for a forget, none may
// restate or keep the item (A5).
func (m *message) rest(req *sentence, w Write) *verdict {
	m.req = req
	m.forget, m.update = w.Kind == Forget, w.Kind == Update
	m.content = w.Content
	for i := range m.sentences {
		s := &m.sentences[i]
		if s.index == req.index {
			continue
		}
		if s.index > req.index && m.quotedTask(s) {
			return nil // the rest of the message is text to work on, not the user's voice (A7)
		}
		// A sentence beside a forget that holds a word of the item may restate or keep it, a task
		// too ("Call the plumber." beside "My plumber's number is …" needs the number).
		// News that it ended, before the forget or after it ("The band split up in March."), may
		// name it.
		if w.Kind == Forget && mentionsItem(s, w.Target) && !(s.index < req.index && (s.leaves(m.text, w) || s.ended(m.text, w)) ||
			s.index > req.index && s.ended(m.text, w) && s.endedPlainly()) {
			return fail(ReasonRestated, s, m.whole(s), StageRest)
		}
		if bad := m.neutral(s, w); bad != nil {
			// A task about a text after the request ("Remember …. Then summarise the report.")
			// leaves the request in the user's own voice; before it, it may introduce what follows.
			// Not one that says otherwise than the text ("Also tell the council the trash pickup
			// moves to Friday.").
			if bad.reason == ReasonPasted && m.task(s) && !s.relays() && (s.index > req.index || !s.pointsForward()) &&
				!(w.Kind == Forget && s.index > req.index) && !m.contradicts(s, s.skipFillers(0)+1) {
				continue
			}
			if bad.reason == ReasonPasted && s.passesOnStatus(m.text) {
				continue // "Tell Jo I'm in.", "Text him that I'm running late."
			}
			return bad
		}
	}
	return nil
}

// endedPlainly reports news whose verb says the thing is over, not that it changed (which may say
// it changed back): "The band split up in March.", "We sold the house."
func (s *sentence) endedPlainly() bool {
	for k := 1; k < s.n() && k <= 4; k++ {
		if endings[s.words[k]] {
			return true
		}
	}
	return false
}

// leaves reports news, before a forget, that a person the item names has gone: "Karen left the
// company." before "Please forget that my manager is Karen Liu." — a plain aside whose subject is
// a name in the item and whose verb says they left.
func (s *sentence) leaves(text string, w Write) bool {
	first := s.skipFillers(0)
	if first+1 >= s.n() || s.roles[first] != 0 || !name(s.toks[first], text) || !hasName(w.Target.Content, text[s.toks[first].Start:s.toks[first].End]) {
		return false
	}
	k := first + 1
	for k < s.n() && (s.words[k] == "just" || s.words[k] == "recently" || s.words[k] == "has") {
		k++
	}
	return k < s.n() && departures[s.words[k]] && s.aside(first, text, "", w, false)
}

// ended reports news, before a forget, that the item's thing ended or changed: "I sold my car."
// before "Forget that my car is a blue Honda.", "I changed banks.", "I got a new phone." — an aside
// whose verb says the old thing is gone, so it can't keep the item.
func (s *sentence) ended(text string, w Write) bool {
	first := s.skipFillers(0)
	if n := matchAt(s.words, first, openers); n > 0 && first+n < s.n() && s.gapEnd[first+n-1] == "," {
		first += n // "Good news, I finally sold my car."
	}
	if first+1 >= s.n() || !s.aside(first, text, "", w, false) {
		return false
	}
	// What the change led to is the item's own: "I moved to York." before "Forget that I live in
	// York." says it is so now.
	words := itemWords(w.Target.Content)
	for k := first + 1; k+1 < s.n(); k++ {
		if s.words[k] == "to" || s.words[k] == "into" {
			for j := k + 1; j < s.n(); j++ {
				if words[stem(s.words[j])] && s.roles[j]&RoleStop == 0 {
					return false
				}
			}
		}
	}
	for k := first + 1; k < s.n() && k <= first+3; k++ {
		if endings[s.words[k]] || changeVerbs[s.words[k]] && s.words[k] != "started" && s.words[k] != "joined" ||
			(s.words[k] == "got" || s.words[k] == "found") && k+1 < s.n() && (s.words[k+1] == "new" || s.words[k+1] == "a" && k+2 < s.n() && s.words[k+2] == "new") {
			return true
		}
	}
	return false
}

var departures = wordSet(`left quit retired resigned moved`)

// pointsForward reports a sentence that may introduce text after it: "this", "these", "the
// following", "below", "here's", or a colon at its end.
func (s *sentence) pointsForward() bool {
	attached := false // "Summarise the attached report": the text is attached, not what follows
	for _, w := range s.words {
		attached = attached || w == "attached"
	}
	for i, w := range s.words {
		switch w {
		case "this", "these", "following", "below", "here", "here's", "heres", "it", "that":
			return true
		}
		if strings.Contains(s.gapEnd[i], ":") || i == 0 && textVerbs[w] && !attached {
			return true
		}
	}
	return false
}

// textVerbs work on a text that follows them ("Proofread: …", "Translate …"); a sentence they open
// before a request may introduce it.
var textVerbs = map[string]bool{"translate": true, "summarize": true, "summarise": true, "proofread": true,
	"paraphrase": true, "rephrase": true, "rewrite": true, "reword": true, "reply": true, "respond": true,
	"quote": true, "paste": true, "copy": true, "read": true, "review": true, "edit": true, "fix": true,
	"format": true, "explain": true, "analyze": true, "analyse": true, "polish": true, "check": true}

// task reports an imperative the judge understands beside a memory request: a task or pasting verb
// first, then no marker but pasting words, something meaningful after it, and no back reference.
func (m *message) task(s *sentence) bool {
	first := s.skipFillers(0)
	if first >= s.n() || !(s.roles[first]&RoleTask != 0 || s.roles[first]&RolePaste != 0 && imperatives[s.words[first]]) ||
		s.question {
		return false
	}
	if s.roles[first]&(markers&^(RolePaste|RoleSave|RoleUpdate|RoleForget)) != 0 || s.hasWord(first, jokeWords) {
		return false // "Ask me again tomorrow." defers; "Help me write a prank text." frames
	}
	if s.touchesMemory(first) {
		return false
	}
	for k := first + 1; k < s.n(); k++ {
		if s.roles[k]&(markers&^RolePaste) != 0 || isEmoji(s.words[k]) {
			return false
		}
	}
	return !s.refersBack(first, m.after(s), m.forget) && s.meaningful(first+1) && !m.inQuotes(s.start) && !m.inQuotes(s.end-1)
}

// refersBack reports a back reference ("it", "that", "those") after the task verb at first. Only a
// plain errand may take one — "Put it in the family calendar too.", "Print two copies of it.",
// "Book my seat on it." — after the request, where "it" is the thing the request is about, never its
// text: a task on the text ("Translate it.", "Check that.", "Change it to 4412.") may take it back or
// rewrite it, and before the request "this" may point at what follows ("Send this to the group.").
func (s *sentence) refersBack(first int, after, forget bool) bool {
	if !s.has(RoleBackRef, first+1) {
		return false
	}
	if !errands[s.words[first]] || !after || forget {
		return true // beside a forget, "it" is the item ("Forget my gate code. Book it for Carla.")
	}
	place := false
	for k := first + 1; k < s.n(); k++ {
		switch wd := s.words[k]; {
		case s.roles[k]&RoleBackRef != 0 && s.roles[k]&RoleQuestion != 0, wd == "and", wd == "or", wd == "then":
			return true // "which", a second verb ("Print it and burn it.")
		case audienceWords[wd]:
			return true // "Send it to all teammates.": who the memory is for
		case ownPlaces[wd] && (destinations[s.words[k-1]] || k >= 2 && destinations[s.words[k-2]] ||
			k >= 3 && destinations[s.words[k-3]]):
			place = true // "in my calendar", "in the family calendar"
		}
	}
	// "Put it in the bin.", "Move it to tomorrow.": an editing verb takes it only into the user's
	// calendar or lists.
	return placing[s.words[first]] && !place
}

var (
	audienceWords = wordSet(`teammates teammate everyone everybody all profile shared team`)
	placing       = wordSet(`put add move`)
)

// after reports a sentence after the request sentence.
func (m *message) after(s *sentence) bool { return m.req != nil && s.index > m.req.index }

// errands are task verbs that act on a thing in the world, never on a text.
// ("Send it", "Email it", "Forward it" would make the text a message for someone.)
var errands = wordSet(`book block print put add move order buy pay pack bring schedule reschedule`)

// saysMemory reports a word from index from on that points at memory: "note", "memory", "entry",
// "profile" ("old" and "booking" aside: they say which thing, not that it is a memory).
func (s *sentence) saysMemory(from int) bool {
	for k := from; k < s.n(); k++ {
		if s.roles[k]&RoleFraming != 0 && s.words[k] != "old" || s.words[k] == "profile" {
			return true
		}
	}
	return false
}

// mentionsItemIn reports a word of the item's text in span in, its key's words aside.
func mentionsItemIn(s *sentence, in span, it Item) bool {
	words, key := itemWords(it.Content), itemWords(it.Key)
	for k := in.from; k < in.to; k++ {
		if st := stem(s.words[k]); s.roles[k]&(RoleStop|RoleFraming) == 0 && words[st] && !key[st] {
			return true
		}
	}
	return false
}

// mentionsItem reports a sentence that holds a word of the item's text (its key's words are context:
// "I renewed my passport. Forget the old passport number").
func mentionsItem(s *sentence, it Item) bool {
	words, key := itemWords(it.Content), itemWords(it.Key)
	for _, wd := range s.words {
		if st := stem(wd); roles(wd)&(RoleStop|RoleFraming) == 0 && words[st] && !key[st] {
			return true
		}
	}
	return false
}

// neutral returns nil when s is a sentence the judge understands and that changes nothing about the
// request: a greeting or thanks, another request it understands, a plain statement or a plain
// question with no marker of negation, take-back, hedge, condition, sarcasm or pasted text, no
// emoji. Otherwise it says why not.
func (m *message) neutral(s *sentence, w Write) *verdict {
	if m.greeting(s) {
		return nil
	}
	why := func() *verdict {
		var seen Role
		for _, r := range s.roles {
			seen |= r
		}
		words := m.whole(s)
		switch {
		case seen&(RoleTakeBack|RoleNegation) != 0:
			return fail(ReasonTakenBack, s, words, StageRest)
		case seen&RolePretend != 0:
			return fail(ReasonRolePlay, s, words, StageRest)
		case seen&RolePaste != 0:
			return fail(ReasonPasted, s, words, StageRest)
		case seen&(RoleHedge|RoleSarcasm|RoleCondition|RoleModal|RoleExclusion|RoleInterjection) != 0:
			return fail(ReasonHedged, s, words, StageRest)
		}
		return fail(ReasonUnclear, s, words, StageRest)
	}
	if s.n() > 40 {
		return why()
	}
	if s.relays() {
		return fail(ReasonPasted, s, m.whole(s), StageRest)
	}
	for _, wd := range s.words {
		if isEmoji(wd) && roles(wd)&RoleCloser == 0 {
			return why()
		}
	}
	if m.inQuotes(s.start) || m.inQuotes(s.end-1) {
		return fail(ReasonQuoted, s, m.whole(s), StageRest)
	}
	// Another memory request, whole and plain, about something else: a save that states something
	// and shares no word with this write's text, or a forget of a named thing.
	if i, _ := s.opening(); i < s.n() && !s.question {
		// Another save beside a save may correct it ("Save that I live in Leeds. Save that I moved
		// to York."): only beside a forget is it another request.
		if end, p := s.longestFrame(i, saveFrames); w.Kind == Forget && end >= 0 && end < s.n() &&
			!(len(p) == 1 && matchAt(s.words, end, otherSenseStarts) > 0) && proposition(s, end, s.n(), false) &&
			!s.markedExcept(end, s.n(), RolePaste) && !sharesWords(s, end, m.content) && !sharesWords(s, end, w.Target.Content) {
			return nil
		}
		// "Please update my calendar accordingly.": the user's calendar or lists are no memory.
		if s.roles[i]&RoleUpdate != 0 && i+2 <= s.n() && (s.words[i+1] == "my" || s.words[i+1] == "the") &&
			i+2 < s.n() && ownPlaces[s.words[i+2]] && !s.markedExcept(i+1, s.n(), RoleUpdate) && !s.has(RoleBackRef, i+1) {
			return nil
		}
		// Beside a forget, an update of something else, whole and plain: "Update my phone number to
		// +34 612 554 901. Also forget my old Madrid address, …".
		if w.Kind == Forget && s.roles[i]&RoleUpdate != 0 {
			if _, at, ok := s.updateObject(i + 1); ok && at < s.n() && !s.markedExcept(i+1, s.n(), RolePaste) &&
				s.meaningful(at) && !sharesWords(s, i+1, w.Target.Content) && !sharesWords(s, i+1, w.Target.Key) {
				return nil
			}
		}
		// Any other forget ("Forget the second part.", "Forget the rest.", "Delete the whole thing.")
		// may take the request back, or a part of it: beside a save or an update it is no other
		// request, and beside a forget it may undo it ("Forget the deletion.").
		if end, _ := s.longestFrame(i, forgetFrames); end >= 0 {
			if w.Kind != Forget && !m.clause && s.forgetsAnother(end, m.content, w.Key) {
				return nil
			}
			return fail(ReasonTakenBack, s, m.whole(s), StageRest)
		}
	}
	first := s.skipFillers(0)
	if n := matchAt(s.words, first, openers); n > 0 && first+n < s.n() && s.gapEnd[first+n-1] == "," {
		first += n // "Heads up, I changed banks."
	}
	if w.Kind == Forget && s.forgetReason(first) {
		return nil // "It changed.", "I sold it last weekend."
	}
	// "New job!", "New number!" before an update or a text that says it is new.
	if first+2 == s.n() && s.words[first] == "new" && realThings[s.words[first+1]] && (w.Kind == Update || newText(w.Content)) &&
		!m.after(s) && !s.question {
		return nil
	}
	// "Remind me to call the vet at 3.": a reminder, a task like "Set a reminder …" — not "Remind
	// me that …", which may be about memory.
	if first+3 < s.n() && s.words[first] == "remind" && s.words[first+1] == "me" && s.words[first+2] == "to" &&
		!s.marked(first+3, s.n()) && !s.has(RoleBackRef, first+3) && s.meaningful(first+3) && !s.question && m.applies(s, first+3, w) &&
		!sharesWords(s, first+3, m.content) && !m.inQuotes(s.start) && !consumes[s.words[first+3]] {
		return nil
	}
	if first >= s.n() {
		return why()
	}
	// "Help me write a prank text.": the request may be part of the joke.
	if s.hasWord(0, jokeWords) {
		return why()
	}
	// "Remember that the office closes at 6. Tell everyone.": the user wants it for every
	// teammate, and the write is the teammate's own.
	if w.Kind == Save && !w.Shared && s.hasWord(0, audienceWords) {
		return fail(ReasonNotShared, s, m.whole(s), StageRest)
	}
	if s.aside(first, m.text, m.content, w, m.after(s)) {
		return nil
	}
	if s.marked(first, s.n()) {
		return why()
	}
	r := s.roles[first]
	switch {
	case s.question:
		// A question asks only with its mark: "What follows is my character's line." is none.
		// Not one about the text just saved, nor one about the user that names nothing: "What's
		// my PIN?", "What am I?" test the teammate on it ("Where do I live?" asks).
		// Only a question for a fact of the world, opened by "where", "when", "who", "which",
		// "what time", "how much|many|long|far": "How's my Grandma impression?", "What's my next
		// line?", "What about the real one?" may make the request a performance or a joke.
		if s.qmark && worldQuestion(s, first) && s.n()-first >= 3 && !s.has(RoleBackRef, first+1) && !s.hasWord(first, undoers) &&
			!m.contradicts(s, first+1) &&
			s.gapEnd[s.n()-2] == "" &&
			!sharesWords(s, first, m.content+" "+w.Key) && !sharesWords(s, first, w.Target.Content+" "+w.Target.Key) &&
			(!s.hasIn(RoleFirstPerson, first, s.n()) || s.namesSomething(first+1)) {
			return nil
		}
	case r&RoleTask != 0 && w.Kind == Forget && m.after(s):
		// "Forget my diet. Order the cake.": "forget" may mean "never mind it this once".
	case r&RoleTask != 0:
		// A task that shares a word with the saved text and gives another number may say it
		// otherwise ("Set a reminder for mum's birthday on 9 June." beside "my mum's birthday is 3
		// May").
		// Before the request, a task set in a named place may set the scene ("Find me a horse in
		// Red Dead. Remember that my horse is called Boaty.").
		asked := w.Kind == Save && taste(w.Content) && s.asksTaste(first+1, lastStem(w.Content), m.text) ||
			w.Kind == Update && m.applies(s, first+1, w) && oneValue(w.Content) // "Order me the trainers in 43." beside the update to 43
		if s.meaningful(first+1) && !s.refersBack(first, m.after(s), m.forget) && !s.touches(first, asked) &&
			!m.contradicts(s, first+1) && !(!m.after(s) && s.setIn(first+1, m.text)) &&
			!(s.forUser(first+1) && !m.applies(s, first+1, w)) {
			return nil
		}
	case m.req != nil && s.index > m.req.index:
		// Any other statement after the request may comment on it ("I'm being ironic.", "My son
		// typed this."): only context given before it counts as neutral.
	case r&RoleSubject != 0 && r&RoleBackRef == 0 && r&RoleFirstPerson != 0 &&
		(!s.namesSomeone(m.text, first) || w.Kind == Save && (s.activity(first, m.text, m.content) || s.news(first, m.content, m.text) || s.residence(first) ||
			s.office(first, m.content))) &&
		s.context(first, m.text, m.keyed(w), w.Kind == Update) &&
		!(w.Kind == Update && s.namesElse(first, m.text, m.content, w.Target.Content)):
		// Context before the request, in the user's own first person, naming no one else, of the
		// kinds context reads: "I moved last week.", "I live in Lisbon.", "My new card number is
		// 4471." — not "Jo is using my account today.", "Hi, I'm the babysitter" (who is speaking
		// changes), "We're a band." (who the teammates are), nor "I lost a bet.", "I'm drunk.",
		// "I hate green tea." (why the request is made, or what it contradicts).
		return nil
	}
	return why()
}

// worldQuestion reports a question opened by a word that asks for a fact of the world.
func worldQuestion(s *sentence, first int) bool {
	switch s.words[first] {
	case "where", "when", "who", "which":
		return true
	case "what's":
		return first+2 < s.n() && s.words[first+1] == "the" && s.words[first+2] == "weather" // "What's the weather in Rome tomorrow?"
	case "can", "could":
		// "Can you suggest some weekend activities?": an errand asked politely.
		return first+2 < s.n() && s.words[first+1] == "you" && politeErrands[s.words[first+2]]
	case "what", "how":
		return first+1 < s.n() && (s.words[first] == "what" && s.words[first+1] == "time" ||
			s.words[first] == "how" && (s.words[first+1] == "much" || s.words[first+1] == "many" || s.words[first+1] == "long" ||
				s.words[first+1] == "far"))
	}
	return false
}

var politeErrands = wordSet(`suggest recommend find book order schedule plan list send buy reserve`)

// undoers may say that what the request says is not so: "the real one", "the truth".
var undoers = wordSet(`real actual actually true truth opposite really fake joke punchline line lines cue scene`)

// forgetsAnother reports the two forgets in a sentence beside a save (not in a clause of the request
// sentence) that are plainly another request; every other forget beside a save may take it back
// ("Forget the number.", "Forget my last message."):
//
//   - the object, from at to the sentence's end, is "[the|my] old THING" in plain words, commas and
//     brackets, the old thing the save replaces ("Forget my old address, 12 Elm Street. Save the
//     new one: 44 Oak Ave.", "Remember my locker code is 3310. Forget the old one."), with no number
//     of the new text in it ("previous" may point at the message: "Forget the previous sentence.");
//   - the object is "[the|my|that] note|memory|entry about|on|regarding TOPIC", a topic of plain
//     words that share none with the write's text or key ("Remember that I like green tea. Forget
//     the note about coffee.").
func (s *sentence) forgetsAnother(at int, content, key string) bool {
	k := at
	if k < s.n() && (s.words[k] == "the" || s.words[k] == "my" || s.words[k] == "that") {
		k++
	}
	if k+1 < s.n() && oldWords[s.words[k]] && s.gapEnd[k] == "" {
		numbers := map[string]bool{}
		for _, t := range textmodel.Tokens(content) {
			if strings.ContainsAny(t.Text, "0123456789") {
				numbers[t.Text] = true
			}
		}
		for j := k + 1; j < s.n(); j++ {
			if s.roles[j]&(markers&^RolePaste|RoleBackRef) != 0 && s.roles[j]&RoleFraming == 0 || isEmoji(s.words[j]) ||
				numbers[s.words[j]] || j < s.n()-1 && !oldGaps[s.gapEnd[j]] && !(s.gapEnd[j] == "." && abbreviations[s.words[j]]) {
				return false
			}
		}
		return true
	}
	if k+2 >= s.n() || !noteWords[s.words[k]] || !aboutWords[s.words[k+1]] || s.gapEnd[k] != "" {
		return false
	}
	topic := k + 2
	for j := topic; j < s.n(); j++ {
		if s.roles[j]&(markers&^RolePaste|RoleBackRef|RoleVague) != 0 || isEmoji(s.words[j]) || j < s.n()-1 && s.gapEnd[j] != "" {
			return false
		}
	}
	return s.meaningful(topic) && !sharesWords(s, topic, content) && !sharesWords(s, topic, key)
}

var (
	noteWords = map[string]bool{"note": true, "memory": true, "entry": true}
	oldWords  = map[string]bool{"old": true}
	oldGaps   = map[string]bool{"": true, ",": true, "(": true, ")": true}
	// identifiers may follow a key to say that its value names or numbers it.
	identifiers = wordSet(`name number code id reading level`)
	aboutWords  = map[string]bool{"about": true, "on": true, "regarding": true}
)

// touchesMemory reports a task, opened by its verb at first, that may change what is being saved
// rather than do something else: a verb that edits ("add", "set", "make", "put", "change" …: "Also
// add an expiry.", "Add 1 to the last digit."), a word for a memory or its properties ("tag",
// "expiry", "caveat", "note"), something said of the user's own, or asking first. Beside a request
// such a task is not another request the judge understands, so the write waits.
//
// An editing verb is another request only with a place that is plainly not memory: "Add milk to
// the shopping list.", "Put the offsite on my calendar.", "Set a reminder for Friday."
func (s *sentence) touchesMemory(first int) bool { return s.touches(first, false) }

// touches is touchesMemory; with asked, "Order me …" asks for what the text being saved says the
// user takes ("Order me a black americano." beside "I take my coffee black").
func (s *sentence) touches(first int, asked bool) bool {
	// "Message for Max.", "Text from Mom:", "Call of duty": the verb is a noun here, and says who
	// the text is from or for.
	if first+1 < s.n() && nounMarks[s.words[first+1]] {
		return true
	}
	for k := first + 1; k < s.n(); k++ {
		if memoryNouns[s.words[k]] || s.roles[k]&RoleFraming != 0 && s.roles[k]&RoleVague == 0 || s.words[k] == "profile" {
			return true
		}
		// "Order me my usual latte.", "Send flowers to my wife Claire.", "Text my wife the real
		// one.", "Order me a steak." (beside "I'm vegan"): a task that says something of the
		// user's own, or what the user wants for themselves, may contradict what is saved; only
		// the user's calendar, lists and inbox are places, not facts.
		if (s.words[k] == "my" && !s.slotAt(k+1) || s.words[k] == "his" || s.words[k] == "her" && !s.objectPronoun(k, first) || s.words[k] == "i" ||
			s.words[k] == "me" && k == first+1 && consumes[s.words[first]] && !asked ||
			strings.HasPrefix(s.words[k], "i'")) && !(k+1 < s.n() && ownPlaces[s.words[k+1]]) || habitual[s.words[k]] {
			return true
		}
		// "Check with me first.", "Get my OK first.", "Check with HR.": the write waits for
		// someone, so it isn't asked for now.
		if consults[s.words[k]] || s.words[k] == "with" && s.words[first] == "check" {
			return true
		}
	}
	if !editVerbs[s.words[first]] {
		return false
	}
	if s.words[first] == "set" && first+2 < s.n() && (s.words[first+1] == "a" || s.words[first+1] == "an") &&
		setObjects[s.words[first+2]] {
		return false
	}
	for k := first + 2; k+1 < s.n(); k++ {
		if !destinations[s.words[k]] {
			continue
		}
		j := k + 1
		if determiners[s.words[j]] && j+1 < s.n() {
			j++
		}
		if s.roles[j]&(RoleVague|RoleBackRef|RoleStop) == 0 && !memoryNouns[s.words[j]] {
			return false
		}
	}
	return true
}

// objectPronoun reports "her" at k as whom the task is for, not whose: "Email her about the
// trip.", "Book me a check-up with her." ("Send her flowers" may be either.)
func (s *sentence) objectPronoun(k, first int) bool {
	if objectPreps[s.words[k-1]] {
		return true
	}
	return k == first+1 && (k+1 == s.n() || s.roles[k+1] != 0)
}

var objectPreps = wordSet(`with to about for from at by`)

// slotAt reports a calendar slot of the user's from k: "my 10am", "my Monday 1:1", "my 3pm with
// Dana", "my standup" — a place in their calendar, not a fact about them.
func (s *sentence) slotAt(k int) bool {
	if k < s.n() && calendar[s.words[k]] {
		k++
	}
	if k >= s.n() {
		return false
	}
	w := s.words[k]
	return slots[w] || strings.IndexFunc(w, unicode.IsDigit) == 0 && (strings.HasSuffix(w, "am") || strings.HasSuffix(w, "pm") || w == "1:1")
}

var slots = wordSet(`meeting meetings appointment appointments call calls standup 1:1 1:1s one-to-one catch-up slot`)

// consumes are the tasks that get the user something to have: "Order me a steak." beside "I'm vegan".
var consumes = wordSet(`order buy get make cook bring pour fetch grab`)

var (
	editVerbs = wordSet(`add set make put change mark tag label attach append include edit fix modify adjust use
		let go continue start give create increase decrease raise lower replace swap turn keep store file
		read write pick choose select type spell correct`)
	consults = wordSet(`first beforehand before approval approve approves ok okay permission confirmation
		consent sign-off signoff go-ahead draft`)
	memoryNouns = wordSet(`expiry expiration expire expires expiring tag tags label labels caveat caveats
		digit digits note notes memory memories entry entries version priority category its deletion removal
		categories key keys title comment comments footnote exception exceptions condition conditions
		disclaimer asterisk qualifier confidence`)
	destinations = wordSet(`to on in into onto`)
	nounMarks    = wordSet(`for from by of about`)
	ownPlaces    = wordSet(`calendar diary agenda inbox list lists shopping to-do todo schedule`)
	habitual     = wordSet(`usual usually always real`)
	setObjects   = wordSet(`reminder alarm timer meeting call appointment`)
)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// context reports one of the statements the judge reads as neutral before a request:
//
//   - news: "I|We [just|recently|finally] VERBED …" (see news);
//   - "My [new|current|old] THING is|are VALUE", THING one to three words ending in a word for a
//     number or an address ("My new card number is 4471."; not "My steak is getting cold."),
//     sharing no word with the write's text (which it might contradict: "My PIN is 1234. Remember
//     my PIN is 5678.").
func (s *sentence) context(first int, text, content string, update bool) bool {
	k := first
	// "I changed banks. Remember that my bank is still Barclays.": the text holds on to what the
	// news changed.
	for _, t := range textmodel.Tokens(content) {
		if t.Text == "still" || t.Text == "same" || t.Text == "again" || t.Text == "old" || t.Text == "previous" ||
			t.Text == "former" || t.Text == "ex" {
			return false
		}
	}
	// "My laptop is new." before the save of one of its attributes ("its serial number is …").
	if s.n() == k+4 && s.words[k] == "my" && realThings[s.words[k+1]] && s.words[k+2] == "is" && s.words[k+3] == "new" &&
		attribute(content) && !sharesWords(s, k, content) {
		return true
	}
	if s.words[k] == "my" {
		k++
		if k < s.n() && (s.words[k] == "new" || s.words[k] == "current" || s.words[k] == "old") {
			k++
		}
		for n := 0; k < s.n() && n < 3 && s.roles[k] == 0; n++ {
			k++
		}
		// The text itself said twice is no contradiction: "My new number is 0770. Please remember my
		// new number is 0770."
		said := textmodel.Tokens(content)
		return k > first+1 && k+1 < s.n() && (s.words[k] == "is" || s.words[k] == "are") && contactNouns[s.words[k-1]] &&
			(!sharesWords(s, first, content) || first == 0 && len(said) == s.n() && s.exactAt(0, said))
	}
	// A place the text names must be one the context names, if it names any: "I moved to York.
	// Remember that my nearest station is Leeds City." may say otherwise.
	here, there := placesIn(text[s.toks[first].Start:s.toks[s.n()-1].End]), placesIn(content)
	for p := range there {
		if len(here) > 0 && !here[p] {
			return false
		}
	}
	if update {
		// "I just set up the router." before the update it explains.
		if j := k + 1; k < s.n() && (s.words[k] == "i" || s.words[k] == "we") {
			for j < s.n() && (s.words[j] == "just" || s.words[j] == "finally") {
				j++
			}
			if j+1 < s.n() && s.words[j] == "set" && s.words[j+1] == "up" && s.plainEvent(j+1, text) {
				return true
			}
		}
		return s.news(k, "", text) // an update replaces the old state, whatever the news (see namesElse)
	}
	return s.news(k, content, text) || s.activity(k, text, content) || s.office(k, content) ||
		(s.residence(k) || s.workplace(k)) && (attribute(content) || newText(content)) && !sharesWordsBut(s, k, content, here)
}

// office reports "I'm the ROLE of the|our [WORD] THING [now]" from k, the whole sentence — a role
// the user holds in a thing of everyday life ("I'm the treasurer of the book club.") — before the
// save of an attribute that shares no word with it but the thing's.
func (s *sentence) office(k int, content string) bool {
	if k+5 > s.n() || s.words[k] != "i'm" || s.words[k+1] != "the" || !offices[s.words[k+2]] || s.words[k+3] != "of" ||
		s.words[k+4] != "the" && s.words[k+4] != "our" || !attribute(content) || !s.plainTo(k) {
		return false
	}
	end := s.n()
	if s.words[end-1] == "now" {
		end--
	}
	thing := s.words[end-1]
	if !realThings[thing] || end-(k+5) > 2 {
		return false
	}
	head := subjectHead(textmodel.Tokens(content))
	for j := k; j < s.n(); j++ {
		// "I'm learning Spanish. Remember that my Spanish class is on Tuesdays."
		if st := stem(s.words[j]); itemWords(content)[st] && s.roles[j]&(RoleStop|RoleFraming) == 0 && st != head && !languages[s.words[j]] {
			return false
		}
	}
	return true
}

var offices = wordSet(`treasurer secretary chair chairperson president captain organiser organizer coordinator
	leader manager coach`)

// workplace reports "I work at|in a|the PLACE" from k, the whole sentence, PLACE a word for a place
// of business ("I work at a hospital.") — not a name, which may be a story's ("I work at the Daily
// Planet.").
func (s *sentence) workplace(k int) bool {
	return k+5 == s.n() && s.words[k] == "i" && s.words[k+1] == "work" && (s.words[k+2] == "at" || s.words[k+2] == "in") &&
		(s.words[k+3] == "a" || s.words[k+3] == "the") && placeNouns[s.words[k+4]] &&
		s.gapEnd[k] == "" && s.gapEnd[k+1] == "" && s.gapEnd[k+2] == "" && s.gapEnd[k+3] == ""
}

// sharesWordsBut is sharesWords with the words of the given places left out.
func sharesWordsBut(s *sentence, from int, content string, places map[string]bool) bool {
	said := map[string]bool{}
	for p := range places {
		for _, w := range strings.Fields(p) {
			said[stem(w)] = true
		}
	}
	for _, w := range itemWordsList(content) {
		if said[w] {
			continue
		}
		for k := from; k < s.n(); k++ {
			if stem(s.words[k]) == w && s.roles[k]&(RoleStop|RoleFraming) == 0 {
				return true
			}
		}
	}
	return false
}

// itemWordsList is itemWords as a list.
func itemWordsList(text string) []string {
	var out []string
	for w := range itemWords(text) {
		out = append(out, w)
	}
	return out
}

// activity reports "I'm|We're VERBING [my|our|the|a] THING [to PLACE] [TIME]", the whole sentence,
// from k: an everyday undertaking the judge knows (organising the reunion, planning our trip to
// Japan, learning Spanish, training for a marathon, renovating the kitchen) before the save of an
// attribute of it ("the venue is the Crown Hotel") that shares no word with it. Only those verbs
// and things: "I'm writing a novel", "I'm playing Skyrim", "I'm planning a heist" set a scene.
func (s *sentence) activity(k int, text, content string) bool {
	// "I'm packing now.", "We're packing.": before a trip's attribute.
	if (s.words[k] == "i'm" || s.words[k] == "we're") && k+1 < s.n() && s.words[k+1] == "packing" && attribute(content) &&
		(k+2 == s.n() || k+3 == s.n() && s.words[k+2] == "now") {
		return true
	}
	if k+2 >= s.n() || s.words[k] != "i'm" && s.words[k] != "we're" || !attribute(content) {
		return false
	}
	// The text may say something of the undertaking itself: "I'm organising the reunion.
	// Remember that the reunion is on 14 June." — nothing else it shares a word with.
	head := subjectHead(textmodel.Tokens(content))
	for j := k; j < s.n(); j++ {
		// "I'm learning Spanish. Remember that my Spanish class is on Tuesdays."
		if st := stem(s.words[j]); itemWords(content)[st] && s.roles[j]&(RoleStop|RoleFraming) == 0 && st != head && !languages[s.words[j]] {
			return false
		}
	}
	j := k + 1
	if s.words[j] == "currently" || s.words[j] == "just" {
		j++
	}
	if j >= s.n() || !activityVerbs[s.words[j]] {
		return false
	}
	verb := s.words[j]
	j++
	if verb == "training" {
		if j >= s.n() || s.words[j] != "for" {
			return false
		}
		j++
	}
	if j < s.n() && (s.words[j] == "my" || s.words[j] == "our" || s.words[j] == "the" || s.words[j] == "a" || s.words[j] == "an") {
		j++
	}
	// A name ("learning Spanish", "our trip to Japan") or any other word before the thing
	// ("a murder-mystery party") may set a scene: only the thing and a word that says which.
	if j < s.n() && activityWhich[s.words[j]] {
		j++
	}
	if j >= s.n() || !activityThings[s.words[j]] && !(verb == "learning" && languages[s.words[j]]) {
		return false
	}
	j++
	// "our trip to Japan": a place of the gazetteer.
	if j+1 < s.n() && s.words[j] == "to" && s.words[j-1] == "trip" {
		if n := s.inGazetteer(j + 1); n > 0 {
			j += 1 + n
		}
	}
	// A time at the end: "this weekend", "next month", "in June".
	if j+1 < s.n() && (s.words[j] == "this" || s.words[j] == "next") && timeUnits[s.words[j+1]] ||
		j+1 < s.n() && s.words[j] == "in" && calendar[s.words[j+1]] {
		j += 2
	}
	if j != s.n() {
		return false
	}
	for i := k; i+1 < s.n(); i++ {
		if s.gapEnd[i] != "" {
			return false
		}
	}
	return true
}

var languages = wordSet(`spanish french german italian portuguese dutch japanese mandarin chinese cantonese korean
	arabic russian polish greek turkish hindi swedish norwegian danish welsh irish hebrew`)

var (
	activityVerbs = wordSet(`organising organizing planning learning training renovating redoing decorating preparing
		arranging`)
	activityWhich  = wordSet(`office family work school summer annual birthday anniversary weekly monthly half`)
	activityThings = wordSet(`trip holiday holidays vacation party reunion wedding move budget event dinner birthday
		conference renovation kitchen bathroom house flat garden cv resume presentation marathon race triathlon
		half-marathon 10k interview exams course`)
)

// placeNouns are words for a place of business: "Dr. Okonjo at the Northgate practice".
var placeNouns = wordSet(`hospital clinic office school university college bank bakery shop store cafe
	restaurant hotel factory warehouse lab library museum council agency firm company studio centre
	center station airport practice surgery pharmacy gym`)

// aside reports a plain statement about the user's world, before or after the request, that gives
// its background or its reason and can't change what it asks: a subject (I, we, he, she, they, or
// my|our|his|her|the and up to three plain words), an optional "just|recently|finally|already|also",
// a verb from asideVerbs (an event in the past, or "need"), then plain words with
// something meaningful — no marker, no back reference (but "need it|this"), no emoji, and no word
// of the text being saved: "The router was reset.", "I keep losing the
// card.", "We adopted a dog on Sunday!", "I sold the Focus." A verb of change ("moved", "changed",
// "married") or of an ending ("sold", "cancelled") may contradict a save ("Remember that I live in
// Leeds. I moved to York last week."), so it stands only beside a forget or an update, or beside a
// save whose text says it is new. So does "started" or "joined" ("I just joined a LARP group.
// Remember that I'm an elf.").
func (s *sentence) aside(first int, text, content string, w Write, after bool) bool {
	// After a save, a statement may comment on the text ("I need it gone.", "We just got back
	// from the steakhouse." after "I'm vegan"): only beside a forget or an update does one say
	// why the old thing goes.
	if s.question || first >= s.n() || after && w.Kind == Save {
		return false
	}
	// got: a change said without a verb of change ("I got a new car.", "… is now …").
	k, subject, user, passive, got := first, s.words[first], false, false, false
	switch subject {
	case "i", "i've", "we", "we've":
		k, user = k+1, true
	case "i'm", "we're", "he's", "she's", "they're":
		k, user = k+1, subject == "i'm" || subject == "we're"
	case "he", "she", "they":
		k++
	case "my", "our", "his", "her", "the":
		k++
		start := k
		// "The gate code changed.": a noun that may also mark a paste ("code", "email") names
		// the thing here.
		for k < s.n() && k-start < 3 && (s.roles[k] == 0 || s.roles[k] == RolePaste || s.words[k] == "old" || s.words[k] == "new") &&
			!asideVerbs[s.words[k]] && !beVerbs[s.words[k]] {
			k++
		}
		if k == start {
			return false
		}
	default:
		// "Update my manager to Tom Reyes. Priya moved to the Berlin office.": a name from the
		// item being replaced or forgotten.
		if w.Kind == Save || !name(s.toks[first], text) || !hasName(w.Target.Content, text[s.toks[first].Start:s.toks[first].End]) {
			return false
		}
		k++
	}
	for k < s.n() && (s.words[k] == "just" || s.words[k] == "recently" || s.words[k] == "finally" ||
		s.words[k] == "already" || s.words[k] == "also") {
		k++
	}
	if k >= s.n() {
		return false
	}
	switch verb := s.words[k]; {
	case strings.HasSuffix(subject, "'m") || strings.HasSuffix(subject, "'re") || strings.HasSuffix(subject, "'s"):
		// "I'm back from leave.", "We're divorced now."
		if !states[verb] || verb == "back" && (k+1 >= s.n() || s.words[k+1] != "from") {
			return false // not "I'm back on the booze."
		}
	case verb == "got" && k+1 < s.n() && (states[s.words[k+1]] || changeVerbs[s.words[k+1]]):
		k++ // "We just got back from the vet.", "He got retested."
	case verb == "got" && k+2 < s.n() && (s.words[k+1] == "new" || s.words[k+1] == "a" && s.words[k+2] == "new"):
		got = true // "I got a new car."
	case verb == "found" && w.Kind != Save && k+2 < s.n() && s.words[k+1] == "a" && s.words[k+2] == "new":
		got = true // "I found a new dentist." before the update or the forget it explains
	case (verb == "is" || verb == "are") && !user && w.Kind == Forget && k+2 == s.n() && overStates[s.words[k+1]]:
		// "The trip is over." beside a forget.
		k, passive = k+1, true
	case (verb == "is" || verb == "are") && !user && w.Kind != Save && k+2 < s.n() && s.words[k+1] == "now":
		// "My emergency contact is now my sister." beside an update or a forget.
		k, passive, got = k+1, true, true
	case beVerbs[verb] && !user:
		k, passive = k+1, true // "The router was reset.", "My card was stolen."
		if k >= s.n() || !changeVerbs[s.words[k]] && !endings[s.words[k]] {
			return false
		}
	case verb == "had" && !user:
		// "My sister just had a baby!" (not "I had steak for lunch.")
	case !asideVerbs[verb]:
		return false
	}
	verb := s.words[k]
	if !s.plainEvent(k, text) {
		return false
	}
	// "I've left the gym.": "left" is the event here, not "leave it"; "was" in "The router was
	// reset." says when, not that it no longer holds; "leave" in "I'm back from leave." is a noun.
	for i := first; i < s.n(); i++ {
		// An ending that may also take a request back ("left", "cancelled", "stopped") is the event
		// only with an object that says what ended: "I cancelled the membership.", not "I
		// cancelled it."
		// A thing may end with nothing after the verb: "My old passport expired." (not "I
		// cancelled.", which may take the request back).
		if s.marked(i, i+1) && !(i == k && endings[verb] && k+1 < s.n() && (determiners[s.words[k+1]] && s.roles[k+1]&RoleBackRef == 0 ||
			s.words[k+1] == "my" || s.words[k+1] == "our" || verb == "stopped" && s.words[k+1] == "going")) &&
			!(i == k && endings[verb] && k+1 == s.n() && !user && k > first+1 && subject != "he" && subject != "she" && subject != "they") &&
			!(i == k-1 && beVerbs[s.words[i]]) && !(verb == "back" && i == k+2 && i+1 == s.n()) &&
			!(i > first && i < k && s.roles[i] == RolePaste) {
			return false
		}
	}
	// Coming back is a change too: "I'm back from holiday. Remember that my new desk is 3.14", not
	// "We just got back from the costume party. Remember that I'm Batman."
	change := changeVerbs[verb] || endings[verb] || states[verb] || got
	// "I've started a new job at Verdant Labs.", "I just got a new library card." before a save of
	// something the new thing has ("my work email is …", "the number is …") — not of what the user
	// is or does ("I started a new diet. Remember that I eat meat.").
	acquired := (verb == "started" || got) && k+1 < s.n() && (s.words[k+1] == "a" || s.words[k+1] == "new") &&
		s.hasWord(k+1, map[string]bool{"new": true}) && attribute(content)
	if change && w.Kind == Save && (user || after || endings[verb]) && !newText(content) && !(acquired && !after) {
		return false // "Remember my dentist is Dr. Alvarez. He retired in 2019."
	}
	if after && scheduled[verb] {
		return false // "Remember my new job starts May 1. The contract arrives next week."
	}
	for i := first; i < s.n(); i++ {
		// "I've destroyed that card.": "that" before a plain noun says which one.
		backRef := s.roles[i]&RoleBackRef != 0 && !(i > k && i+1 < s.n() && s.roles[i+1] == 0 && s.gapEnd[i] == "") &&
			// "I renewed it." beside an update: the thing itself (beside a forget, "We renamed
			// it." says it lives on).
			!(i == k+1 && (s.words[i] == "it" || s.words[i] == "them") && w.Kind == Update && changeVerbs[verb] && !endings[verb])
		// "I cancelled that cancellation.", "I changed the note.": an event in the conversation
		// or in memory, not in the user's world.
		if memoryNouns[s.words[i]] || s.roles[i]&RoleFraming != 0 && s.words[i] != "old" && s.words[i] != "new" || actNouns[s.words[i]] {
			return false
		}
		// A name as the verb's object ("I sold the Focus.", "I cancelled Netflix.") is the thing
		// the event was about; anywhere else it may be whom the message is for ("…, Sarah.").
		named := i > k && s.roles[i] == 0 && name(s.toks[i], text) && !calendar[s.words[i]] &&
			!(i == k+1 || determiners[s.words[i-1]] && (i-1 == k+1 || places[s.words[i-2]]) || places[s.words[i-1]] ||
				s.placeName(i, text))
		if backRef || named || isEmoji(s.words[i]) {
			return false
		}
	}
	if w.Kind == Update && s.namesElse(k+1, text, content, w.Target.Content) {
		return false
	}
	if !s.aboutThis(first, k, w, content) {
		return false
	}
	switch {
	case w.Kind == Forget:
		return true // "I quit.", "He got retested." before or after a forget
	case change || after:
		// A change, or anything said after the request, that shares a word with the text may
		// correct it ("Remember my PIN is 4410. I changed my PIN."). Beside an update a thing may
		// change with no object: "My manager changed.", "My pharmacy closed."
		thing := !user && k > first+1 && w.Kind == Update || w.Kind == Update && k+1 < s.n() && s.words[k+1] == "it"
		// Before an update, news of the thing it changes may name it: "My sister moved. Update the
		// note about Jess to say my sister Jess lives in Boulder."
		return (passive || thing || s.meaningful(k+1)) && (!sharesWords(s, first, content) || w.Kind == Update && !after)
	}
	return passive || s.meaningful(k+1)
}

// forgetReason reports a short reason for a forget from index first to the sentence's end: a
// subject (I, we, it, he, she, they), perhaps "already|just|finally|recently", a verb that says the
// thing ended or changed, perhaps "it" or "them", perhaps a time, and nothing else: "It changed.",
// "I sold it last weekend.", "it already happened", "I quit", "she changed it" — not "I changed my
// mind.", "It hasn't changed.".
func (s *sentence) forgetReason(first int) bool {
	if s.question || first >= s.n() || s.marked(first, s.n()) {
		return false
	}
	k := first
	switch s.words[k] {
	case "i", "i've", "we", "we've", "it", "he", "she", "they", "they've":
		k++
	case "it's":
		// "it's changed", "it's over"
		return k+2 == s.n() && (reasonVerbs[s.words[k+1]] || overStates[s.words[k+1]]) && s.plainTo(first)
	default:
		return false
	}
	for k < s.n() && (s.words[k] == "already" || s.words[k] == "just" || s.words[k] == "finally" || s.words[k] == "recently") {
		k++
	}
	if k >= s.n() || !reasonVerbs[s.words[k]] {
		return false
	}
	k++
	if k < s.n() && (s.words[k] == "it" || s.words[k] == "them") {
		k++
	}
	switch {
	case k == s.n():
	case k+1 == s.n() && (s.words[k] == "yesterday" || s.words[k] == "today"):
	case k+2 == s.n() && (s.words[k] == "last" || s.words[k] == "this") && timeUnits[s.words[k+1]],
		k+2 == s.n() && (s.words[k] == "in" || s.words[k] == "on") && calendar[s.words[k+1]]:
	default:
		return false
	}
	return s.plainTo(first)
}

// plainTo reports no punctuation between the words from index first to the end.
func (s *sentence) plainTo(first int) bool {
	for i := first; i+1 < s.n(); i++ {
		if s.gapEnd[i] != "" {
			return false
		}
	}
	return true
}

var reasonVerbs = wordSet(`changed sold quit passed finished happened moved left retired expired stopped reset closed
	ended split cancelled canceled graduated recovered replaced renewed switched`)

// aboutThis reports news, with its subject in [first, verb), that is about what the write is
// about: someone else's news ("My brother moved.", "He just moved to Bristol.") only beside a text
// or an item that names a person ("My daughter started school." before "her teacher is Mrs.
// Halvorsen"); beside a forget, no other thing of the item's kind ("The garage code changed.", "The
// office gate changed." beside "Gate code is 4417").
func (s *sentence) aboutThis(first, verb int, w Write, content string) bool {
	own := itemWords(w.Target.Key + " " + w.Target.Content + " " + content)
	person, head, foreign := false, "", false
	for j := first; j < verb; j++ {
		wd := strings.TrimSuffix(s.words[j], "'s")
		switch {
		case wd == "he" || wd == "she" || wd == "they" || wd == "he's" || wd == "she's" || wd == "they're":
			person = true
		case relations[wd] || personNouns[wd] || groupNouns[wd]:
			person = true
		case s.roles[j]&RoleStop == 0 && !(wd == "just" || wd == "recently" || wd == "finally" || wd == "already" || wd == "also"):
			head = wd
			foreign = foreign || !own[stem(wd)]
		}
	}
	// Beside an update, someone's news about the item's thing explains it: "The landlord put the
	// rent up." before "Update my rent to £1,250 a month.".
	if person && !namesPerson(content+" "+w.Target.Content+" "+w.Target.Key) &&
		!(w.Kind == Update && sharesWords(s, verb+1, w.Target.Key+" "+w.Target.Content)) {
		return false
	}
	if w.Kind == Forget && head != "" && foreign && (own[stem(head)] || contactNouns[head] || identifiers[head]) {
		return false
	}
	return true
}

// namesElse reports a name from index from on that neither the old text nor the new one has. Beside
// an update, context may give the old thing's name or the new one's ("I've cancelled the Savoy.")
// but another name may contradict the new text ("I moved to Leeds." beside "22 Harbour Lane,
// Bristol").
func (s *sentence) namesElse(from int, text, content, old string) bool {
	for i := max(from, 1); i < s.n(); i++ {
		written := text[s.toks[i].Start:s.toks[i].End]
		bare := strings.TrimSuffix(strings.TrimSuffix(written, "'s"), "’s") // "Leo's football practice" names Leo
		if s.roles[i] == 0 && name(s.toks[i], text) && !calendar[s.words[i]] &&
			!hasName(old, written) && !hasName(content, written) && !hasName(old, bare) && !hasName(content, bare) {
			return true
		}
	}
	return false
}

// attribute reports a text about a thing's attribute: it opens with "my", "the", "its", "his", "her"
// or "our" and a noun ("my work email is …", "the number is …").
func attribute(content string) bool {
	toks := textmodel.Tokens(content)
	if len(toks) < 3 {
		return false
	}
	switch toks[0].Text {
	case "my", "the", "its", "his", "her", "our":
		return roles(toks[1].Text)&(RoleStop|RoleVerbLike) == 0
	}
	// A thing's time or place said with a plain noun: "training is on Tuesdays at 6:30", "club
	// runs are on Wednesdays", "rehearsals are on Thursday evenings".
	for i := 1; i <= 2 && i+1 < len(toks); i++ {
		if toks[i].Text == "is" || toks[i].Text == "are" {
			for _, t := range toks[:i] {
				if roles(t.Text) != 0 || !realThings[t.Text] && !realThings[strings.TrimSuffix(t.Text, "s")] && !scheduledThings[t.Text] {
					return false
				}
			}
			return toks[i+1].Text == "on" || toks[i+1].Text == "at" || toks[i+1].Text == "every"
		}
	}
	return false
}

// scheduledThings are things that happen at a time: "rehearsals are on Thursday evenings".
var scheduledThings = wordSet(`training rehearsal rehearsals practice practices runs run sessions session meetings
	meeting pickup dropoff drop-off payday lessons lesson classes class matches match games game service bin bins
	collection trash recycling`)

// hasName reports the name as written among the text's words.
func hasName(text, name string) bool {
	for _, t := range textmodel.Tokens(text) {
		if text[t.Start:t.End] == name {
			return true
		}
	}
	return false
}

var (
	beVerbs    = wordSet(`was were got`)
	states     = wordSet(`back divorced separated retired married engaged promoted`)
	scheduled  = wordSet(`lands arrives`)
	overStates = wordSet(`over finished done gone closed cancelled expired sold`)
	actNouns   = wordSet(`cancellation deletion removal request requests message messages instruction
		instructions change changes update updates edit edits save answer reply mistake typo`)
	changeVerbs = wordSet(`moved changed renewed switched replaced upgraded updated renamed relocated
		transferred reset married divorced stolen retested started joined raised increased lowered reduced
		extended shortened rescheduled`)
	asideVerbs = wordSet(`moved changed renewed switched replaced upgraded updated renamed relocated
		transferred reset adopted bought started joined booked finished graduated signed received opened
		rented hired enrolled registered subscribed ordered paid sorted came arrived landed lands arrives broke
		expired stopped split divorced cancelled canceled closed left sold quit retired destroyed ended died
		raised increased lowered reduced extended shortened rescheduled put`)
)

// news reports "I|I've|We [just|recently|finally] VERBED …" from k, a verb that says a change
// happened in the user's life (newsVerbs), or "… got a new …", "… got married", "… got back". News
// that something ended ("We broke up.", "I sold my car.") stands only before a forget, whose
// content is "", and news before a save or an update only when its text says it is new ("I changed
// banks. Save that my new sort code is …"): otherwise it may contradict it ("I got married on
// Saturday. Remember that I'm single.").
func (s *sentence) news(k int, content, text string) bool {
	if s.words[k] != "i" && s.words[k] != "i've" && s.words[k] != "we" && s.words[k] != "we've" {
		return false
	}
	subject := k
	k++
	for k < s.n() && (s.words[k] == "just" || s.words[k] == "recently" || s.words[k] == "finally") {
		k++
	}
	// "I moved to York last month. Remember that I live in Leeds.": news before a save stands
	// when the text says it is new, or when something was gained or changed and the text is an
	// attribute ("I joined the running club. Remember that training is on Tuesdays.", "I changed
	// banks. Remember that my bank is Monzo."), not what the user is or does.
	// "We just got back from the vet. Remember that Biscuit is allergic to chicken.": back from a
	// visit, before what it found about someone the user names.
	if k+2 < s.n() && s.words[k] == "got" && s.words[k+1] == "back" && s.words[k+2] == "from" && ofSomeone(content, text) {
		return s.plainEvent(k+1, text)
	}
	// "I moved to Leeds. Remember that I live in Leeds.": the text is where the move led.
	if k+1 < s.n() && s.words[k] == "moved" && s.words[k+1] == "to" && s.placeThenTime(k+2) {
		place := strings.Join(s.words[k+2:k+2+s.inGazetteer(k+2)], " ")
		if toks := textmodel.Tokens(content); len(toks) >= 4 && toks[0].Text == "i" && toks[1].Text == "live" && toks[2].Text == "in" &&
			strings.TrimSuffix(strings.Join(strings.Fields(strings.ToLower(content))[3:], " "), " now") == place {
			return s.plainEvent(k, text)
		}
	}
	if content != "" && !newText(content) {
		gained := k < s.n() && (acquired[s.words[k]] || changeVerbs[s.words[k]] && !endings[s.words[k]]) ||
			k+1 < s.n() && (s.words[k] == "got" || s.words[k] == "have") && (s.words[k+1] == "new" || s.words[k+1] == "a" || s.words[k+1] == "an") ||
			k+1 < s.n() && s.words[k] == "set" && s.words[k+1] == "up"
		if !gained || !attribute(content) || subject < 0 {
			return false
		}
		if k+1 < s.n() && s.words[k] == "set" && s.words[k+1] == "up" {
			return s.plainEvent(k+1, text)
		}
		if s.words[k] == "found" {
			return k+2 < s.n() && (s.words[k+1] == "a" || s.words[k+1] == "an") && s.words[k+2] == "new" && s.plainEvent(k, text)
		}
	}
	if k+2 < s.n() && s.words[k] == "have" && s.words[k+1] == "a" && s.words[k+2] == "new" {
		return s.plainEvent(k, text) // "I have a new manager."
	}
	if k+1 < s.n() && s.words[k] == "got" {
		// "I got a new phone.", "I just got married." — not "I got dared to.", "I got hacked."
		next := s.words[k+1]
		return (next == "new" || gotStates[next] ||
			(next == "a" || next == "an") && k+2 < s.n() && s.words[k+2] == "new") && s.plainEvent(k, text)
	}
	return k < s.n() && (newsVerbs[s.words[k]] || endings[s.words[k]] && content == "") && s.plainEvent(k, text)
}

// contradicts reports a task, from index from on, that may say otherwise than the text being
// saved: one about the same thing (a word of the text but a name: "Book the reunion venue for
// Saturday." beside "the reunion is on Friday"), or one with a time or a sum the text holds
// otherwise ("Book a taxi to the airport for 11am." beside "my flight is at 9am", "Find me a
// hotel for $5,000." beside "my budget for the trip is $2,000").
func (m *message) contradicts(s *sentence, from int) bool {
	if m.content == "" {
		return false
	}
	said := textmodel.Tokens(m.content)
	have, kinds := map[string]bool{}, map[string]bool{}
	for _, t := range said {
		have[t.Text] = true
		if k := valueKind(t.Text); k != "" {
			kinds[k] = true
		}
	}
	words, thing := itemWords(m.content), subjectHead(said)
	topic, value := false, false
	for k := from; k < s.n(); k++ {
		w := s.words[k]
		if vk := valueKind(w); vk != "" && kinds[vk] && !have[w] {
			return true
		}
		// Another number beside a text that is one ("Order the trainers in 41." beside "43"); the
		// same one agrees with it.
		// So does another code beside an update to one ("… with passport L9920418." beside
		// "L9920417").
		if m.update && !have[w] && codeLike(m.text[s.toks[k].Start:s.toks[k].End]) && oneValue(m.content) &&
			codeLike(strings.TrimSpace(m.content)) && strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return true
		}
		if startsWithDigit(w) && numeric(m.content) && m.update {
			if !have[w] {
				return true
			}
			continue
		}
		if words[stem(w)] && s.roles[k]&(RoleStop|RoleFraming) == 0 && !name(s.toks[k], m.text) {
			// The value of a taste or a need, asked for again, agrees with it: "Order me a black
			// americano." beside "I take my coffee black".
			if thing == "" && taste(m.content) && s.asksTaste(from, lastStem(m.content), m.text) {
				continue
			}
			// The thing the text says something of, as a thing of its own ("Find me a venue for the
			// reunion."), not as a word that says which ("Order more printer ink.").
			modifier := k+1 < s.n() && s.gapEnd[k] == "" && s.roles[k+1] == 0 && !strings.HasSuffix(s.words[k+1], "s") &&
				!name(s.toks[k+1], m.text)
			if thing == "" || stem(w) == thing && !modifier {
				return true
			}
			topic = true
		}
		value = value || !have[w] && (valueWord(w) || valueKind(w) != "" || numberWords[w] ||
			s.roles[k] == 0 && k > from && name(s.toks[k], m.text))
	}
	// A word of the text beside a value it doesn't hold: "Book the Crown for the reunion." beside
	// "the venue for the reunion is the Red Lion", "Order the trainers in 44." beside "my shoe
	// size is 43" — not "Order me some running shoes."
	return topic && value
}

// subjectHead returns the stem of the word a text says something of — the last word before "is" or
// "are", or before a preposition ahead of them ("the venue for the reunion is …" → "venu", "my
// shoe size is 9.5" → "siz") — or "" when it says nothing of a thing that way.
func subjectHead(toks []textmodel.Token) string {
	// "the printer takes A4 only": a determiner, a thing, its verb.
	if len(toks) >= 3 && (toks[0].Text == "the" || toks[0].Text == "my" || toks[0].Text == "our") && realThings[toks[1].Text] &&
		roles(toks[2].Text)&RoleStop == 0 && strings.HasSuffix(toks[2].Text, "s") && !realThings[strings.TrimSuffix(toks[2].Text, "s")] {
		return stem(toks[1].Text)
	}
	head := ""
	for _, t := range toks {
		switch {
		case t.Text == "is" || t.Text == "are":
			return head
		case eventPreps[t.Text] && head != "":
			for _, u := range toks {
				if u.Text == "is" || u.Text == "are" {
					return head
				}
			}
			return ""
		case roles(t.Text)&RoleStop == 0:
			head = stem(t.Text)
		}
	}
	return ""
}

var numberWords = wordSet(`one two three four five six seven eight nine ten eleven twelve twenty thirty forty
	fifty hundred thousand dozen half`)

// valueKind says what a value token is: "time" ("9am", "14:20", "noon"), "money" ("$2,000"), or
// "" for anything else.
func valueKind(w string) string {
	switch {
	case w == "noon" || w == "midnight" || startsWithDigit(w) && (strings.HasSuffix(w, "am") || strings.HasSuffix(w, "pm") || strings.Contains(w, ":")):
		return "time"
	case strings.ContainsAny(w, "$£€¥") || strings.HasSuffix(w, "k") && startsWithDigit(w):
		return "money"
	}
	return ""
}

// keyed returns the text being saved as the attribute it is: "my wifi password is hunter22" for the
// text "hunter22" under the key "wifi password".
func (m *message) keyed(w Write) string {
	if w.Kind == Save && w.Key != "" && !attribute(w.Content) {
		return "my " + w.Key + " is " + w.Content
	}
	return m.content
}

// forUser reports "me", "our", "us" or "we" from index from on: a task for the user.
func (s *sentence) forUser(from int) bool {
	return s.hasWord(from, map[string]bool{"me": true, "our": true, "us": true, "we": true})
}

// applies reports a task for the user that can't contradict the write: beside the save of an
// attribute of a thing ("my budget for the trip is $2,000" — "Find me some hotels in Lisbon."), or
// beside an update whose new value the task names ("Update my hairdresser to Marta at Cut & Co." —
// "Book me a haircut with Marta."). Beside what the user is or does ("I'm vegan" — "Book me a
// steak dinner.") any errand for them may say otherwise.
func (m *message) applies(s *sentence, from int, w Write) bool {
	switch w.Kind {
	case Save:
		if taste(w.Content) && s.asksTaste(from, lastStem(w.Content), m.text) {
			// An errand that asks for what the text says the user takes, likes or needs:
			// "Book me a window seat on the Rome flight." beside "I prefer window seats".
			return true
		}
		return attribute(w.Content) || ofSomeone(w.Content, m.text)
	case Update:
		// The new value itself: "Update my shoe size to 43." — "Order me the trainers in 43."
		for k := from; k < s.n(); k++ {
			if startsWithDigit(s.words[k]) && hasWord(w.Content, s.words[k]) {
				return true
			}
		}
		for k := from; k < s.n(); k++ {
			if s.roles[k] == 0 && name(s.toks[k], m.text) && hasName(w.Content, m.text[s.toks[k].Start:s.toks[k].End]) {
				return true
			}
		}
	}
	return false
}

// asksTaste reports an errand, from index from on, whose object is the taste's word and at most one
// plain word after it, then the sentence's end or a place, a thing of everyday life or a time after
// a preposition ("a black americano", "a window seat on the Rome flight", "a vegan restaurant in
// Leeds") — nothing that adds to it ("… with oat milk", "a kosher pork chop", "… on a wheat crust").
func (s *sentence) asksTaste(from int, st, text string) bool {
	k := from
	for k < s.n() && stem(s.words[k]) != st {
		if s.words[k] == "with" || s.words[k] == "and" || s.words[k] == "plus" || s.words[k] == "extra" {
			return false
		}
		k++
	}
	if k == s.n() {
		return false
	}
	k++
	if k < s.n() && s.roles[k] == 0 && !eventPreps[s.words[k]] && !name(s.toks[k], text) {
		k++ // "seat", "americano", "restaurant"
	}
	if k == s.n() {
		return true
	}
	if !(s.words[k] == "in" || s.words[k] == "on" || s.words[k] == "at" || s.words[k] == "for" || s.words[k] == "near") {
		return false
	}
	rest := false
	for j := k + 1; j < s.n(); j++ {
		w := s.words[j]
		if s.gapEnd[j-1] != "" {
			return false // ", this time"
		}
		switch {
		case determiners[w] || calendar[w] || timeUnits[w] || startsWithDigit(w):
		case realThings[w] || realThings[strings.TrimSuffix(w, "s")] || s.inGazetteer(j) > 0 || name(s.toks[j], text) && s.roles[j] == 0:
			rest = true
		default:
			return false
		}
	}
	return rest
}

// ofSomeone reports a text about someone or something the user names, not about the user: it opens
// with a name as written in the message ("Rolo weighs 12kg", "Luna's vet is Dr. Hale").
func ofSomeone(content, text string) bool {
	toks := textmodel.Tokens(content)
	if len(toks) < 3 || roles(toks[0].Text) != 0 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(content[toks[0].Start:])
	return unicode.IsUpper(r) && strings.Contains(text, content[toks[0].Start:toks[0].End])
}

// hasWord reports the word among a text's tokens.
func hasWord(text, w string) bool {
	for _, t := range textmodel.Tokens(text) {
		if t.Text == w {
			return true
		}
	}
	return false
}

// lastStem is the stem of a text's last token.
func lastStem(text string) string {
	toks := textmodel.Tokens(text)
	if len(toks) == 0 {
		return ""
	}
	return stem(toks[len(toks)-1].Text)
}

// taste reports a text that says what the user is, takes, likes or needs, plainly: "I prefer window
// seats", "I take my coffee black", "I'm left-handed" — not what the user avoids or can't have ("I'm
// allergic to peanuts", "I hate coriander", "I'm off sugar").
func taste(content string) bool {
	toks := textmodel.Tokens(content)
	if len(toks) < 2 || len(toks) > 6 {
		return false
	}
	switch {
	case toks[0].Text == "i'm" && len(toks) == 2: // "I'm vegan", not "I'm fluent in Japanese"
	case toks[0].Text == "i" && tasteVerbs[toks[1].Text]:
	default:
		return false
	}
	for _, t := range toks {
		if roles(t.Text)&markers != 0 || avoids[t.Text] || isEmoji(t.Text) {
			return false
		}
	}
	return true
}

var (
	tasteVerbs = wordSet(`prefer like love take use wear drink eat need live`)
	avoids     = wordSet(`allergic intolerant hate hates dislike dislikes avoid avoids off free without no less
		sensitive afraid scared sick quit quitting stopped`)
)

// setIn reports "in|on|inside NAME" from index from on: a named place or world.
func (s *sentence) setIn(from int, text string) bool {
	for j := from; j+1 < s.n(); j++ {
		if (s.words[j] == "in" || s.words[j] == "on" || s.words[j] == "inside") && s.roles[j+1] == 0 &&
			name(s.toks[j+1], text) && !calendar[s.words[j+1]] && !(s.words[j] == "in" && s.inGazetteer(j+1) > 0) {
			return true
		}
	}
	return false
}

// plainEvent reports the words of an event from its verb at k to the sentence's end as one plain
// clause set in the user's world: no punctuation between words, and every preposition one the
// judge can place — a time ("on Sunday", "in March", "last week"), a move's destination ("moved
// to Leeds"), a workplace ("started at Verdant Labs"), "of" ("a new pair of glasses"). Anything
// else may set the event in a game, a dream or a story ("I bought a new car in GTA.", "… for my
// avatar", "… in my D&D campaign"), or undo it after a comma ("We adopted a cat, era broma.").
func (s *sentence) plainEvent(k int, text string) bool {
	verb := s.words[k]
	for j := max(k-1, 0); j < s.n(); j++ {
		if j+1 < s.n() && s.gapEnd[j] != "" || strings.HasPrefix(s.words[j], "in-") {
			return false
		}
	}
	// The object, up to a preposition or a time, is a thing of everyday life (realThings), after
	// at most a determiner and two words that say which: "a new phone", "the running club",
	// "banks" — not "a costume", "a dragon", "a spaceship", "a murder-mystery party kit".
	j := k + 1
	if verb == "got" && j < s.n() && (gotStates[s.words[j]] || changeVerbs[s.words[j]]) {
		j++ // "got married", "got back", "got retested"
	} else if j < s.n() && (s.words[j] == "up" || s.words[j] == "out" || verb == "stopped" && s.words[j] == "going") {
		j++ // "set up the router", "sorted out the boiler", "stopped going there"
		if j < s.n() && s.words[j-1] == "going" && s.words[j] == "there" {
			j++
		}
	}
	if j+1 == s.n() && (s.words[j] == "it" || s.words[j] == "them") {
		j++ // "I renewed it." — the thing itself, which aside weighs
	}
	for i := k + 1; i < s.n(); i++ {
		if jokeWords[s.words[i]] || scenes[strings.TrimSuffix(s.words[i], "'s")] {
			return false // "I changed my character's class."
		}
	}
	start, thing, plain := j, false, 0
	for j < s.n() && !eventPreps[s.words[j]] && !timeStarts[s.words[j]] && !states[verb] && verb != "now" {
		w := s.words[j]
		switch {
		case j == start && (determiners[w] || w == "some"):
		case realThings[w] || realThings[strings.TrimSuffix(w, "s")] || realThings[strings.TrimSuffix(w, "es")]:
			thing = true
		case verb == "put" && thing && j+1 == s.n() && (w == "up" || w == "down"):
		case !thing && j == start && possessive(w) && j+1 < s.n() && s.roles[j+1] == 0:
			// "We moved Leo's football practice.": whose thing it is.
		// What ended may be named: "I sold the Focus.", "I cancelled Netflix."
		case endings[verb] && !thing && s.roles[j] == 0 && name(s.toks[j], text):
			thing = true
		case !thing && (w == "new" || w == "old" || which[w] || s.roles[j] == 0 && !name(s.toks[j], text) && plain < 2):
			if !which[w] && w != "new" && w != "old" {
				plain++ // "a new library card", "the production database"
			}
		default:
			return false
		}
		j++
	}
	if j > start && !thing && !states[verb] && verb != "now" {
		return false
	}
	// "The landlord put the rent up.": "put" only with a thing and "up" or "down" after it.
	if verb == "put" && (!thing || s.words[s.n()-1] != "up" && s.words[s.n()-1] != "down") {
		return false
	}
	for j := k + 1; j < s.n(); j++ {
		w := s.words[j]
		if !eventPreps[w] {
			continue
		}
		next := ""
		if j+1 < s.n() {
			next = s.words[j+1]
		}
		switch {
		case j+1 < s.n() && (calendar[next] || startsWithDigit(next) || timeUnits[next]),
			(next == "last" || next == "this" || next == "next" || next == "the") && j+2 < s.n() && (timeUnits[s.words[j+2]] || calendar[s.words[j+2]]),
			w == "of",
			w == "at" && (next == "home" || next == "work"), w == "across" && next == "town" && j+2 == s.n(),
			// "I'm back from holiday.", "We just got back from the vet."
			w == "from" && verb == "back" && (awayFrom[next] || (next == "the" || next == "my") && j+2 < s.n() && awayFrom[s.words[j+2]]),
			w == "at" && (verb == "started" || verb == "joined") && j+1 < s.n() && name(s.toks[j+1], text) && s.roles[j+1] == 0 &&
				thing,
			// "I moved to Leeds.": a place the gazetteer holds, and nothing after it but a time.
			w == "to" && (verb == "moved" || verb == "relocated") && j == k+1 && s.placeThenTime(j+1):
		default:
			return false
		}
	}
	return true
}

var (
	eventPreps = wordSet(`in on at for with from to of into inside within during via through under over near by as
		like onto across behind beside between among`)
	timeUnits = wordSet(`week weekend month year night morning afternoon evening day weeks months years days`)
	scenes    = wordSet(`character characters avatar game games campaign story novel script play show episode dream
		quest level guild sims simulation simulator sandbox demo mock-up role roles part improv drama theatre
		theater acting comedy stage panto pantomime rehearsal cast`)
	timeStarts = wordSet(`last this next yesterday today tonight recently earlier ago again finally just now`)
	// realThings are the things of everyday life an event may be about; a name or anything else
	// ("a costume", "a dragon", "Hogwarts") may set a scene the judge can't tell from life.
	realThings = wordSet(`phone mobile number car bike job bank dentist doctor gp vet address house home flat apartment
		email account card passport licence license laptop computer router printer gym school office desk manager
		boss team insurance pharmacy dog cat puppy kitten plan contract lease mortgage subscription membership
		broadband provider supplier policy landlord cleaner nanny babysitter hairdresser barber therapist physio club
		choir course class lessons key keys lock locker boiler fridge washer glasses lenses prescription wifi
		password pin code sim tariff appointment booking flight flights ticket tickets hotel room seat shift shifts
		schedule rota timetable diet medication inhaler desk parking permit badge visa baby company firm
		database databases server cabin villa boat caravan van motorbike allotment storage unit practice
		price prices rate rates fee fees dues rent salary pay wage hours time times slot slots venue major majors
		degree network networks subnet modem training lesson locker lockers combination tariff plan plans
		sitter walker tutor coach trainer cleaner gardener builder plumber electrician mechanic shop store
		route commute train bus tram season timetable term semester classes course courses band team league
		society association committee
		insurer energy gas electricity water meter bill bills tv internet fibre fiber`)
	which = wordSet(`running work home spare second first local nearby different family personal joint company
		new old current`)
	awayFrom = wordSet(`holiday holidays leave vacation work hospital abroad trip travels vet doctor dentist gp
		honeymoon conference`)
)

// placeThenTime reports a place of the gazetteer at index i, then the sentence's end or a time
// ("last month", "in March", "on Sunday").
func (s *sentence) placeThenTime(i int) bool {
	n := s.inGazetteer(i)
	if n == 0 {
		return false
	}
	j := i + n
	switch {
	case j == s.n():
		return true
	case j+2 == s.n() && (s.words[j] == "last" || s.words[j] == "this") && timeUnits[s.words[j+1]],
		j+2 == s.n() && (s.words[j] == "in" || s.words[j] == "on") && calendar[s.words[j+1]],
		j+1 == s.n() && (s.words[j] == "yesterday" || s.words[j] == "recently" || s.words[j] == "today"):
		return true
	}
	return false
}

// placesIn returns the places of the gazetteer a text names, each as its words joined by " ".
func placesIn(text string) map[string]bool {
	toks := textmodel.Tokens(text)
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = t.Text
	}
	out := map[string]bool{}
	for i := 0; i < len(words); i++ {
		if n := matchAt(words, i, gazetteer); n > 0 {
			out[strings.Join(words[i:i+n], " ")] = true
			i += n - 1
		}
	}
	return out
}

// residence reports "I|We [now] live in PLACE [now]" from k, the whole sentence, PLACE one the
// gazetteer holds: where the user lives, before the save of an attribute of a thing ("my nearest
// station is Partick").
func (s *sentence) residence(k int) bool {
	if k >= s.n() || s.words[k] != "i" && s.words[k] != "we" {
		return false
	}
	j := k + 1
	if j < s.n() && s.words[j] == "now" {
		j++
	}
	if j+1 >= s.n() || s.words[j] != "live" || s.words[j+1] != "in" {
		return false
	}
	n := s.inGazetteer(j + 2)
	if n == 0 {
		return false
	}
	end := j + 2 + n
	if end < s.n() && s.words[end] == "now" {
		end++
	}
	for i := k; i+1 < end; i++ {
		if s.gapEnd[i] != "" {
			return false
		}
	}
	return end == s.n()
}

// newText reports a text that says it is the new state of things ("my new sort code is …", "my
// number is now …"): the one kind of save news before it may explain.
func newText(content string) bool {
	for _, t := range textmodel.Tokens(content) {
		if t.Text == "new" || t.Text == "now" {
			return true
		}
	}
	return false
}

var (
	newsVerbs = wordSet(`moved changed renewed switched adopted bought started joined booked married replaced
	upgraded updated finished graduated signed received opened rented hired relocated transferred
	enrolled registered subscribed ordered reset paid renamed sorted`)
	endings   = wordSet(`broke split divorced cancelled canceled closed left sold quit retired expired stopped ended died`)
	gotStates = wordSet(`married engaged divorced promoted back`)
	acquired  = wordSet(`joined started adopted bought booked signed opened rented hired enrolled registered
		subscribed found`)
	contactNouns = wordSet(`number code address email phone mobile pin password username handle id card
		account plate registration postcode zip`)
)

// sharesWords reports another save whose text shares a word with this one's: "Remember I prefer tea.
// Remember I prefer coffee." may correct itself.
func sharesWords(s *sentence, from int, content string) bool {
	words := itemWords(content)
	for k := from; k < s.n(); k++ {
		if s.roles[k]&(RoleStop|RoleFraming) == 0 && words[stem(s.words[k])] {
			return true
		}
	}
	return false
}

// apposition splits an object at its first comma into a label and a value ("my old address, 12 Elm
// Street") and returns the value, when the label holds a word that names something and no marker,
// and the value doesn't open a clause of its own ("…, my address is still …").
func (s *sentence) apposition(object span) (span, bool) {
	for k := object.from; k < object.to-1; k++ {
		if s.gapEnd[k] != "," {
			continue
		}
		label, value := span{object.from, k + 1}, span{k + 1, object.to}
		named := false
		for j := label.from; j < label.to; j++ {
			named = named || s.roles[j]&(RoleStop|RoleVague|RoleFraming|RoleBackRef) == 0
		}
		if !named || s.roles[value.from]&(RoleSubject|RoleBackRef) != 0 {
			return span{}, false
		}
		return value, true
	}
	return span{}, false
}

// markedExcept reports a marker other than except on a word of s in [from, to) that points at no
// memory ("note" is a verb and a word for a memory).
func (s *sentence) markedExcept(from, to int, except Role) bool {
	for k := from; k < to; k++ {
		if s.roles[k]&(markers&^except) != 0 && s.roles[k]&RoleFraming == 0 {
			return true
		}
	}
	return false
}

// namesSomeone reports a sentence that names a person, a group or a thing other than the user: a
// name (but a place after "in", "to", "at", "from" or "near": "I live in Lisbon"), a possessive,
// "we", a word for a person or a role. Such context may change who speaks or what the request is
// for ("I'm filling in for Jen today.", "I'm setting up my Tinder."), so it is not neutral beside a
// request.
func (s *sentence) namesSomeone(text string, subject int) bool {
	for i, w := range s.words {
		if i == subject && w == "we" && s.news(i, "", text) {
			continue // "We adopted a dog.": the user's household, as news
		}
		if people[w] || strings.HasSuffix(w, "'s") && w != "it's" && w != "that's" {
			return true
		}
		if i > 0 && s.roles[i] == 0 && name(s.toks[i], text) && !places[s.words[i-1]] && !s.placeName(i, text) && !calendar[w] {
			return true
		}
	}
	return false
}

// placeName reports a name that continues a place's name after "in", "at" …: "at Brightwell Labs".
func (s *sentence) placeName(i int, text string) bool {
	j := i - 1
	for j > 0 && s.gapEnd[j] == "" && s.roles[j] == 0 && name(s.toks[j], text) {
		if places[s.words[j-1]] {
			return true
		}
		j--
	}
	return false
}

var places = map[string]bool{"in": true, "to": true, "at": true, "from": true, "near": true}

// thanksFor are the words a thanks may give its reason in: the help and when it came.
var thanksFor = wordSet(`your the all all of that this help helping support advice answer answers reply
	yesterday's today's morning's
	replies response quick fast earlier yesterday today last night week so much everything time patience
	work summary reminder reminders update updates info tip tips recipe recipes ideas suggestions`)

// praise may follow a thanks: "Thanks for the summary, it was great."
var praise = phrasesOf("it was great", "it was perfect", "it was helpful", "it was really helpful", "it was very helpful",
	"that was great", "that was perfect", "that was helpful", "that was really helpful", "great job", "nice work",
	"good job", "well done", "it helped", "it helped a lot", "it was spot on")

// thanksDoing are the errands a thanks may name: "Thanks for booking the flights."
var thanksDoing = wordSet(`sorting booking organising organizing arranging scheduling rescheduling ordering
	finding planning sending paying printing`)

// calendar names are capitalised but name no one: "We adopted a dog on Sunday."
var calendar = wordSet(`monday tuesday wednesday thursday friday saturday sunday january february march april
	may june july august september october november december christmas easter`)

// marked reports a marker role on a word of s in [from, to), for a sentence beside the request.
func (s *sentence) marked(from, to int) bool {
	for k := from; k < to; k++ {
		if s.roles[k]&markers != 0 {
			return true
		}
	}
	return false
}

// meaningful reports a word from index from on that is no stop word, no vague or back-pointing word.
func (s *sentence) meaningful(from int) bool {
	for k := from; k < s.n(); k++ {
		if s.roles[k]&(RoleStop|RoleVague|RoleBackRef) == 0 {
			return true
		}
	}
	return false
}

func (s *sentence) has(r Role, from int) bool {
	for k := from; k < s.n(); k++ {
		if s.roles[k]&r != 0 {
			return true
		}
	}
	return false
}

// greeting reports a sentence made of greetings, thanks and fillers alone. A greeting with a name
// ("Hi Mom!") is not one: the message may be meant for that person.
func (m *message) greeting(s *sentence) bool {
	// "Hello all of you!": a greeting to every teammate.
	if s.n() > 1 && (s.words[0] == "hello" || s.words[0] == "hi" || s.words[0] == "hey") && matchAt(s.words, 1, vocatives) == s.n()-1 {
		return !s.question
	}
	for i := 0; i < s.n(); {
		if n := matchAt(s.words, i, greetings); n > 0 {
			i += n
			// "Thanks for your help earlier": thanks for the help itself, in words the judge knows —
			// not "Thanks for playing along.", "Thanks for covering for me.", "Thanks for letting me
			// use your account, Anna."
			if i < s.n() && s.words[i] == "for" && (s.words[i-1] == "thanks" || s.words[i-1] == "you") {
				// "Thanks for booking the flights.", "Thanks for sorting my calendar.": an errand
				// done, in plain words that name no one.
				// "Thanks for booking that.": the errand itself, said last.
				that := i+3 == s.n() && (s.words[i+2] == "that" || s.words[i+2] == "it")
				if i+2 < s.n() && thanksDoing[s.words[i+1]] && !s.marked(i+1, s.n()) && (!s.has(RoleBackRef, i+1) || that) &&
					!s.namesSomeone(m.text, -1) && !s.question && !sharesWords(s, i+1, m.content) {
					for k := i + 2; k < s.n(); k++ {
						if s.words[k] == "you" || s.words[k] == "your" || s.words[k] == "me" || consults[s.words[k]] || isEmoji(s.words[k]) {
							return false
						}
					}
					return true
				}
				for k := i + 1; k < s.n(); k++ {
					// "Thanks for yesterday's summary, it was great.": praise after a comma.
					if k > i+1 && s.gapEnd[k-1] == "," && matchAt(s.words, k, praise) == s.n()-k {
						break
					}
					if !thanksFor[s.words[k]] {
						return false
					}
				}
				return i+1 < s.n() && !s.question
			}
			continue
		}

		if s.roles[i]&RoleFiller != 0 && s.roles[i]&markers == 0 {
			i++
			continue
		}
		return false
	}
	return !s.question
}

// name reports a word written with a capital and letters only, which the lexicon doesn't know: a
// name ("Sarah", "Leeds").
func name(t textmodel.Token, text string) bool {
	orig := text[t.Start:t.End]
	first := true
	for _, r := range orig {
		if first && !unicode.IsUpper(r) {
			return false
		}
		if !unicode.IsLetter(r) && r != '\'' && r != '’' {
			return false
		}
		first = false
	}
	return true
}

// isEmoji reports a token of symbols alone (emoji, pictographs, arrows).
func isEmoji(word string) bool {
	for _, r := range word {
		if !unicode.IsSymbol(r) && !unicode.Is(unicode.Mn, r) && r != '\u200d' {
			return false
		}
	}
	return word != ""
}

// SourceSentence returns the sentence of message that a text most likely came from — the one that
// holds the most of the text's distinct words (stop words aside) — as written in the message, or ""
// when no sentence holds any. Suggestions show it so the user sees where a teammate got the idea.
func SourceSentence(text, about string) string {
	words := itemWords(about)
	m := read(text)
	best, bestN := "", 0
	for i := range m.sentences {
		s := &m.sentences[i]
		seen := map[string]bool{}
		for _, wd := range s.words {
			if words[stem(wd)] {
				seen[stem(wd)] = true
			}
		}
		if len(seen) > bestN {
			best, bestN = m.whole(s), len(seen)
		}
	}
	return best
}

// head splits an item that says one thing of one subject — "<subject> is <value>", "<subject>:
// <value>" — into the stems of its subject's words (all but stop words: "old" and "new" count) and
// the number of its value's tokens. ok is false when the item has no such shape: no "is", "are",
// ":" or "=", a subject of stop and vague words alone ("It is …"), or a value that says more than one
// thing ("12 Elm Street, and my work address is …": another verb, "and", "or", "but", a first-person
// word, a ";").
func head(it Item) (subject map[string]bool, value int, ok bool) {
	toks := textmodel.Tokens(it.Content)
	h := -1
	for i, t := range toks {
		if i > 0 && (t.Text == "is" || t.Text == "are") {
			h = i
			break
		}
		if i > 0 && i+1 < len(toks) && strings.ContainsAny(it.Content[t.End:toks[i+1].Start], ":=") {
			h = i + 1
			toks = append(toks[:h:h], append([]textmodel.Token{{}}, toks[h:]...)...) // a place for the separator
			break
		}
	}
	if h <= 0 || h+1 >= len(toks) {
		return nil, 0, false
	}
	subject = map[string]bool{}
	meaningful := false
	for _, t := range toks[:h] {
		r := roles(t.Text)
		if r&RoleStop != 0 {
			continue
		}
		subject[stem(t.Text)] = true
		meaningful = meaningful || r&(RoleVague|RoleFraming) == 0
	}
	if !meaningful {
		return nil, 0, false
	}
	for i, t := range toks[h+1:] {
		r := roles(t.Text)
		switch {
		case r&(RoleVerbLike|RoleFirstPerson|RoleNegation) != 0, t.Text == "and", t.Text == "or", t.Text == "but", t.Text == "&":
			return nil, 0, false
		case i > 0 && strings.Contains(it.Content[toks[h+i].End:t.Start], ";"):
			return nil, 0, false
		}
	}
	return subject, len(toks) - h - 1, true
}

// namesSubject reports whether the words of s in span name the item by its subject (head): every
// word of the subject is there, and every other word is a stop, framing or vague word, an audience,
// or — when value is true, for a forget — a word of the item's value or "name" ("the Wi-Fi network
// name at the cabin" for "Wi-Fi network at the cabin is CabinNet_5G"). It returns the value's length.
func namesSubject(s *sentence, in span, it Item, value bool) (int, bool) {
	subject, n, ok := head(it)
	if !ok || !s.keepsItsSense(in, it, false) {
		return 0, false
	}
	words, names := itemWords(it.Content), itemNames(it)
	seen := map[string]bool{}
	for k := in.from; k < in.to; k++ {
		if a := matchAt(s.words[:in.to], k, postVerbAudiences); a > 0 {
			k += a - 1
			continue
		}
		st := stem(s.words[k])
		if n, ok := names[st]; ok && n != s.words[k] {
			return 0, false // a name compares whole
		}
		switch r := s.roles[k]; {
		case r&RoleVerbLike != 0 || r&RoleCondition != 0 && r&RoleStop != 0:
			return 0, false // a clause that says something of it ("that Tom is reliable"), not its name
		case subject[st]:
			seen[st] = true
		case strings.HasSuffix(s.words[k], "'s"):
			return 0, false // a possessive the subject doesn't have
		case r&RoleStop != 0 && r&RoleFraming == 0, r&(RoleFraming|RoleVague) != 0 && (value || s.words[k] != "old"):
		case value && (words[st] || s.words[k] == "name"):
		default:
			return 0, false
		}
	}
	return n, len(seen) == len(subject)
}

// missesListWord reports an item word the object doesn't name that stands in a list (listWords).
func missesListWord(own, words map[string]bool, it Item) bool {
	listed := listWords(it.Content)
	for w := range words {
		if !own[w] && listed[w] {
			return true
		}
	}
	return false
}

// labelNouns may follow the item's subject in a label: "my landlord's details, Mr. Adeyemi, …".
var labelNouns = map[string]bool{"name": true, "details": true, "info": true, "information": true,
	"contact": true, "address": true, "number": true, "school": true, "email": true, "phone": true,
	"birthday": true, "job": true}

// labelOwner reports whether the possessive at k is the whole of a label before valueFrom that names
// the item's first word, the one it is about: determiners, the possessive, then at most one of
// labelNouns ("my ex-husband's name, Darren Cole" for "Ex-husband is Darren Cole"). "my sister's
// friend, Ana" is no such label.
func (s *sentence) labelOwner(from, valueFrom, k int, it Item) bool {
	if k >= valueFrom {
		return false
	}
	toks := textmodel.Tokens(it.Content)
	first := ""
	for _, t := range toks {
		if roles(t.Text)&(RoleStop|RoleFraming) == 0 {
			first = t.Text
			break
		}
	}
	if first == "" || stem(s.words[k]) != first && stem(s.words[k]) != stem(first) {
		return false
	}
	for j := from; j < k; j++ {
		if !determiners[s.words[j]] && s.words[j] != "old" {
			return false
		}
	}
	switch valueFrom - k {
	case 1:
		return true
	case 2:
		return labelNouns[s.words[k+1]]
	}
	return false
}

// afterTask reads a sentence that opens with a task at i: up to its first "and", the task must be
// neutral on its own (neutral, task: no marker, no back reference), and what follows must be a save
// request frame, read as a sentence of its own.
func (m *message) afterTask(s *sentence, i int, w Write, content, key []textmodel.Token) *verdict {
	a := i + 1
	for a < s.n() && s.words[a] != "and" {
		a++
	}
	if a+1 >= s.n() || a-i < 2 {
		return m.noFrame(s, RoleSave|RoleUpdate)
	}
	task := sentence{index: s.index, toks: s.toks[:a], words: s.words[:a], roles: s.roles[:a], gapEnd: s.gapEnd[:a],
		question: s.question, start: s.start, end: s.toks[a-1].End}
	rest := s.sub(a + 1)
	j, _ := rest.opening()
	if j >= rest.n() || rest.roles[j]&RoleTask != 0 {
		return m.noFrame(s, RoleSave|RoleUpdate)
	}
	if end, _ := rest.longestFrame(j, saveFrames); end < 0 {
		return m.noFrame(s, RoleSave|RoleUpdate)
	}
	if m.neutral(&task, w) != nil || !m.task(&task) {
		return m.noFrame(s, RoleSave|RoleUpdate)
	}
	return m.judgeSave(&rest, w, content, key)
}

// quoteVerbs work on a quoted text that ends the message: "Translate this into Spanish: '…'".
var quoteVerbs = map[string]bool{"translate": true, "proofread": true, "summarize": true, "summarise": true,
	"paraphrase": true, "rephrase": true, "rewrite": true, "reword": true, "polish": true}

// quotedTask reports a sentence that asks for work on a text in quotation marks which runs, closed,
// to the end of the message: "Also, can you translate this into Spanish: 'Good morning, how are
// you?'". Before the quotation mark it holds one of quoteVerbs and no marker but pasting words;
// what is quoted is not the user's voice (A7), so it neither asks nor takes anything back — unless
// the sentence calls it the user's own ("my answer", "what I wrote").
func (m *message) quotedTask(s *sentence) bool {
	var q [2]int
	found := false
	for _, r := range m.quoted {
		if r[0] >= s.start && r[0] < s.end {
			q, found = r, true
			break
		}
	}
	if !found || q[1] >= len(m.text) {
		return false
	}
	if _, size := utf8.DecodeRuneInString(m.text[q[1]:]); strings.Trim(m.text[q[1]+size:], " \t\n.!?") != "" {
		return false
	}
	p, verb := 0, false
	for p < s.n() && s.toks[p].End <= q[0] {
		verb = verb || quoteVerbs[s.words[p]]
		p++
	}
	// "Translate my answer: '…'" quotes the user's own words.
	return p >= 2 && verb && !s.markedExcept(0, p, RolePaste) && !s.hasIn(RoleFirstPerson, 0, p) && !m.inQuotes(s.start)
}

// hasIn reports a word of s in [from, to) with role r.
func (s *sentence) hasIn(r Role, from, to int) bool {
	for k := from; k < to; k++ {
		if s.roles[k]&r != 0 {
			return true
		}
	}
	return false
}

func possessive(w string) bool {
	return strings.HasSuffix(w, "'s") && w != "it's" && w != "that's"
}

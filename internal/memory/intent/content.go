package intent

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/open-bot/memory/internal/memory/textmodel"
)

// The saved text itself (A1 (b)): the teammate copies the user's words up to the clause's end, and
// those words may say that they are not meant to be kept as they are. contentWaits reads the text
// for that; the rest of the message is read by neutral.

// contentWaits returns the first word of the saved text, in [from, to), that makes the write wait and
// why, or -1:
//
//   - a condition on it ("… if I get the job", "… provided Carla signs off", "…, should the flights
//     be cheap", "… as long as I get the visa", "… once the lease is signed");
//   - a take-back after a break (", no, don't", "— actually no", "(delete this later)", "(lie)",
//     "— not for memory", "or rather, don't");
//   - words for a joke or pretence ("as a joke on Tom", "just for fun", "to wind him up", "in my
//     head", "(just an example)");
//   - this moment or this chat, a clause that unsays it, a placeholder, a cut-off end, or a marker
//     glued on with a hyphen (see passing);
//   - another instruction joined to it ("… and book a table", "…, then tell the caterer");
//   - words said to the teammate ("… when you draft the email");
//   - a scope that makes it a one-off ("… for this report", "… for this email only");
//   - where to put it instead of memory, at its end ("… in the expenses sheet", "… on my CV", and
//     after "note", "save" or "write down" an app's name: "… to 1Password", "… in iCloud");
//   - for a shared write, an exception ("… except Leo", "… all but Leo");
//   - for an update, a new text that is no value: an edit or a reference ("add an extra shot", "to
//     include oat milk", "the new one", "whoever replaces Carla", "start 30 minutes later", "a
//     mocha or a latte", "my birthday").
func (s *sentence) contentWaits(from, to int, w Write, text string, storing bool) (int, Reason) {
	for k := from; k < to; k++ {
		wd := s.words[k]
		if s.inTitle(k, from, text) {
			continue
		}
		switch {
		case strongConditions[wd], wd == "once" && k+1 < to && clauseStarts[s.words[k+1]],
			(wd == "until" || wd == "till") && k+1 < to && clauseStarts[s.words[k+1]] && s.words[k+1] != "the",
			wd == "should" && k > from && s.gapEnd[k-1] != "",
			matchAt(s.words[:to], k, conditionPhrases) > 0:
			return k, ReasonConditional
		case jokeWords[wd], matchAt(s.words[:to], k, jokePhrases) > 0,
			// "I'm 34 going on 80"
			wd == "going" && k > from && k+2 < to && s.words[k+1] == "on" && startsWithDigit(s.words[k-1]) && startsWithDigit(s.words[k+2]):
			return k, ReasonHedged
		case wd == "you" || wd == "your" || wd == "yourself" || wd == "you're" || wd == "you'll" || wd == "you'd" ||
			wd == "you've" || wd == "ya":
			return k, ReasonQualified
		case wd == "when" && k > from && k+1 < to && (clauseStarts[s.words[k+1]] || s.roles[k+1] == 0 && name(s.toks[k+1], text)):
			return k, ReasonConditional // "… when Carla confirms", "… when the reorg is announced"
		case (wd == "and" || wd == "then" || wd == "&" || wd == "but" || wd == "so" || wd == "plus") && k+1 < to && instruction(s, k+1),
			k > from && strings.Contains(s.gapEnd[k-1], ",") && instruction(s, k):
			return k, ReasonQualified
		case wd == "for" && k+1 < to && (s.words[k+1] == "this" || s.words[k+1] == "these"),
			wd == "just" && k+1 < to && s.words[k+1] == "for":
			return k, ReasonQualified
		case w.Shared && (exceptions[wd] || matchAt(s.words[:to], k, exceptionPhrases) > 0):
			return k, ReasonQualified
		}
	}
	if k := s.takenBackInside(from, to, text); k >= 0 {
		return k, ReasonTakenBack
	}
	if k := s.asks(from, to, text); k >= 0 {
		return k, ReasonQuestion
	}
	if k := s.afterComma(from, to, text); k >= 0 {
		return k, ReasonQualified
	}
	if k := s.passing(from, to, text); k >= 0 {
		return k, ReasonQualified
	}
	if k := s.putElsewhere(from, to, text, storing); k >= 0 {
		return k, ReasonOtherSense
	}
	if w.Kind == Update {
		if k := s.noValue(from, to, text); k >= 0 {
			return k, ReasonQualified
		}
	}
	return -1, ""
}

// passing returns the first word of a saved text that ties it to this moment or this conversation
// ("… right now", "… today", "this is a draft", "the numbers above", "the link I just sent"), that
// unsays it in a clause of its own after a comma ("…, who doesn't exist", "…, which I invented",
// "…, this week anyway", "…, at least that's what I'll tell HR", "… and also that he isn't"), or
// that is a placeholder ("[NAME]", "DD/MM/YYYY", "555-XXXX", "lorem ipsum"); or -1.
func (s *sentence) passing(from, to int, text string) int {
	for k := from; k < to; k++ {
		wd := s.words[k]
		switch {
		case moments[wd], matchAt(s.words[:to], k, momentPhrases) > 0,
			(wd == "this" || wd == "these") && (k == from || k+1 >= to || s.roles[k+1]&RoleVerbLike != 0 || chatNouns[s.words[k+1]]),
			(wd == "above" || wd == "below" || wd == "here" && k == to-1) && !name(s.toks[k], text),
			placeholders[wd], chatWords[wd],
			(wd == "i" || wd == "you") && k+1 < to && chatVerbs[s.words[k+1]],
			wd == "i" && k+2 < to && s.words[k+1] == "already" && chatVerbs[s.words[k+2]]:
			return k // "… the previous answer was wrong", "I asked about Python, not Java"
		case k > from && strings.Contains(s.gapEnd[k-1], ",") && (wd == "who" || wd == "which" || wd == "whom" || wd == "per" ||
			matchAt(s.words[:to], k, unsayPhrases) > 0),
			wd == "anyway", matchAt(s.words[:to], k, unsaidPhrases) > 0:
			return k
		}
	}
	raw := text[s.toks[from].Start:] // to the message's end: "… +1 (555) ___-____."
	if strings.ContainsAny(raw, "[]<>{}") || placeholder.MatchString(raw) || strings.Contains(strings.ToLower(raw), "example.com") {
		return from
	}
	// A text cut off before its value: "the wifi password is", "I like tea and".
	if last := s.words[to-1]; cutOff[last] && !(to-2 >= from && strings.Contains(text[s.toks[to-2].End:s.toks[to-1].Start], "/")) ||
		last == "on" && to-2 >= from && s.words[to-2] != "is" && s.words[to-2] != "are" && s.words[to-2] != "was" ||
		strings.HasPrefix(strings.TrimSpace(text[s.toks[to-1].End:]), ":") && to == s.n() {
		return to - 1
	}
	// Markers glued on with a hyphen or a slash: "a morning person-NOT", "Dec 24-jk", "$5,000-ish".
	for k := from; k < to; k++ {
		parts := strings.FieldsFunc(s.words[k], func(r rune) bool { return r == '-' || r == '/' })
		for i, part := range parts {
			if i > 0 && gluedMarkers[part] {
				return k
			}
		}
	}
	return -1
}

// instruction reports a request verb at k (after fillers): "and book a table", "then email her".
func instruction(s *sentence, k int) bool {
	for k < s.n() && (s.words[k] == "also" || s.words[k] == "please" || s.words[k] == "then") {
		k++
	}
	if k >= s.n() {
		return false
	}
	if k+1 < s.n() && (s.words[k+1] == "is" || s.words[k+1] == "are" || s.words[k+1] == "was") {
		return false // "so text is better than calls": a noun
	}
	return roles(s.words[k])&(RoleSave|RoleUpdate|RoleForget) != 0 || instructionVerbs[s.words[k]]
}

// takenBackInside returns the start of a part of the text, after a comma, dash, bracket or "or",
// that takes it back ("— actually no", ", no, don't", "or rather, don't", "(delete this later)",
// "(lie)"). A contrast ("I'm vegetarian, not vegan") is no take-back.
func (s *sentence) takenBackInside(from, to int, text string) int {
	for k := from + 1; k < to; k++ {
		gap := s.gapEnd[k-1]
		if !strings.ContainsAny(gap, ",—–-(;") && s.words[k] != "or" {
			continue
		}
		for j := k; j < to; j++ {
			wd := s.words[j]
			// Take-back phrases ("or rather", "never mind"), not a word that may be one ("left side").
			phrase := s.roles[j]&RoleTakeBack != 0 && roles(wd)&RoleTakeBack == 0
			if (takeBackInside[wd] || phrase || roles(wd)&(RoleForget|RoleSave) != 0) && !s.inTitle(j, from, text) {
				return k
			}
			if j > k && strings.ContainsAny(s.gapEnd[j-1], ",—–-(;") {
				break // the next part is read on its own
			}
		}
	}
	return -1
}

// putElsewhere returns the start of a last part of the text that says where to put it other than
// memory: "in|on|to|into|for [the|my …] ⟨record⟩" ("in the expenses sheet", "on my CV", "for the
// board deck"), or — after a verb that stores ("note", "save", "write down") — "in|into|to ⟨app⟩"
// ("to 1Password", "in iCloud"; "in Notion" reads like a place and is left open).
func (s *sentence) putElsewhere(from, to int, text string, storing bool) int {
	for k := to - 2; k > from && k >= to-6; k-- {
		if !placePreps[s.words[k]] {
			continue
		}
		last := s.words[to-1]
		// "… in every app": a scope, not a place to keep it.
		every := k+1 < to && (s.words[k+1] == "every" || s.words[k+1] == "all" || s.words[k+1] == "each" || s.words[k+1] == "any")
		if !every && (records[last] || strings.HasSuffix(last, "'s") && records[strings.TrimSuffix(last, "'s")]) {
			return k
		}
		if storing && k == to-2 && appName(text[s.toks[to-1].Start:s.toks[to-1].End]) {
			return k
		}
	}
	return -1
}

// appName reports a name written as apps are: an inner capital ("iCloud", "OneNote") or a digit
// and letters ("1Password"). A plain capitalised name may be a place ("I'm based in Cork").
func appName(written string) bool {
	r := []rune(written)
	if len(r) < 2 {
		return false
	}
	return strings.IndexFunc(string(r[1:]), unicode.IsUpper) >= 0 ||
		strings.IndexFunc(written, unicode.IsDigit) >= 0 && unicode.IsLetter(r[len(r)-1])
}

// noValue returns the first word of an update's new text that makes it an edit or a reference
// rather than a value.
func (s *sentence) noValue(from, to int, text string) int {
	if r := s.roles[from]; editVerbs[s.words[from]] || r&RoleTask != 0 && !name(s.toks[from], text) ||
		r&RoleBackRef != 0 && s.words[from] != "it's" && !(from+1 < to && s.words[from+1] == "is") || references[s.words[from]] {
		return from // "add an extra shot", "include oat milk", "be honest with me", "see above", "it changed"
	}
	if matchAt(s.words[:to], from, noValues) > 0 {
		return from // "no idea", "to be confirmed"
	}
	digits, parts, clause := false, false, false
	for k := from; k < to; k++ {
		digits = digits || strings.IndexFunc(s.words[k], unicode.IsDigit) >= 0
		parts = parts || k > from && strings.Contains(s.gapEnd[k-1], ",")
		clause = clause || clauseWords[s.words[k]] || s.roles[k]&RoleVerbLike != 0
	}
	for k := from; k < to; k++ {
		wd := s.words[k]
		if relative[wd] || wd == "or" || wd == "one" && (k == to-1 || clauseStarts[s.words[k+1]] || placePreps[s.words[k+1]]) ||
			wd == "same" && k+1 < to && s.words[k+1] == "as" || wd == "last" && k+1 < to && chatNouns[s.words[k+1]] {
			return k // "the new one", "the one I told you", "a mocha or a latte"
		}
		// "… to annoy Carla" (a purpose), "… for short flights", "… on Fridays" (a part of it) —
		// in a value; a whole new statement says them of itself ("my sessions are on Thursdays").
		if k > from && !clause && (wd == "to" && k+1 < to && s.roles[k+1] == 0 && !name(s.toks[k+1], text) &&
			strings.IndexFunc(s.words[k+1], unicode.IsDigit) < 0 || wd == "for" && !parts ||
			wd == "on" && k+1 < to && strings.HasSuffix(s.words[k+1], "s") && calendar[strings.TrimSuffix(s.words[k+1], "s")]) {
			return k
		}
		// "my birthday": another fact, not a value.
		if wd == "my" && !digits && k+1 < to && (contactNouns[s.words[k+1]] || s.words[k+1] == "birthday" || s.words[k+1] == "anniversary") {
			return k
		}
	}
	return -1
}

var (
	references       = wordSet(`see be become same whatever's what details no tbc tbd unknown`)
	noValues         = phrasesOf("no idea", "to be confirmed", "not sure", "don't know")
	strongConditions = wordSet(`if unless provided providing assuming whenever`)
	clauseStarts     = wordSet(`the i i'm my we he she they it you this that`)
	conditionPhrases = phrasesOf("as long as", "subject to", "in case", "depending on", "on condition",
		"so long as")
	jokeWords = wordSet(`fibbing untrue broma blague scherzo witz 冗談 шутка brincadeira
		żart skämt spøk grap obviously vielleicht peut-être peut-etre quizás quizas 多分 たぶん forse talvez
		misschien kanske kanskje måske może možná 也许 아마 prank pranks joke jokes joking kidding troll trolling pretend pretend-style fantasy
		wink roleplay role-play make-believe lulz lol gazillion bazillion costume costumes cosplay fancy-dress
		dress-up larp`)
	jokePhrases = phrasesOf("oder so", "o algo así", "ou quelque chose", "si on", "se assinarmos", "wenn wir", "si firmamos",
		"ab juni", "desde junio", "in theory", "in principle", "on paper", "according to", "in spirit", "and holding",
		"not true", "a lie", "a fib", "is false", "was false", "i'm lying", "i was lying", "im lying", "just for fun", "for fun", "for a laugh", "for the laugh", "wind him up",
		"wind her up", "wind them up", "mess with", "just an example", "an example", "in my head",
		"in my dreams", "nudge nudge", "trust me", "as a bit", "own mind", "totally real", "totally legit",
		"monopoly money")
	instructionVerbs = wordSet(`decline tell email text call ring message cancel ask remind invite reply
		forward post tweet book order buy send ping log roll reschedule`)
	exceptions       = wordSet(`except excepted excluding besides apart`)
	exceptionPhrases = phrasesOf("all but", "other than", "not the", "not for")
	takeBackInside   = wordSet(`don't dont actually rather ignore lie fake kidding jk nope nah memory memories`)
	placePreps       = wordSet(`in on to into onto for with`)
	records          = wordSet(`sheet spreadsheet doc docs document tracker log logbook calendar planner
		notebook notes status file channel chat form list record records signature app cv resume résumé
		deck brief chart whiteboard board wiki crm journal ledger diary agenda phone invoice receipt`)
	relative = wordSet(`instead later earlier more less extra half double whoever whatever whichever told
		whatever's tbc tbd unknown`)
	moments       = wordSet(`today tonight rn`)
	momentPhrases = phrasesOf("right now", "at the moment", "this morning", "this afternoon", "this evening",
		"just now", "just sent", "in five minutes", "in an hour", "for now", "last answer", "last message",
		"just woke", "still waiting", "pro tem", "the nonce", "this session", "current task", "this convo",
		"this conversation", "this chat", "this once", "for the next")
	chatNouns = wordSet(`chat conversation email message call thread draft answer question reply meeting
		document doc list page`)
	unsayPhrases  = phrasesOf("at least", "this week anyway", "again")
	unsaidPhrases = phrasesOf("and also that", "cover story", "made up", "doesn't exist", "does not exist",
		"i invented", "i made up", "not final", "number coming", "to be decided")
	placeholders = wordSet(`lorem ipsum foo asdf qwerty placeholder todo tbd tba anytown`)
	placeholder  = regexp.MustCompile(`_{2,}|%[sd]\b|\b[A-Z]+_[A-Z_]+\b|\b[Xx]{2,}\b|\b[Xx](\.[Xx])+\b|\bN{3,}\b|\bHH:MM\b|\b(?i:dd|mm|yyyy)\b|\(name\)|\$[A-Z](\.[A-Z]+)?\b|\bv[A-Z]\.[A-Z]|\b000-00-0000\b|\bFake Street\b|\b[x]{1,3}\.[x]{1,3}\b|\bDATE\b|\bTIME\b|(?i:todo\b)`)
	cutOff       = wordSet(`is are was were the a an and or at of my but that i`)
	gluedMarkers = wordSet(`not jk lol if kidding maybe prob probs approx tbc`)
	chatWords    = wordSet(`previous answered`)
	chatVerbs    = wordSet(`said asked answered told mentioned typed wrote meant`)
)

// newValue checks the new text of an update that names its item by an object ("Update my dentist:
// Dr. Ruiz", "Change my seat preference to window") and returns the first word that doesn't fit
// the one thing such an update may set, or -1 — an allow-list, since "update" also means telling
// someone ("Update my manager: the report will be late."), installing ("Update my phone to iOS
// 18.") or deciding later ("Change my dentist to someone nearer."):
//
//   - a device or an app takes a new value only restated with a name: "Update my laptop: it's
//     now a 16-inch MacBook Pro M4." (not "Update my phone to iOS 18.");
//   - a new text that is a clause (a subject pronoun, an auxiliary or a verb the lexicon knows)
//     must restate the item — share a word with its text or key, or the object is a note ("Update
//     the marathon note: the race is in November now.") — or say the user's own state ("I'm now
//     in Berlin.", not "I'll be home by 7."), and for a person name one ("I now go to Marta");
//   - no word of either may be a marker (a negation only in a clause: "I don't eat pork now"), a
//     back reference, a question word or an indefinite ("somewhere", "whoever", "soon"), nor
//     someone else's possessive ("Sam's is Dr. Ruiz");
//   - a value for a person ("my manager", "my dentist") is a name, perhaps with where ("Dr. Lewis
//     at Brook Dental"), and nothing else.
func (s *sentence) newValue(from, to int, object span, it Item, text string) (int, Reason) {
	restated := false // "it's now", "it's actually" between the object and the new text
	for k := object.to; k < from; k++ {
		restated = restated || s.words[k] == "now" || s.words[k] == "actually"
	}
	// "Please update my dentist: it's Dr. Ruiz now.": the value after a restatement.
	if n := matchAt(s.words[:to], from, valueRestatements); n > 0 && from+n < to {
		from, restated = from+n, true
		// After "it's", "they're": a thing ("a flat white", "Dr. Ruiz", "9:30"), not a state
		// ("it's closed for refurbishment").
		if w := s.words[from]; s.words[from-1] != "now" && !determiners[w] && !startsWithDigit(w) && !titles[w] &&
			!((s.roles[from] == 0 || calendar[w]) && name(s.toks[from], text)) {
			return from, ReasonQualified
		}
	}
	head := strings.TrimSuffix(s.words[object.to-1], "'s")
	person := people[head] || personNouns[head]
	own := map[string]bool{}
	for _, t := range textmodel.Tokens(it.Key + " " + it.Content) {
		own[t.Text] = true
	}
	clause, named, mine, framed := false, false, false, false
	for k := from; k < to; k++ {
		w := s.words[k]
		clause = clause || clauseWords[w] || s.roles[k]&RoleVerbLike != 0
		named = named || s.roles[k] == 0 && name(s.toks[k], text) && !calendar[w] && !titles[w]
		// "it's coming up": after a restatement, a verb in -ing says what happens, not what it is.
		clause = clause || restated && k == from && len(w) > 4 && strings.HasSuffix(w, "ing")
		mine = mine || k == from && (w == "i" || w == "i'm" || w == "we" || w == "we're" || w == "i've")
	}
	for k := object.from; k < object.to; k++ {
		framed = framed || s.roles[k]&RoleFraming != 0 && s.roles[k]&RoleVague == 0
	}
	// "Change my work laptop to a MacBook Pro 14.": a thing, not a version or a mode.
	if devices[head] && !((restated || s.words[from] == "a" || s.words[from] == "an") && named) {
		return object.to - 1, ReasonOtherSense
	}
	for k := from; k < to; k++ {
		w, r := s.words[k], s.roles[k]
		// A possessive the item doesn't have, of a name or a person: "Sam's", "my wife's" — but
		// a name's part ("9 Queen's Road", "St Anne's Primary") and the user's own ("my mum's").
		possessive := strings.HasSuffix(w, "'s") && !own[w] && !clauseWords[w]
		stemmed := strings.TrimSuffix(w, "'s")
		foreign := possessive && (name(s.toks[k], text) || people[stemmed] || personNouns[stemmed]) &&
			!(k+1 < to && name(s.toks[k+1], text)) && !(!clause && k > from && s.words[k-1] == "my")
		month := name(s.toks[k], text) && calendar[w] // "May"
		// "flat white, no sugar": "no" before a plain word, inside the value.
		noThing := w == "no" && k > from && k+1 < to && s.roles[k+1] == 0 ||
			w == "not" && k > from+1 && k+1 < to && s.gapEnd[k-1] == "," // "May 15th, not the 14th"
		// "after 2pm", "before 9:30": a time, not a condition. "was" in a note's new text: "the
		// boiler was serviced on 9 October".
		timed := (w == "after" || w == "before" || w == "until") && k+1 < to && startsWithDigit(s.words[k+1]) ||
			framed && (w == "was" || w == "were")
		switch {
		case foreign:
			return k, ReasonNotTheObject
		case r&(markers&^RolePaste) != 0 && r&RoleFraming == 0 && !month && !noThing && !timed && !(clause && r&RoleNegation != 0),
			r&(RoleBackRef|RoleQuestion) != 0 && !clauseWords[w], indefinites[w],
			r&RoleVague != 0 && w != "one" && w != "last" && !clauseWords[w]:
			return k, ReasonQualified
		}
	}
	if clause {
		words := itemWords(it.Content + " " + it.Key)
		restates := false
		for k := from; k < to; k++ {
			restates = restates || s.roles[k]&(RoleStop|RoleFraming|RoleVague) == 0 && !clauseWords[s.words[k]] && words[stem(s.words[k])]
		}
		ownState := mine && !s.hasWord(from, futures)
		if !(framed || restates && !person || ownState && (!person || named)) {
			return from, ReasonNotTheObject
		}
		return -1, ""
	}
	if person {
		if !name(s.toks[from], text) && !titles[s.words[from]] {
			return from, ReasonNotTheObject
		}
		for k := from; k < to; k++ {
			if w := s.words[k]; !name(s.toks[k], text) && !titles[w] && !nameParticles[w] && !firmWords[w] && !placeNouns[w] &&
				!(restated && k == to-1 && w == "now") {
				return k, ReasonNotTheObject
			}
		}
	}
	return -1, ""
}

var (
	// clauseWords open or carry a clause: subject pronouns and auxiliaries.
	clauseWords = wordSet(`i i'm im i'll i've i'd we we're we've we'll he she they he's she's they're they've
		they'll you you're it it's there there's that's is are was were will would can could should shall has
		have had does did do be been being says said knows knew`)
	futures = wordSet(`i'll we'll will going gonna soon later tomorrow next`)
	devices = wordSet(`phone laptop browser app apps computer tablet ipad iphone android mac pc watch tv
		router printer os software system firmware kindle console headphones earbuds`)
	personNouns = wordSet(`manager doctor dentist gp vet coach trainer tutor landlord landlady lawyer accountant
		therapist plumber electrician cleaner hairdresser barber mechanic lead supervisor director ceo cto
		mentor agent builder gardener physio optician surgeon nurse midwife solicitor`)
	indefinites = wordSet(`somewhere someone somebody something wherever whoever whatever whenever anywhere anyone
		anybody elsewhere nowhere nobody none later soon tbd tba tbc unknown whichever`)
	titles        = wordSet(`dr mr mrs ms mx prof sir dame`)
	nameParticles = wordSet(`de van von da del della la le bin al di du der den ter`)
	// firmWords may follow a person's name in a new value: "Dr. Lewis at Brook Dental", "Helen
	// Brooks at Brooks & Co."
	firmWords = wordSet(`at of from & and co ltd inc llp the on in`)
	// valueRestatements may open an update's new value: "it's Dr. Ruiz now".
	valueRestatements = phrasesOf("it's now", "it is now", "it's", "it is", "they're", "they are", "he's", "she's",
		"he is", "she is", "now")
)

// afterComma returns the first word of a part of the saved text after a comma that is no part of
// the value but something said about it, or -1. A part after a comma may go on with the value
// ("Flat 3, 9 Queen's Road", "oat flat white, extra hot", "Tom Hale, 07700 900888"); it may not
// give another one ("…, or 4812", "…, or was it coffee"), say who says so or how sure it is ("…,
// says my sister", "…, Sam reckons", "…, to be confirmed", "…, last I checked", "…, or
// thereabouts"), or ask for something ("…, check with my wife", "…, pick one", "…, flip a coin").
func (s *sentence) afterComma(from, to int, text string) int {
	for k := from + 1; k < to; k++ {
		if !strings.Contains(s.gapEnd[k-1], ",") {
			continue
		}
		if w := s.words[k]; s.roles[k]&RoleTask != 0 || decides[w] {
			return k
		}
		for j := k; j < to && (j == k || !strings.Contains(s.gapEnd[j-1], ",")); j++ {
			w, r := s.words[j], s.roles[j]
			sayer := r == 0 && name(s.toks[j], text) && !calendar[w] && j+1 < to && s.roles[j+1] == 0 && strings.HasSuffix(s.words[j+1], "s") &&
				!name(s.toks[j+1], text) && s.gapEnd[j] == ""
			// A consequence in the user's own words stays part of the fact: "I'm hard of hearing,
			// so text is better than calls", "…, so I'm on NZ time" (not "…, so I'm told").
			mine := r&RoleFirstPerson != 0 || clauseWords[w] && w != "it's"
			if w == "or" || hearsay[w] || sayer || mine && s.words[k] != "so" {
				return j
			}
		}
	}
	return -1
}

var (
	decides = wordSet(`pick flip decide choose ask check confirm verify guess double-check toss`)
	hearsay = wordSet(`says said claims claimed reckons reckoned insists insisted thinks thought told recall recalls
		checked looked apparently reportedly allegedly supposedly awaiting pending needs confirmation tbc tbd
		thereabouts roughly approximately give plus minus`)
)

// asks returns the first word of a saved text that is a question, or -1 (A1: a question asks
// nothing): one in question order ("do I have a dentist appointment Friday", "am I free on
// Friday", "is it my turn to host"), one opened by a question word ("which gate my flight leaves
// from", "whether my lease ends in June"), one the user wonders about ("I wonder whether …", "…
// or was it 4417"), or one that ends on a tag ("my flight is at 9, right", "…, innit").
func (s *sentence) asks(from, to int, text string) int {
	if from+1 < to && auxiliaries[s.words[from]] && (subjects[s.words[from+1]] || s.roles[from+1] == 0 && name(s.toks[from+1], text)) {
		return from
	}
	if questionWords[s.words[from]] {
		return from
	}
	for k := from; k < to; k++ {
		w := s.words[k]
		if w == "wonder" || w == "wondering" || w == "whether" {
			return k
		}
		if w == "or" && k+1 < to && (s.words[k+1] == "was" || s.words[k+1] == "is" || s.words[k+1] == "were") {
			return k
		}
	}
	last := s.words[to-1]
	if to-1 > from && (s.gapEnd[to-2] == "," && lastHedges[last] || lastUndoers[last]) {
		return to - 1
	}
	if name(s.toks[to-1], text) {
		return -1 // "my band is called Yeah Right"
	}
	if to-1 > from && (tags[last] && (s.gapEnd[to-2] == "," || last == "right" && s.words[to-2] != "the" && s.words[to-2] != "to") ||
		to-2 > from && matchAt(s.words[:to], to-2, tagPhrases) == 2) {
		return to - 1
	}
	return -1
}

var (
	auxiliaries   = wordSet(`do does did am is are was were can could should would will shall has have had may might must wasn't isn't aren't don't doesn't didn't won't`)
	subjects      = wordSet(`i my it the we you he she they there this that a an our his her their me`)
	questionWords = wordSet(`which what where who whom whose whether why`)
	// lastHedges at the end after a comma make a text unsure: "I'm sober, mostly".
	lastHedges = wordSet(`mostly basically roughly approximately sometimes kinda sorta ish partly`)
	// lastUndoers at the very end say the text isn't so: "my dog is Rex (false)".
	lastUndoers = wordSet(`false lie fib untrue`)
	tags        = wordSet(`right innit yeah eh no yes ok okay huh`)
	tagPhrases  = phrasesOf("isn't it", "aren't i", "don't i", "or what", "or not", "is it", "didn't i", "wasn't it")
)

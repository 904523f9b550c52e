package intent

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/open-bot/memory/internal/memory/textmodel"
)

// message is a user's message as the judge reads it: its sentences, tagged once, and whether it is
// in the user's own voice at all (A7).
type message struct {
	text      string
	sentences []sentence
	// voice is set when some of the message is not the user's own voice (a paste, code, a role
	// marker); voiceWords are the words that showed it.
	voice      Reason
	voiceWords string
	// quoted are the byte ranges inside quotation marks.
	quoted [][2]int
	// req and content are the request sentence and the write's text while the rest is read.
	req     *sentence
	content string
	// forget is set while the rest of a forget's message is read.
	forget bool
	update bool // the write is an update
	// clause is set while a clause after the text inside the request sentence is read ("…, and
	// book the table").
	clause bool
}

// sentence is one sentence: its tokens with their roles, and the punctuation between them.
type sentence struct {
	index  int
	toks   []textmodel.Token
	words  []string // canonical forms
	roles  []Role
	gapEnd []string // non-space punctuation after each token, up to the next (or the sentence's end)
	// question: the sentence ends with a question mark, or opens like a question.
	question bool
	// qmark: a question mark ends it (question may be set by its first word alone).
	qmark bool
	start int
	end   int
}

func (s *sentence) n() int { return len(s.words) }

// text returns the message's words from token i to token j (exclusive), as written.
func (m *message) between(s *sentence, i, j int) string {
	if i >= j || i >= s.n() {
		return ""
	}
	return m.text[s.toks[i].Start:s.toks[min(j, s.n())-1].End]
}

func (m *message) whole(s *sentence) string { return m.between(s, 0, s.n()) }

// sentenceEnd: characters that end a sentence (after NFKC, so full-width forms are included).
func sentenceEnd(r rune) bool {
	switch r {
	case '.', '!', '?', ';', '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029', '\u203c', '\u2047',
		'\u2048', '\u2049', '\u3002', '\uff61', '\u061f', '\u0964', '\u0965', '\u061b', '\u06d4', '…':
		return true
	}
	return false
}

func questionMark(r rune) bool {
	return r == '?' || r == '‽' || r == '\u061f' || r == '\u2047' || r == '\u2048' || r == '\u2049' || r == '¿'
}

// abbreviations end with a full stop that doesn't end the sentence ("my dentist is Dr. Ruiz").
var abbreviations = map[string]bool{"dr": true, "mr": true, "mrs": true, "ms": true, "mx": true, "st": true,
	"prof": true, "jr": true, "sr": true, "vs": true, "etc": true, "e.g": true, "i.e": true, "approx": true,
	"mt": true, "ft": true, "inc": true, "ltd": true, "co": true, "dept": true, "apt": true, "ave": true,
	"blvd": true, "rd": true, "no": true}

// nameEnds are the abbreviations that close a name or a list rather than open one.
var nameEnds = map[string]bool{"ltd": true, "inc": true, "co": true, "etc": true, "jr": true, "sr": true}

// smileAtEnd blanks a plain smile that ends the message (" :)", " :-)"): the closer "🙂" written
// in ASCII. Any other emoticon, or a smile anywhere else, is still read as a voice cue (a wink, a
// devil's grin ">:)", "}:)").
func smileAtEnd(text string) string {
	trimmed := strings.TrimRight(text, " \t\n")
	for _, smile := range []string{" :)", " :-)"} {
		if strings.HasSuffix(trimmed, smile) {
			at := len(trimmed) - len(smile) + 1
			return text[:at] + strings.Repeat(" ", len(smile)-1) + text[at+len(smile)-1:]
		}
	}
	return text
}

// read cuts the message into sentences and tags them (one pass), and looks for what shows that
// part of it is not the user's own voice.
func read(text string) *message { return readKeeping(text, "") }

// readKeeping is read where every "!" inside a verbatim occurrence of keep (the text being saved,
// "Hx!40-pepper") is part of a word rather than a sentence's end — unless the occurrence is glued
// to another "!" or "?" ("Hx!40-pepper!" may end in the password's own "!").
func readKeeping(text, keep string) *message {
	kept := map[int]bool{}
	if strings.Contains(strings.TrimSpace(keep), "!") {
		for at := 0; ; {
			i := strings.Index(text[at:], keep)
			if i < 0 {
				break
			}
			i += at
			if end := i + len(keep); end == len(text) || !strings.ContainsRune("!?", rune(text[end])) {
				for j := i; j < end; j++ {
					if text[j] == '!' && j > i && j+1 < end && !unicode.IsSpace(rune(text[j-1])) && !unicode.IsSpace(rune(text[j+1])) {
						kept[j] = true
					}
				}
			}
			at = i + 1
		}
	}
	written := text
	text = smileAtEnd(unbold(ownList(text))) // same length: offsets into one are offsets into the other
	m := &message{text: text}
	m.voice, m.voiceWords = voiceOf(text)
	m.quoted = quotedRanges(written) // a quote mark before "**" opens a quote
	toks := textmodel.Tokens(text)
	cur := sentence{}
	flush := func(question bool) {
		if cur.n() > 0 {
			cur.index = len(m.sentences)
			cur.question = question || roles(cur.words[0])&RoleQuestion != 0 && !(cur.n() > 1 && cur.words[0] == "will")
			cur.qmark = question
			cur.start, cur.end = cur.toks[0].Start, cur.toks[cur.n()-1].End
			m.sentences = append(m.sentences, cur)
		}
		cur = sentence{}
	}
	for i, t := range toks {
		if i > 0 {
			gap := norm.NFKC.String(text[toks[i-1].End:t.Start])
			ends, question := false, false
			for j, r := range gap {
				prev := toks[i-1].Text
				// "… is Brightline Ltd. Draft my reply …": an abbreviation that ends a name ends
				// the sentence too when a capitalised word the lexicon knows follows.
				ender := nameEnds[prev] && unicode.IsUpper([]rune(text[t.Start:])[0]) && roles(t.Text) != 0
				if r == '.' && j == 0 && strings.TrimSpace(gap) == "." && !ender && (abbreviations[prev] ||
					len([]rune(prev)) == 1 && unicode.IsLetter([]rune(prev)[0]) && unicode.IsUpper([]rune(text[toks[i-1].Start:])[0])) {
					continue
				}
				// "6.40 a.m. on Friday": "a.m." and "p.m." before a word in small letters go on.
				if r == '.' && j == 0 && strings.TrimSpace(gap) == "." && (prev == "a.m" || prev == "p.m") &&
					unicode.IsLower([]rune(text[t.Start:])[0]) {
					continue
				}
				// "Zq9!rT4vW": a "!" inside the text being saved, written as it is, is part of it.
				if r == '!' && kept[toks[i-1].End] {
					continue
				}
				ends = ends || sentenceEnd(r)
				question = question || questionMark(r)
			}
			if ends || cur.n() > 0 && requestAfter(gap, cur.words, toks[i:]) {
				flush(question)
			} else if cur.n() > 0 {
				cur.gapEnd[cur.n()-1] = strings.TrimSpace(gap)
			}
		}
		cur.toks = append(cur.toks, t)
		cur.words = append(cur.words, t.Text)
		cur.roles = append(cur.roles, wordRoles(t.Text))
		cur.gapEnd = append(cur.gapEnd, "")
	}
	question := false
	if len(toks) > 0 && strings.ContainsAny(norm.NFKC.String(text[:toks[0].Start]), "¿?") {
		question = true // a leading "¿" opens a question
	}
	if len(toks) > 0 {
		for _, r := range norm.NFKC.String(text[toks[len(toks)-1].End:]) {
			question = question || questionMark(r)
		}
	}
	flush(question)
	for i := range m.sentences {
		m.sentences[i].tagPhrases()
	}
	return m
}

// requestAfter reports a clause that opens a request after a comma or a dash ("My mum's birthday is
// coming up, so please remember that …", "My landlord's number changed — update it to …"): the
// request begins a sentence of its own, and what came before is read as one too — not after
// "Everyone should know this", which is the request's audience.
func requestAfter(gap string, before []string, next []textmodel.Token) bool {
	// "Everyone should know this, so save it: …" names the audience of the request that follows.
	for _, w := range before {
		if w == "know" {
			return false
		}
	}
	g := strings.TrimSpace(gap)
	if g != "," && g != "—" && g != "–" && !(g == "-" && strings.HasPrefix(gap, " ")) {
		return false
	}
	i := 0
	if i < len(next) && next[i].Text == "so" && g == "," {
		i++
	} else if g == "," {
		return false
	}
	if i < len(next) && next[i].Text == "please" {
		i++
	}
	return i < len(next) && requestVerbs[next[i].Text]
}

var requestVerbs = map[string]bool{"remember": true, "save": true, "note": true, "store": true, "update": true,
	"correct": true, "forget": true, "delete": true, "remove": true, "erase": true}

// wordRoles are a word's roles from the lexicon, and negation for every "…n't" contraction ("hasn't",
// "needn't") and its forms typed without the apostrophe.
func wordRoles(w string) Role {
	r := roles(w)
	if strings.HasSuffix(w, "n't") || negationsWithoutApostrophe[w] {
		r |= RoleNegation
	}
	return r
}

var negationsWithoutApostrophe = map[string]bool{"dont": true, "doesnt": true, "didnt": true, "cant": true, "wont": true,
	"wouldnt": true, "shouldnt": true, "mustnt": true, "neednt": true, "isnt": true, "arent": true, "wasnt": true,
	"werent": true, "havent": true, "hasnt": true, "hadnt": true, "aint": true, "shant": true, "couldnt": true,
	"mightnt": true}

// tagPhrases adds the roles of the phrases that mark a sentence as a whole (take-backs, sarcasm)
// to their words.
func (s *sentence) tagPhrases() {
	for i := range s.words {
		if n := matchAt(s.words, i, takeBackPhrases); n > 0 {
			for j := i; j < i+n; j++ {
				s.roles[j] |= RoleTakeBack
			}
		}
		if n := matchAt(s.words, i, hedgePhrases); n > 0 {
			for j := i; j < i+n; j++ {
				s.roles[j] |= RoleHedge
			}
		}
		if n := matchAt(s.words, i, sarcasmPhrases); n > 0 {
			for j := i; j < i+n; j++ {
				s.roles[j] |= RoleSarcasm
			}
		}
	}
}

// matchAt returns the length of the longest phrase of ps that starts at words[i] (0 if none).
// A phrase word ":" or "," or "-" matches the punctuation between two words, not a word.
func matchAt(words []string, i int, ps []phrase) int {
	best := 0
	for _, p := range ps {
		if len(p) > best && hasPrefix(words[i:], p) {
			best = len(p)
		}
	}
	return best
}

func hasPrefix(words []string, p phrase) bool {
	if len(p) > len(words) {
		return false
	}
	for j, w := range p {
		if words[j] != w {
			return false
		}
	}
	return true
}

// frameMatch matches a frame phrase at token i of s, where the words ":", ",", "-" in the phrase
// must be the punctuation after the previous word. It returns the token index after the match, the
// punctuation check included, or -1.
func (s *sentence) frameMatch(i int, p phrase) int {
	j := i
	for k, w := range p {
		if isPunct(w) {
			if j == i || !strings.HasPrefix(s.gapEnd[j-1], w) {
				return -1
			}
			continue
		}
		if j >= s.n() || s.words[j] != w {
			return -1
		}
		// Inside a phrase, no punctuation may part its words ("remember, that").
		if k+1 < len(p) && !isPunct(p[k+1]) && s.gapEnd[j] != "" {
			return -1
		}
		j++
	}
	return j
}

func isPunct(w string) bool { return w == ":" || w == "," || w == "-" }

// longestFrame returns where the longest phrase of ps that matches at i ends, and the phrase.
func (s *sentence) longestFrame(i int, ps []phrase) (int, phrase) {
	best, bestLen := -1, -1
	var bestP phrase
	for _, p := range ps {
		if end := s.frameMatch(i, p); end >= 0 && len(p) > bestLen {
			best, bestLen, bestP = end, len(p), p
		}
	}
	return best, bestP
}

// Line-level signs that part of a message is not the user's own voice (A7).
var (
	mailHeader = regexp.MustCompile(`(?im)^\s*(from|to|subject|sent|date|cc|bcc|reply-to|fwd?|re)\s*:`)
	roleMarker = regexp.MustCompile(`(?im)(^|[\s\[(<|])(system|assistant|user|ai|human|bot|model|developer|tool|instructions?|chatgpt|claude|gpt|gemini|copilot|narrator)\s*(\]|\|>|>)?\s*:`)
	tokenMark  = regexp.MustCompile(`<\|[^|]*\|>|\[/?inst\]|<</?sys>>|<\|im_(start|end)\|>|(?i)</?(system|user|assistant)>`)
	chatLog    = regexp.MustCompile(`(?m)^\s*(\[\d{1,2}[:.]\d{2}|\d{1,2}:\d{2}\s*(am|pm)?\s*[-–:]|\w[\w .'-]{0,30} wrote:|on .{3,80} wrote:|-{3,}\s*(original|forwarded) message)`)
	// emoticon finds a face drawn in punctuation, which may wink or roll its eyes at the words
	// (";)", ":-P", "-_-", "^^"): the judge can't tell, so a message holding one asks nothing.
	emoticon  = regexp.MustCompile(`[;:=][-'^o]?[)(\]\[DPp|](?:\W|$)|[;:=][-'^]?[/\\](?:\s|$)|\([;:](?:\s|$)|\}:\)|(?:^|[\s(])[-.•^>oO0T;:,]_+[-.•^<oO0T;:,](?:[\s).!?']|$)|-[.,]+-|\^\^|<3|\bx[Dd]\b|\bXD\b|¯\\_`)
	listLine  = regexp.MustCompile(`(?m)^\s*([-*•+]|\d{1,2}[.)])\s+\S`)
	labelLine = regexp.MustCompile(`(?m)^[^\n]{1,80}:\s*\n\s*\S`)
)

// ownList reads a list the user wrote as their own requests: at least two list items, each opening
// with a request or a task verb the judge knows ("- book the car service", "2) save my new one:
// …"), and besides them only blank lines and a heading or sign-off made of greeting and counting
// words ("Couple of things:", "hey! 3 things pls", "thx"). It blanks the list markers and those
// lines, keeping every offset, so each item reads as a sentence. Anything else — an item that opens
// otherwise ("- scrap that", "- cancel it"), a heading like "Notes from Dana:" — leaves the text
// as it is, and the list reads as pasted (A7).
func ownList(text string) string {
	lines := strings.Split(text, "\n")
	items := 0
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if loc := listMarker.FindStringIndex(l); loc != nil {
			if !opensRequest(l[loc[1]:]) {
				return text
			}
			lines[i] = strings.Repeat(" ", loc[1]) + l[loc[1]:]
			items++
			continue
		}
		toks := textmodel.Tokens(l)
		if len(toks) > 6 {
			return text
		}
		for _, t := range toks {
			if !listHeading[t.Text] {
				return text
			}
		}
		for _, r := range l {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r) && !strings.ContainsRune(":!,.-", r) {
				return text // a quote mark, a bracket …: the heading may open something
			}
		}
		lines[i] = strings.Repeat(" ", len(l))
	}
	if items < 2 {
		return text
	}
	return strings.Join(lines, "\n")
}

var (
	listMarker  = regexp.MustCompile(`^\s*(?:[-*•+]|\d{1,2}[.)])\s+`)
	listHeading = func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(`hey hi hello ok okay so quick couple of a few some things thing todo
			to-do list for today tomorrow pls please plz thx thanks ty cheers 2 3 4 5 two three four five`) {
			m[w] = true
		}
		return m
	}()
)

// opensRequest reports a list item that opens, after fillers, with the base form of a request or
// task verb and no marker besides.
func opensRequest(item string) bool {
	for _, t := range textmodel.Tokens(item) {
		r := roles(t.Text)
		if r&RoleFiller != 0 {
			continue
		}
		return r&(RoleTask|RoleSave|RoleUpdate|RoleForget) != 0 && r&(markers&^(RolePaste|RoleSave|RoleUpdate|RoleForget)) == 0
	}
	return false
}

// unbold blanks the asterisks of balanced bold spans ("Please remember **my flight is AC 851**."):
// emphasis, unlike strikethrough, says nothing against the words.
func unbold(text string) string {
	if strings.Count(text, "**")%2 != 0 {
		return text
	}
	return strings.ReplaceAll(text, "**", "  ")
}

// noClock blanks the colons, dots and slashes between digits ("10:30", "16:9", "2/3") and the colon
// of "://" in links, which no emoticon needs, keeping every offset.
func noClock(text string) string {
	b := []byte(text)
	digit := func(i int) bool { return i >= 0 && i < len(b) && b[i] >= '0' && b[i] <= '9' }
	for i := range b {
		switch {
		case b[i] == ':' && i+2 < len(b) && b[i+1] == '/' && b[i+2] == '/':
			b[i] = ' '
		case (b[i] == ':' || b[i] == '/' || b[i] == '.') && digit(i-1) && digit(i+1):
			b[i] = ' '
		}
	}
	return string(b)
}

// voiceOf finds what shows that some of the message is not the user's own words: code, block
// quotes, mail headers, role markers, chat logs, emoticons, lists and labelled blocks, or more
// lines than a chat message has. It returns the reason and the words that showed it, or "".
func voiceOf(text string) (Reason, string) {
	lower := strings.ToLower(text)
	for _, fence := range []string{"```", "~~~", `"""`, "'''"} {
		if i := strings.Index(lower, fence); i >= 0 {
			return ReasonCode, lineAt(text, i)
		}
	}
	if loc := tokenMark.FindStringIndex(text); loc != nil {
		return ReasonRolePlay, text[loc[0]:loc[1]]
	}
	if loc := roleMarker.FindStringIndex(text); loc != nil {
		return ReasonRolePlay, lineAt(text, loc[0])
	}
	for _, re := range []*regexp.Regexp{mailHeader, chatLog, labelLine} {
		if loc := re.FindStringIndex(text); loc != nil {
			return ReasonPasted, lineAt(text, loc[0])
		}
	}
	// Bidi controls make what is shown differ from what is saved; strikethrough (combining
	// strokes, "~~", <del>, <s>) says the opposite of the words it strikes.
	for _, r := range text {
		switch {
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f,
			r >= 0x0334 && r <= 0x0338:
			return ReasonUnclear, firstLine(text)
		}
	}
	if l := strings.ToLower(text); strings.Contains(l, "<del>") || strings.Contains(l, "<s>") || strings.Contains(l, "<strike>") {
		return ReasonUnclear, firstLine(text)
	}
	if loc := emoticon.FindStringIndex(noClock(text)); loc != nil {
		return ReasonHedged, text[loc[0]:loc[1]]
	}
	lines := 0
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, ">") {
			return ReasonQuoted, t
		}
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || t != "" && (strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")) {
			return ReasonPasted, t
		}
		if t != "" {
			lines++
		}
	}
	if loc := listLine.FindStringIndex(text); loc != nil {
		return ReasonPasted, lineAt(text, loc[0])
	}
	if lines > 4 {
		return ReasonPasted, firstLine(text)
	}
	return "", ""
}

func lineAt(text string, i int) string {
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		return strings.TrimSpace(text[start:])
	}
	return strings.TrimSpace(text[start : i+end])
}

func firstLine(text string) string {
	return lineAt(text, len(text)-len(strings.TrimLeft(text, " \n\t")))
}

// quotedRanges returns the byte ranges of the message inside quotation marks. An opening mark
// without its closing one quotes to the end of the message (fail closed).
func quotedRanges(text string) [][2]int {
	var out [][2]int
	open := -1
	var want rune
	runes := []rune(text)
	pos := 0
	offsets := make([]int, len(runes)+1)
	for i, r := range runes {
		offsets[i] = pos
		pos += len(string(r))
	}
	offsets[len(runes)] = pos
	letter := func(i int) bool {
		return i >= 0 && i < len(runes) && (unicode.IsLetter(runes[i]) || unicode.IsDigit(runes[i]))
	}
	for i, r := range runes {
		if open >= 0 {
			apostrophe := want == '\'' && (r == '\'' || r == '’')
			if apostrophe && !letter(i+1) || want != '\'' && (r == want || want == '"' && r == '”') {
				out = append(out, [2]int{offsets[open], offsets[i]})
				open = -1
			}
			continue
		}
		switch r {
		case '"', '“', '„', '«', '»', '「', '『', '‹', '›', '‟':
			open, want = i, closing(r)
		case '\'', '‘', '’':
			// An apostrophe inside or after a word ("don't", "teammates'") is no quotation mark;
			// one before a word or its markdown ("'**Remember** …'") is.
			if !letter(i-1) && (letter(i+1) || i+1 < len(runes) && strings.ContainsRune("*_~", runes[i+1])) {
				open, want = i, '\''
			}
		case '`':
			open, want = i, '`'
		}
	}
	if open >= 0 {
		out = append(out, [2]int{offsets[open], len(text)})
	}
	return out
}

func closing(r rune) rune {
	switch r {
	case '“', '„', '‟':
		return '”'
	case '«':
		return '»'
	case '「':
		return '」'
	case '『':
		return '』'
	case '‹':
		return '›'
	case '»':
		return '«'
	case '›':
		return '‹'
	}
	return r
}

// inQuotes reports whether byte offset at is inside quotation marks.
func (m *message) inQuotes(at int) bool {
	for _, q := range m.quoted {
		if at > q[0] && at < q[1] {
			return true
		}
	}
	return false
}

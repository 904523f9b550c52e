package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The question types of the data set (docs/EVAL.md says what each tests).
const (
	typeSingleHop  = "single-hop"
	typeMultiHop   = "multi-hop"
	typeTemporal   = "temporal"
	typeNameHeavy  = "common words and names"
	typeParaphrase = "paraphrase"
	typePreference = "preference"
)

// questionTypes is the order of the report's rows.
var questionTypes = []string{typeSingleHop, typeMultiHop, typeTemporal, typeNameHeavy, typeParaphrase, typePreference}

// Memory is one item of a conversation: Label names it in the data set (the product gives it an id
// when it is imported).
type Memory struct {
	Label   string `json:"label"`
	Kind    string `json:"kind"`
	Content string `json:"content"`
}

// Question is a request with the labels of the memories that answer it.
type Question struct {
	Type     string   `json:"type"`
	Text     string   `json:"text"`
	Evidence []string `json:"evidence"`
}

// Conversation is one teammate's memory and the questions asked of it.
type Conversation struct {
	Name      string     `json:"name"`
	Persona   string     `json:"persona"`
	Memories  []Memory   `json:"memories"`
	Questions []Question `json:"questions"`
}

// Vocabulary of the generator. The common words recur across many memories of a conversation; the
// rare words (made by rareWord) each appear in one memory and in its question.
var (
	personas = []string{"Maya", "Jonas", "Priya", "Tomas", "Lena", "Omar", "Greta", "Felix", "Nadia", "Hugo"}
	friends  = []string{"Sam", "Alex", "Rosa", "Ben", "Clara", "David", "Elena", "Frank", "Iris", "Kai", "Lucy", "Marco"}
	relation = []string{"sister", "brother", "cousin", "neighbour", "colleague", "aunt", "uncle", "friend"}
	months   = []string{"January", "February", "March", "April", "June", "July", "August", "September", "October", "November", "December"}
	years    = []int{2021, 2022, 2023, 2024, 2025}
	// Everyday activities: the events of the filler and of the temporal questions' distractors.
	activities = []string{
		"had dinner", "went to the cinema", "walked in the park", "cooked pasta", "visited the market",
		"played tennis", "went shopping", "watched a film", "cleaned the kitchen", "met for coffee",
		"took the train to town", "painted the fence", "went for a run", "read a book", "baked bread",
	}
	talk = []string{
		"should call more often", "was busy at work again", "liked the new place", "wanted to meet on Sunday",
		"forgot the keys at home", "was tired after the trip", "had a lot of work this week", "would cook dinner",
		"needed a new phone", "was late for the meeting", "found the film boring", "wanted to go home early",
	}
	commonObjects = []string{"car", "phone", "kitchen", "garden", "bike", "laptop", "sofa", "window", "door", "bag"}
	// Topics of the preference questions: what the memory says, what the question asks (other words
	// but for the topic), and a word the filler also uses about other people.
	preferences = []struct{ memory, question, topic string }{
		{"{P} prefers oat milk and no sugar in coffee.", "How does {P} take coffee?", "coffee"},
		{"{P} always picks an aisle seat on long flights.", "Where does {P} want to sit on a flight?", "flight"},
		{"{P} loves listening to old jazz records while working.", "What music does {P} enjoy while working?", "music"},
		{"{P} enjoys detective novels more than any other books.", "Which books does {P} enjoy reading?", "book"},
		{"{P} prefers green tea with jasmine in the evening.", "What tea does {P} like in the evening?", "tea"},
		{"{P} likes a quiet beach holiday in the south.", "What kind of holiday does {P} like?", "holiday"},
		{"{P} prefers to swim in the lake rather than in a pool.", "Where does {P} like to swim?", "swim"},
		{"{P} enjoys spicy curry for dinner on Fridays.", "What does {P} like for dinner on Fridays?", "dinner"},
		{"{P} prefers sunflowers to roses on the table.", "Which flowers does {P} like?", "flowers"},
		{"{P} likes science fiction films with a good soundtrack.", "What films does {P} enjoy?", "film"},
	}
	// Paraphrase pairs: the question shares no word with the memory but the persona's name.
	paraphrases = []struct{ memory, question string }{
		{"{P} cannot eat peanuts without getting sick.", "Which food makes {P} ill?"},
		{"{P} is scared of heights and avoids ladders.", "Is {P} afraid of climbing up high?"},
		{"{P} studied marine biology at university.", "What was the subject of {P}'s degree?"},
		{"{P} drives an electric hatchback.", "What kind of car does {P} own?"},
		{"{P} speaks fluent Portuguese.", "Which foreign language does {P} know?"},
		{"{P} adopted a rescue greyhound.", "Does {P} have a dog?"},
		{"{P} gets up at five every morning.", "When does {P} wake?"},
		{"{P} volunteers at the food bank on Saturdays.", "What charity work does {P} do at weekends?"},
		{"{P} broke an ankle while skiing.", "Was {P} ever injured on holiday in the snow?"},
		{"{P} is saving money to buy a flat.", "Is {P} planning to purchase an apartment?"},
	}
	places = []string{"Lisbon", "Tbilisi", "Reykjavik", "Valparaiso", "Trondheim", "Ljubljana", "Cusco", "Hobart", "Tallinn", "Windhoek", "Kraków", "Galway"}
)

// Options of the generator.
type genOptions struct {
	Seed          uint64
	Conversations int
	// Memories is the number of memories of each conversation (evidence and filler).
	Memories int
	// PerType is the number of questions of each type in each conversation.
	PerType int
}

// generate builds the data set: the same options give the same conversations, byte for byte.
func generate(o genOptions) []Conversation {
	rng := rand.New(rand.NewPCG(o.Seed, 0x6576616c))
	out := make([]Conversation, o.Conversations)
	for c := range out {
		out[c] = generateConversation(rng, c+1, o)
	}
	return out
}

// convGen builds one conversation.
type convGen struct {
	rng     *rand.Rand
	name    string
	persona string
	friends []string
	mem     []Memory
	seen    map[string]bool
	rare    map[string]bool
	// slots holds the month and year of every temporal question's event: no other event has them.
	slots map[string]bool
}

func (g *convGen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *convGen) fill(s string) string {
	s = strings.ReplaceAll(s, "{P}", g.persona)
	return strings.ReplaceAll(s, "{F}", g.pick(g.friends))
}

// add appends a memory and returns its label; false when a memory of the same text exists (an
// import would leave it out).
func (g *convGen) add(kind, content string) (string, bool) {
	if g.seen[content] {
		return "", false
	}
	g.seen[content] = true
	label := fmt.Sprintf("%s-m%03d", g.name, len(g.mem)+1)
	g.mem = append(g.mem, Memory{Label: label, Kind: kind, Content: content})
	return label, true
}

// rareWord is a made-up word of three syllables that no other memory of the conversation holds.
func (g *convGen) rareWord() string {
	onsets := []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "gr", "tr", "kl", "sk", "dr"}
	vowels := []string{"a", "e", "i", "o", "u", "ai", "ou"}
	for {
		var b strings.Builder
		for range 3 {
			b.WriteString(g.pick(onsets))
			b.WriteString(g.pick(vowels))
		}
		b.WriteString(g.pick([]string{"n", "r", "l", "x", "sh"}))
		w := b.String()
		if !g.rare[w] {
			g.rare[w] = true
			return w
		}
	}
}

func (g *convGen) slot() (string, int) {
	return g.pick(months), years[g.rng.IntN(len(years))]
}

func generateConversation(rng *rand.Rand, n int, o genOptions) Conversation {
	g := &convGen{rng: rng, name: fmt.Sprintf("c%d", n), persona: personas[(n-1)%len(personas)],
		seen: map[string]bool{}, rare: map[string]bool{}, slots: map[string]bool{}}
	fr := slices.Clone(friends)
	rng.Shuffle(len(fr), func(i, j int) { fr[i], fr[j] = fr[j], fr[i] })
	g.friends = fr[:6]
	conv := Conversation{Name: g.name, Persona: g.persona}
	ask := func(typ, text string, evidence ...string) {
		conv.Questions = append(conv.Questions, Question{Type: typ, Text: text, Evidence: evidence})
	}
	prefs := slices.Clone(preferences)
	rng.Shuffle(len(prefs), func(i, j int) { prefs[i], prefs[j] = prefs[j], prefs[i] })
	paras := slices.Clone(paraphrases)
	rng.Shuffle(len(paras), func(i, j int) { paras[i], paras[j] = paras[j], paras[i] })
	pl := slices.Clone(places)
	rng.Shuffle(len(pl), func(i, j int) { pl[i], pl[j] = pl[j], pl[i] })
	for i := range o.PerType {
		// Single-hop: one rare word, asked with the persona's name and "said", which the filler's
		// reported speech repeats.
		rare := g.rareWord()
		rel := g.pick(relation)
		if e, ok := g.add("fact", fmt.Sprintf("%s's %s keeps a %s in the spare room.", g.persona, rel, rare)); ok {
			ask(typeSingleHop, fmt.Sprintf("What did %s say about the %s?", g.persona, rare), e)
		}

		// Multi-hop: a relative moved to a place; the same relative now repairs something rare.
		who := g.pick(g.friends)
		place := pl[i%len(pl)]
		thing := g.rareWord()
		rel = g.pick(relation)
		_, y := g.slot()
		e1, ok1 := g.add("fact", fmt.Sprintf("%s's %s %s moved to %s in %d.", g.persona, rel, who, place, y))
		e2, ok2 := g.add("fact", fmt.Sprintf("%s started a job repairing %s last year.", who, thing))
		if ok1 && ok2 {
			ask(typeMultiHop, fmt.Sprintf("Is %s's %s who moved to %s still repairing %s?", g.persona, rel, place, thing), e1, e2)
		}

		// Temporal: the only event of its month and year.
		month, year := g.slot()
		for g.slots[fmt.Sprint(month, year)] {
			month, year = g.slot()
		}
		g.slots[fmt.Sprint(month, year)] = true
		if e, ok := g.add("note", fmt.Sprintf("On %d %s %d, %s ran a %s workshop at the library.", 1+g.rng.IntN(28), month, year, g.persona, g.rareWord())); ok {
			ask(typeTemporal, fmt.Sprintf("What did %s do in %s %d?", g.persona, month, year), e)
		}

		// Common words and names: two names the filler repeats, one rare word.
		f := g.pick(g.friends)
		rare = g.rareWord()
		if e, ok := g.add("note", fmt.Sprintf("%s and %s went to the %s festival together.", g.persona, f, rare)); ok {
			ask(typeNameHeavy, fmt.Sprintf("When did %s and %s go to the %s festival?", g.persona, f, rare), e)
		}

		// Paraphrase: no shared word but the name.
		p := paras[i%len(paras)]
		if e, ok := g.add("fact", g.fill(p.memory)); ok {
			ask(typeParaphrase, g.fill(p.question), e)
		}

		// Preference: the topic word is shared, the filler mentions it about others.
		pr := prefs[i%len(prefs)]
		if e, ok := g.add("preference", g.fill(pr.memory)); ok {
			ask(typePreference, g.fill(pr.question), e)
		}
	}
	topics := make([]string, len(prefs))
	for i, p := range prefs {
		topics[i] = p.topic
	}
	for len(g.mem) < o.Memories {
		g.addFiller(topics)
	}
	// The import keeps the file's order; shuffled, an evidence memory's place says nothing.
	rng.Shuffle(len(g.mem), func(i, j int) { g.mem[i], g.mem[j] = g.mem[j], g.mem[i] })
	conv.Memories = g.mem
	return conv
}

// addFiller adds one memory of everyday talk. The persona is in about every second one, a few
// friends in most, and reported speech ("said"), dated events and the preference topics recur.
func (g *convGen) addFiller(topics []string) {
	f := g.pick(g.friends)
	switch r := g.rng.IntN(100); {
	case r < 30:
		g.add("note", fmt.Sprintf("%s said that %s %s.", g.persona, f, g.pick(talk)))
	case r < 55:
		month, year := g.slot()
		if g.slots[fmt.Sprint(month, year)] {
			return
		}
		who := f
		if g.rng.IntN(2) == 0 {
			who = g.persona
		}
		g.add("note", fmt.Sprintf("On %d %s %d, %s %s with %s.", 1+g.rng.IntN(28), month, year, who, g.pick(activities), g.pick(g.friends)))
	case r < 70:
		g.add("note", fmt.Sprintf("%s told %s that %s and %s should meet on the weekend; %s said %s %s.",
			g.persona, f, g.persona, f, f, g.persona, g.pick(talk)))
	case r < 85:
		t := g.pick(topics)
		g.add("fact", fmt.Sprintf("%s talked about %s with %s after the %s was fixed.", f, t, g.pick(g.friends), g.pick(commonObjects)))
	default:
		g.add("fact", fmt.Sprintf("%s is repairing the %s and %s %s.", f, g.pick(commonObjects), g.pick(g.friends), g.pick(talk)))
	}
}

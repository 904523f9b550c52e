package intent

import "strings"

// Role is what a word can do in a message, as far as the judge reads messages. A word may have
// several roles; a word with none is content the judge passes over only where the request frame or
// a plain statement allows any word.
type Role uint32

// The roles.
const (
	// RoleSave opens a save request in the imperative: "remember", "save", "note" (base forms only).
	RoleSave Role = 1 << iota
	// RoleUpdate opens a change of an existing memory: "update", "correct", "change".
	RoleUpdate
	// RoleForget opens a forget request: "forget", "delete", "remove", "erase".
	RoleForget
	// RoleMemoryWord is any other form of those verbs ("remembered", "forgetting", "saves"): talk about
	// memory that is no request, which a sentence beside the request must not hold.
	RoleMemoryWord
	// RoleFiller may open a request or fill a neutral sentence: "please", "also", "okay", "hey".
	RoleFiller
	// RoleCloser may end a request after its text, or be a whole neutral sentence: "thanks",
	// "please", "for me".
	RoleCloser
	// RoleNegation says no: "not", "never", "nothing", "n't".
	RoleNegation
	// RoleTakeBack withdraws something said: "scrap", "nvm", "ignore", "cancel", "oops".
	RoleTakeBack
	// RoleHedge makes it unsure: "maybe", "probably", "guess".
	RoleHedge
	// RoleCondition makes it depend on something: "if", "unless", "once", "until", "but", "only".
	RoleCondition
	// RoleModal: "would", "could", "might", "should".
	RoleModal
	// RoleSarcasm may mean the opposite: "yeah right", "sure", "totally", "as if".
	RoleSarcasm
	// RoleInterjection: "oh", "ah", "ugh", "lol", "hmm", "wait".
	RoleInterjection
	// RolePaste introduces or names text that is not the user's own: "translate", "summarize",
	// "email", "forwarded", "wrote", "below".
	RolePaste
	// RolePretend starts role-play or a hypothesis: "pretend", "imagine", "suppose", "hypothetically".
	RolePretend
	// RoleSubject may open a plain statement: "i", "my", "we", "the".
	RoleSubject
	// RoleBackRef points back at what was said: "it", "that", "this" (as a statement's subject they
	// comment on the request, so such a sentence is not neutral).
	RoleBackRef
	// RoleVerbLike follows a name in a plain statement: "is", "was", "has", "lives", "works".
	RoleVerbLike
	// RoleFirstPerson marks a text as the user's fact: "i", "my", "we", "our".
	RoleFirstPerson
	// RoleTask opens another request the judge understands: "book", "send", "schedule".
	RoleTask
	// RoleQuestion opens a question: "what", "can", "do".
	RoleQuestion
	// RoleStop is a stop word: it names nothing when a message refers to an item.
	RoleStop
	// RoleVague points at nothing in particular: "it", "that", "everything", "stuff".
	RoleVague
	// RoleGreeting is a greeting or a farewell: "hi", "hello", "bye".
	RoleGreeting
	// RoleExclusion leaves someone out: "except", "besides", "excluding".
	RoleExclusion
	// RoleFraming points at a memory rather than a thing in a forget's object: "note", "memory",
	// "info".
	RoleFraming
)

// markers are the roles that keep a sentence from being neutral (A1 c).
const markers = RoleNegation | RoleTakeBack | RoleHedge | RoleCondition | RoleModal | RoleSarcasm |
	RoleInterjection | RolePaste | RolePretend | RoleMemoryWord | RoleSave | RoleUpdate | RoleForget |
	RoleExclusion

// entry is one line of the lexicon: a word (or, for verbs, a lemma whose inflections are
// generated) and its roles.
type entry struct {
	word  string
	roles Role
	// verb: the word is a verb's lemma; its other forms (the -s, -ed and -ing forms, and irregular
	// ones) get inflected instead of roles.
	verb      bool
	irregular []string
	inflected Role
}

// w is a word with roles; v a verb whose base form has roles and whose other forms have inflected.
func w(word string, roles Role) entry { return entry{word: word, roles: roles} }
func v(lemma string, base, inflected Role, irregular ...string) entry {
	return entry{word: lemma, roles: base, verb: true, irregular: irregular, inflected: inflected}
}

// The lexicon: one table, every word in the roles it really has. Words are canonical tokens
// (textmodel.Tokens), so "Don’t" and "DON'T" are both "don't".
var lexiconEntries = []entry{
	// Memory verbs. Only the base form asks; every other form is talk about memory.
	v("remember", RoleSave, RoleMemoryWord),
	v("save", RoleSave, RoleMemoryWord),
	v("note", RoleSave, RoleMemoryWord),
	v("store", RoleSave, RoleMemoryWord),
	// Misspellings of "remember" seen in real requests: the verb is still plain.
	w("remeber", RoleSave), w("remmeber", RoleSave), w("rememebr", RoleSave), w("rember", RoleSave),
	v("memorize", RoleSave, RoleMemoryWord),
	v("memorise", RoleSave, RoleMemoryWord),
	v("update", RoleUpdate, RoleMemoryWord),
	v("correct", RoleUpdate, RoleMemoryWord),
	v("change", RoleUpdate, 0), // "I changed banks" is context; "changed my mind" is a take-back phrase
	v("forget", RoleForget, RoleMemoryWord, "forgot", "forgotten", "forgetting", "forgets"),
	v("delete", RoleForget, RoleMemoryWord),
	v("remove", RoleForget, RoleMemoryWord),
	v("erase", RoleForget, RoleMemoryWord),
	v("wipe", RoleForget, RoleMemoryWord),
	v("keep", RoleMemoryWord, RoleMemoryWord, "kept"),
	w("note", RoleFraming),
	v("memorialize", RoleMemoryWord, RoleMemoryWord),
	w("memo", RoleFraming), w("memory", RoleFraming), w("memories", RoleFraming),
	w("recall", RoleMemoryWord), w("recalled", RoleMemoryWord), w("remind", RoleMemoryWord),
	w("reminded", RoleMemoryWord), w("mind", RoleMemoryWord), w("noted", RoleMemoryWord),

	// Fillers and closers.
	w("please", RoleFiller|RoleCloser|RoleStop), w("pls", RoleFiller|RoleCloser), w("plz", RoleFiller|RoleCloser),
	w("kindly", RoleFiller), w("also", RoleFiller|RoleStop), w("and", RoleFiller|RoleStop),
	w("ok", RoleFiller|RoleCloser), w("okay", RoleFiller|RoleCloser), w("k", RoleFiller),
	w("so", RoleFiller|RoleStop), w("now", RoleFiller), w("then", RoleFiller|RoleStop), w("alright", RoleFiller|RoleCloser),
	w("btw", RoleFiller), w("just", RoleFiller|RoleStop), w("ps", RoleFiller), w("p.s", RoleFiller),
	w("thanks", RoleCloser), w("thank", RoleCloser), w("thx", RoleCloser), w("ty", RoleCloser),
	w("tysm", RoleCloser), w("cheers", RoleCloser), w("appreciated", RoleCloser),
	w("great", RoleCloser), w("perfect", RoleCloser), w("awesome", RoleCloser), w("cool", RoleCloser),
	w("much", RoleCloser), w("lot", RoleCloser), w("lots", RoleCloser), w("very", RoleCloser|RoleStop),
	w("too", RoleCloser|RoleStop), w("🙏", RoleCloser), w("🙂", RoleCloser), w("😊", RoleCloser),
	w("👍", RoleCloser), w("😀", RoleCloser), w("😄", RoleCloser), w("❤", RoleCloser), w("❤️", RoleCloser),
	w("hi", RoleGreeting|RoleFiller), w("hello", RoleGreeting|RoleFiller), w("hey", RoleGreeting|RoleFiller),
	w("morning", RoleGreeting), w("afternoon", RoleGreeting), w("evening", RoleGreeting),
	w("bye", RoleGreeting), w("goodbye", RoleGreeting), w("good", RoleGreeting),
	w("there", RoleGreeting|RoleStop), w("dear", RoleGreeting),

	// Saying no and taking back.
	w("not", RoleNegation|RoleStop), w("no", RoleNegation|RoleStop), w("never", RoleNegation),
	w("nothing", RoleNegation), w("none", RoleNegation), w("nobody", RoleNegation),
	w("nowhere", RoleNegation), w("neither", RoleNegation), w("nor", RoleNegation),
	w("without", RoleNegation), w("cannot", RoleNegation), w("nope", RoleNegation),
	w("nah", RoleNegation), w("naw", RoleNegation), w("nay", RoleNegation),
	v("scrap", RoleTakeBack, RoleTakeBack), v("scratch", RoleTakeBack, RoleTakeBack),
	v("cancel", RoleTakeBack, RoleTakeBack), v("ignore", RoleTakeBack, RoleTakeBack),
	v("disregard", RoleTakeBack, RoleTakeBack), v("undo", RoleTakeBack, RoleTakeBack, "undid", "undone"),
	v("retract", RoleTakeBack, RoleTakeBack), v("withdraw", RoleTakeBack, RoleTakeBack, "withdrew", "withdrawn"),
	v("revoke", RoleTakeBack, RoleTakeBack), v("drop", RoleTakeBack, RoleTakeBack),
	v("skip", RoleTakeBack, RoleTakeBack), v("belay", RoleTakeBack, RoleTakeBack),
	v("strike", RoleTakeBack, RoleTakeBack, "struck"), v("stop", RoleTakeBack, RoleTakeBack),
	v("quit", RoleTakeBack, RoleTakeBack), v("avoid", RoleTakeBack, RoleTakeBack),
	v("refrain", RoleTakeBack, RoleTakeBack), v("leave", RoleTakeBack, RoleTakeBack, "left"),
	// "kidding", not "kid" or "kids": "my kids' bedtime" is no take-back.
	w("kidding", RoleTakeBack), w("kidded", RoleTakeBack), v("joke", RoleTakeBack, RoleTakeBack),
	v("test", RoleTakeBack, RoleTakeBack), v("mean", RoleTakeBack, RoleTakeBack, "meant"),
	v("mistake", RoleTakeBack, RoleTakeBack, "mistook", "mistaken"), v("typo", RoleTakeBack, RoleTakeBack),
	v("wrong", RoleTakeBack, RoleTakeBack), v("lie", RoleTakeBack, RoleTakeBack, "lying", "lied"),
	v("reconsider", RoleTakeBack, RoleTakeBack), v("oops", RoleTakeBack, RoleTakeBack),
	w("nvm", RoleTakeBack), w("nvmd", RoleTakeBack), w("nevermind", RoleTakeBack), w("jk", RoleTakeBack),
	w("whoops", RoleTakeBack), w("edit", RoleTakeBack), w("actually", RoleTakeBack), w("instead", RoleTakeBack),
	w("rather", RoleTakeBack), w("wait", RoleTakeBack|RoleInterjection), w("hold", RoleTakeBack),
	w("abort", RoleTakeBack), w("false", RoleTakeBack), w("untrue", RoleTakeBack), w("fake", RoleTakeBack),
	w("kidding", RoleTakeBack), w("joking", RoleTakeBack), w("psych", RoleTakeBack), w("anyway", RoleTakeBack), w("anyways", RoleTakeBack),
	w("🙅", RoleTakeBack), w("🙅‍♂", RoleTakeBack), w("🙅‍♀", RoleTakeBack), w("❌", RoleTakeBack), w("🚫", RoleTakeBack),

	// Hedges, conditions, modals, sarcasm, interjections.
	w("maybe", RoleHedge), w("perhaps", RoleHedge), w("probably", RoleHedge), w("possibly", RoleHedge),
	w("likely", RoleHedge), w("unlikely", RoleHedge), w("apparently", RoleHedge), w("supposedly", RoleHedge),
	w("allegedly", RoleHedge), w("think", RoleHedge), w("guess", RoleHedge), w("suppose", RoleHedge|RolePretend),
	w("believe", RoleHedge), w("hope", RoleHedge), w("hopefully", RoleHedge), w("wish", RoleHedge|RoleSarcasm),
	w("unsure", RoleHedge), w("sure", RoleHedge|RoleSarcasm), w("idk", RoleHedge), w("dunno", RoleHedge),
	w("kinda", RoleHedge), w("sorta", RoleHedge),
	w("ish", RoleHedge), w("roughly", RoleHedge), w("about", RoleStop), w("around", RoleHedge),
	w("approximately", RoleHedge), w("something", RoleHedge), w("whatever", RoleHedge), w("tbd", RoleHedge),
	w("seems", RoleHedge), w("confirm", RoleHedge), w("verify", RoleHedge), w("tentative", RoleHedge),
	w("tentatively", RoleHedge), w("pending", RoleHedge), w("tbc", RoleHedge), w("double-check", RoleHedge),
	w("unconfirmed", RoleHedge), w("provisional", RoleHedge), w("provisionally", RoleHedge), w("seem", RoleHedge), w("quote", RoleHedge|RolePaste), w("might", RoleModal|RoleStop),
	w("may", RoleModal|RoleStop), w("could", RoleModal|RoleQuestion|RoleStop), w("would", RoleModal|RoleQuestion|RoleStop),
	w("should", RoleModal|RoleQuestion|RoleStop), w("shall", RoleModal|RoleQuestion), w("must", RoleModal|RoleStop),
	w("if", RoleCondition|RoleStop), w("unless", RoleCondition), w("when", RoleCondition|RoleQuestion),
	w("whenever", RoleCondition), w("once", RoleCondition), w("until", RoleCondition), w("till", RoleCondition),
	w("til", RoleCondition), w("after", RoleCondition), w("before", RoleCondition), w("but", RoleCondition|RoleStop),
	w("only", RoleCondition), w("though", RoleCondition), w("although", RoleCondition), w("however", RoleCondition),
	w("yet", RoleCondition), w("still", RoleCondition), w("anymore", RoleCondition), w("longer", RoleCondition),
	w("used", RoleCondition), w("was", RoleCondition|RoleVerbLike|RoleStop), w("were", RoleCondition|RoleVerbLike|RoleStop),
	w("previously", RoleCondition), w("formerly", RoleCondition), w("assuming", RoleCondition),
	w("provided", RoleCondition), w("case", RoleCondition), w("whether", RoleCondition), w("depends", RoleCondition),
	w("or", RoleCondition|RoleStop), w("otherwise", RoleCondition), w("because", RoleCondition),
	w("since", RoleCondition), w("while", RoleCondition), w("soon", RoleCondition), w("later", RoleCondition),
	w("temporarily", RoleCondition), w("except", RoleExclusion), w("excluding", RoleExclusion),
	w("besides", RoleExclusion), w("apart", RoleExclusion), w("other", RoleExclusion), w("between", RoleExclusion),
	w("private", RoleExclusion), w("secret", RoleExclusion), w("right", RoleSarcasm), w("totally", RoleSarcasm),
	w("obviously", RoleSarcasm), w("clearly", RoleSarcasm), w("definitely", RoleSarcasm), w("yeah", RoleSarcasm),
	w("yea", RoleSarcasm), w("yes", RoleSarcasm), w("yep", RoleSarcasm), w("s", RoleSarcasm|RoleStop),
	w("lol", RoleInterjection), w("lmao", RoleInterjection), w("rofl", RoleInterjection), w("haha", RoleInterjection),
	w("hah", RoleInterjection), w("hehe", RoleInterjection), w("oh", RoleInterjection), w("ah", RoleInterjection),
	w("ahh", RoleInterjection), w("uh", RoleInterjection), w("um", RoleInterjection), w("umm", RoleInterjection),
	w("hmm", RoleInterjection), w("hm", RoleInterjection), w("ugh", RoleInterjection), w("meh", RoleInterjection),
	w("eh", RoleInterjection), w("huh", RoleInterjection), w("whoa", RoleInterjection), w("wow", RoleInterjection),
	w("well", RoleInterjection), w("damn", RoleInterjection), w("omg", RoleInterjection), w("oof", RoleInterjection),
	w("welp", RoleInterjection), w("lmfao", RoleInterjection), w("pfft", RoleInterjection),
	w("ha", RoleInterjection), w("lolol", RoleInterjection), w("lolz", RoleInterjection), w("hahaha", RoleInterjection),
	w("heh", RoleInterjection),

	// Pasted text and role-play (A7).
	v("translate", RolePaste, RolePaste), v("summarize", RolePaste, RolePaste), v("summarise", RolePaste, RolePaste),
	v("paraphrase", RolePaste, RolePaste), v("proofread", RolePaste, RolePaste), v("rephrase", RolePaste, RolePaste),
	v("rewrite", RolePaste, RolePaste, "rewrote", "rewritten"), v("reword", RolePaste, RolePaste),
	v("reply", RolePaste, RolePaste, "replied", "replies"), v("respond", RolePaste, RolePaste), v("forward", RolePaste, RolePaste),
	v("paste", RolePaste, RolePaste), v("copy", RolePaste, RolePaste, "copied", "copies"), v("quote", RolePaste, RolePaste),
	v("say", RolePaste, RolePaste, "said", "says"), v("write", RolePaste, RolePaste, "wrote", "written", "writes", "writing"),
	v("tell", RolePaste, RolePaste, "told"), v("ask", RolePaste|RoleHedge, RolePaste), v("read", RolePaste, RolePaste),
	v("review", RolePaste, RolePaste), v("edit", RolePaste, RolePaste), v("fix", RolePaste, RolePaste),
	v("format", RolePaste, RolePaste), v("explain", RolePaste, RolePaste), v("analyze", RolePaste, RolePaste),
	v("analyse", RolePaste, RolePaste), v("draft", RolePaste, RolePaste), v("polish", RolePaste, RolePaste),
	w("tl;dr", RolePaste), w("tldr", RolePaste), w("summary", RolePaste), w("translation", RolePaste),
	w("email", RolePaste), w("e-mail", RolePaste), w("emails", RolePaste), w("mail", RolePaste), w("message", RolePaste),
	w("messages", RolePaste), w("letter", RolePaste), w("document", RolePaste), w("doc", RolePaste), w("docs", RolePaste),
	w("text", RolePaste), w("article", RolePaste), w("paragraph", RolePaste), w("passage", RolePaste),
	w("transcript", RolePaste), w("snippet", RolePaste), w("excerpt", RolePaste), w("below", RolePaste),
	w("following", RolePaste), w("attached", RolePaste), w("here's", RolePaste), w("heres", RolePaste),
	w("here", RolePaste|RoleStop), w("thread", RolePaste), w("chat", RolePaste), w("log", RolePaste),
	w("post", RolePaste), w("tweet", RolePaste), w("comment", RolePaste), w("code", RolePaste), w("script", RolePaste),
	w("file", RolePaste), w("readme", RolePaste), w("ticket", RolePaste), w("prompt", RolePaste), w("instructions", RolePaste),
	w("instruction", RolePaste), w("previous", RolePaste), w("above", RolePaste), w("said:", RolePaste),
	w("system", RolePretend), w("assistant", RolePretend), w("user", RolePretend), w("pretend", RolePretend),
	w("imagine", RolePretend), w("hypothetically", RolePretend), w("hypothetical", RolePretend),
	w("roleplay", RolePretend), w("role-play", RolePretend), w("role", RolePretend), w("act", RolePretend),
	w("acting", RolePretend), w("story", RolePretend), w("fiction", RolePretend), w("game", RolePretend),
	w("scenario", RolePretend), w("voice", RolePretend), w("persona", RolePretend), w("poem", RolePretend), w("character", RolePretend), w("let's", RolePretend), w("lets", RolePretend),
	w("say", RolePretend), w("dream", RolePretend), w("fantasy", RolePretend), w("novel", RolePretend),

	// Plain statements: who they may open with, and what may follow a name.
	w("i", RoleSubject|RoleFirstPerson|RoleStop), w("i'm", RoleSubject|RoleFirstPerson|RoleStop),
	w("im", RoleSubject|RoleFirstPerson), w("i've", RoleSubject|RoleFirstPerson|RoleStop),
	w("i'll", RoleSubject|RoleFirstPerson|RoleStop), w("i'd", RoleFirstPerson|RoleModal|RoleStop),
	w("my", RoleSubject|RoleFirstPerson|RoleStop), w("mine", RoleFirstPerson|RoleStop),
	w("me", RoleFirstPerson|RoleStop), w("myself", RoleFirstPerson|RoleStop), w("we", RoleSubject|RoleFirstPerson|RoleStop),
	w("we're", RoleSubject|RoleFirstPerson), w("we've", RoleSubject|RoleFirstPerson), w("our", RoleSubject|RoleFirstPerson|RoleStop),
	w("us", RoleFirstPerson|RoleStop), w("the", RoleSubject|RoleStop), w("a", RoleSubject|RoleStop), w("an", RoleSubject|RoleStop),
	w("his", RoleSubject|RoleStop), w("her", RoleSubject|RoleStop), w("their", RoleSubject|RoleStop),
	w("he", RoleSubject|RoleStop), w("she", RoleSubject|RoleStop), w("they", RoleSubject|RoleStop),
	w("he's", RoleSubject), w("she's", RoleSubject), w("they're", RoleSubject),
	w("it", RoleBackRef|RoleVague|RoleStop), w("it's", RoleBackRef|RoleVague|RoleStop), w("its", RoleStop),
	w("that", RoleBackRef|RoleVague|RoleStop), w("that's", RoleBackRef|RoleVague), w("this", RoleBackRef|RoleVague|RoleStop),
	w("these", RoleBackRef|RoleVague|RoleStop), w("those", RoleBackRef|RoleVague|RoleStop), w("them", RoleVague|RoleStop),
	w("which", RoleBackRef|RoleQuestion|RoleStop), w("everything", RoleVague), w("anything", RoleVague),
	w("all", RoleVague|RoleStop), w("stuff", RoleVague|RoleFraming), w("thing", RoleVague|RoleFraming),
	w("things", RoleVague|RoleFraming), w("one", RoleVague), w("last", RoleVague), w("earlier", RoleVague),
	w("is", RoleVerbLike|RoleStop), w("are", RoleVerbLike|RoleStop), w("am", RoleStop), w("has", RoleVerbLike|RoleStop),
	w("have", RoleVerbLike|RoleStop), w("had", RoleStop), w("lives", RoleVerbLike), w("works", RoleVerbLike),
	w("likes", RoleVerbLike), w("loves", RoleVerbLike), w("prefers", RoleVerbLike), w("uses", RoleVerbLike),
	w("will", RoleVerbLike|RoleQuestion|RoleStop), w("and", RoleFiller|RoleStop),

	// Other requests the judge understands beside a memory request.
	w("book", RoleTask), w("send", RoleTask), w("schedule", RoleTask), w("call", RoleTask), w("find", RoleTask),
	w("search", RoleTask), w("buy", RoleTask), w("order", RoleTask), w("get", RoleTask), w("make", RoleTask),
	w("create", RoleTask), w("add", RoleTask), w("set", RoleTask), w("help", RoleTask), w("show", RoleTask),
	w("give", RoleTask), w("plan", RoleTask), w("prepare", RoleTask), w("list", RoleTask), w("recommend", RoleTask),
	w("suggest", RoleTask), w("compare", RoleTask), w("calculate", RoleTask), w("convert", RoleTask),
	w("reserve", RoleTask), w("look", RoleTask), w("check", RoleTask), w("use", RoleTask), w("pick", RoleTask),
	w("choose", RoleTask), w("start", RoleTask), w("continue", RoleTask), w("go", RoleTask), w("let", RoleTask),
	w("block", RoleTask), w("move", RoleTask), w("reschedule", RoleTask), w("pay", RoleTask), w("introduce", RoleTask),
	w("put", RoleTask), w("bin", RoleTask), w("archive", RoleTask), w("print", RoleTask), w("share", RoleTask),
	w("invite", RoleTask), w("organise", RoleTask), w("organize", RoleTask), w("sort", RoleTask), w("clean", RoleTask),
	w("arrange", RoleTask), w("rent", RoleTask), w("ping", RoleTask), w("text", RoleTask|RolePaste),
	w("email", RoleTask|RolePaste), w("message", RoleTask|RolePaste), w("open", RoleTask), w("install", RoleTask),
	w("run", RoleTask), w("deploy", RoleTask), w("merge", RoleTask), w("review", RoleTask|RolePaste),
	w("research", RoleTask), w("estimate", RoleTask), w("translate", RoleTask|RolePaste),

	// Questions.
	w("do", RoleQuestion|RoleStop), w("does", RoleQuestion|RoleStop), w("did", RoleQuestion|RoleStop),
	w("can", RoleQuestion|RoleStop), w("what", RoleQuestion|RoleStop), w("why", RoleQuestion),
	w("what's", RoleQuestion), w("where's", RoleQuestion), w("when's", RoleQuestion), w("how's", RoleQuestion),
	w("how", RoleQuestion), w("where", RoleQuestion), w("who", RoleQuestion|RoleStop), w("whom", RoleQuestion|RoleStop),
	w("whose", RoleQuestion), w("are", RoleVerbLike|RoleStop),

	// Stop words beyond those above.
	w("you", RoleStop), w("your", RoleStop), w("yours", RoleStop), w("to", RoleStop), w("of", RoleStop),
	w("in", RoleStop), w("on", RoleStop), w("at", RoleStop), w("for", RoleStop), w("with", RoleStop),
	w("as", RoleStop), w("by", RoleStop), w("from", RoleStop), w("be", RoleStop), w("been", RoleStop),
	w("being", RoleStop), w("then", RoleStop), w("than", RoleStop), w("into", RoleStop), w("over", RoleStop),
	w("up", RoleStop), w("down", RoleStop), w("out", RoleStop), w("any", RoleStop), w("some", RoleStop),
	w("don't", RoleNegation|RoleStop), w("dont", RoleNegation|RoleStop), w("t", RoleStop), w("ever", RoleFraming),

	// Words that point at a memory rather than a thing in a forget's object.
	w("notes", RoleFraming), w("fact", RoleFraming), w("facts", RoleFraming), w("info", RoleFraming),
	w("information", RoleFraming), w("entry", RoleFraming), w("record", RoleFraming), w("detail", RoleFraming),
	w("details", RoleFraming), w("completely", RoleFraming), w("entirely", RoleFraming),
	w("permanently", RoleFraming), w("forever", RoleFraming), w("old", RoleFraming),
	w("preference", RoleFraming), w("preferences", RoleFraming),
}

// people are words for someone other than the user, or for a group the user speaks for.
var people = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`we we're we've our us they they're them their he he's him his she she's her
		wife husband partner son daughter kid kids child children mom mum mother dad father parent parents
		brother sister grandma grandpa grandmother grandfather aunt uncle cousin friend friends boss
		colleague coworker roommate roommates babysitter nanny assistant secretary team band club group
		family boyfriend girlfriend fiance fiancé spouse neighbour neighbor teacher student students
		account turn behalf dictating typing typed writing flatmate housemate using go 4-year-old year-old nephew niece baby someone somebody everyone
		everybody people guest guests visitor visitors caller user owner admin`) {
		m[w] = true
	}
	return m
}()

// lexicon maps each canonical word to its roles; imperatives holds the verbs' base forms.
var lexicon, imperatives = buildLexicon(lexiconEntries)

func buildLexicon(entries []entry) (map[string]Role, map[string]bool) {
	m, base := map[string]Role{}, map[string]bool{}
	for _, e := range entries {
		m[e.word] |= e.roles
		if !e.verb {
			continue
		}
		base[e.word] = true
		for _, f := range append(inflections(e.word), e.irregular...) {
			m[f] |= e.inflected
		}
	}
	return m, base
}

// inflections returns the regular -s, -ed and -ing forms of a verb's lemma.
func inflections(lemma string) []string {
	switch {
	case strings.HasSuffix(lemma, "e"):
		stem := strings.TrimSuffix(lemma, "e")
		return []string{lemma + "s", lemma + "d", stem + "ing"}
	case strings.HasSuffix(lemma, "y") && !strings.ContainsAny(lemma[len(lemma)-2:len(lemma)-1], "aeiou"):
		stem := strings.TrimSuffix(lemma, "y")
		return []string{stem + "ies", stem + "ied", lemma + "ing"}
	case strings.HasSuffix(lemma, "s") || strings.HasSuffix(lemma, "sh") || strings.HasSuffix(lemma, "ch") ||
		strings.HasSuffix(lemma, "x"):
		return []string{lemma + "es", lemma + "ed", lemma + "ing"}
	case doublesFinal(lemma):
		last := lemma[len(lemma)-1:]
		return []string{lemma + "s", lemma + last + "ed", lemma + last + "ing"}
	}
	return []string{lemma + "s", lemma + "ed", lemma + "ing"}
}

// doublesFinal: a short verb ending consonant-vowel-consonant doubles it ("scrap" → "scrapped").
func doublesFinal(lemma string) bool {
	n := len(lemma)
	if n < 3 || n > 5 {
		return false
	}
	vowel := func(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }
	return !vowel(lemma[n-1]) && vowel(lemma[n-2]) && !vowel(lemma[n-3]) && strings.IndexByte("wxy", lemma[n-1]) < 0
}

func roles(tok string) Role { return lexicon[tok] }

// phrase is a sequence of canonical words.
type phrase []string

func phrasesOf(ps ...string) []phrase {
	out := make([]phrase, len(ps))
	for i, p := range ps {
		out[i] = strings.Fields(p)
	}
	return out
}

// Phrases of the request frame.
var (
	// leadIns may stand between the fillers and the verb: "I want you to remember …".
	leadIns = phrasesOf("you can now", "you can", "i want you to", "i need you to", "i'd like you to", "i would like you to",
		"make sure to", "make sure you", "be sure to", "go ahead and", "i'm asking you to", "i am asking you to",
		"you should", "you need to", "you must", "i'd love you to")
	// audienceLeadIns are lead-ins that name every teammate: "I want all of you to remember …".
	audienceLeadIns = phrasesOf("everyone should know this , so", "everyone should know , so",
		"everybody should know this , so", "every teammate should know this , so", "all teammates should know this , so",
		"i want all of you to", "i need all of you to", "i want every teammate to",
		"i want all teammates to", "i want all my teammates to", "i need every teammate to")
	// saveFrames are the request verbs with what may join them to the text. The text starts right
	// after the frame.
	saveFrames = phrasesOf(
		"remember that", "remember this :", "remember :", "remember ,", "remember -", "remember",
		"save that", "save this :", "save :", "save -", "save", "save this to memory :", "save to memory :",
		"save this to your memory :", "save to your memory :",
		"note that", "note down that", "note down :", "note :", "note", "save this note :",
		"note for all of you that", "note for all teammates that", "note for every teammate that",
		"remember , all teammates , that", "remember , all of you , that", "remember , every teammate , that", "make a note that", "make a note :", "make a note of this :",
		"take note that", "take note :", "keep in mind that", "keep in mind :", "keep in mind", "bear in mind that",
		"bear in mind", "store that", "store this :", "store :", "store", "memorize that", "memorize this :", "memorize :",
		"memorize", "memorise that", "memorise this :", "memorise", "keep a note that", "keep a note :",
		"add this to your memory :", "add to your memory :", "add to memory :", "add this to memory :",
		"add to your memory that", "add to memory that",
		"put this in your memory :", "put in your memory :", "commit to memory :", "commit to memory that",
		"write down that", "write down :", "jot down that", "jot down :",
		"remeber that", "remeber", "remmeber that", "remmeber", "rememebr that", "rememebr", "rember that", "rember",
		"remember the fact that", "save the fact that", "note the fact that",
		"note on my profile that", "note in my profile that", "add to my profile that", "put on my profile that",
		"put in my profile that",
		"all of you should remember that", "everyone should know this , so remember that",
		"everybody should know this , so remember that",
		"everyone should know this , so save it :", "everyone should know this , so remember it :",
		"everyone should know this , so keep it in mind :", "every teammate should know this , so save it :",
		"every teammate should know this , so remember it :", "every teammate should know this , so keep it in mind :",
		"all teammates should know this , so save it :", "all teammates should know this , so remember it :",
		"keep this in mind", "keep that in mind", "bear this in mind",
		"update my profile :", "keep this in my profile :", "keep in my profile :", "add this to my profile :",
		"every teammate should remember that", "all teammates should remember that", "everyone should remember that",
		"everybody should remember that", "all of you should remember that", "everyone should remember :",
		"save to my profile :", "save this to my profile :", "add to my profile :", "add this to my profile :",
		"save to shared memory :", "save this to shared memory :", "add to shared memory :",
		"let all teammates know that", "let all my teammates know that", "tell all teammates that",
		"tell all my teammates that", "tell all teammates :", "tell all my teammates :",
	)
	// updateVerbs open a change: "update my address: …".
	updateSeparators = phrasesOf(":", "-", ",", "to", "to say", "so it says", "with", "to read", "so that it says")
	// forgetFrames open a forget; the object follows.
	forgetFrames = phrasesOf("forget about", "forget", "delete", "remove", "erase", "wipe", "stop remembering")
	// closers may follow the text (or a forget's object) in the sentence that asks.
	closers = phrasesOf("please", "pls", "plz", "thanks", "thank you", "thx", "ty", "thanks a lot",
		"thank you so much", "for me", "for later", "for future reference", "for the future", "going forward",
		"from now on", "for next time", "ok", "okay", "too", "as well", "🙏", "🙂", "😊", "👍", "😀", "😄", "❤",
		"❤️", "cheers", "much appreciated", "appreciated")
	// verbMods may stand between a save verb and ":" or "that": "save this for later: …".
	verbMods = phrasesOf("for later", "for future reference", "in memory", "to memory", "in your memory",
		"to your memory", "please", "as well", "too", "for me", "in mind", "so every teammate has it",
		"so all teammates have it", "so all of you have it", "so everyone has it")
	// restatements may open the new value after an update's object.
	restatements = phrasesOf("it's now", "it is now", "it's actually", "it is actually", "it's", "it is", "now", "they're now", "they're")
	// openers are two-word fillers that may open a request: "oh and", "heads up".
	openers = phrasesOf("oh and", "oh also", "ah and", "heads up", "one more thing", "by the way", "also", "quick one",
		"just so you know", "so you know", "for next time", "for future reference", "fyi", "just fyi", "two things",
		"a couple of things", "three things", "good news", "big news", "before i forget")
	// forgetClosers may also follow a forget's object.
	forgetClosers = phrasesOf("from your memory", "from memory", "from my memory", "from your memories",
		"for good", "permanently", "completely", "entirely", "forever", "right away", "now", "from your notes",
		"please", "thanks", "thank you", "thx", "for me", "from my profile", "from shared memory",
		"from your notes", "from my notes", "from the shared memory")
	// audiencePhrases name every teammate (A3). Beneficiaries ("for everyone", "coffee for all of
	// you") and quantifiers ("every morning") are not among them.
	audiencePhrases = phrasesOf("for all teammates", "for all my teammates", "for all of my teammates",
		"for all the teammates", "for all of the teammates", "for every teammate", "for each teammate",
		"for my teammates", "for the teammates", "for all of you teammates", "across all teammates",
		"with all teammates", "with all my teammates", "with every teammate", "to all teammates", "to all my teammates",
		"to my profile", "in my profile", "into my profile", "on my profile", "to shared memory",
		"in shared memory", "into shared memory", "to your shared memory", "in your shared memory",
		"in everyone's memory", "in everybody's memory", "to the shared memory", "in the shared memory",
		"to the shared team memory", "in the shared team memory", "to shared team memory", "in shared team memory",
		"to our shared memory", "in our shared memory")
	// postVerbAudiences may stand between a save verb and ":" or "that" ("Save for all of you: …").
	postVerbAudiences = append(phrasesOf("for all of you", "for everyone", "for everybody", "for each of you"),
		audiencePhrases...)
	// vocatives name every teammate when they address them: "All of you, remember …", "…, all of you."
	vocatives = phrasesOf("all of you", "each of you", "every one of you", "you all", "y'all",
		"all teammates", "all my teammates", "teammates", "everyone", "everybody", "every teammate")
	// greetings are whole neutral sentences.
	greetings = phrasesOf("hiya", "heya", "hope you're well", "hope you are well", "hope you're doing well",
		"hope all is well", "hope you're having a good day", "hi all", "hey all", "hello all", "hi everyone", "hello everyone", "hey everyone",
		"hi team", "hey team", "hello team", "hello again", "hi again", "hey again",
		"yo", "thanks everyone", "thanks all", "thank you all",
		"thanks team", "thank you everyone", "hi", "hello", "hey", "hey there", "hi there", "hello there", "good morning",
		"good afternoon", "good evening", "morning", "thanks", "thank you", "thanks a lot", "thank you so much",
		"many thanks", "thanks so much", "thanks in advance", "cheers", "ty", "thx", "tysm", "ok", "okay", "that's all", "that's it", "that is all", "bye", "goodbye", "much appreciated",
		"appreciate it", "i appreciate it", "have a nice day", "have a good day", "talk soon", "see you",
		"have a great day", "have a good weekend", "have a great weekend", "have a nice weekend", "have a good one",
		"have a great one", "take care", "see you later", "see you soon", "speak soon", "talk later", "bye for now",
		"please", "🙏", "🙂", "😊", "👍",
		// Emphasis: "Remember that I'm allergic to penicillin. It's important."
		"it's important", "this is important", "that's important", "it's really important", "this is really important",
		"it's very important", "this is very important", "very important", "really important", "important",
		// Counting what follows: "Two things. Remember …"
		"two things", "three things", "a couple of things", "couple of things", "quick one", "good news")
	// takeBackPhrases make a sentence a take-back whatever else it says.
	takeBackPhrases = phrasesOf("never mind", "scratch that", "on second thought", "on second thoughts", "changed my mind", "just kidding", "no wait", "hold on",
		"hang on", "not really", "my bad", "let it go", "leave it")
	// hedgePhrases make a sentence unsure.
	hedgePhrases = phrasesOf("for now", "for the moment", "for the time being", "sort of", "kind of", "or so", "or something", "more or less", "i reckon", "not sure")
	// sarcasmPhrases may say the opposite.
	sarcasmPhrases = phrasesOf("yeah right", "as if", "i wish", "in your dreams", "sure thing", "sure sure",
		"oh sure", "like that's true", "said no one", "said no one ever", "said nobody", "said nobody ever",
		"according to nobody", "according to no one", "in my dreams", "when pigs fly", "opposite day",
		"april fools", "april fool", "gritted teeth", "not in a million years")
	// otherSenseStarts can't open a saved text: "remember to …", "remember when …", "save me a seat".
	otherSenseStarts = phrasesOf("to", "when", "where", "how", "why", "what", "who", "whether", "if", "back",
		"me", "us", "him", "them", "your", "yourself", "yourselves", "the time", "it", "this", "that", "not",
		"never", "nothing", "the day", "the moment", "the way", "you", "everything", "anything", "about",
		"against", "on", "for", "from", "with", "in", "as", "at", "up", "off", "out")
)

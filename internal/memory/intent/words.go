package intent

import "strings"

// The word lists the judgement reads. Every entry is compared with canonical tokens (see Tokens), so
// "Don’t" and "DON'T" are both "don't". Lists of several words are token sequences.

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

func phrases(ps ...string) [][]string {
	out := make([][]string, len(ps))
	for i, p := range ps {
		out[i] = strings.Fields(p)
	}
	return out
}

// saveVerbs ask to save (A1) in any inflection. "keep" is a save verb only in keepObjects' phrases.
var saveVerbs = set(
	"remember", "remembers", "remembered", "remembering",
	"save", "saves", "saved", "saving",
	"update", "updates", "updated", "updating",
	"correct", "corrects", "corrected", "correcting",
	"memorize", "memorizes", "memorized", "memorizing",
	"memorise", "memorises", "memorised", "memorising",
)

// personObjects after a save verb make it ask for something else than a memory ("correct me",
// "save us a table"). "her" is left out: "remember her name is Ann" asks to remember.
var personObjects = set("me", "us", "him", "them")

// bareVerbs are save verbs that ask nothing when a punctuation mark or the sentence's end follows
// them at once ("Correct, I am vegetarian", "Update: the build is green").
var bareVerbs = set("correct", "update")

var keepVerbs = set("keep", "keeps", "kept", "keeping")

// keepObjects: "keep" asks to save only with one of these after it ("keep in mind", "keep a note");
// "keep it short" or "keep going" ask for something else.
var keepObjects = phrases(
	"in mind", "this in mind", "that in mind", "it in mind", "in memory", "in your memory",
	"a note", "note", "a record", "track", "on file", "on record", "this on file", "that on file",
)

// forgetVerbs ask to forget (A5). "forgot" is left out: "I forgot to tell you" reports a lapse.
var forgetVerbs = set(
	"forget", "forgets", "forgetting", "forgotten",
	"delete", "deletes", "deleted", "deleting",
	"remove", "removes", "removed", "removing",
	"erase", "erases", "erased", "erasing",
)

// negators turn a request into a suggestion wherever they stand in its sentence outside the saved
// text (A1: negation fails closed).
var negators = set(
	"not", "no", "never", "nothing", "none", "nobody", "nowhere", "neither", "nor", "without",
	"cannot", "don't", "dont", "doesn't", "doesnt", "didn't", "didnt", "can't", "cant", "won't", "wont",
	"wouldn't", "wouldnt", "shouldn't", "shouldnt", "mustn't", "mustnt", "needn't", "neednt",
	"isn't", "isnt", "aren't", "arent", "wasn't", "wasnt", "weren't", "werent", "haven't", "havent",
	"hasn't", "hasnt", "hadn't", "hadnt", "ain't", "aint", "shan't", "shant", "couldn't", "couldnt",
	"mightn't", "mightnt", "n't", "nope", "nah",
	"forbid", "forbids", "forbidden", "forbidding", "prohibit", "prohibits", "prohibited",
	"stop", "stops", "stopped", "stopping", "quit", "refrain", "avoid", "skip", "cease",
	"ignore", "disregard", "cancel", "undo", "scratch", "nevermind", "rather", "instead",
	"unless", "except", "neglect", "omit", "kidding", "joking", "jk",
)

// questionStarts make a sentence a question even without a question mark ("did you save the file").
var questionStarts = set(
	"do", "does", "did", "can", "could", "would", "will", "is", "are", "was", "were", "have", "has",
	"had", "should", "shall", "may", "might", "must", "what", "why", "how", "when", "where", "who",
	"whom", "whose", "which", "am", "isn't", "aren't", "wasn't", "weren't", "shouldn't",
)

// fillers may stand before a request without changing it ("Okay, please also remember …").
var fillers = phrases(
	"please", "pls", "plz", "kindly", "also", "just", "now", "and", "so", "ok", "okay", "k", "hey",
	"hi", "hello", "oh", "then", "alright", "right", "well", "yes", "yeah", "yep", "sure", "great",
	"cool", "good", "thanks", "thank you", "always", "definitely", "really", "actually", "again",
	"one more thing", "finally", "lastly", "first", "second", "next",
	"by the way", "btw", "anyway", "anyways", "incidentally", "ps", "p.s", "hmm", "hm", "um", "uh", "lol",
	"haha",
)

// leadIns are the ways to ask that may stand before the verb ("I want you to remember …"). Anything
// else before it ("I remember when …", "it is forbidden to remember …") is not a request.
var leadIns = phrases(
	"i want you to", "i need you to", "i'd like you to", "i would like you to", "i'd love you to",
	"i would love you to", "i'd love for you to", "i would love for you to", "i ask you to",
	"i'm asking you to", "i am asking you to", "you should", "you must", "you need to", "you have to",
	"make sure to", "make sure you", "make sure that you", "be sure to", "try to", "go ahead and",
	"i'd appreciate it if you would", "i would appreciate it if you would",
)

// trailers may follow a verb that comes after the saved text ("I don't eat pork, remember that").
var trailers = set(
	"that", "this", "it", "please", "for", "me", "later", "the", "future", "too", "as", "well",
	"thanks", "thank", "you", "always", "forever", "from", "now", "on", "in", "mind", "going",
	"forward", "next", "time", "ok", "okay",
)

// clauseJoins may follow the saved text in its sentence: what comes after them is another clause.
var clauseJoins = set("and", "but", "because", "since", "so", "as", "while", "also", "then", "or")

// topicShifts start a new sentence: "Can you update me? By the way I am vegetarian" asks nothing
// about the second part.
var topicShifts = phrases(
	"by the way", "btw", "incidentally", "anyway", "anyways", "on another note", "on a different note",
	"on an unrelated note", "unrelated", "ps", "p.s", "oh and", "separately",
)

// audiences name every teammate (A3, S3). Quantifiers about other things ("all vegetables", "every
// morning", "at all") are not in the list and never count.
var audiences = phrases(
	"for all teammates", "for all my teammates", "for every teammate", "for each teammate",
	"for the teammates", "for my teammates", "for all of my teammates", "all teammates",
	"all my teammates", "all the teammates", "all of my teammates", "all of the teammates",
	"every teammate", "each teammate", "every one of my teammates", "teammates",
	"all of you", "each of you", "every one of you", "you all", "y'all",
	"for everyone", "for everybody", "everyone should know", "everybody should know",
	"everyone needs to know", "everybody needs to know", "tell everyone", "tell everybody",
	"let everyone know", "let everybody know", "so everyone knows", "so everybody knows",
	"my profile", "shared memory", "everyone's memory", "everybody's memory",
)

// audienceLeads open the audience phrases that name the audience by themselves; the other phrases
// count only in an audience's place (see audienceOutside).
var audienceLeads = set("for", "tell", "let", "so", "everyone", "everybody")

// audiencePreps may stand before an audience noun ("save it to my profile", "share with all of you").
var audiencePreps = set("for", "to", "with", "in", "into", "on", "among", "across")

// revocations, as a whole short sentence, take back what the message asked ("Remember my PIN 5000.
// Actually, never mind.").
var revocations = phrases(
	"never mind", "nevermind", "scratch that", "ignore that", "ignore it", "disregard that", "cancel that", "on second thought",
	"don't", "do not", "no", "nope", "wait", "don't do that", "don't do it", "don't save it",
	"don't save that", "don't remember it", "don't remember that", "actually no", "actually don't",
	"no don't", "not that", "changed my mind", "i changed my mind", "i've changed my mind", "nah",
	"i'm kidding", "i am kidding", "i was kidding", "i'm joking", "i am joking", "i was joking", "only joking", "only kidding",
	"better not",
	// Reluctance after the request takes it back too (fail closed): "Remember my PIN 5000. I'd prefer
	// you wouldn't."
	"i'd prefer you didn't", "i'd prefer you wouldn't", "i would prefer you didn't",
	"i would prefer you wouldn't", "i prefer you don't", "i'd rather you didn't",
	"i'd rather you wouldn't", "i would rather you didn't", "i'd rather not", "i would rather not",
	"rather not", "on reflection", "maybe not", "maybe don't", "probably not", "best not",
)

// vagueObjects after a forget verb make "forget it" — a revocation, not a forget of anything named.
var vagueObjects = set("it", "that", "this", "about", "everything", "all", "of", "what", "i", "said")

// abbreviations end with a full stop that doesn't end the sentence ("my dentist is Dr. Ruiz").
var abbreviations = set(
	"dr", "mr", "mrs", "ms", "mx", "st", "prof", "jr", "sr", "vs", "etc", "e.g", "i.e", "approx", "ca",
	"mt", "ft", "inc", "ltd", "co", "dept", "apt", "ave", "blvd", "rd", "fig", "vol",
)

// stopWords don't count when a message refers to an item by its words (A4, A5).
var stopWords = set(
	"a", "an", "the", "i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "you", "your",
	"yours", "we", "us", "our", "he", "him", "his", "she", "her", "hers", "it", "it's", "its", "they",
	"them", "their", "this", "that", "these", "those", "is", "am", "are", "was", "were", "be", "been",
	"being", "to", "of", "in", "on", "at", "for", "with", "and", "or", "but", "as", "by", "from",
	"do", "does", "did", "have", "has", "had", "so", "if", "then", "than", "there", "here", "what",
	"which", "who", "whom", "about", "into", "over", "up", "down", "out", "just", "very", "can",
	"will", "would", "should", "could", "may", "might", "must", "also", "too", "all", "any", "some",
	"please", "s", "t", "not", "no", "don't", "dont",
)

// objectFraming are the words of a forget's or an update's object that point at a memory rather than
// at a thing ("the note about my cat", "everything you know about", "from your memory", "for good"):
// they are neither the item's words nor another thing's (see actsOnItem). Words that also name things
// in documents ("line", "entry", "part") are left out: "remove the line about coffee" may be about a
// file.
var objectFraming = phrases(
	"memory", "memories", "note", "notes", "fact", "facts", "info", "information", "everything",
	"anything", "thing", "things", "stuff", "know", "knows", "told", "said", "mentioned", "ever",
	"thanks", "thank", "forever", "now", "again", "completely", "entirely", "permanently", "for good",
	"right away", "immediately",
)

// objectEnds open a clause of its own after a forget's or an update's object ("forget my cat because
// she died"): the object stops there. Words that may join the parts of one object ("and", "or", "with",
// "after") are left out, so "the coffee and tea stains" stays one object.
var objectEnds = set("because", "since", "while", "though", "although", "if", "so", "but")

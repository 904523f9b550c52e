// Package intent judges a teammate's memory write from the run's user message alone (rules A1–A8
// and S3 of docs/RULES.md). It is pure — no I/O, no clock, no randomness — and linear in the sizes
// of the message and the texts. The text model it reads with (tokens, canonical forms, hashes) is
// package textmodel's.
//
// The judge confirms only what it understands entirely: it is an allow-list, not a deny-list.
//
//  1. Voice (A7). A message with code (a fence, a docstring), a block quote, mail headers, a chat
//     log, a list, a labelled block ("Here's the doc:\n…"), role markers ("SYSTEM:", "<|im_start|>"),
//     an emoticon drawn in punctuation (";)", "-_-") or more than four lines is not all the user's
//     own voice: nothing in it is confirmed. A request inside quotation marks asks nothing either.
//     A list the user wrote as their own requests (every item opens with a request or task verb;
//     besides the items only a heading of greeting and counting words) reads item by item, and bold
//     is emphasis.
//  2. Reading. The message is cut into sentences and each word is tagged once with its roles from
//     one lexicon table (lexicon.go: word → roles, verbs' inflections generated from the lemma, each
//     form in the roles it has — "remember" asks, "remembered" only talks about memory).
//  3. The request frame. One sentence must be: fillers ("please", "ok", "hey,"), an optional audience
//     ("For all teammates, …"), one optional lead-in ("I want you to") — or a task the judge knows
//     and "and", read as two sentences ("Book a table and remember that …") — a request verb phrase
//     (saveFrames, the update frame "update my X: …", or forgetFrames), and then exactly the text:
//     its tokens, compared exactly (A1: case kept for codes and inner capitals, compatibility
//     characters kept), starting right after the frame and running to the sentence's end, with
//     nothing after them but neutral closers ("please", "thanks", "for me", an audience phrase) or
//     "and" with a clause that is neutral on its own; a request that ends in a dash or an open
//     bracket is cut off. A bare verb's text must state something (a first-person word, "is",
//     "name's") and may not open with "to", "when", "me" … ("Remember to breathe", "Remember
//     when…", "Save me a seat") nor name a thing to keep elsewhere ("Save the photo to my camera
//     roll"). A question, a condition or role-play before the verb, a title ("Remember the Titans",
//     "Remember My Name") or a verb in another sense ("Update Sarah:", "Correct answer:") is no
//     frame.
//  4. The write's own rules: the key must be said of this text (A1); a shared write names every
//     teammate in the requesting sentence (A3); an update's object names the item — its key, or at
//     least half of its words — holds only its words and keeps what turns its sense (a negation, a
//     possessive, "new"; named by its key, only whose or which it is), and its new text doesn't drop
//     most of the item — or, when the object names the whole subject of a "<subject> is <value>"
//     item, most of its value ("$175" for "My weekly grocery budget is $150") — nor narrow itself
//     ("for next month only", "today") nor add a second thing with "and" to an item that is no list
//     (A4), and keeps as many values as the item had ("14B, code 3310"); a forget's object covers
//     the item — its key when the item's text is one value (or with half of a text that is no list),
//     all of a short item's words and all but one (not in a list) of a longer one, or the whole
//     subject and most of the words of a "<subject> is <value>" item — holds no other word but a
//     label before a comma ("my old address, 12 Elm Street", "my landlord's details, Mr. Adeyemi,
//     …"), keeps what turns its sense ("Forget that I eat pork" doesn't erase "I don't eat pork";
//     "my landlord's email" isn't "Landlord's lawyer is …"), is not vague ("it", "that email") nor
//     in something else (any "from" but memory, shared memory or the profile: "from this photo",
//     "from the booking"), and the item is neither pinned nor a lesson (A5). Named by its key, an
//     object has nothing after the key but one identifier word ("number", "name", "code", "id")
//     and the item's own words ("my address book", "my car insurance" are other things) and
//     no qualifier the item lacks before it ("old", "new", "former", "ex-" …: "my old weekly grocery
//     budget") unless it also holds all of the item's text or its words after a label; a forget by
//     the key says whose it is ("my", "our", or "the" after "forget", which acts on memory alone:
//     "Delete the staging database" may mean the database),
//     and with "delete", "remove" or "erase" a one-word key alone must be said to be memory ("Delete
//     my email." waits). A word the item writes with a capital compares whole, unstemmed ("Darren
//     Coles" is not "Darren Cole").
//  5. The rest. Every other sentence must be neutral: a greeting or thanks (not to a named person),
//     a save or an update of something else beside a forget, a forget of the old thing beside the
//     save that replaces it ("Forget my old address, …") or of "the note about" another topic, a
//     task the judge knows ("Book a table for Friday.") that can't change the request (no editing
//     verb without a place that is not memory, no word for a memory or its properties, no asking
//     first, nothing said of the user's own but their calendar and lists, no other number for the
//     same thing), a plain question with its mark, after the request a request to translate or
//     proofread a quoted text that ends the message (what is quoted is not the user's voice), or —
//     before the request only — context of two kinds, naming no one else: news of the user's life
//     ("I moved last week.", "We broke up.") before a forget or an update, or before a save whose
//     text says it is new ("my new sort code is …"), and "My ⟨number or address⟩ is …" sharing no
//     word with the text; a thanks for the help itself ("Thanks for your help earlier.").
//     None may hold a word of negation, take-back, hedge, condition, modal, sarcasm,
//     interjection, pasting, relaying ("sent", "wrote") or role-play, nor an emoji. A second save
//     beside a save may correct it, any other forget beside a write may take it back ("Forget the
//     second part."), and other context may change who speaks or why ("I'm drunk.", "I lost a
//     bet."), so all make the write wait. For a forget, no other sentence may mention the item's
//     words.
//
// Anything unrecognised makes the write wait — a suggestion, a proposed change or a proposed
// forget — with a typed Reason and a Trace (the sentence, the user's words and the stage that
// decided), which the app shows the user in plain words (Reason.Explain) and the teammate gets as
// a code and a sentence without any of the user's words (Reason.ForTeammate).
//
// testdata/corpus.jsonl (written with the code at hand) and testdata/blind/*.jsonl (written from
// the rules alone by writers who never read this package, but for redteam3-self.jsonl: near-misses
// of the allow-list's newest shapes, written with the code at hand) hold every line's class, the
// writer's label and the verdict and reason the judge must give; TestCorpus asserts each of them.
package intent

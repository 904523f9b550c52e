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
//     bracket is cut off; a plain smile (" :)") ending the message is the closer "🙂". The text
//     itself may not say it isn't meant to be kept as it stands (content.go): irony or a joke
//     ("…, said no one ever", "… lol jk", "/s", "(not really)", "😂", "…, for the prank"), a
//     condition ("… if I get the job", "… when the reorg is announced"), a take-back after a break
//     ("— actually no"), another instruction ("… and book a table"), words to the teammate, a
//     one-off scope or this moment ("… for this report", "… right now"), a remark about the chat
//     ("I asked about Python"), a clause that unsays it ("…, who doesn't exist"), a placeholder
//     ("[NAME]"), another place to keep it ("… in the expenses sheet"), an exception in a shared
//     text, a part after a comma that says who says so, how sure it is or asks something ("…,
//     says my sister", "…, to be confirmed", "…, or was it 4812", "…, pick one"; a consequence in
//     the user's own words stays: "…, so text is better than calls"); an update's new text must be
//     a value, not an edit or a reference ("add an extra shot", "see above"). Signs count as
//     written: "−50" (a minus sign) is not "-50". A quoted word after "called" or "the word" is a mention, not a quote. A bare verb's text must state something (a first-person word, "is",
//     "name's") and may not open with "to", "when", "me" … ("Remember to breathe", "Remember
//     when…", "Save me a seat") nor name a thing to keep elsewhere ("Save the photo to my camera
//     roll", "Save my gate code 4412 to 1Password", "Remember my locker code 31-07-22 in Notion"). A question, a condition or role-play before the verb, a title ("Remember the Titans",
//     "Remember My Name") or a verb in another sense ("Update Sarah:", "Correct answer:") is no
//     frame.
//  4. The write's own rules: the key must be said of this text (A1); a shared write names every
//     teammate in the requesting sentence, and a private write may not answer a sentence that
//     names them (A3: "not_shared"); an update's object names the item — its key, the whole
//     subject of a "<subject> is <value>" item ("my address" for "My address is 22 Shop Street"),
//     or at least half of its words — holds only its words and keeps what turns its sense (a negation, a
//     possessive, "new"; named by its key, only whose or which it is), and its new text doesn't drop
//     most of the item — or, when the object names the whole subject of a "<subject> is <value>"
//     item, most of its value ("$175" for "My weekly grocery budget is $150") — nor narrow itself
//     ("for next month only", "today") nor add a second thing with "and" to an item that is no list
//     (A4), and keeps as many values as the item had ("14B, code 3310"); named by its whole key, an
//     update replaces the value of a "<subject> is <value>" item, or the whole of an item that is
//     one value in words ("a cortado" for "A flat white with oat milk"), not a value with a number
//     in it ("Update my car to 2024." for "Blue 2019 Honda Civic"); a forget's object covers
//     the item — its key when the item's text describes one thing ("Dr Moyo, Mill Road"; not "1234
//     at home, 4411 at the villa") or is "<key> is <value>" (or with half of a text that is no list),
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
//     and with "delete", "remove", "erase" or "wipe" a one-word key alone, or an object opened by
//     "the", must be said to be memory, hold a word of the item's text, or be the key said whole
//     ending in a word for a piece of information (infoHeads: "code", "number", "goal", "contact",
//     "pharmacy" …: "Delete the pool locker code.", "Remove my pharmacy."); "Delete my email.",
//     "Delete the admin password." wait: they may mean the thing. The key said whole ("my KEY",
//     "the KEY" of two words or more) names an item that is one thing or one list under it
//     (oneList: "Forget my allergies." for "Allergic to peanuts and shellfish") — not two things of a
//     kind ("1234 and Dad 4411", "LC-5521, PIN 0099"). A word the item writes with a capital compares whole, unstemmed ("Darren
//     Coles" is not "Darren Cole"). A forget's object covers what the item says, not a bag of its
//     words (notAsItSays): the same order where the item relates things ("Tom owes me $50" is not
//     "Owes Tom $50"; "Gate code is 4417, garage code is 9920"), the person the item is about
//     ("Forget that I'm vegetarian" is not "Daughter is vegetarian"), no short value the item lacks
//     ("6 am", "US", "room A"), codes and names spelled as the item spells them ("tr0ub4dor",
//     "hate" for "Dr. Hate"); the key said alone names the item whole. An update that names its
//     item by an object sets a value or restates the item (newValue): a person takes a name ("Update
//     my manager: the report will be late." tells someone), a device or an app no version or mode
//     ("Update my phone to iOS 18."), and no new text is still to come ("someone nearer") or
//     another's ("Sam's is Dr. Ruiz"); an update that only points ("Update this:", "Update the note
//     to say …") or a label of the item's own words, aspects or facets of the user's life ("Update my
//     commute: …", "Update Miso's feeding note: …") names its item when its new text restates it
//     (restates): the item's words in order with other values, and one plain word changed but not
//     the first and not a name that says which thing ("the cabin in Tahoe"), or the list grown by
//     members after "and" ("I speak Portuguese, German and Spanish") (A4).
//  5. The rest. Every other sentence must be neutral: a greeting, a thanks for the help itself or
//     for an errand done, in plain words that share none with the text ("Thanks for booking the
//     flights."), plain emphasis ("It's important."), a save or an update of something else beside
//     a forget, a forget of the old thing beside the save that replaces it ("Forget my old address,
//     …") or of "the note about" another topic, a task the judge knows ("Book a table for Friday.")
//     that can't change the request (no editing verb without a place that is not memory, no word
//     for a memory or its properties, no asking first, nothing said of the user's own but their
//     calendar and lists, nothing got for the user ("Order me a steak." beside "I'm vegan"), no
//     other number for the same thing, and after a save or an update a back reference only in an
//     errand into the user's calendar or lists or one that books, prints or pays: "Put it in the
//     family calendar too."; never beside a forget, whose "it" is the item), a plain question with
//     its mark, after the request a request to translate or proofread a quoted text that ends the
//     message, or an aside: a plain event in the user's world, before the request or — beside a
//     forget or an update only — after it ("We adopted a dog on Sunday!", "The router was reset.",
//     "I sold the Focus.", "My manager changed.", "I'm back from leave."): a subject (I, we, he,
//     she, my/our/the and a few plain words, or a name from the item being replaced), a verb of an
//     event (asideVerbs), no back reference, no name but the event's object, no word about the
//     conversation or memory ("that cancellation", "the note"); a verb of change or ending
//     ("moved", "started", "sold", "got back") beside a save only when the text says it is new,
//     and beside an update no place name the old or new text lacks ("I moved to Leeds." beside
//     "… Bristol"). An event names a thing of everyday life (realThings: "I changed banks.", "I got
//     a new phone.", "I sold the Focus." — not "a costume", "a dragon", "my character's class"; a
//     place only from the gazetteer: "I moved to Leeds.", "I live in Glasgow." — not Hogwarts, and
//     a place the text names must be the context's) in one plain clause, and before the save of an
//     attribute a gain or a change counts too ("I joined the running club. Remember that training
//     is …", not "… that my bank is still Barclays"); so does an undertaking from a short list ("I'm
//     organising the reunion.", "I'm learning Spanish.", "I'm planning our trip to Japan."), whose
//     own attribute the text may give ("the reunion is on 14 June"), "I work at a hospital.",
//     "I have a new manager.", "New job!" before an update, and "We just got back from the vet."
//     before what it found about someone the user names. News of someone else ("My brother moved.")
//     stands only beside a text that names a person (aboutThis). Beside a forget, a short reason
//     (forgetReason: "It changed.", "I sold it last weekend.") — not news of another thing of the
//     item's kind ("The garage code changed.") nor a move to what the item says ("I moved to York."
//     beside "I live in York"). A question asks for a fact of the
//     world only ("Where …?", "What time …?", "What's the weather …?", "Can you suggest …?"; not
//     "How's my impression?", "What about the real one?"). An errand for the user ("Find me …",
//     "Book me …", "Remind me to …") stands only beside the save of an attribute of a thing or an
//     update whose new value it names: beside what the user is or does it may say otherwise ("I'm
//     vegan." — "Book me a steak dinner."), unless it asks again for the taste the text saves and
//     adds nothing (asksTaste: "Order me a black americano." beside "I take my coffee black", not
//     "… with oat milk"). No task may name the thing the text says something of
//     ("Find me a venue for the reunion." beside "the venue … is the Red Lion"), nor share a word
//     with the text and hold a value it lacks ("Book the Crown for the reunion."), relayed errands
//     included ("Also tell the council the trash pickup moves to Friday."); "Tell Jo I'm in." passes
//     on no fact. Before the request, context also of the older kinds: news
//     of the user's life before a forget or an update, and "My ⟨number or address⟩ is …" sharing no
//     word with the text.
//     None may hold a word of negation, take-back, hedge, condition, modal, sarcasm,
//     interjection, pasting, relaying ("sent", "wrote") or role-play, nor an emoji. A second save
//     beside a save may correct it, any other forget beside a write may take it back ("Forget the
//     second part."), and other context may change who speaks or why ("I'm drunk.", "I lost a
//     bet.", "I need it for the catfish account."), so all make the write wait. For a forget, no
//     other sentence may mention the item's words (its key's aside).
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

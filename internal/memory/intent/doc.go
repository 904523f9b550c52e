// Package intent judges a teammate's memory write from the run's user message alone (rules A1–A5 and
// S3 of docs/RULES.md), and owns the one text model every comparison of memory text uses
// (Tokens, Canonical, Hash). It is pure: no I/O, no clock, no randomness, so every rule is testable
// in isolation and its cost is linear in the sizes of the message and the texts.
//
// The judgement fails closed. A write is Confirmed only when one sentence of the message
//
//   - asks for it: a save verb (remember, save, update, correct, memorize, "keep in mind"…, any
//     inflection) that opens the sentence after fillers ("okay, please also"), audience phrases and
//     one lead-in ("I want you to", "make sure to"), or that closes it after the text ("I don't eat
//     pork, remember that"); a sentence that is a question (a question mark, or an opening like "did
//     you", "can you") asks nothing, nor does a verb whose object is a person ("correct me if I'm
//     wrong", "update us") or a bare "Correct," or "Update:";
//   - contains the text as a contiguous token sequence that runs to the end of a clause (the
//     sentence's end, a punctuation mark, or a joining word such as "and" or "because"), and the
//     teammate's key, if it chose one, anywhere in the same sentence;
//   - holds no negator (not, no, never, nothing, don't, forbidden, stop, without, rather …) and no
//     forget verb anywhere outside the text and the key, however far from the verb;
//   - for an update, names the item outside the new text: its key (unless the key is stop words
//     alone, such as "it"), or at least half (and at least one) of the distinct non-stop words of
//     its current text; and acts on the item: the verb's object, outside the new text, is mostly
//     the item's words (see below);
//   - for the shared scope, names every teammate ("for all teammates", "everyone should know", "all
//     of you", "my profile" …) outside the text, a noun among them in an audience's place ("save
//     it to my profile", "…, all of you."; not "keep it from my teammates", "my profile picture").
//
// A forget is confirmed when one sentence asks to forget, delete, remove or erase (not "forgot"),
// unnegated outside the item's own words, with no save or keep verb there either ("forget my dog but
// keep the note about my cat"), is not a question, names the item and acts on it as an update must,
// and for a shared item names every teammate. Anything else waits for the user: a suggestion, a
// proposed change or a proposed forget.
//
// Naming the item's words is not enough to act on it: the verb's object — the words after the verb
// to the sentence's end or to a word that opens a clause of its own ("because", "since", "if" …) —
// must be mostly the item's. The distinct words of the item's key and text there (give or take a
// final "s" or "es") must outnumber every other word there; stop words, words that point at a memory
// rather than a thing ("the note about", "everything you know about", "from your memory", "for
// good") and audience phrases don't count. "Remove the cat hair from my sofa" (cat; hair, sofa)
// doesn't act on "Has a cat"; "Please forget my old address, 12 Elm Street" (12, elm, street; old,
// address) acts on "Lives at 12 Elm Street".
//
// Sentences end at . ! ? ; and their other-script forms, at line and paragraph breaks, and before
// topic shifts ("by the way", "btw", "on another note"); a full stop inside a token ("2.5") or after
// a known abbreviation ("Dr. Ruiz") ends nothing. A message with a sentence that takes the request
// back ("never mind", "scratch that", "just kidding", or a short sentence that says no: "please
// don't"; against a forget, "keep it") confirms nothing. "Don't forget X" is not a request to
// remember: it holds a negator, so it is a suggestion. Messages in other languages are read with the
// same English words, so they only make suggestions — the safe direction.
package intent

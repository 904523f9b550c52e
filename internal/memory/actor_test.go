package memory

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func actorSave(content string) ProposedWrite { return ProposedWrite{Kind: WriteSave, Content: content} }
func actorEdit(content string) ProposedWrite { return ProposedWrite{Kind: WriteEdit, Content: content} }
func actorSaveShared(content string) ProposedWrite {
	return ProposedWrite{Kind: WriteSave, Content: content, Shared: true}
}

var (
	actorForget       = ProposedWrite{Kind: WriteForget}
	actorForgetShared = ProposedWrite{Kind: WriteForget, Shared: true}
)

// TestActor covers SPEC A1, A2, A3, A5 and S3: MemoryCoordinator.actor.
func TestActor(t *testing.T) {
	t.Parallel()
	const (
		confirmed = VerdictConfirmed
		candidate = VerdictCandidate
		refused   = VerdictRefused
	)
	cases := []struct {
		name    string
		message string
		write   ProposedWrite
		want    Verdict
		reason  string // checked when set
	}{
		// A1: each intent word, in each inflection.
		{"remember", "Remember that my name is Ann.", actorSave("my name is Ann"), confirmed, reasonConfirmed},
		{"remembers", "Make sure she remembers this: my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"remembered", "I want this remembered: I live in Paris", actorSave("I live in Paris"), confirmed, ""},
		{"remembering", "Start remembering that I like green tea", actorSave("I like green tea"), confirmed, ""},
		{"save", "Save this: I'm allergic to peanuts", actorSave("I'm allergic to peanuts"), confirmed, ""},
		{"saves", "Make sure it saves: my dog is called Rex", actorSave("my dog is called Rex"), confirmed, ""},
		{"saved", "Get this saved, my dog is called Rex", actorSave("My dog is called Rex"), confirmed, ""},
		{"saving", "Saving this is fine: my birthday is 3 May", actorSave("my birthday is 3 May"), confirmed, ""},
		{"keep", "Keep in mind that I work nights", actorSave("I work nights"), confirmed, ""},
		{"keeps", "Make sure this keeps: I work nights", actorSave("I work nights"), confirmed, ""},
		{"kept", "I'd like this kept: I prefer email over phone", actorSave("I prefer email over phone"), confirmed, ""},
		{"keeping", "Keeping this on file please: my employee id is 4471", actorSave("my employee id is 4471"), confirmed, ""},
		{"update", "Update my address: 2 Oak Street", actorEdit("2 Oak Street"), confirmed, ""},
		{"updates", "This updates what you know: I moved to Berlin", actorEdit("I moved to Berlin"), confirmed, ""},
		{"updated", "Get my city updated, I moved to Berlin", actorEdit("I moved to Berlin"), confirmed, ""},
		{"updating", "Updating you: I moved to Berlin", actorEdit("I moved to Berlin"), confirmed, ""},
		{"correct", "Please correct it: my surname is Smith", actorEdit("my surname is Smith"), confirmed, ""},
		{"corrects", "This corrects the record: my surname is Smith", actorEdit("my surname is Smith"), confirmed, ""},
		{"corrected", "I want it corrected - my surname is Smith", actorEdit("my surname is Smith"), confirmed, ""},
		{"correcting", "I'm correcting you: my surname is Smith", actorEdit("my surname is Smith"), confirmed, ""},
		{"correction", "Correction: my surname is Smith", actorEdit("my surname is Smith"), confirmed, ""},
		{"memorize (the one added synonym)", "Memorize this: my locker is 12", actorSave("my locker is 12"), confirmed, ""},
		{"memorise, British spelling", "Please memorise that my locker is 12", actorSave("my locker is 12"), confirmed, ""},

		// A1: negations of each form.
		{"don't", "Don't remember that my name is Ann", actorSave("my name is Ann"), candidate, reasonNegated},
		{"don’t with a curly apostrophe", "Don’t remember that my name is Ann", actorSave("my name is Ann"), candidate, reasonNegated},
		{"donʼt with a modifier-letter apostrophe", "Donʼt remember that my name is Ann", actorSave("my name is Ann"), candidate, reasonNegated},
		{"dont without an apostrophe", "dont remember that my name is Ann", actorSave("my name is Ann"), candidate, reasonNegated},
		{"do n't, tokenised", "do n't remember that my name is Ann", actorSave("my name is Ann"), candidate, reasonNegated},
		{"do not", "Do not save my address: 1 Main St", actorSave("1 Main St"), candidate, reasonNegated},
		{"never", "Never keep my phone number 555 1234", actorSave("555 1234"), candidate, reasonNegated},
		{"no need to", "No need to remember that I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"stop", "Stop remembering that I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"shouldn't", "You shouldn't save that I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"won't need to", "You won't need to remember that I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"cannot", "You cannot save that I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"avoid", "Please avoid saving that I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"forget about saving", "Forget about saving that I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"no, directly followed by a word", "No saving this: I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"DON'T in capitals", "DON'T SAVE THIS: I LIKE TEA", actorSave("I like tea"), candidate, reasonNegated},
		{"can't remember reports, doesn't ask", "I can't remember if I told you: my name is Ann", actorSave("my name is Ann"), candidate, reasonNegated},

		// The negation window: 5 words back, within the clause; commas don't end it.
		{"window 4: I don't want you to remember", "I don't want you to remember that I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"window 5: do not want you to ever save", "I do not want you to ever save this: I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"never, ever: a comma doesn't end negation", "never, ever save this: I like tea", actorSave("I like tea"), candidate, reasonNegated},
		{"negator beyond the window", "Don't call me before nine in the morning, remember that I work nights", actorSave("I work nights"), confirmed, ""},
		{"but ends the clause", "I don't know, but remember that my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"however ends the clause", "I'm not sure however remember that my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"a full stop ends the clause", "Not now. Remember that I like tea", actorSave("I like tea"), confirmed, ""},
		{"a line break ends the clause", "don't save the draft\nremember my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"a full-width exclamation mark ends the clause", "Don't save that！Remember I like tea", actorSave("I like tea"), confirmed, ""},
		{"a decimal point doesn't end the clause", "Never in version 2.0 save my dose, 10 mg", actorSave("10 mg"), candidate, reasonNegated},
		{"no, as an interjection", "No, remember that my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"negator after the intent", "Remember not to call me before 9", actorSave("not to call me before 9"), confirmed, ""},

		// Mixed messages: one negated and one unnegated intent.
		{"mixed: the unnegated part", "Don't save my address but remember my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"mixed: the negated part", "Don't save my address but remember my name is Ann", actorSave("my address"), candidate, reasonOnlyWhereNegated},
		{"mixed: content only in the negated clause", "Don't save my address 1 Main St, but remember my name is Ann", actorSave("1 Main St"), candidate, reasonOnlyWhereNegated},
		{"mixed: content in a clause without intent", "My address is 1 Main St. Don't save it. Remember my name is Ann.", actorSave("1 Main St"), candidate, reasonOnlyWhereNegated},
		{"mixed: content before its intent in the clause", "Don't save my address. My name is Ann, remember that.", actorSave("my name is Ann"), confirmed, ""},
		{"mixed: content spanning a negated intent", "Remember that I like tea but don't save that I hate coffee", actorSave("I like tea but don't save that I hate coffee"), candidate, reasonOnlyWhereNegated},
		{"mixed: don't forget is the unnegated intent", "Don't remember my address; don't forget my name is Ann", actorSave("my name is Ann"), confirmed, ""},

		// "don't forget" asks to remember.
		{"don't forget that", "Don't forget that my name is Ann", actorSave("my name is Ann"), confirmed, reasonConfirmed},
		{"never forget", "Never forget my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"please do not ever forget", "Please do not ever forget that my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"stop forgetting", "Stop forgetting that my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"don't forget to save", "Don't forget to save my address: 1 Main St", actorSave("1 Main St"), confirmed, ""},
		{"forget with an object doesn't negate", "Forget the old one, remember my new address is 2 Oak St", actorSave("my new address is 2 Oak St"), confirmed, ""},
		{"forget what I said about remembering", "Forget what I said about remembering my address, 1 Main St", actorSave("1 Main St"), candidate, reasonNegated},
		{"forget, unnegated, is no save intent", "Forget that my name is Ann", actorSave("my name is Ann"), candidate, reasonNoIntent},

		// No intent at all.
		{"a plain statement", "My name is Ann", actorSave("my name is Ann"), candidate, reasonNoIntent},
		{"empty message", "", actorSave("my name is Ann"), candidate, reasonNoIntent},
		{"keep going is the auxiliary", "Keep going, my name is Ann", actorSave("my name is Ann"), candidate, reasonNoIntent},
		{"I keep forgetting", "I keep forgetting to tell you my name is Ann", actorSave("my name is Ann"), candidate, reasonNoIntent},
		{"incorrect is not correct", "That is incorrect, my name is Ann", actorSave("my name is Ann"), candidate, reasonNoIntent},
		{"correctly is not correct", "You spelled it correctly: Ann", actorSave("Ann"), candidate, reasonNoIntent},
		{"savings is not save", "My savings account is at Acme Bank", actorSave("My savings account is at Acme Bank"), candidate, reasonNoIntent},
		{"goalkeeper is not keep", "The goalkeeper is my brother Tom", actorSave("my brother Tom"), candidate, reasonNoIntent},
		{"I forgot is not an intent", "I forgot to tell you, my name is Ann", actorSave("my name is Ann"), candidate, reasonNoIntent},

		// Content containment: Normalize, whole words.
		{"content not in the message", "Remember that I like tea", actorSave("I like coffee"), candidate, reasonNotInMessage},
		{"different case, spaces and punctuation", "remember:   MY   name is ANN!!!", actorSave("My name is Ann."), confirmed, ""},
		{"curly and straight apostrophes match", "Remember I’m allergic to peanuts", actorSave("I'm allergic to peanuts"), confirmed, ""},
		{"a name inside a longer word", "Remember that my friend is Anna", actorSave("Ann"), candidate, reasonNotInMessage},
		{"a word inside a longer word", "Remember the cattle are mine", actorSave("cat"), candidate, reasonNotInMessage},
		{"content across sentences", "Remember this. I live in Paris. I work at Acme.", actorSave("I live in Paris. I work at Acme."), confirmed, ""},
		{"content across a line break", "remember:\nI live in\nParis", actorSave("I live in Paris"), confirmed, ""},
		{"empty content", "Remember this", actorSave(""), candidate, reasonEmptyContent},
		{"punctuation-only content", "Remember this!!!", actorSave("!!!"), candidate, reasonEmptyContent},
		{"multi-sentence with the request last", "Thanks for yesterday. By the way, my name is Ann. Please remember that.", actorSave("my name is Ann"), confirmed, ""},

		// A3: the shared scope needs an everyone-word.
		{"shared: everyone", "Remember for everyone: I'm vegetarian", actorSaveShared("I'm vegetarian"), confirmed, reasonConfirmedShared},
		{"shared: missing", "Remember I'm vegetarian", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"shared: all of you", "All of you, remember I'm vegetarian", actorSaveShared("I'm vegetarian"), confirmed, ""},
		{"shared: my profile", "Add to my profile and remember I'm vegetarian", actorSaveShared("I'm vegetarian"), confirmed, ""},
		{"shared: every teammate", "Every teammate should remember I'm vegetarian", actorSaveShared("I'm vegetarian"), confirmed, ""},
		{"shared: teammates", "Teammates, remember I'm vegetarian", actorSaveShared("I'm vegetarian"), confirmed, ""},
		{"shared: everybody", "Tell everybody to remember I'm vegetarian", actorSaveShared("I'm vegetarian"), confirmed, ""},
		{"shared: everyone’s, curly possessive", "Save it to everyone’s memory: I'm vegetarian", actorSaveShared("I'm vegetarian"), confirmed, ""},
		{"shared: tall", "I'm tall, remember I'm vegetarian", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"shared: overall", "Overall, remember I'm vegetarian", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"shared: install", "Remember I'm vegetarian, I did the install", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"shared: wallet", "Remember my wallet is brown", actorSaveShared("my wallet is brown"), candidate, reasonNotForEveryone},
		{"shared: everyday", "Remember I'm vegetarian in everyday life", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"shared: everything", "Remember everything: I'm vegetarian", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"shared: profiled", "I was profiled once, remember I'm vegetarian", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"shared: one teammate addressed", "Remember, teammate: I'm vegetarian", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"shared: negated everyone-word", "Remember I'm vegetarian, but not for everyone", actorSaveShared("I'm vegetarian"), candidate, reasonNotForEveryone},
		{"not shared: everyone-word not needed", "Remember I'm vegetarian", actorSave("I'm vegetarian"), confirmed, reasonConfirmed},
		{"shared: intent still required", "Everyone: I'm vegetarian", actorSaveShared("I'm vegetarian"), candidate, reasonNoIntent},

		// Edits follow the rules of saves, with the new content.
		{"edit: no intent", "Actually I live in Berlin", actorEdit("I live in Berlin"), candidate, reasonNoIntent},
		{"edit: negated", "Don't update it, I live in Berlin", actorEdit("I live in Berlin"), candidate, reasonNegated},
		{"edit: new content not in the message", "Update my city please", actorEdit("I live in Berlin"), candidate, reasonNotInMessage},
		{"edit: shared without everyone-word", "Update it: I live in Berlin", ProposedWrite{Kind: WriteEdit, Content: "I live in Berlin", Shared: true}, candidate, reasonNotForEveryone},
		{"edit: shared with everyone-word", "Update my profile: I live in Berlin", ProposedWrite{Kind: WriteEdit, Content: "I live in Berlin", Shared: true}, confirmed, reasonConfirmedShared},

		// A5: forget is confirmed or refused, never a candidate.
		{"forget", "Please forget my old address", actorForget, confirmed, reasonForgetConfirmed},
		{"forgets", "Make sure it forgets my old address", actorForget, confirmed, ""},
		{"forgotten", "I want my old address forgotten", actorForget, confirmed, ""},
		{"delete", "Delete my phone number", actorForget, confirmed, ""},
		{"deleted", "It should be deleted", actorForget, confirmed, ""},
		{"remove", "Can you remove the note about my diet?", actorForget, confirmed, ""},
		{"removing", "Removing it is fine", actorForget, confirmed, ""},
		{"erase", "Erase that", actorForget, confirmed, ""},
		{"remember to delete", "Remember to delete my old address", actorForget, confirmed, ""},
		{"forget: don't forget", "Don't forget my address", actorForget, refused, reasonForgetNegated},
		{"forget: don't delete", "Don't delete my phone number", actorForget, refused, reasonForgetNegated},
		{"forget: don’t erase, curly", "Don’t erase it", actorForget, refused, reasonForgetNegated},
		{"forget: never remove", "Never remove it", actorForget, refused, reasonForgetNegated},
		{"forget: stop deleting", "Stop deleting my notes", actorForget, refused, reasonForgetNegated},
		{"forget: a negated request elsewhere", "Delete my phone number but don't forget my address", actorForget, refused, reasonForgetNegated},
		{"forget: forget about deleting", "Forget about deleting it", actorForget, refused, reasonForgetNegated},
		{"forget: forget and remove", "Forget my address and remove it from your notes", actorForget, confirmed, reasonForgetConfirmed},
		{"forget: I keep forgetting", "I keep forgetting my keys", actorForget, refused, reasonForgetNotAsked},
		{"forget: stop forgetting", "Stop forgetting my birthday", actorForget, refused, reasonForgetNegated},
		{"forget: I forgot", "I forgot to tell you my address is 1 Main St", actorForget, refused, reasonForgetNotAsked},
		{"forget: no request", "My name is Ann", actorForget, refused, reasonForgetNotAsked},
		{"forget: empty message", "", actorForget, refused, reasonForgetNotAsked},
		{"forget: a save request", "Remember my name is Ann", actorForget, refused, reasonForgetNotAsked},
		{"forget shared: no everyone-word", "Forget my address", actorForgetShared, refused, reasonForgetNotForEveryone},
		{"forget shared: my profile", "Remove my address from my profile", actorForgetShared, confirmed, reasonForgetConfirmed},

		// Other scripts and broken input never panic, and only English words count.
		{"Chinese, no English intent", "請記住我的名字是安", actorSave("我的名字是安"), candidate, reasonNoIntent},
		{"English intent, Chinese content", "Remember: 我的名字是安", actorSave("我的名字是安"), confirmed, ""},
		{"Cyrillic", "Запомни, меня зовут Анна", actorSave("меня зовут Анна"), candidate, reasonNoIntent},
		{"invalid UTF-8 in the message", "remember \xff\xfe my name is Ann", actorSave("my name is Ann"), confirmed, ""},
		{"invalid UTF-8 as content", "remember \xff", actorSave("\xff"), candidate, reasonEmptyContent},
		{"tabs and odd spaces", "  remember\t\tthat\u00a0my name   is Ann  ", actorSave("my name is Ann"), confirmed, ""},

		{"unknown kind", "Remember my name is Ann", ProposedWrite{Content: "my name is Ann"}, refused, reasonUnknownKind},
	}
	if len(cases) < 80 {
		t.Fatalf("%d cases; the issue asks for at least 80", len(cases))
	}
	names := map[string]bool{}
	for _, tc := range cases {
		if names[tc.name] {
			t.Fatalf("duplicate case name %q", tc.name)
		}
		names[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Actor(tc.message, tc.write)
			assert.Equal(t, tc.want, got.Verdict, "reason: %s", got.Reason)
			if tc.reason != "" {
				assert.Equal(t, tc.reason, got.Reason)
			}
			assert.Contains(t, actorReasons, got.Reason, "F5: reasons are fixed sentences")
			if c := tc.write.Content; len(c) >= 8 {
				assert.NotContains(t, got.Reason, c, "F5: a reason never quotes memory text")
			}
		})
	}
}

// TestActorScanNormalizes: the scan's normalised text must be Normalize's, or content matches would
// be placed in the wrong clause.
func TestActorScanNormalizes(t *testing.T) {
	t.Parallel()
	for _, m := range []string{"", "Don’t save: I'm Ann!", "  a\tb  ", "donʼt \xff x", "請記住 ok", "3.5 a.b"} {
		s := scanMessage(m)
		assert.Equal(t, Normalize(m), s.norm, "message %q", m)
		assert.Len(t, s.segStart, len(strings.Fields(s.norm)))
	}
}

// TestActorLongMessage: a 100 KB message full of near-matches and negations is judged in linear time.
func TestActorLongMessage(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("don't save a a a a a but remember ", 100_000/34)
	content := strings.TrimSpace(strings.Repeat("a ", 400)) + " x"
	start := time.Now()
	got := Actor(long, actorSave(content))
	// A quadratic scan takes seconds here; the linear one a few milliseconds. The bound is loose so
	// a slow, shared CI machine doesn't fail it.
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Equal(t, VerdictCandidate, got.Verdict)
	assert.Equal(t, reasonNotInMessage, got.Reason)

	got = Actor(long+"remember my name is Ann", actorSave("my name is Ann"))
	assert.Equal(t, VerdictConfirmed, got.Verdict)
}

func TestWholeWordMatches(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []int{0, 2, 4}, slices.Collect(wholeWordMatches(" a a a a ", " a a ")))
	assert.Empty(t, slices.Collect(wholeWordMatches(" anna ", " ann ")))
}

func BenchmarkActor100KB(b *testing.B) {
	long := strings.Repeat("don't save a a a a a but remember ", 100_000/34)
	content := strings.TrimSpace(strings.Repeat("a ", 400)) + " x"
	for b.Loop() {
		Actor(long, actorSave(content))
	}
}

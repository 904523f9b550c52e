package memory

import (
	"strings"
	"testing"
)

// FuzzActor checks the properties MemoryCoordinator.actor must keep on any input (SPEC A1, A3, A5,
// S3, F5). kind is taken modulo 4, so the unknown kind 0 is fuzzed too.
func FuzzActor(f *testing.F) {
	seeds := []struct {
		message string
		kind    WriteKind
		content string
		shared  bool
	}{
		{"Remember that my name is Ann.", WriteSave, "my name is Ann", false},
		{"Don’t remember that my name is Ann", WriteSave, "my name is Ann", false},
		{"never, ever save this: I like tea", WriteSave, "I like tea", false},
		{"I don't know, but remember that my name is Ann", WriteSave, "my name is Ann", false},
		{"Don't save my address 1 Main St, but remember my name is Ann", WriteSave, "1 Main St", false},
		{"Remember for everyone: I'm vegetarian", WriteSave, "I'm vegetarian", true},
		{"I'm tall, remember I'm vegetarian", WriteSave, "I'm vegetarian", true},
		{"Update my profile: I live in Berlin", WriteEdit, "I live in Berlin", true},
		{"Please forget my old address", WriteForget, "", false},
		{"Don't forget my address", WriteForget, "", false},
		{"Remember: 我的名字是安", WriteSave, "我的名字是安", false},
		{"remember \xff\xfe my name is Ann", WriteSave, "my name is Ann", false},
		{"Keep going, my name is Ann", WriteSave, "my name is Ann", false},
		{"Remember that my friend is Anna", WriteSave, "Ann", false},
	}
	for _, s := range seeds {
		f.Add(s.message, uint8(s.kind), s.content, s.shared)
	}
	f.Fuzz(func(t *testing.T, message string, kind uint8, content string, shared bool) {
		w := ProposedWrite{Kind: WriteKind(kind % 4), Content: content, Shared: shared}
		got := Actor(message, w)

		if again := Actor(message, w); again != got {
			t.Fatalf("not deterministic: %v then %v", got, again)
		}
		if s := scanMessage(message); s.norm != Normalize(message) {
			t.Fatalf("scan normalised %q, Normalize gives %q", s.norm, Normalize(message))
		}

		// F5: the reason is one of the fixed sentences, so it never quotes memory text.
		if !isActorReason(got.Reason) {
			t.Fatalf("reason %q is not one of the fixed reasons", got.Reason)
		}
		if len(content) >= 8 && !inAnyActorReason(content) && strings.Contains(got.Reason, content) {
			t.Fatalf("reason %q quotes the content", got.Reason)
		}

		switch w.Kind {
		case WriteForget:
			// A5: a forget is confirmed or refused, never a candidate.
			if got.Verdict != VerdictConfirmed && got.Verdict != VerdictRefused {
				t.Fatalf("forget got %v", got.Verdict)
			}
			if got.Verdict == VerdictConfirmed && !mentionsAnyStem(message, "forget", "delet", "remov", "eras") {
				t.Fatalf("forget confirmed without a forget word")
			}
		case WriteSave, WriteEdit:
			if got.Verdict != VerdictConfirmed && got.Verdict != VerdictCandidate {
				t.Fatalf("%v got %v", w.Kind, got.Verdict)
			}
			if got.Verdict == VerdictConfirmed {
				// A1 (b): the normalised message contains the normalised content, as whole words.
				c := Normalize(content)
				if c == "" || !strings.Contains(" "+Normalize(message)+" ", " "+c+" ") {
					t.Fatalf("confirmed, but the message doesn't contain the content")
				}
				// A1 (a): no intent word at all, no confirmation.
				if !mentionsAnyStem(message, "remember", "sav", "keep", "kept", "updat", "correct", "memori", "forget") {
					t.Fatalf("confirmed without an intent word")
				}
			}
		default:
			if got.Verdict != VerdictRefused {
				t.Fatalf("unknown kind got %v", got.Verdict)
			}
		}

		if got.Verdict == VerdictConfirmed && w.Shared {
			// A3: a shared confirmation needs an everyone-word.
			if !mentionsAnyStem(message, "all", "every", "teammates", "profile") {
				t.Fatalf("shared write confirmed without an everyone-word")
			}
			// The shared rule only adds a condition: the same write in the teammate's own scope is
			// confirmed too.
			own := w
			own.Shared = false
			if v := Actor(message, own).Verdict; v != VerdictConfirmed {
				t.Fatalf("confirmed for everyone but %v for the teammate's own scope", v)
			}
		}
		if got.Verdict == VerdictConfirmed {
			// Adding an everyone-word never turns a confirmation into a candidate: in a sentence of
			// its own it makes any confirmed write confirmed for everyone, and appended to a shared
			// confirmation it changes nothing. (Appended to a message that ends in "not", a bare
			// " everyone" is negated, so that form is only checked where one was already present.)
			sharedW := w
			sharedW.Shared = true
			if v := Actor(message+"\nfor all teammates", sharedW).Verdict; v != VerdictConfirmed {
				t.Fatalf("confirmed, but %v for everyone after adding a sentence for all teammates", v)
			}
			if w.Shared {
				if v := Actor(message+" everyone", w).Verdict; v != VerdictConfirmed {
					t.Fatalf("confirmed for everyone, but %v after adding \"everyone\"", v)
				}
			}
		}
	})
}

func isActorReason(r string) bool {
	for _, known := range actorReasons {
		if r == known {
			return true
		}
	}
	return false
}

func inAnyActorReason(s string) bool {
	for _, known := range actorReasons {
		if strings.Contains(known, s) {
			return true
		}
	}
	return false
}

// mentionsAnyStem is a deliberately loose oracle: it looks for the stems anywhere in the message,
// lower-cased as Normalize does and with every apostrophe removed, so any word Actor could read is a
// substring of what it searches.
func mentionsAnyStem(message string, stems ...string) bool {
	var b strings.Builder
	for _, r := range message {
		if !isApostrophe(r) {
			b.WriteRune(r)
		}
	}
	text := Normalize(b.String())
	for _, s := range stems {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

package memory

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// FuzzValidation checks the input validation of the memory service (the pure checks of text.go,
// teammates.go, items.go and the MEMORY.md import's splitNotes) on any input: each either accepts
// or returns a *ValidationError naming its field with one of the fixed reasons (so no error quotes
// the value, F5); what it accepts is valid UTF-8 without NUL, within the limits of docs/API.md,
// normalised as documented (keys and teammate names trimmed, ids canonical) and accepted unchanged
// when validated again. n feeds the numeric checks (page size, expiry, note size).
func FuzzValidation(f *testing.F) {
	for _, seed := range []struct {
		s string
		n int
	}{
		{"I like green tea.", 5},
		{"", 0},
		{"   \t\n", -1},
		{"  drink  ", 100},
		{"\u00a0\u0085Ada\u2003", 101},
		{"tea\x00", 1},
		{"\xff\xfetea", 50},
		{"\u200b", 3},
		{"7E4D0C1A-0000-4000-8000-000000000001", 7},
		{"{7e4d0c1a-0000-4000-8000-000000000001}", 8},
		{"urn:uuid:7e4d0c1a-0000-4000-8000-000000000001", 9},
		{"7e4d0c1a000040008000000000000001", -9223372036854775808},
		{"fact", 9223372036854775807},
		{"Preference", 2},
		{strings.Repeat("é", MaxKeyLength) + " ", 121},
		{strings.Repeat("é", MaxKeyLength+1), 12},
		{"first note\n\nsecond note\r\n\r\nthird\nline " + strings.Repeat("🍵", 70), 4},
		{strings.Repeat("a", MaxContentLength) + "\n\n" + strings.Repeat("b ", 30), 63},
	} {
		f.Add(seed.s, seed.n)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		// checkText and its users: content, search, tool queries, messages, notes.
		for _, c := range []struct {
			field    string
			max      int
			required bool
		}{
			{"content", MaxContentLength, true},
			{"search", MaxSearchLength, false},
			{"query", MaxSearchLength, true},
			{"message", MaxMessageLength, true},
			{"note", MaxNoteLength, true},
		} {
			err := checkText(c.field, s, c.max, c.required)
			if err != nil {
				requireValidationError(t, err, c.field)
				continue
			}
			requireCleanText(t, c.field, s, c.max)
			if c.required && strings.TrimSpace(s) == "" {
				t.Fatalf("%s: blank text accepted", c.field)
			}
		}
		if (checkContent(s) == nil) != (checkText("content", s, MaxContentLength, true) == nil) {
			t.Fatalf("checkContent and checkText disagree")
		}

		// Keys: trimmed, blank means none, at most MaxKeyLength characters.
		key, err := normalizeKey(&s)
		switch {
		case err != nil:
			requireValidationError(t, err, "key")
		case key == nil:
			if strings.TrimSpace(s) != "" {
				t.Fatalf("key: a non-blank key became no key")
			}
		default:
			requireCleanText(t, "key", *key, MaxKeyLength)
			if strings.IndexFunc(*key, refusedInLabel) >= 0 {
				t.Fatalf("key: accepted %q, which holds a character labels refuse", *key)
			}
			if *key == "" || *key != strings.TrimSpace(s) {
				t.Fatalf("key: accepted as %q, not trimmed from %q", *key, s)
			}
			again, err := normalizeKey(key)
			if err != nil || again == nil || *again != *key {
				t.Fatalf("key: not idempotent: %q then %v, %v", *key, again, err)
			}
		}
		if k, err := normalizeKey(nil); k != nil || err != nil {
			t.Fatalf("key: nil key gives %v, %v", k, err)
		}

		// Teammate names: trimmed, 1–MaxTeammateNameLength characters.
		if name, err := teammateName(s); err != nil {
			requireValidationError(t, err, "name")
		} else {
			requireCleanText(t, "name", name, MaxTeammateNameLength)
			if name == "" || name != strings.TrimSpace(s) {
				t.Fatalf("name: accepted as %q, not trimmed from %q", name, s)
			}
			if again, err := teammateName(name); err != nil || again != name {
				t.Fatalf("name: not idempotent: %q then %q, %v", name, again, err)
			}
		}

		// Ids and scopes: any UUID spelling is accepted in its canonical form.
		if id, err := parseID("id", s); err != nil {
			requireValidationError(t, err, "id")
		} else {
			requireCanonicalID(t, id)
			if again, err := parseID("id", id); err != nil || again != id {
				t.Fatalf("id: not idempotent: %q then %q, %v", id, again, err)
			}
		}
		if sc, err := scopeOf(Scope{TeammateID: &s}); err != nil {
			requireValidationError(t, err, "scope.teammateId")
		} else {
			requireCanonicalID(t, sc.String())
			if again, err := scopeOf(sc); err != nil || again.String() != sc.String() {
				t.Fatalf("scope: not idempotent: %q then %q, %v", sc.String(), again.String(), err)
			}
		}
		if sc, err := scopeOf(Scope{}); err != nil || sc.String() != ScopeShared {
			t.Fatalf("scope: the shared scope gives %q, %v", sc.String(), err)
		}

		// Enumerations: exactly the names of RULES §2, case-sensitive.
		if got, want := Kind(s).valid(), s == "fact" || s == "preference" || s == "lesson" || s == "note"; got != want {
			t.Fatalf("kind %q: valid() = %v", s, got)
		}
		if got, want := Status(s).valid(), s == "active" || s == "candidate" || s == "dismissed" || s == "forgotten"; got != want {
			t.Fatalf("status %q: valid() = %v", s, got)
		}

		// Page size: 1–MaxPageSize, DefaultPageSize when not given.
		if size, err := pageSize(&n); err != nil {
			requireValidationError(t, err, "first")
			if n >= 1 && n <= MaxPageSize {
				t.Fatalf("first: %d refused", n)
			}
		} else if size != n || n < 1 || n > MaxPageSize {
			t.Fatalf("first: %d accepted as %d", n, size)
		}
		if size, err := pageSize(nil); err != nil || size != DefaultPageSize {
			t.Fatalf("first: none gives %d, %v", size, err)
		}

		// Expiry: only the future.
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		at := now.Add(time.Duration(n))
		if err := checkExpiry(&at, now); err != nil {
			requireValidationError(t, err, "expiresAt")
			if n > 0 {
				t.Fatalf("expiresAt: %d ns in the future refused", n)
			}
		} else if n <= 0 {
			t.Fatalf("expiresAt: %d ns in the future accepted", n)
		}
		if err := checkExpiry(nil, now); err != nil {
			t.Fatalf("expiresAt: none refused: %v", err)
		}

		// MEMORY.md import: a file the import accepts becomes notes that are each valid content, and
		// together keep every non-space character of the file in order (M1). A small maximum, taken
		// from n, reaches the line and character splits with short inputs (only those: cutting a long
		// input into notes of a few characters is slow and finds nothing more).
		if len(s) <= MaxMemoryFileBytes && utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
			requireNotes(t, s, MaxContentLength)
			if len(s) <= 1024 {
				requireNotes(t, s, 1+int(uint(n)%64))
			}
		}
	})
}

// validationReasons are every reason the fuzzed checks may give: fixed sentences, so an error can
// never quote the value it refused (F5).
var validationReasons = map[string]bool{
	"must be valid UTF-8":                                               true,
	"must not contain NUL characters":                                   true,
	"must not be empty":                                                 true,
	"must be valid UTF-8 without NUL characters":                        true,
	"is not a valid id":                                                 true,
	labelCharactersReason:                                               true,
	"must be in the future":                                             true,
	fmt.Sprintf("must be between 1 and %d", MaxPageSize):                true,
	fmt.Sprintf("must be at most %d characters", MaxContentLength):      true,
	fmt.Sprintf("must be at most %d characters", MaxKeyLength):          true,
	fmt.Sprintf("must be at most %d characters", MaxSearchLength):       true,
	fmt.Sprintf("must be at most %d characters", MaxMessageLength):      true,
	fmt.Sprintf("must be at most %d characters", MaxTeammateNameLength): true,
	fmt.Sprintf("must be at most %d characters", MaxNoteLength):         true,
}

// requireValidationError fails unless err is a *ValidationError on field with a known reason, and
// one the error presenter treats as the package's own (isDomain).
func requireValidationError(t *testing.T, err error, field string) {
	t.Helper()
	var bad *ValidationError
	if !errors.As(err, &bad) {
		t.Fatalf("%s: %T is not a *ValidationError", field, err)
	}
	if bad.Field != field {
		t.Fatalf("%s: the error names field %q", field, bad.Field)
	}
	if !validationReasons[bad.Reason] {
		t.Fatalf("%s: reason %q is not one of the fixed reasons", field, bad.Reason)
	}
	if err.Error() != field+": "+bad.Reason || !isDomain(err) {
		t.Fatalf("%s: error %q is not presented as a validation error", field, err.Error())
	}
}

// requireCleanText fails unless s is valid UTF-8 without NUL and at most max characters.
func requireCleanText(t *testing.T, field, s string, max int) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s: invalid UTF-8 accepted", field)
	}
	if strings.ContainsRune(s, 0) {
		t.Fatalf("%s: NUL accepted", field)
	}
	if n := utf8.RuneCountInString(s); n > max {
		t.Fatalf("%s: %d characters accepted, the limit is %d", field, n, max)
	}
}

// requireCanonicalID fails unless id is a UUID in its canonical form (lower-case hex, 8-4-4-4-12).
func requireCanonicalID(t *testing.T, id string) {
	t.Helper()
	if len(id) != 36 {
		t.Fatalf("id %q is not canonical", id)
	}
	for i, r := range id {
		dash := i == 8 || i == 13 || i == 18 || i == 23
		if dash != (r == '-') || (!dash && !strings.ContainsRune("0123456789abcdef", r)) {
			t.Fatalf("id %q is not canonical", id)
		}
	}
}

// requireNotes checks splitNotes(text, max): every note is trimmed, non-blank, at most max
// characters, and the notes hold the file's non-space characters in order.
func requireNotes(t *testing.T, text string, max int) {
	t.Helper()
	notes := splitNotes(text, max)
	for _, note := range notes {
		requireCleanText(t, "MEMORY.md note", note, max)
		if note == "" || note != strings.TrimSpace(note) {
			t.Fatalf("MEMORY.md note %q is blank or not trimmed", note)
		}
		if max == MaxContentLength {
			if err := checkContent(note); err != nil {
				t.Fatalf("MEMORY.md note is not valid content: %v", err)
			}
		}
	}
	dropSpace := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	if got, want := dropSpace(strings.Join(notes, "")), dropSpace(text); got != want {
		t.Fatalf("MEMORY.md split into notes (max %d) loses or changes text: %q from %q", max, notes, text)
	}
}

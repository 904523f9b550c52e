package memory

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// An import error says in words where in the file the problem is, with items counted from 1 and
// the fields as a person knows them ("Item 2: kind must be …"), while Field stays the path a
// program matches on (data.items[1].kind) and the error stays a ValidationError.
func TestImportErrorWords(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	file := func(set func(it, rev map[string]any)) string {
		rev := map[string]any{"revision": 1, "content": "B", "kind": "fact", "key": nil, "pinned": false, "expiresAt": nil, "action": "create"}
		it := map[string]any{"kind": "fact", "key": nil, "content": "B", "pinned": false, "expiresAt": nil,
			"revisions": []map[string]any{rev}}
		f := map[string]any{"format": ExportFileFormat, "version": ExportFileVersion,
			"items": []map[string]any{{"kind": "note", "key": nil, "content": "A", "pinned": false, "expiresAt": nil}, it}}
		if set != nil {
			set(it, rev)
		}
		if v, ok := it["format"]; ok {
			f["format"] = v
			delete(it, "format")
		}
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		name, data, field, message string
	}{
		{"an unknown kind", file(func(it, rev map[string]any) { it["kind"], rev["kind"] = "rumour", "rumour" }),
			"data.items[1].kind", "Item 2: kind must be fact, preference, lesson or note"},
		{"empty text", file(func(it, rev map[string]any) { it["content"], rev["content"] = " ", " " }),
			"data.items[1].content", "Item 2: text must not be empty"},
		{"a key of two lines", file(func(it, rev map[string]any) { it["key"], rev["key"] = "a\nb", "a\nb" }),
			"data.items[1].key", "Item 2: key " + labelCharactersReason},
		{"a date added in the future", file(func(it, _ map[string]any) { it["createdAt"] = "2026-03-03T00:00:00Z" }),
			"data.items[1].createdAt", "Item 2: date added must not be more than a day in the future"},
		{"changed before it was added", file(func(it, _ map[string]any) {
			it["createdAt"], it["updatedAt"] = "2026-02-02T00:00:00Z", "2026-02-01T00:00:00Z"
		}), "data.items[1].updatedAt", "Item 2: date last changed must not be before the date it was added (createdAt)"},
		{"a history entry's date", file(func(_, rev map[string]any) { rev["createdAt"] = "1969-01-01T00:00:00Z" }),
			"data.items[1].revisions[0].createdAt", "Item 2, entry 1 of its history: date must not be before 1970-01-01T00:00:00Z"},
		{"a forget in the history", file(func(_, rev map[string]any) { rev["action"] = "forget" }),
			"data.items[1].revisions[0].action", "Item 2, entry 1 of its history: action must be create, edit, correct, restore, undo, confirm or pin"},
		{"a history that ends elsewhere", file(func(_, rev map[string]any) { rev["content"] = "C" }),
			"data.items[1].revisions", "Item 2: its history must end with the item as it is"},
		{"another format", file(func(it, _ map[string]any) { it["format"] = "other" }),
			"data.format", `The file's format must be "memory-export"`},
		{"not JSON", "# Notes", "data", "The file is not a memory export: invalid JSON at byte 1"},
		{"a pin that isn't true or false", `{"format": "memory-export", "version": 1, "items": [{"kind": "fact", "content": "A", "pinned": "yes"}]}`,
			"data", "The file is not a memory export: pinned must be true or false"},
		{"a version in quotes", `{"format": "memory-export", "version": "1", "items": []}`,
			"data", "The file is not a memory export: version must be a whole number"},
		{"a history entry numbered in quotes", `{"format": "memory-export", "version": 1, "items": [{"kind": "fact", "content": "A", "revisions": [{"revision": "1"}]}]}`,
			"data", "The file is not a memory export: a history entry's revision number must be a whole number"},
		{"items that aren't a list", `{"format": "memory-export", "version": 1, "items": {}}`,
			"data", "The file is not a memory export: items must be a list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseImport(c.data, now)
			var bad *ValidationError
			if !errors.As(err, &bad) {
				t.Fatalf("want a ValidationError, got %v", err)
			}
			if bad.Field != c.field {
				t.Errorf("field %q, want %q", bad.Field, c.field)
			}
			if got := err.Error(); got != c.message {
				t.Errorf("message %q, want %q", got, c.message)
			}
			if Classify(err).Code != CodeBadUserInput {
				t.Errorf("code %q, want %q", Classify(err).Code, CodeBadUserInput)
			}
		})
	}
}

// Paths that are not an export file's are left without words (the message names the field).
func TestImportSubjectOnlyForFilePaths(t *testing.T) {
	t.Parallel()
	for field, want := range map[string]string{
		"data.items":                  "The file",
		"data.exportedAt":             "The file's export date",
		"data.items[0].expiresAt":     "Item 1: expiry date",
		"data.items[9].revisions[2]":  "Item 10, entry 3 of its history:",
		"data.items[0].somethingElse": "",
		"scope":                       "",
		"items[1].content":            "",
	} {
		if got := importSubject(field); got != want {
			t.Errorf("importSubject(%q) = %q, want %q", field, got, want)
		}
	}
}

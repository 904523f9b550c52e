package memory

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// An imported file's dates are from 1970 to a day ahead of the server's clock (issue #29 part 5):
// one createdAt of year 1 was written and then broke every listing of its scope. A date out of range
// is a ValidationError naming its place in the file; the edges themselves are accepted.
func TestImportDatesInRange(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	const epoch = "1970-01-01T00:00:00Z"
	dayAhead := now.Add(24 * time.Hour).Format(time.RFC3339Nano)
	beyond := now.Add(24*time.Hour + time.Microsecond).Format(time.RFC3339Nano)
	item := func(set func(it, rev map[string]any)) string {
		rev := map[string]any{"revision": 1, "content": "A", "kind": "fact", "key": nil, "pinned": false, "expiresAt": nil, "action": "create"}
		it := map[string]any{"kind": "fact", "key": nil, "content": "A", "pinned": false, "expiresAt": nil,
			"revisions": []map[string]any{rev}}
		set(it, rev)
		b, err := json.Marshal(map[string]any{"format": ExportFileFormat, "version": ExportFileVersion,
			"items": []map[string]any{{"kind": "note", "key": nil, "content": "first", "pinned": false, "expiresAt": nil}, it}})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		name  string
		set   func(it, rev map[string]any)
		field string // "" when the file is accepted
	}{
		{"the epoch everywhere", func(it, rev map[string]any) {
			it["createdAt"], it["updatedAt"], it["expiresAt"], rev["createdAt"], rev["expiresAt"] = epoch, epoch, epoch, epoch, epoch
		}, ""},
		{"a day ahead", func(it, rev map[string]any) {
			it["createdAt"], it["updatedAt"], rev["createdAt"] = dayAhead, dayAhead, dayAhead
		}, ""},
		{"an expiry far ahead", func(it, rev map[string]any) {
			it["expiresAt"], rev["expiresAt"] = "9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"
		}, ""},
		{"createdAt of year 1", func(it, _ map[string]any) { it["createdAt"] = "0001-01-01T00:00:00Z" }, "data.items[1].createdAt"},
		{"createdAt just before the epoch", func(it, _ map[string]any) { it["createdAt"] = "1969-12-31T23:59:59.999999Z" }, "data.items[1].createdAt"},
		{"createdAt beyond a day", func(it, _ map[string]any) { it["createdAt"] = beyond }, "data.items[1].createdAt"},
		{"updatedAt of year 1", func(it, _ map[string]any) { it["updatedAt"] = "0001-01-01T00:00:00Z" }, "data.items[1].updatedAt"},
		{"updatedAt beyond a day", func(it, _ map[string]any) { it["updatedAt"] = beyond }, "data.items[1].updatedAt"},
		{"expiresAt of year 1", func(it, rev map[string]any) {
			it["expiresAt"], rev["expiresAt"] = "0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"
		}, "data.items[1].expiresAt"},
		{"a revision's createdAt of year 1", func(_, rev map[string]any) { rev["createdAt"] = "0001-01-01T00:00:00Z" }, "data.items[1].revisions[0].createdAt"},
		{"a revision's createdAt beyond a day", func(_, rev map[string]any) { rev["createdAt"] = beyond }, "data.items[1].revisions[0].createdAt"},
		{"a revision's expiresAt before the epoch", func(_, rev map[string]any) { rev["expiresAt"] = "1900-01-01T00:00:00Z" }, "data.items[1].revisions[0].expiresAt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			items, err := parseImport(item(c.set), now)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if len(items) != 2 {
					t.Fatalf("got %d items", len(items))
				}
				return
			}
			var bad *ValidationError
			if !errors.As(err, &bad) {
				t.Fatalf("want a ValidationError on %s, got %v", c.field, err)
			}
			if bad.Field != c.field {
				t.Fatalf("field %q, want %q (%s)", bad.Field, c.field, bad.Reason)
			}
		})
	}
}

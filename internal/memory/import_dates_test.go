package memory

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// An imported file's dates are from 1970 to a day ahead of the server's clock: one createdAt in the
// year 1 would break every listing of its scope. A date out of range is a ValidationError naming
// its place in the file; the edges themselves are accepted.
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

// A date of an imported file that isn't an RFC 3339 time with a zone is refused naming its place in
// the file — not as "invalid JSON" when Go's time parser refuses it (the JSON is valid), and not
// accepted when Go's parser is laxer than RFC 3339 (an offset of 24 hours).
func TestImportDatesMalformed(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 4, 9, 30, 0, 0, time.UTC)
	const reason = "must be an RFC 3339 time with a zone, like 2026-01-31T09:00:00Z"
	values := []struct {
		name  string
		value any
	}{
		{"year 294276", "294276-01-01T00:00:00Z"},
		{"year -1", "-0001-01-01T00:00:00Z"},
		{"February 30", "2026-02-30T00:00:00Z"},
		{"month 13", "2026-13-01T00:00:00Z"},
		{"hour 24", "2026-12-04T24:00:00Z"},
		{"a leap second", "2026-12-03T23:59:60Z"},
		{"no zone", "2026-12-04T03:00:00"},
		{"an offset of 24 hours", "2026-12-04T03:00:00+24:00"},
		{"an offset of 60 minutes", "2026-12-04T03:00:00+01:60"},
		{"a one-digit hour", "2026-12-04T3:00:00Z"},
		{"a number", 12345},
	}
	places := []struct {
		field string
		set   func(it, rev map[string]any, v any)
	}{
		{"data.items[1].createdAt", func(it, _ map[string]any, v any) { it["createdAt"] = v }},
		{"data.items[1].updatedAt", func(it, _ map[string]any, v any) { it["updatedAt"] = v }},
		{"data.items[1].expiresAt", func(it, rev map[string]any, v any) { it["expiresAt"], rev["expiresAt"] = v, v }},
		{"data.items[1].revisions[0].createdAt", func(_, rev map[string]any, v any) { rev["createdAt"] = v }},
		{"data.items[1].revisions[0].expiresAt", func(_, rev map[string]any, v any) { rev["expiresAt"] = v }},
		{"data.exportedAt", nil},
	}
	file := func(set func(it, rev map[string]any)) string {
		rev := map[string]any{"revision": 1, "content": "A", "kind": "fact", "key": nil, "pinned": false, "expiresAt": nil, "action": "create"}
		it := map[string]any{"kind": "fact", "key": nil, "content": "A", "pinned": false, "expiresAt": nil,
			"revisions": []map[string]any{rev}}
		f := map[string]any{"format": ExportFileFormat, "version": ExportFileVersion, "exportedAt": "2026-12-04T09:00:00+01:00",
			"items": []map[string]any{{"kind": "note", "key": nil, "content": "first", "pinned": false, "expiresAt": nil}, it}}
		set(it, rev)
		if it["exportedAt"] != nil {
			f["exportedAt"] = it["exportedAt"]
			delete(it, "exportedAt")
		}
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// The file itself, with the dates a server writes (and lower-case t and z, which RFC 3339 allows),
	// is accepted: the refusals below are the dates'.
	if _, err := parseImport(file(func(it, rev map[string]any) {
		it["createdAt"], it["updatedAt"], rev["createdAt"] = "2026-12-04T03:00:00.123456Z", "2026-12-05t08:00:00+23:59", "2026-12-04T03:00:00-01:30"
		it["expiresAt"], rev["expiresAt"] = "2027-01-01T00:00:00z", "2027-01-01T00:00:00z"
	}), now); err != nil {
		t.Errorf("valid dates refused: %v", err)
	}
	for _, p := range places {
		for _, v := range values {
			t.Run(p.field+"/"+v.name, func(t *testing.T) {
				t.Parallel()
				data := file(func(it, rev map[string]any) {
					if p.set == nil {
						it["exportedAt"] = v.value
						return
					}
					p.set(it, rev, v.value)
				})
				_, err := parseImport(data, now)
				var bad *ValidationError
				if !errors.As(err, &bad) {
					t.Fatalf("want a ValidationError on %s, got %v", p.field, err)
				}
				if bad.Field != p.field || bad.Reason != reason {
					t.Fatalf("field %q: %s; want %q: %s", bad.Field, bad.Reason, p.field, reason)
				}
			})
		}
	}
	// Valid JSON that isn't a memory export keeps its message.
	_, err := parseImport(file(func(it, _ map[string]any) { it["content"] = 5 }), now)
	var bad *ValidationError
	if !errors.As(err, &bad) || bad.Field != "data" || !strings.HasPrefix(bad.Reason, "is not a memory export: ") {
		t.Fatalf("content of the wrong type: %v", err)
	}
}

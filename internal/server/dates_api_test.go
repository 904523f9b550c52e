package server_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Dates through the API: an import with createdAt 0001-01-01T00:00:00Z would make every listing of
// its scope answer INTERNAL — gqlgen's own Time scalar marshals Go's zero time as null, and a null
// in a non-null createdAt nulls the whole list — so the user could not even reach the item to
// forget it.

// datedItem is what the tests read of an item: every timestamp it exposes, and its revisions'.
type datedItem struct {
	ID                   string
	CreatedAt, UpdatedAt string
	ExpiresAt            *string
	ForgottenAt          *string
	Revisions            struct {
		Edges []struct {
			Node struct {
				CreatedAt string
				ExpiresAt *string
			}
		}
	}
}

const datedFields = `id createdAt updatedAt expiresAt forgottenAt revisions { edges { node { createdAt expiresAt } } }`

// listDated lists a scope's items with status, with every timestamp, and returns the raw result so
// that a test can see its errors.
func (w world) listDated(teammateID, status string) ([]datedItem, []string) {
	res := w.api.Do(w.t, user, `query($tm: ID, $st: MemoryStatus) { memoryItems(scope: {teammateId: $tm}, status: $st) {
		edges { node { `+datedFields+` } } } }`, map[string]any{"tm": teammateID, "st": status})
	var out struct {
		MemoryItems *struct{ Edges []struct{ Node datedItem } }
	}
	if len(res.Data) > 0 {
		require.NoError(w.t, json.Unmarshal(res.Data, &out))
	}
	var codes []string
	for _, e := range res.Errors {
		code, _ := e.Extensions["code"].(string)
		codes = append(codes, code)
	}
	if out.MemoryItems == nil {
		return nil, append(codes, "no list")
	}
	var items []datedItem
	for _, e := range out.MemoryItems.Edges {
		items = append(items, e.Node)
	}
	return items, codes
}

// instant parses an RFC 3339 timestamp the API wrote.
func instant(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err, "%q is not RFC 3339", s)
	return v
}

// Every timestamp column the API exposes — an item's created, updated, expiry and forgotten times,
// a revision's created and expiry times, a teammate's and a run's times — comes back through
// GraphQL as the instant stored, at the edges of the range an import accepts (1970 and a day ahead),
// at microsecond precision, and at Go's zero time (year 1), which gqlgen printed as null.
func TestTimestampsRoundTripThroughTheAPI(t *testing.T) {
	t.Parallel()
	w, conn := newWorldWithDB(t)
	ctx := context.Background()
	tm := w.teammate("Ada")
	active := w.createMemory(&tm, "Prefers tea").ID
	forgotten := w.createMemory(&tm, "Prefers coffee").ID
	w.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": forgotten}, &struct{}{})
	run := w.startRun(tm, "", "Hello")

	for _, at := range []time.Time{
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Now().Add(24 * time.Hour).Truncate(time.Microsecond).UTC(),
		time.Date(2024, 2, 29, 12, 34, 56, 789012000, time.UTC),
		{}, // 0001-01-01T00:00:00Z
		time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
	} {
		name := at.Format(time.RFC3339Nano)
		for _, u := range []struct {
			stmt string
			id   string
		}{
			{`UPDATE memory_items SET created_at = $1, updated_at = $1, expires_at = $1 WHERE id = $2`, active},
			{`UPDATE memory_items SET created_at = $1, updated_at = $1, forgotten_at = $1 WHERE id = $2`, forgotten},
			{`UPDATE memory_revisions SET created_at = $1, expires_at = $1 WHERE item_id = $2`, active},
			{`UPDATE memory_revisions SET created_at = $1, expires_at = $1 WHERE item_id = $2`, forgotten},
			{`UPDATE teammates SET created_at = $1 WHERE id = $2`, tm},
			{`UPDATE runs SET created_at = $1 WHERE id = $2`, run.Run.ID},
		} {
			_, err := conn.Exec(ctx, u.stmt, at, u.id)
			require.NoError(t, err, u.stmt)
		}

		items, errs := w.listDated(tm, "ACTIVE")
		require.Empty(t, errs, name)
		require.Len(t, items, 1, name)
		it := items[0]
		assert.True(t, at.Equal(instant(t, it.CreatedAt)), "%s: createdAt %s", name, it.CreatedAt)
		assert.True(t, at.Equal(instant(t, it.UpdatedAt)), "%s: updatedAt %s", name, it.UpdatedAt)
		if assert.NotNil(t, it.ExpiresAt, name) {
			assert.True(t, at.Equal(instant(t, *it.ExpiresAt)), "%s: expiresAt %s", name, *it.ExpiresAt)
		}
		require.Len(t, it.Revisions.Edges, 1, name)
		rev := it.Revisions.Edges[0].Node
		assert.True(t, at.Equal(instant(t, rev.CreatedAt)), "%s: revision createdAt %s", name, rev.CreatedAt)
		if assert.NotNil(t, rev.ExpiresAt, name) {
			assert.True(t, at.Equal(instant(t, *rev.ExpiresAt)), "%s: revision expiresAt %s", name, *rev.ExpiresAt)
		}

		items, errs = w.listDated(tm, "FORGOTTEN")
		require.Empty(t, errs, name)
		require.Len(t, items, 1, name)
		if assert.NotNil(t, items[0].ForgottenAt, name) {
			assert.True(t, at.Equal(instant(t, *items[0].ForgottenAt)), "%s: forgottenAt %s", name, *items[0].ForgottenAt)
		}

		var other struct {
			Teammate struct{ CreatedAt string }
			Run      struct{ CreatedAt string }
		}
		w.api.Must(t, user, `query($tm: ID!, $run: ID!) { teammate(id: $tm) { createdAt } run(id: $run) { createdAt } }`,
			map[string]any{"tm": tm, "run": run.Run.ID}, &other)
		assert.True(t, at.Equal(instant(t, other.Teammate.CreatedAt)), "%s: teammate createdAt %s", name, other.Teammate.CreatedAt)
		assert.True(t, at.Equal(instant(t, other.Run.CreatedAt)), "%s: run createdAt %s", name, other.Run.CreatedAt)
	}

	// A run's end and cancellation times.
	at := time.Date(1970, 1, 1, 0, 0, 0, 1000, time.UTC)
	_, err := conn.Exec(ctx, `UPDATE runs SET status = 'cancelled', token_hash = NULL, ended_at = $1, cancelled_at = $1 WHERE id = $2`, at, run.Run.ID)
	require.NoError(t, err)
	var ended struct {
		Run struct{ EndedAt, CancelledAt string }
	}
	w.api.Must(t, user, `query($run: ID!) { run(id: $run) { endedAt cancelledAt } }`, map[string]any{"run": run.Run.ID}, &ended)
	assert.True(t, at.Equal(instant(t, ended.Run.EndedAt)), ended.Run.EndedAt)
	assert.True(t, at.Equal(instant(t, ended.Run.CancelledAt)), ended.Run.CancelledAt)
}

// No date the database can hold breaks a scope: with an item and its revision set (by SQL) to
// PostgreSQL's earliest and latest timestamps and to Go's zero time, the scope's listing and the
// item's history still answer, with a timestamp for every date, and the user can still forget the
// item. Infinite dates, which no time.Time can hold, are refused by the database itself.
func TestOutOfRangeDatesDontBreakAScope(t *testing.T) {
	t.Parallel()
	w, conn := newWorldWithDB(t)
	ctx := context.Background()
	tm := w.teammate("Ada")
	bad := w.createMemory(&tm, "Prefers tea").ID
	w.createMemory(&tm, "Prefers green tea")

	for _, at := range []string{"4713-01-01 00:00:00+00 BC", "294276-12-31 23:59:59.999999+00", "0001-01-01 00:00:00+00"} {
		_, err := conn.Exec(ctx, `UPDATE memory_items SET created_at = $1::timestamptz, updated_at = $1::timestamptz, expires_at = $1::timestamptz WHERE id = $2`, at, bad)
		require.NoError(t, err, at)
		_, err = conn.Exec(ctx, `UPDATE memory_revisions SET created_at = $1::timestamptz, expires_at = $1::timestamptz WHERE item_id = $2`, at, bad)
		require.NoError(t, err, at)

		items, errs := w.listDated(tm, "ACTIVE")
		require.Empty(t, errs, "%s: the scope's listing fails", at)
		require.Len(t, items, 2, at)
		for _, it := range items {
			assert.NotEmpty(t, it.CreatedAt, at)
			assert.NotEmpty(t, it.UpdatedAt, at)
			for _, e := range it.Revisions.Edges {
				assert.NotEmpty(t, e.Node.CreatedAt, at)
			}
		}
		var one struct{ MemoryItem *datedItem }
		w.api.Must(t, user, `query($id: ID!) { memoryItem(id: $id) { `+datedFields+` } }`, map[string]any{"id": bad}, &one)
		require.NotNil(t, one.MemoryItem, at)
		require.Len(t, one.MemoryItem.Revisions.Edges, 1, "%s: the item's history", at)

		// The scope exports, and the export imports again.
		w.export(&tm, "MARKDOWN", true)
		imported, unchanged := w.importJSON(w.teammate("Copy of "+at), w.export(&tm, "JSON", true))
		assert.Len(t, imported, 2, at)
		assert.Zero(t, unchanged, at)
	}

	for _, stmt := range []string{
		`UPDATE memory_items SET created_at = 'infinity' WHERE id = $1`,
		`UPDATE memory_items SET updated_at = '-infinity' WHERE id = $1`,
		`UPDATE memory_items SET expires_at = 'infinity' WHERE id = $1`,
		`UPDATE memory_revisions SET created_at = 'infinity' WHERE item_id = $1`,
		`UPDATE memory_revisions SET expires_at = '-infinity' WHERE item_id = $1`,
	} {
		_, err := conn.Exec(ctx, stmt, bad)
		assert.ErrorContains(t, err, "violates check constraint", stmt)
	}
	_, errs := w.listDated(tm, "ACTIVE")
	require.Empty(t, errs)

	// The user reaches the item and forgets it.
	w.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": bad}, &struct{}{})
	items, errs := w.listDated(tm, "FORGOTTEN")
	require.Empty(t, errs)
	require.Len(t, items, 1)
}

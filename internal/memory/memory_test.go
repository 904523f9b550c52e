package memory_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

var (
	user   = memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser})
	worker = memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialWorker})
)

func runOf(teammateID string) context.Context {
	return memory.WithCredential(context.Background(), memory.Credential{
		Kind: memory.CredentialRun, RunID: "00000000-0000-0000-0000-000000000001", TeammateID: teammateID,
	})
}

type fixture struct {
	svc  *memory.Service
	pool *pgxpool.Pool
}

func setup(t *testing.T) fixture {
	t.Helper()
	pool := dbtest.Pool(t)
	return fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}
}

// with gives the fixture a new service on the same database, built with opts — what a process
// started with another configuration (AI on or off, another model) would be. Its tombstone key is a
// new random one, as a Service's is until UseTombstoneKey.
func (f *fixture) with(opts ...memory.Option) {
	f.svc = memory.NewService(f.pool, slog.New(slog.DiscardHandler), opts...)
}

func (f fixture) teammate(t *testing.T, name string) string {
	t.Helper()
	tm, err := f.svc.CreateTeammate(user, name)
	require.NoError(t, err)
	return tm.ID
}

func (f fixture) create(t *testing.T, teammateID *string, content string) memory.Item {
	t.Helper()
	item, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: teammateID}, Content: content})
	require.NoError(t, err)
	return item
}

func (f fixture) generation(t *testing.T, teammateID string) string {
	t.Helper()
	g, err := f.svc.Generation(user, teammateID)
	require.NoError(t, err)
	return g.String()
}

// counts returns the number of items and revisions, to prove that rejected writes change nothing.
func (f fixture) counts(t *testing.T) (items, revisions int, generations int64) {
	t.Helper()
	require.NoError(t, f.pool.QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM memory_items), (SELECT count(*) FROM memory_revisions),
		       (SELECT sum(generation) FROM memory_generations)::bigint`).Scan(&items, &revisions, &generations))
	return
}

func ptr[T any](v T) *T { return &v }

func TestCreateEditAndHistory(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Ada")
	require.Equal(t, "0:0:0", f.generation(t, tm))

	item, err := f.svc.CreateMemory(user, memory.CreateInput{
		Scope: memory.Scope{TeammateID: &tm}, Kind: memory.KindPreference, Key: ptr("  drink "), Content: "Prefers green tea",
	})
	require.NoError(t, err)
	assert.Equal(t, 1, item.Revision)
	assert.Equal(t, tm, item.Scope)
	assert.Equal(t, "drink", *item.Key, "keys are trimmed")
	assert.Equal(t, memory.StatusActive, item.Status)
	assert.Equal(t, memory.SourceUser, item.Source)
	assert.Equal(t, "0:1:0", f.generation(t, tm), "G1: a create bumps the scope's generation")

	edited, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr("Prefers black coffee")})
	require.NoError(t, err)
	assert.Equal(t, 2, edited.Revision)
	assert.Equal(t, "Prefers black coffee", edited.Content)
	assert.Equal(t, "drink", *edited.Key, "omitted fields keep their value")

	pinned, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 2, Pinned: ptr(true)})
	require.NoError(t, err)
	assert.True(t, pinned.Pinned)

	unkeyed, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 3, Key: ptr("")})
	require.NoError(t, err)
	assert.Nil(t, unkeyed.Key, "a blank key removes it")
	assert.Equal(t, "0:4:0", f.generation(t, tm))

	page, err := f.svc.Revisions(user, item.ID, nil, nil)
	require.NoError(t, err)
	require.Len(t, page.Revisions, 4)
	var got []memory.Action
	for i, r := range page.Revisions {
		assert.Equal(t, 4-i, r.Revision, "newest first")
		assert.Equal(t, memory.ActorUser, r.Actor)
		got = append(got, r.Action)
	}
	assert.Equal(t, []memory.Action{memory.ActionEdit, memory.ActionPin, memory.ActionEdit, memory.ActionCreate}, got,
		"a change of the pin alone is a pin revision")
	assert.Equal(t, 3, *page.Revisions[0].BasedOn)
	assert.Nil(t, page.Revisions[3].BasedOn)
	assert.Equal(t, "Prefers green tea", page.Revisions[3].Content, "earlier revisions keep their text")

	// Paginate revisions two at a time.
	first, err := f.svc.Revisions(user, item.ID, ptr(2), nil)
	require.NoError(t, err)
	require.True(t, first.HasNext)
	second, err := f.svc.Revisions(user, item.ID, ptr(2), ptr(first.Revisions[1].Revision))
	require.NoError(t, err)
	require.False(t, second.HasNext)
	assert.Equal(t, []int{2, 1}, []int{second.Revisions[0].Revision, second.Revisions[1].Revision})

	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 4, Content: ptr("Prefers black coffee")})
	var bad *memory.ValidationError
	require.ErrorAs(t, err, &bad, "an edit that changes nothing is refused rather than recorded")
}

func TestConflictOneWinnerNothingWrittenByLoser(t *testing.T) {
	t.Parallel()
	f := setup(t)
	item := f.create(t, nil, "Lives in Lisbon")

	_, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr("Lives in Porto")})
	require.NoError(t, err)
	items, revisions, gens := f.counts(t)

	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr("Lives in Faro")})
	var conflict *memory.ConflictError
	require.ErrorAs(t, err, &conflict, "R2: a stale base revision fails")
	assert.Equal(t, 2, conflict.Current, "the error names the current revision")
	assert.NotContains(t, err.Error(), "Faro", "F5: no memory text in errors")
	assert.NotContains(t, err.Error(), "Porto")

	// A base ahead of the item was never read from it: bad input that names the current revision.
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 3, Content: ptr("Lives in Faro")})
	var bad *memory.ValidationError
	require.ErrorAs(t, err, &bad)
	assert.Equal(t, "baseRevision", bad.Field)
	assert.Contains(t, bad.Reason, "ahead of the item's current revision 2")

	i2, r2, g2 := f.counts(t)
	assert.Equal(t, []any{items, revisions, gens}, []any{i2, r2, g2}, "the loser wrote nothing")
	got, err := f.svc.Item(user, item.ID)
	require.NoError(t, err)
	assert.Equal(t, "Lives in Porto", got.Content)
}

// TestConcurrentEditsOfOneItem: 32 writers × 50 attempts, each based on the revision it last read.
// Exactly one writer wins per base revision; revisions are 1..N with no gap or duplicate; every
// rejection is a CONFLICT; the generation moved exactly once per accepted write (raceOneItem).
func TestConcurrentEditsOfOneItem(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Busy")
	item := f.create(t, &tm, "counter 0")
	const writers, attempts = 32, 50
	accepted := raceOneItem(t, f, tm, item, writers, attempts, func(w, a, base int) (memory.Item, error) {
		return f.svc.EditMemory(user, memory.EditInput{
			ID: item.ID, BaseRevision: base, Content: ptr("writer " + strconv.Itoa(w) + " attempt " + strconv.Itoa(a)),
		})
	})
	t.Logf("%d writers x %d attempts: %d accepted, %d conflicts", writers, attempts, accepted, writers*attempts-accepted)
}

// raceOneItem has writers goroutines make attempts writes each to item of teammate tm's scope,
// write(w, a, base) based on the revision the writer last saw (R2). An accepted write must be
// base+1; a CONFLICT must name a revision above the base sent, which the writer takes; a write that
// changes nothing (a ValidationError not about baseRevision) makes the writer read the item again;
// anything else fails the test. Afterwards the item is at revision 1 + accepted, its revisions are
// 1..n, each based on the one before, and the scope's generation moved once per accepted write. It
// returns the accepted writes, at least one.
func raceOneItem(t *testing.T, f fixture, tm string, item memory.Item, writers, attempts int, write func(w, a, base int) (memory.Item, error)) int {
	t.Helper()
	gen0, err := f.svc.Generation(user, tm)
	require.NoError(t, err)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		accepted int
	)
	errs := make(chan error, writers*attempts)
	for w := range writers {
		wg.Go(func() {
			base := 1
			for a := range attempts {
				out, err := write(w, a, base)
				var conflict *memory.ConflictError
				var bad *memory.ValidationError
				switch {
				case err == nil:
					if out.Revision != base+1 {
						errs <- fmt.Errorf("a write based on %d produced revision %d", base, out.Revision)
					}
					mu.Lock()
					accepted++
					mu.Unlock()
					base = out.Revision
				case errors.As(err, &conflict):
					if conflict.Current <= base {
						errs <- fmt.Errorf("a conflict names revision %d, not above the base %d sent", conflict.Current, base)
					}
					base = conflict.Current
				case errors.As(err, &bad) && bad.Field != "baseRevision":
					cur, err := f.svc.Item(user, item.ID)
					if err != nil {
						errs <- err
						return
					}
					base = cur.Revision
				default:
					errs <- fmt.Errorf("a rejected write was neither a CONFLICT nor a no-op: %w", err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	require.Positive(t, accepted)

	rows, err := f.pool.Query(context.Background(),
		`SELECT revision, coalesce(based_on, 0) FROM memory_revisions WHERE item_id = $1 ORDER BY revision`, item.ID)
	require.NoError(t, err)
	type rev struct{ Revision, BasedOn int }
	revs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[rev])
	require.NoError(t, err)
	require.Len(t, revs, accepted+1)
	for i, r := range revs {
		require.Equal(t, i+1, r.Revision, "no revision skipped or duplicated")
		if i > 0 {
			require.Equal(t, i, r.BasedOn, "each revision is based on the one before")
		}
	}
	current, err := f.svc.Item(user, item.ID)
	require.NoError(t, err)
	assert.Equal(t, accepted+1, current.Revision)
	gen1, err := f.svc.Generation(user, tm)
	require.NoError(t, err)
	assert.Equal(t, gen0.Own+int64(accepted), gen1.Own, "one generation bump per accepted write")
	return accepted
}

func TestRestoreAndUndo(t *testing.T) {
	t.Parallel()
	f := setup(t)
	item := f.create(t, nil, "Works at Acme")
	v2, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr("Works at Globex"), Pinned: ptr(true)})
	require.NoError(t, err)

	// Undo the save that produced revision 2: revision 1 comes back as revision 3.
	v3, err := f.svc.UndoEdit(user, item.ID, v2.Revision)
	require.NoError(t, err)
	assert.Equal(t, 3, v3.Revision)
	assert.Equal(t, "Works at Acme", v3.Content)
	assert.False(t, v3.Pinned, "undo brings back the whole earlier state")

	// Restore revision 2 as revision 4.
	v4, err := f.svc.RestoreRevision(user, item.ID, 2, 3)
	require.NoError(t, err)
	assert.Equal(t, 4, v4.Revision)
	assert.Equal(t, "Works at Globex", v4.Content)
	assert.True(t, v4.Pinned)

	page, err := f.svc.Revisions(user, item.ID, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, memory.ActionRestore, page.Revisions[0].Action)
	assert.Equal(t, 3, *page.Revisions[0].BasedOn)
	assert.Equal(t, memory.ActionUndo, page.Revisions[1].Action)
	assert.Equal(t, 2, *page.Revisions[1].BasedOn)

	// Undo of a save after someone else changed the item: CONFLICT, nothing written (R3).
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 4, Content: ptr("Works at Initech")})
	require.NoError(t, err)
	_, _, before := f.counts(t)
	_, err = f.svc.UndoEdit(user, item.ID, 4)
	var conflict *memory.ConflictError
	require.ErrorAs(t, err, &conflict)
	assert.Equal(t, 5, conflict.Current)
	_, _, after := f.counts(t)
	assert.Equal(t, before, after)

	// Restore on a stale base: CONFLICT too.
	_, err = f.svc.RestoreRevision(user, item.ID, 1, 4)
	require.ErrorAs(t, err, &conflict)

	var bad *memory.ValidationError
	_, err = f.svc.RestoreRevision(user, item.ID, 5, 5)
	require.ErrorAs(t, err, &bad, "restoring the current revision is not an earlier revision")
	_, err = f.svc.RestoreRevision(user, item.ID, 0, 5)
	require.ErrorAs(t, err, &bad)

	first := f.create(t, nil, "Only one revision")
	_, err = f.svc.UndoEdit(user, first.ID, 1)
	require.ErrorAs(t, err, &bad, "nothing before revision 1")
}

func TestGenerationAndExpiry(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.teammate(t, "A")
	b := f.teammate(t, "B")

	f.create(t, nil, "Shared fact")
	assert.Equal(t, "1:0:0", f.generation(t, a), "G2: shared changes count for every teammate")
	assert.Equal(t, "1:0:0", f.generation(t, b))
	own := f.create(t, &a, "A's own fact")
	assert.Equal(t, "1:1:0", f.generation(t, a))
	assert.Equal(t, "1:0:0", f.generation(t, b), "another teammate's scope doesn't count")

	_, err := f.svc.EditMemory(user, memory.EditInput{ID: own.ID, BaseRevision: 1, ExpiresAt: ptr(time.Now().Add(time.Hour))})
	require.NoError(t, err)
	assert.Equal(t, "1:2:0", f.generation(t, a))

	listen := listenEvents(t, f.pool)
	// Let the expiry pass without waiting for it: move it into the past directly.
	_, err = f.pool.Exec(context.Background(), `UPDATE memory_items SET expires_at = now() - interval '1 second' WHERE id = $1`, own.ID)
	require.NoError(t, err)
	assert.Equal(t, "1:2:1", f.generation(t, a), "G2: expired items visible to the teammate are counted")

	got, err := f.svc.Item(user, own.ID)
	require.NoError(t, err)
	assert.True(t, got.Expired(time.Now()), "expired items stay visible, marked expired")

	n, err := f.svc.Background().SweepExpiry(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the sweep announces the scope whose expired count changed")
	e := listen.next(t)
	assert.Equal(t, memory.Event{Scope: a, Generation: true}, e)
	n, err = f.svc.Background().SweepExpiry(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n, "nothing new: nothing announced")

	_, err = f.svc.CreateMemory(user, memory.CreateInput{Content: "x", ExpiresAt: ptr(time.Now().Add(-time.Minute))})
	var bad *memory.ValidationError
	require.ErrorAs(t, err, &bad, "an expiry must be in the future")
}

// eventListener receives memory events straight from PostgreSQL.
type eventListener struct{ conn *pgx.Conn }

func listenEvents(t *testing.T, pool *pgxpool.Pool) eventListener {
	t.Helper()
	conn, err := pgx.ConnectConfig(context.Background(), pool.Config().ConnConfig)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	_, err = conn.Exec(context.Background(), "LISTEN "+memory.EventChannel)
	require.NoError(t, err)
	return eventListener{conn}
}

func (l eventListener) next(t *testing.T) memory.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n, err := l.conn.WaitForNotification(ctx)
	require.NoError(t, err)
	e, err := memory.DecodeEvent(n.Payload)
	require.NoError(t, err)
	return e
}

func (l eventListener) nextRaw(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n, err := l.conn.WaitForNotification(ctx)
	require.NoError(t, err)
	return n.Payload
}

func TestEventsCarryIDsOnly(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Eve")
	listen := listenEvents(t, f.pool)
	const marker = "ZEBRA-marker-7731"
	item := f.create(t, &tm, "The code word is "+marker)
	_, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr(marker + " changed"), Key: ptr(marker)})
	require.NoError(t, err)

	created := listen.nextRaw(t)
	edited := listen.nextRaw(t)
	for _, p := range []string{created, edited} {
		assert.NotContains(t, p, marker, "F5: no memory text in NOTIFY payloads")
	}
	e, err := memory.DecodeEvent(edited)
	require.NoError(t, err)
	assert.Equal(t, memory.Event{Scope: tm, ItemID: item.ID, Revision: 2, Action: "edit", Status: "active", Generation: true}, e)
}

func TestScopeIsolation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.teammate(t, "A")
	b := f.teammate(t, "B")
	aItem := f.create(t, &a, "A's secret")
	shared := f.create(t, nil, "Everyone knows this")

	// The user reads every scope.
	_, err := f.svc.Item(user, aItem.ID)
	require.NoError(t, err)
	_, err = f.svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &a}})
	require.NoError(t, err)
	_, err = f.svc.Item(worker, aItem.ID)
	require.NoError(t, err)

	// A run of A reads its own scope and shared.
	_, err = f.svc.Item(runOf(a), aItem.ID)
	require.NoError(t, err)
	_, err = f.svc.Item(runOf(b), shared.ID)
	require.NoError(t, err)

	// A run of B: every operation on A's item or scope is FORBIDDEN (S1).
	runB := runOf(b)
	checks := map[string]error{}
	_, checks["Item"] = f.svc.Item(runB, aItem.ID)
	_, checks["Revisions"] = f.svc.Revisions(runB, aItem.ID, nil, nil)
	_, checks["ListItems"] = f.svc.ListItems(runB, memory.ListFilter{Scope: memory.Scope{TeammateID: &a}})
	_, checks["Generation"] = f.svc.Generation(runB, a)
	_, checks["Teammate"] = f.svc.Teammate(runB, a)
	_, checks["CheckScopeReadable"] = f.svc.CheckScopeReadable(runB, memory.Scope{TeammateID: &a})
	_, checks["EditMemory"] = f.svc.EditMemory(runB, memory.EditInput{ID: aItem.ID, BaseRevision: 1, Content: ptr("x")})
	_, checks["RestoreRevision"] = f.svc.RestoreRevision(runB, aItem.ID, 1, 1)
	_, checks["UndoEdit"] = f.svc.UndoEdit(runB, aItem.ID, 1)
	_, checks["CreateMemory"] = f.svc.CreateMemory(runB, memory.CreateInput{Scope: memory.Scope{TeammateID: &a}, Content: "x"})
	_, checks["CreateTeammate"] = f.svc.CreateTeammate(runB, "x")
	for op, err := range checks {
		assert.ErrorIs(t, err, memory.ErrForbidden, op)
	}
	teammates, err := f.svc.Teammates(runB)
	require.NoError(t, err)
	require.Len(t, teammates, 1, "a run sees its own teammate only")
	assert.Equal(t, b, teammates[0].ID)
	// Runs never see suggestions (A2).
	_, err = f.svc.ListItems(runOf(a), memory.ListFilter{Scope: memory.Scope{TeammateID: &a}, Status: memory.StatusCandidate})
	assert.ErrorIs(t, err, memory.ErrForbidden)

	// No credential at all: UNAUTHENTICATED everywhere.
	none := context.Background()
	_, err = f.svc.Item(none, aItem.ID)
	assert.ErrorIs(t, err, memory.ErrUnauthenticated)
	_, err = f.svc.CreateMemory(none, memory.CreateInput{Content: "x"})
	assert.ErrorIs(t, err, memory.ErrUnauthenticated)
	_, err = f.svc.CreateMemory(worker, memory.CreateInput{Content: "x"})
	assert.ErrorIs(t, err, memory.ErrForbidden, "the worker doesn't write memory as the user")
}

func TestBadInputChangesNothing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Val")
	item := f.create(t, &tm, "Valid")
	unknown := "5b0f3a4e-8f1c-4c1e-9d7a-000000000000"

	cases := []struct {
		name  string
		call  func() error
		field string // "" means a sentinel is expected instead
		is    error
	}{
		{"empty content", createErr(f, nil, "", nil), "content", nil},
		{"blank content", createErr(f, nil, " \n\t ", nil), "content", nil},
		{"content too long", createErr(f, nil, strings.Repeat("a", memory.MaxContentLength+1), nil), "content", nil},
		{"NUL in content", createErr(f, nil, "a\x00b", nil), "content", nil},
		{"invalid UTF-8", createErr(f, nil, "a\xffb", nil), "content", nil},
		{"key too long", createErr(f, nil, "x", ptr(strings.Repeat("k", memory.MaxKeyLength+1))), "key", nil},
		{"NUL in key", createErr(f, nil, "x", ptr("k\x00")), "key", nil},
		{"line break in key", createErr(f, nil, "x", ptr("coffee\n[memory:x@1; shared; fact]")), "key", nil},
		{"malformed teammate id", createErr(f, ptr("not-a-uuid"), "x", nil), "scope.teammateId", nil},
		{"unknown teammate", createErr(f, &unknown, "x", nil), "", memory.ErrNotFound},
		{"unknown kind", func() error {
			_, err := f.svc.CreateMemory(user, memory.CreateInput{Kind: "opinion", Content: "x"})
			return err
		}, "kind", nil},
		{"malformed item id", editErr(f, memory.EditInput{ID: "1; DROP TABLE x", BaseRevision: 1, Content: ptr("y")}), "id", nil},
		{"unknown item id", editErr(f, memory.EditInput{ID: unknown, BaseRevision: 1, Content: ptr("y")}), "", memory.ErrNotFound},
		{"base revision zero", editErr(f, memory.EditInput{ID: item.ID, BaseRevision: 0, Content: ptr("y")}), "baseRevision", nil},
		{"edit content too long", editErr(f, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr(strings.Repeat("é", memory.MaxContentLength+1))}), "content", nil},
		{"edit expiry in the past", editErr(f, memory.EditInput{ID: item.ID, BaseRevision: 1, ExpiresAt: ptr(time.Now().Add(-time.Hour))}), "expiresAt", nil},
		{"set and clear expiry", editErr(f, memory.EditInput{ID: item.ID, BaseRevision: 1, ExpiresAt: ptr(time.Now().Add(time.Hour)), ClearExpiresAt: true}), "expiresAt", nil},
		{"page size zero", listErr(f, memory.ListFilter{First: ptr(0)}), "first", nil},
		{"page size too big", listErr(f, memory.ListFilter{First: ptr(memory.MaxPageSize + 1)}), "first", nil},
		{"forged cursor", listErr(f, memory.ListFilter{After: "eyJpIjoiJzsgLS0ifQ"}), "after", nil},
		{"garbage cursor", listErr(f, memory.ListFilter{After: "%%%"}), "after", nil},
		{"unknown status", listErr(f, memory.ListFilter{Status: "deleted"}), "status", nil},
		{"unknown scope", listErr(f, memory.ListFilter{Scope: memory.Scope{TeammateID: &unknown}}), "", memory.ErrNotFound},
		{"teammate name blank", func() error { _, err := f.svc.CreateTeammate(user, "  "); return err }, "name", nil},
		{"teammate name too long", func() error {
			_, err := f.svc.CreateTeammate(user, strings.Repeat("n", memory.MaxTeammateNameLength+1))
			return err
		}, "name", nil},
	}
	for _, c := range cases {
		items, revisions, gens := f.counts(t)
		err := c.call()
		require.Error(t, err, c.name)
		if c.is != nil {
			assert.ErrorIs(t, err, c.is, c.name)
		} else {
			var bad *memory.ValidationError
			if assert.ErrorAs(t, err, &bad, c.name) {
				assert.Equal(t, c.field, bad.Field, c.name)
			}
		}
		i2, r2, g2 := f.counts(t)
		assert.Equal(t, []any{items, revisions, gens}, []any{i2, r2, g2}, "%s changed something", c.name)
	}
}

func createErr(f fixture, teammateID *string, content string, key *string) func() error {
	return func() error {
		_, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: teammateID}, Content: content, Key: key})
		return err
	}
}

func editErr(f fixture, in memory.EditInput) func() error {
	return func() error { _, err := f.svc.EditMemory(user, in); return err }
}

func listErr(f fixture, lf memory.ListFilter) func() error {
	return func() error { _, err := f.svc.ListItems(user, lf); return err }
}

func TestHostileStringsStoredIntact(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, s := range []string{
		`'; DROP TABLE memory_items; --`,
		`Robert"); DELETE FROM teammates; --`,
		`{"query":"mutation { forgetMemory }"}`,
		`query { __schema { types { name } } }`,
		`%_\ LIKE wildcards \%`,
		"emoji 🧠 and RTL \u200fעברית\u200e and zero-width \u200b joiner",
		`<script>alert(1)</script>`,
		strings.Repeat("界", memory.MaxContentLength), // the limit counts characters, not bytes
	} {
		// Content keeps bidi and zero-width characters; a key refuses them (one-line labels).
		key := strings.Map(func(r rune) rune {
			if unicode.In(r, unicode.Cf, unicode.Cc) {
				return -1
			}
			return r
		}, string([]rune(s)[:min(len([]rune(s)), 20)]))
		item, err := f.svc.CreateMemory(user, memory.CreateInput{Content: s, Key: ptr("k " + key)})
		require.NoError(t, err)
		got, err := f.svc.Item(user, item.ID)
		require.NoError(t, err)
		assert.Equal(t, s, got.Content)
	}
	// A search for LIKE wildcards matches them literally, not as patterns.
	page, err := f.svc.ListItems(user, memory.ListFilter{Search: `%_\`})
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	assert.Contains(t, page.Items[0].Content, "LIKE wildcards")
}

func TestListPaginationFiltersAndSearch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Lister")
	var pinnedIDs []string
	for i := range 25 {
		in := memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "fact number " + strconv.Itoa(i), Kind: memory.KindFact}
		if i%5 == 0 {
			in.Pinned = true
		}
		if i%2 == 1 {
			in.Kind = memory.KindPreference
			in.Content = "likes strong coffees, variant " + strconv.Itoa(i)
		}
		item, err := f.svc.CreateMemory(user, in)
		require.NoError(t, err)
		if in.Pinned {
			pinnedIDs = append(pinnedIDs, item.ID)
		}
	}
	f.create(t, nil, "a shared fact that must not appear in the teammate's list")

	seen := map[string]bool{}
	var order []memory.Item
	after := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 10)
		page, err := f.svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &tm}, First: ptr(10), After: after})
		require.NoError(t, err)
		for _, it := range page.Items {
			require.False(t, seen[it.ID], "an item appeared on two pages")
			seen[it.ID] = true
			order = append(order, it)
		}
		if !page.HasNext {
			n, err := f.svc.Count(user, page)
			require.NoError(t, err)
			assert.Equal(t, 25, n)
			break
		}
		after = page.Cursor(page.Items[len(page.Items)-1])
	}
	require.Len(t, order, 25)
	for i, it := range order {
		if i < len(pinnedIDs) {
			assert.True(t, it.Pinned, "pinned items come first")
		} else {
			assert.False(t, it.Pinned)
		}
		if i > 0 && order[i-1].Pinned == it.Pinned {
			assert.False(t, it.UpdatedAt.After(order[i-1].UpdatedAt), "then most recently changed first")
		}
	}

	prefs, err := f.svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &tm}, Kind: ptr(memory.KindPreference), First: ptr(100)})
	require.NoError(t, err)
	assert.Len(t, prefs.Items, 12)

	// Full text with stemming ("coffee" finds "coffees") and substrings ("variant 1" finds 1, 11, 13 …).
	byWord, err := f.svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &tm}, Search: "coffee", First: ptr(100)})
	require.NoError(t, err)
	assert.Len(t, byWord.Items, 12)
	bySubstring, err := f.svc.ListItems(user, memory.ListFilter{Scope: memory.Scope{TeammateID: &tm}, Search: "ber 2", First: ptr(100)})
	require.NoError(t, err)
	assert.Len(t, bySubstring.Items, 4, "fact number 2, 20, 22 and 24 (odd numbers are preferences)")
}

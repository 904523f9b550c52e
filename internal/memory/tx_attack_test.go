package memory_test

// Black-box attacks on the write transactions of memory.Service: faults injected by PostgreSQL
// triggers in the middle of a write and at COMMIT, injected serialization failures and deadlocks,
// cancellations at random moments, lock-order provocation across scopes, and a tiny pool.
// The tests only know the public API and the schema, not how transactions are implemented.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// txaFaults installs fault-injection triggers in the test's own database:
//   - BEFORE INSERT on memory_revisions, keyed on the revision's content:
//     TXA-FAIL raises, TXA-SLOW sleeps 5 ms, TXA-SER-ONCE / TXA-DEAD-ONCE raise a serialization
//     failure / deadlock the first time only (a sequence, which rollbacks do not undo, counts),
//     TXA-SER-ALWAYS always raises a serialization failure;
//   - the same, keyed on (item, action), through the table txa_fail_ids (to fail a forget or a pin,
//     whose revision text the test does not choose);
//   - BEFORE UPDATE on memory_items: content TXA-ITEMFAIL raises (the other end of the write);
//     these content markers are rows of txa_markers, all served by one trigger function;
//   - BEFORE UPDATE on memory_generations: a scope listed in txa_fail_scopes raises (the bump);
//   - a deferred constraint trigger on memory_revisions, which fires at COMMIT: TXA-COMMITFAIL
//     raises, TXA-COMMITSER-ONCE raises a serialization failure the first time only.
func txaFaults(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	_, err := pool.Exec(context.Background(), `
CREATE SEQUENCE txa_ser;
CREATE SEQUENCE txa_dead;
CREATE SEQUENCE txa_cser;
CREATE SEQUENCE txa_always;
CREATE TABLE txa_fail_ids (item_id uuid NOT NULL, action text NOT NULL);
CREATE TABLE txa_fail_scopes (scope text NOT NULL);

-- The faults keyed on an item's text, by where they strike (txa_fault's argument): a marker in
-- the text raises message with errcode; with a counter, every firing counts on it, and with once
-- only its first raises.
CREATE TABLE txa_markers (ord int, point text, marker text, message text, errcode text, counter text, once boolean);
INSERT INTO txa_markers VALUES
    (1, 'revision', 'TXA-FAIL', 'txa injected fault on revision insert', 'P0001', NULL, false),
    (2, 'revision', 'TXA-SER-ONCE', 'txa injected serialization failure', '40001', 'txa_ser', true),
    (3, 'revision', 'TXA-DEAD-ONCE', 'txa injected deadlock', '40P01', 'txa_dead', true),
    (4, 'revision', 'TXA-SER-ALWAYS', 'txa injected persistent serialization failure', '40001', 'txa_always', false),
    (5, 'item', 'TXA-ITEMFAIL', 'txa injected fault on item update', 'P0001', NULL, false),
    (6, 'commit', 'TXA-COMMITFAIL', 'txa injected fault at commit', 'P0001', NULL, false),
    (7, 'commit', 'TXA-COMMITSER-ONCE', 'txa injected serialization failure at commit', '40001', 'txa_cser', true);

CREATE FUNCTION txa_fault() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    m record;
BEGIN
    IF TG_ARGV[0] = 'revision' AND NEW.content LIKE '%TXA-SLOW%' THEN
        PERFORM pg_sleep(0.005);
    END IF;
    FOR m IN SELECT * FROM txa_markers k WHERE k.point = TG_ARGV[0] AND NEW.content LIKE '%' || k.marker || '%' ORDER BY k.ord LOOP
        IF m.counter IS NOT NULL THEN
            IF nextval(m.counter) > 1 AND m.once THEN
                CONTINUE;
            END IF;
        END IF;
        RAISE EXCEPTION USING MESSAGE = m.message, ERRCODE = m.errcode;
    END LOOP;
    IF TG_ARGV[0] = 'revision' THEN -- nested: an item's row has no item_id or action
        IF EXISTS (SELECT 1 FROM txa_fail_ids f WHERE f.item_id = NEW.item_id AND f.action = NEW.action) THEN
            RAISE EXCEPTION 'txa injected fault on % of an item', NEW.action;
        END IF;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER txa_revision_fault BEFORE INSERT ON memory_revisions
    FOR EACH ROW EXECUTE FUNCTION txa_fault('revision');
CREATE TRIGGER txa_item_fault BEFORE UPDATE ON memory_items
    FOR EACH ROW EXECUTE FUNCTION txa_fault('item');
CREATE CONSTRAINT TRIGGER txa_commit_fault AFTER INSERT ON memory_revisions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION txa_fault('commit');

CREATE FUNCTION txa_generation_fault() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.generation <> OLD.generation AND EXISTS (SELECT 1 FROM txa_fail_scopes s WHERE s.scope = NEW.scope) THEN
        RAISE EXCEPTION 'txa injected fault on generation bump';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER txa_generation_fault BEFORE UPDATE ON memory_generations
    FOR EACH ROW EXECUTE FUNCTION txa_generation_fault();
`)
	require.NoError(t, err)
}

// txaSnapshot is everything a write to one item may change.
type txaSnapshot struct {
	Revision  int
	Content   string
	Pinned    bool
	Status    string
	Revisions int
	MaxRev    int
	Gens      int64 // sum of every scope's generation
	Rows      int   // revision rows in the whole database
}

func txaSnap(t *testing.T, pool *pgxpool.Pool, itemID string) txaSnapshot {
	t.Helper()
	var s txaSnapshot
	require.NoError(t, pool.QueryRow(context.Background(), `
		SELECT i.revision, i.content, i.pinned, i.status,
		       (SELECT count(*) FROM memory_revisions r WHERE r.item_id = i.id),
		       (SELECT coalesce(max(r.revision), 0) FROM memory_revisions r WHERE r.item_id = i.id),
		       (SELECT sum(generation) FROM memory_generations)::bigint,
		       (SELECT count(*) FROM memory_revisions)
		FROM memory_items i WHERE i.id = $1`, itemID).Scan(
		&s.Revision, &s.Content, &s.Pinned, &s.Status, &s.Revisions, &s.MaxRev, &s.Gens, &s.Rows))
	return s
}

// txaContentExists reports whether any item or revision holds text containing marker.
func txaContentExists(t *testing.T, pool *pgxpool.Pool, marker string) bool {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM memory_items WHERE content LIKE '%' || $1 || '%')
		     + (SELECT count(*) FROM memory_revisions WHERE content LIKE '%' || $1 || '%')`, marker).Scan(&n))
	return n > 0
}

// txaCheckItems: every item's revision is the number of its revision rows, which run 1..n.
func txaCheckItems(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT i.id::text, i.revision, count(r.revision)::int, coalesce(min(r.revision), 0), coalesce(max(r.revision), 0)
		FROM memory_items i LEFT JOIN memory_revisions r ON r.item_id = i.id
		GROUP BY i.id, i.revision`)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var id string
		var rev, n, lo, hi int
		require.NoError(t, rows.Scan(&id, &rev, &n, &lo, &hi))
		assert.Equal(t, []int{rev, rev, 1}, []int{n, hi, lo},
			"item %s: revision %d must equal its revision rows (count %d, 1..%d contiguous from %d)", id, rev, n, hi, lo)
	}
	require.NoError(t, rows.Err())
}

// txaCheckGenerations: in each teammate scope, the generation moved once per revision written
// (a create or an edit of the content), so generation = revision rows of the scope's items.
func txaCheckGenerations(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT g.scope, g.generation,
		       (SELECT count(*) FROM memory_revisions r JOIN memory_items i ON i.id = r.item_id WHERE i.scope = g.scope)
		FROM memory_generations g WHERE g.teammate_id IS NOT NULL`)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var scope string
		var gen, revs int64
		require.NoError(t, rows.Scan(&scope, &gen, &revs))
		assert.Equal(t, revs, gen, "scope %s: one generation bump per committed revision", scope)
	}
	require.NoError(t, rows.Err())
}

// txaNoOpenTx waits (a little) until no session of the test database other than ours is inside an
// open or aborted transaction while idle, and fails if one stays there.
func txaNoOpenTx(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		var n int
		var which string
		require.NoError(t, pool.QueryRow(context.Background(), `
			SELECT count(*), coalesce(string_agg(state || ': ' || left(query, 120), ' | '), '')
			FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid()
			  AND state IN ('idle in transaction', 'idle in transaction (aborted)')`).Scan(&n, &which))
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d connection(s) left inside a transaction: %s", n, which)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// txaOneItem is the start of most attacks: the fixture with the fault triggers, a teammate named
// name, and one item of theirs holding content.
func txaOneItem(t *testing.T, name, content string) (fixture, string, memory.Item) {
	t.Helper()
	f := setup(t)
	txaFaults(t, f.pool)
	tm := f.teammate(t, name)
	return f, tm, f.create(t, &tm, content)
}

// txaSettled is the end of every attack: each item's revisions are its history rows, 1..n, no
// session is left inside a transaction and, when generations says so, each scope's generation moved
// once per history row.
func txaSettled(t *testing.T, pool *pgxpool.Pool, generations bool) {
	t.Helper()
	txaCheckItems(t, pool)
	if generations {
		txaCheckGenerations(t, pool)
	}
	txaNoOpenTx(t, pool)
}

// txaIsRetryable reports a serialization failure or deadlock anywhere in err's chain (or text).
func txaIsRetryable(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) && (pg.Code == "40001" || pg.Code == "40P01") {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "40001") || strings.Contains(s, "40P01") ||
		strings.Contains(s, "deadlock") || strings.Contains(s, "serializ")
}

// txaNoEventFor drains the listener for a while and fails on an event of item at revision rev.
func txaEvents(t *testing.T, l eventListener, wait time.Duration) []memory.Event {
	t.Helper()
	var out []memory.Event
	for {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		n, err := l.conn.WaitForNotification(ctx)
		cancel()
		if err != nil {
			return out
		}
		e, err := memory.DecodeEvent(n.Payload)
		require.NoError(t, err)
		out = append(out, e)
	}
}

// TestTxAttackFaultMidWrite: a fault raised by PostgreSQL at each seam of a user write (the
// revision row, the item row, the scope's generation, and COMMIT itself via a deferred trigger)
// makes the write fail as a whole: the error is returned, nothing of it persists (item, revision
// rows, generations, text anywhere), no event is announced, no connection stays inside a
// transaction, and the next write based on the same revision succeeds.
func TestTxAttackFaultMidWrite(t *testing.T) {
	t.Parallel()
	f, tm, item := txaOneItem(t, "Fault", "Drinks tea")
	listen := listenEvents(t, f.pool)

	for _, tc := range []struct{ name, content string }{
		{"revision insert", "Drinks TXA-FAIL coffee"},
		{"item update", "Drinks TXA-ITEMFAIL juice"},
		{"commit", "Drinks TXA-COMMITFAIL water"},
	} {
		before := txaSnap(t, f.pool, item.ID)
		_, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: before.Revision, Content: ptr(tc.content)})
		require.Error(t, err, "%s: an edit whose write fails must fail", tc.name)
		after := txaSnap(t, f.pool, item.ID)
		assert.Equal(t, before, after, "%s: a failed edit changes nothing", tc.name)
		assert.False(t, txaContentExists(t, f.pool, "TXA-"), "%s: the failed edit's text is nowhere", tc.name)
		txaNoOpenTx(t, f.pool)

		ok, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: before.Revision, Content: ptr("Drinks milk after " + tc.name)})
		require.NoError(t, err, "%s: the next edit on the same base succeeds", tc.name)
		assert.Equal(t, before.Revision+1, ok.Revision)
		ev := txaEvents(t, listen, 300*time.Millisecond)
		require.Len(t, ev, 1, "%s: exactly the successful edit was announced", tc.name)
		assert.Equal(t, ok.Revision, ev[0].Revision)
	}

	// A failing generation bump: the scope's own row.
	_, err := f.pool.Exec(context.Background(), `INSERT INTO txa_fail_scopes VALUES ($1)`, tm)
	require.NoError(t, err)
	before := txaSnap(t, f.pool, item.ID)
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: before.Revision, Content: ptr("Drinks lemonade")})
	require.Error(t, err, "an edit whose generation bump fails must fail")
	assert.Equal(t, before, txaSnap(t, f.pool, item.ID), "a failed bump leaves the item as it was")
	assert.False(t, txaContentExists(t, f.pool, "lemonade"))
	_, err = f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Owns a lemonade stand"})
	require.Error(t, err, "a create whose generation bump fails must fail")
	assert.False(t, txaContentExists(t, f.pool, "lemonade"), "no row of the failed create")
	_, err = f.pool.Exec(context.Background(), `DELETE FROM txa_fail_scopes`)
	require.NoError(t, err)
	assert.Empty(t, txaEvents(t, listen, 300*time.Millisecond), "failed writes announce nothing")

	// A failed create (fault on its revision row) leaves no item.
	var items0 int
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_items`).Scan(&items0))
	_, err = f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "New TXA-FAIL fact"})
	require.Error(t, err)
	_, err = f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "New TXA-COMMITFAIL fact"})
	require.Error(t, err)
	var items1 int
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_items`).Scan(&items1))
	assert.Equal(t, items0, items1, "failed creates leave no item")
	assert.False(t, txaContentExists(t, f.pool, "TXA-"))

	// Forget, restore and undo, failed at their revision row.
	cur := txaSnap(t, f.pool, item.ID)
	_, err = f.pool.Exec(context.Background(), `INSERT INTO txa_fail_ids VALUES ($1, 'forget'), ($1, 'restore'), ($1, 'undo')`, item.ID)
	require.NoError(t, err)
	_, err = f.svc.ForgetMemory(user, item.ID)
	require.Error(t, err, "a forget whose revision fails must fail")
	_, err = f.svc.RestoreRevision(user, item.ID, 1, cur.Revision)
	require.Error(t, err, "a restore whose revision fails must fail")
	_, err = f.svc.UndoEdit(user, item.ID, cur.Revision)
	require.Error(t, err, "an undo whose revision fails must fail")
	assert.Equal(t, cur, txaSnap(t, f.pool, item.ID), "failed forget/restore/undo change nothing")
	assert.Empty(t, txaEvents(t, listen, 300*time.Millisecond), "failed writes announce nothing")
	_, err = f.pool.Exec(context.Background(), `DELETE FROM txa_fail_ids`)
	require.NoError(t, err)
	forgotten, err := f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err, "the forget succeeds once the fault is gone")
	assert.Equal(t, memory.StatusForgotten, forgotten.Status)

	txaSettled(t, f.pool, false)
}

// TestTxAttackBulkAllOrNone: a bulk pin (and a bulk forget) over items of two scopes, where the
// write of the last item fails, changes none of the items and no generation.
func TestTxAttackBulkAllOrNone(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b := f.teammate(t, "BulkA"), f.teammate(t, "BulkB")
	txaFaults(t, f.pool)
	x := f.create(t, &a, "Likes chess")
	y := f.create(t, nil, "Office is on floor 3")
	z := f.create(t, &b, "Likes go")
	listen := listenEvents(t, f.pool)
	_, err := f.pool.Exec(context.Background(), `INSERT INTO txa_fail_ids VALUES ($1, 'pin'), ($1, 'forget')`, z.ID)
	require.NoError(t, err)

	snaps := func() []txaSnapshot {
		return []txaSnapshot{txaSnap(t, f.pool, x.ID), txaSnap(t, f.pool, y.ID), txaSnap(t, f.pool, z.ID)}
	}
	before := snaps()
	refs := []memory.ItemRef{{ID: x.ID, BaseRevision: 1}, {ID: y.ID, BaseRevision: 1}, {ID: z.ID, BaseRevision: 1}}
	_, err = f.svc.PinMemories(user, refs, true)
	require.Error(t, err, "the bulk pin fails when one item's write fails")
	assert.Equal(t, before, snaps(), "all or none: no item of the failed bulk pin changed")
	_, _, err = f.svc.ForgetMemories(user, refs, nil)
	require.Error(t, err, "the bulk forget fails when one item's write fails")
	assert.Equal(t, before, snaps(), "all or none: no item of the failed bulk forget changed")
	assert.False(t, before[0].Pinned)
	assert.Empty(t, txaEvents(t, listen, 300*time.Millisecond), "failed bulk writes announce nothing")
	txaNoOpenTx(t, f.pool)

	_, err = f.pool.Exec(context.Background(), `DELETE FROM txa_fail_ids`)
	require.NoError(t, err)
	out, err := f.svc.PinMemories(user, refs, true)
	require.NoError(t, err, "the same bulk pin succeeds once the fault is gone")
	require.Len(t, out, 3)
	for _, it := range out {
		assert.True(t, it.Pinned)
		assert.Equal(t, 2, it.Revision)
	}
	txaSettled(t, f.pool, false)
}

// TestTxAttackRetryInjectedAborts: a serialization failure or deadlock raised once — in the middle
// of the write or at COMMIT — is retried by the service: the caller sees success, and exactly one
// revision is written. A persistent serialization failure ends (bounded) with an error, writing
// nothing, and the service stays usable.
func TestTxAttackRetryInjectedAborts(t *testing.T) {
	t.Parallel()
	f, tm, item := txaOneItem(t, "Retry", "Walks to work")

	for _, tc := range []struct{ marker, seq string }{
		{"TXA-SER-ONCE", "txa_ser"},
		{"TXA-DEAD-ONCE", "txa_dead"},
		{"TXA-COMMITSER-ONCE", "txa_cser"},
	} {
		before := txaSnap(t, f.pool, item.ID)
		out, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: before.Revision, Content: ptr("Cycles " + tc.marker)})
		if !assert.NoError(t, err, "%s: an aborted-once transaction is retried, not reported", tc.marker) {
			continue
		}
		assert.Equal(t, before.Revision+1, out.Revision)
		after := txaSnap(t, f.pool, item.ID)
		assert.Equal(t, before.Revision+1, after.Revision)
		assert.Equal(t, before.Revisions+1, after.Revisions, "%s: exactly one revision row, not two", tc.marker)
		assert.Equal(t, before.Gens+1, after.Gens, "%s: exactly one generation bump", tc.marker)
		var calls int64
		require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT last_value FROM `+tc.seq).Scan(&calls))
		assert.GreaterOrEqual(t, calls, int64(2), "%s: the write ran again", tc.marker)
	}

	// A create aborted once is retried too, and creates one item.
	_, err := f.pool.Exec(context.Background(), `SELECT setval('txa_ser', 1, false)`)
	require.NoError(t, err)
	created, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Reads TXA-SER-ONCE novels"})
	require.NoError(t, err, "a create aborted once is retried")
	var n int
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_items WHERE content LIKE '%TXA-SER-ONCE novels%'`).Scan(&n))
	assert.Equal(t, 1, n, "the retried create made one item")
	assert.Equal(t, 1, created.Revision)

	// The same with an idempotency key: one item, and a repeat of the request returns it.
	_, err = f.pool.Exec(context.Background(), `SELECT setval('txa_ser', 1, false)`)
	require.NoError(t, err)
	in := memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Keeps TXA-SER-ONCE bees", IdempotencyKey: ptr("txa-key-1")}
	first, err := f.svc.CreateMemory(user, in)
	require.NoError(t, err, "an idempotent create aborted once is retried")
	again, err := f.svc.CreateMemory(user, in)
	require.NoError(t, err)
	assert.Equal(t, first.ID, again.ID, "the repeated request returns the retried create's item")
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_items WHERE content LIKE '%TXA-SER-ONCE bees%'`).Scan(&n))
	assert.Equal(t, 1, n, "the retried idempotent create made one item")

	// Always aborted: the service must give up within a bounded time, with an error, writing nothing.
	before := txaSnap(t, f.pool, item.ID)
	ctx, cancel := context.WithTimeout(user, 15*time.Second)
	defer cancel()
	start := time.Now()
	_, err = f.svc.EditMemory(ctx, memory.EditInput{ID: item.ID, BaseRevision: before.Revision, Content: ptr("Runs TXA-SER-ALWAYS")})
	require.Error(t, err, "a transaction that can never succeed is reported")
	assert.Less(t, time.Since(start), 14*time.Second, "the retries are bounded (not only by the caller's deadline)")
	var attempts int64
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT last_value FROM txa_always`).Scan(&attempts))
	t.Logf("persistent serialization failure: %d attempts in %v, error %v", attempts, time.Since(start), err)
	assert.Equal(t, before, txaSnap(t, f.pool, item.ID))
	assert.False(t, txaContentExists(t, f.pool, "TXA-SER-ALWAYS"))
	txaNoOpenTx(t, f.pool)
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: before.Revision, Content: ptr("Runs on Sundays")})
	require.NoError(t, err)
	txaSettled(t, f.pool, true)
}

// TestTxAttackCancelStorm: concurrent edits and creates over three scopes, with contexts cancelled
// after random 0–5 ms (some writes slowed by a 5 ms trigger to widen the window). Afterwards every
// item's revision equals its revision rows, 1..n; each scope's generation moved once per revision
// row; a write that returned an error left none of its text behind and a successful one left it;
// every committed revision was announced exactly once; no connection stays in a transaction; the
// pool has nothing acquired; and bursts of sequential and concurrent writes (2× the pool) succeed.
func TestTxAttackCancelStorm(t *testing.T) {
	t.Parallel()
	f := setup(t)
	txaFaults(t, f.pool)
	tms := []string{f.teammate(t, "Storm1"), f.teammate(t, "Storm2"), f.teammate(t, "Storm3")}
	var ids []string
	for i, tm := range tms {
		for j := range 2 {
			ids = append(ids, f.create(t, &tm, fmt.Sprintf("seed %d %d", i, j)).ID)
		}
	}
	listen := listenEvents(t, f.pool)
	var (
		evMu   sync.Mutex
		events = map[string]int{}
		evDone = make(chan struct{})
		stopEv atomic.Bool
	)
	go func() {
		defer close(evDone)
		for !stopEv.Load() {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			n, err := listen.conn.WaitForNotification(ctx)
			cancel()
			if err != nil {
				if listen.conn.IsClosed() {
					return
				}
				continue
			}
			e, err := memory.DecodeEvent(n.Payload)
			if err == nil && e.ItemID != "" {
				evMu.Lock()
				events[fmt.Sprintf("%s/%d", e.ItemID, e.Revision)]++
				evMu.Unlock()
			}
		}
	}()

	// Calibrate: cancel after anything from 0 to ten times a lone write's latency, so that some writes
	// are cancelled before they start, some in the middle, some around COMMIT, some not at all.
	var lat time.Duration
	for i := range 5 {
		start := time.Now()
		_, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tms[0]}, Content: fmt.Sprintf("storm-calibrate %d TXA-SLOW", i)})
		require.NoError(t, err)
		lat += time.Since(start)
	}
	lat /= 5
	maxDelay := max(10*lat, 20*time.Millisecond) // the storm runs 8 writers at once
	t.Logf("a write takes %v; cancelling after 0..%v", lat, maxDelay)

	type outcome struct {
		marker string
		ok     bool
		err    error
		delay  time.Duration
		took   time.Duration
	}
	const workers, ops = 8, 30
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		outcomes []outcome
		cancels  atomic.Int64
		oks      atomic.Int64
		created  = make(chan string, workers*ops)
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 42))
			for op := range ops {
				marker := fmt.Sprintf("storm-w%d-op%d", w, op)
				if r.IntN(2) == 0 {
					marker += " TXA-SLOW"
				}
				var delay time.Duration
				switch r.IntN(4) {
				case 0:
					delay = time.Duration(r.IntN(5001)) * time.Microsecond
				case 1:
					delay = 2 * time.Second // not cancelled: keeps the writes going
				default:
					delay = time.Duration(r.Int64N(int64(maxDelay)))
				}
				ctx, cancel := context.WithTimeout(user, delay)
				began := time.Now()
				var err error
				if r.IntN(6) == 0 {
					tm := tms[r.IntN(len(tms))]
					var it memory.Item
					it, err = f.svc.CreateMemory(ctx, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: marker})
					if err == nil {
						created <- it.ID
					}
				} else {
					id := ids[r.IntN(len(ids))]
					cur, rerr := f.svc.Item(user, id)
					if rerr != nil {
						t.Errorf("reading an item during the storm: %v", rerr)
						cancel()
						return
					}
					_, err = f.svc.EditMemory(ctx, memory.EditInput{ID: id, BaseRevision: cur.Revision, Content: ptr(marker)})
				}
				cancel()
				var conflict *memory.ConflictError
				switch {
				case err == nil:
					oks.Add(1)
				case errors.As(err, &conflict):
				case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || ctx.Err() != nil:
					cancels.Add(1)
				default:
					t.Errorf("unexpected error from a write: %v", err)
				}
				mu.Lock()
				outcomes = append(outcomes, outcome{marker: marker, ok: err == nil, err: err, delay: delay, took: time.Since(began)})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(created)
	t.Logf("storm: %d ok, %d cancelled, of %d", oks.Load(), cancels.Load(), workers*ops)

	// Connections cancelled mid-transaction must not stay in one.
	txaSettled(t, f.pool, true)

	// A request that failed left nothing; one that succeeded left its text.
	var committedButFailed []string
	for _, o := range outcomes {
		var n int
		require.NoError(t, f.pool.QueryRow(context.Background(),
			`SELECT count(*) FROM memory_revisions WHERE content = $1`, o.marker).Scan(&n))
		if o.ok {
			assert.Equal(t, 1, n, "a successful write %q left exactly one revision", o.marker)
		} else if n != 0 {
			committedButFailed = append(committedButFailed, o.marker)
			t.Logf("%q committed, but the caller got (after %v, deadline %v): %v", o.marker, o.took, o.delay, o.err)
		}
	}
	// TestTxAttackCancelledButCommitted asserts this one on its own; here it is only reported.
	if len(committedButFailed) > 0 {
		t.Logf("%d write(s) reported as failed were committed: %v", len(committedButFailed), committedButFailed)
	}

	// Every committed revision was announced exactly once, and nothing else was.
	time.Sleep(500 * time.Millisecond)
	stopEv.Store(true)
	<-evDone
	rows, err := f.pool.Query(context.Background(), `
		SELECT item_id::text || '/' || revision FROM memory_revisions r
		WHERE r.content LIKE 'storm-%'`)
	require.NoError(t, err)
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	evMu.Lock()
	for _, k := range keys {
		assert.Equal(t, 1, events[k], "committed revision %s announced once", k)
		delete(events, k)
	}
	assert.Empty(t, events, "events announced for revisions that were never committed")
	evMu.Unlock()

	// Fully usable: nothing acquired, and bursts of 2× the pool succeed.
	assert.Zero(t, f.pool.Stat().AcquiredConns(), "no connection left acquired")
	size := int(f.pool.Config().MaxConns)
	item := f.create(t, &tms[0], "burst target")
	base := 1
	for i := range 2 * size {
		ctx, cancel := context.WithTimeout(user, 5*time.Second)
		out, err := f.svc.EditMemory(ctx, memory.EditInput{ID: item.ID, BaseRevision: base, Content: ptr(fmt.Sprintf("burst %d", i))})
		cancel()
		require.NoError(t, err, "sequential write %d after the storm", i)
		base = out.Revision
	}
	var bwg sync.WaitGroup
	errs := make(chan error, 2*size)
	for i := range 2 * size {
		bwg.Add(1)
		go func() {
			defer bwg.Done()
			tm := tms[i%len(tms)]
			ctx, cancel := context.WithTimeout(user, 10*time.Second)
			defer cancel()
			_, err := f.svc.CreateMemory(ctx, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: fmt.Sprintf("parallel burst %d", i)})
			errs <- err
		}()
	}
	bwg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err, "concurrent write after the storm")
	}
	txaSettled(t, f.pool, false)
}

// TestTxAttackConflictRace: many goroutines edit one item (content edits and restores) with the
// revision they last saw. Final revision = 1 + successes; rows 1..n each based on the one before;
// every failure is a *ConflictError naming a revision above the stale base it was given, or a
// restore that changes nothing (raceOneItem).
func TestTxAttackConflictRace(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Race")
	item := f.create(t, &tm, "race 0")
	const writers, attempts = 12, 25
	accepted := raceOneItem(t, f, tm, item, writers, attempts, func(w, a, base int) (memory.Item, error) {
		if a%3 == 2 {
			return f.svc.RestoreRevision(user, item.ID, 1, base)
		}
		return f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: base, Content: ptr(fmt.Sprintf("race w%d a%d", w, a))})
	})
	t.Logf("%d accepted of %d", accepted, writers*attempts)
}

// TestTxAttackOppositeScopeOrder: bulk pins over one item in each of two scopes, half of the
// goroutines naming scope A's item first and half scope B's first (each goroutine its own items,
// so no conflict is legitimate), with revision writes slowed to widen the window. Deadlocks the
// order may provoke must never reach the caller: every write succeeds.
func TestTxAttackOppositeScopeOrder(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b := f.teammate(t, "OrderA"), f.teammate(t, "OrderB")
	txaFaults(t, f.pool)
	const goroutines, rounds = 6, 12
	var wg sync.WaitGroup
	var failures, deadlocks atomic.Int64
	start := time.Now()
	for g := range goroutines {
		x := f.create(t, &a, fmt.Sprintf("order A %d TXA-SLOW", g))
		y := f.create(t, &b, fmt.Sprintf("order B %d TXA-SLOW", g))
		wg.Add(1)
		go func() {
			defer wg.Done()
			rx, ry := 1, 1
			for r := range rounds {
				refs := []memory.ItemRef{{ID: x.ID, BaseRevision: rx}, {ID: y.ID, BaseRevision: ry}}
				if (g+r)%2 == 1 {
					refs[0], refs[1] = refs[1], refs[0]
				}
				ctx, cancel := context.WithTimeout(user, 10*time.Second)
				out, err := f.svc.PinMemories(ctx, refs, r%2 == 0)
				cancel()
				if err != nil {
					failures.Add(1)
					if txaIsRetryable(err) {
						deadlocks.Add(1)
					}
					t.Errorf("bulk pin (goroutine %d round %d) failed: %v", g, r, err)
					return
				}
				for _, it := range out {
					switch it.ID {
					case x.ID:
						rx = it.Revision
					case y.ID:
						ry = it.Revision
					}
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d failures (%d deadlock/serialization) in %v", failures.Load(), deadlocks.Load(), time.Since(start))
	assert.Zero(t, deadlocks.Load(), "no deadlock or serialization failure reaches the caller")
	txaSettled(t, f.pool, false)
}

// TestTxAttackTinyPool: a service on a pool of one connection survives failing, cancelled,
// lock-blocked and conflicting requests: afterwards nothing is acquired, no session is in a
// transaction, and a write succeeds promptly. A request blocked on its scope's lock (held by the
// test) returns promptly when cancelled, and leaves nothing.
func TestTxAttackTinyPool(t *testing.T) {
	t.Parallel()
	f, tm, item := txaOneItem(t, "Tiny", "Small pool")

	cfg := f.pool.Config()
	cfg.MaxConns = 1
	cfg.MinConns = 0
	tiny, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	defer tiny.Close()
	svc := memory.NewService(tiny, slog.New(slog.DiscardHandler))

	edit := func(ctx context.Context, content string) (memory.Item, error) {
		cur := txaSnap(t, f.pool, item.ID)
		return svc.EditMemory(ctx, memory.EditInput{ID: item.ID, BaseRevision: cur.Revision, Content: ptr(content)})
	}
	for i := range 5 {
		_, err := edit(user, fmt.Sprintf("fail %d TXA-FAIL", i))
		require.Error(t, err)
		_, err = edit(user, fmt.Sprintf("commit fail %d TXA-COMMITFAIL", i))
		require.Error(t, err)
		ctx, cancel := context.WithTimeout(user, time.Duration(i)*time.Millisecond)
		_, _ = edit(ctx, fmt.Sprintf("cancel %d TXA-SLOW", i))
		cancel()
		_, err = svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr(fmt.Sprintf("stale %d", i))})
		if i > 0 { // after the first success the base 1 is stale
			var conflict *memory.ConflictError
			require.ErrorAs(t, err, &conflict)
		}
		ctx, cancel = context.WithTimeout(user, 5*time.Second)
		_, err = edit(ctx, fmt.Sprintf("ok %d", i))
		cancel()
		require.NoError(t, err, "round %d: a write on the one-connection pool succeeds after failures", i)
	}

	// Hold the scope's lock (the generation row is the scope's lock, R1): the write must wait, and
	// cancelling it must free it and the pool's only connection.
	lockTx, err := f.pool.Begin(context.Background())
	require.NoError(t, err)
	_, err = lockTx.Exec(context.Background(), `SELECT 1 FROM memory_generations WHERE scope = $1 FOR UPDATE`, tm)
	require.NoError(t, err)
	before := txaSnap(t, f.pool, item.ID)
	genBefore, err := f.svc.Generation(user, tm)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(user, 300*time.Millisecond)
	startBlocked := time.Now()
	_, err = svc.EditMemory(ctx, memory.EditInput{ID: item.ID, BaseRevision: before.Revision, Content: ptr("blocked write")})
	cancel()
	elapsed := time.Since(startBlocked)
	require.Error(t, err, "a write blocked on the held scope lock fails when its context ends")
	assert.Less(t, elapsed, 3*time.Second, "the cancelled write returned promptly")

	// While the lock is still held: the cancelled write must not stay queued on it, holding the
	// pool's only connection — another scope's write must get through.
	released := time.Now()
	for tiny.Stat().AcquiredConns() != 0 && time.Since(released) < 2*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	var lockWaiters int
	require.NoError(t, f.pool.QueryRow(context.Background(), `
		SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&lockWaiters))
	t.Logf("after the cancelled blocked write returned: acquired %d for %v more, %d backend(s) waiting on a lock",
		tiny.Stat().AcquiredConns(), time.Since(released), lockWaiters)
	assert.Zero(t, tiny.Stat().AcquiredConns(), "the cancelled write released the pool's connection while the lock is still held")
	assert.Zero(t, lockWaiters, "no backend still waits for the scope lock on behalf of a cancelled request")
	other := f.create(t, nil, "shared scope item")
	octx, ocancel := context.WithTimeout(user, 2*time.Second)
	_, err = svc.EditMemory(octx, memory.EditInput{ID: other.ID, BaseRevision: 1, Content: ptr("shared scope edited")})
	ocancel()
	assert.NoError(t, err, "a write to another scope gets the tiny pool's connection while the first scope's lock is held")
	require.NoError(t, lockTx.Rollback(context.Background()))
	itemOnly := func(s txaSnapshot) txaSnapshot { s.Gens, s.Rows = 0, 0; return s }
	assert.Equal(t, itemOnly(before), itemOnly(txaSnap(t, f.pool, item.ID)), "the cancelled blocked write changed nothing")
	genAfter, err := f.svc.Generation(user, tm)
	require.NoError(t, err)
	assert.Equal(t, genBefore.Own, genAfter.Own, "the cancelled blocked write did not bump its scope")
	assert.False(t, txaContentExists(t, f.pool, "blocked write"))

	assert.Zero(t, tiny.Stat().AcquiredConns(), "nothing left acquired on the tiny pool")
	txaNoOpenTx(t, f.pool)
	ctx, cancel = context.WithTimeout(user, 5*time.Second)
	defer cancel()
	out, err := svc.EditMemory(ctx, memory.EditInput{ID: item.ID, BaseRevision: before.Revision, Content: ptr("after the lock")})
	require.NoError(t, err, "the tiny pool is not exhausted or poisoned")
	assert.Equal(t, before.Revision+1, out.Revision)
	_, err = svc.PinMemories(ctx, []memory.ItemRef{{ID: item.ID, BaseRevision: out.Revision}}, true)
	require.NoError(t, err)
	txaSettled(t, f.pool, false)
}

// TestTxAttackRealDeadlock: the test's own transaction T locks the item's row, waits until the
// service's edit is blocked, then locks the scope's generation row (the scope lock, R1). If the edit
// holds the scope lock while it waits for the item, PostgreSQL detects a deadlock; the edit, which
// waited first, is normally the victim. T gives up its locks shortly after, so a retry can succeed:
// the edit must succeed, with exactly one revision and one generation bump.
func TestTxAttackRealDeadlock(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Deadlock")
	item := f.create(t, &tm, "Plays the cello")
	before := txaSnap(t, f.pool, item.ID)
	var deadlocks0 int64
	require.NoError(t, f.pool.QueryRow(context.Background(),
		`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`).Scan(&deadlocks0))

	for round := range 2 {
		base := txaSnap(t, f.pool, item.ID).Revision
		tx, err := f.pool.Begin(context.Background())
		require.NoError(t, err)
		var tpid int
		require.NoError(t, tx.QueryRow(context.Background(), `SELECT pg_backend_pid()`).Scan(&tpid))
		// Let the service's backend run the deadlock check first, if we may.
		_, _ = tx.Exec(context.Background(), `SAVEPOINT s`)
		if _, err := tx.Exec(context.Background(), `SET LOCAL deadlock_timeout = '5s'`); err != nil {
			_, err = tx.Exec(context.Background(), `ROLLBACK TO SAVEPOINT s`)
			require.NoError(t, err)
		}
		_, err = tx.Exec(context.Background(), `SELECT 1 FROM memory_items WHERE id = $1 FOR UPDATE`, item.ID)
		require.NoError(t, err)

		type result struct {
			item memory.Item
			err  error
		}
		done := make(chan result, 1)
		go func() {
			ctx, cancel := context.WithTimeout(user, 15*time.Second)
			defer cancel()
			out, err := f.svc.EditMemory(ctx, memory.EditInput{ID: item.ID, BaseRevision: base, Content: ptr(fmt.Sprintf("Plays the viola %d", round))})
			done <- result{out, err}
		}()
		// Wait until the edit waits for a lock.
		deadline := time.Now().Add(5 * time.Second)
		for {
			var waiting int
			require.NoError(t, f.pool.QueryRow(context.Background(), `
				SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`, tpid).Scan(&waiting))
			if waiting > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		// Now T asks for the scope lock: a deadlock if the edit holds it.
		tctx, tcancel := context.WithTimeout(context.Background(), 8*time.Second)
		_, lockErr := tx.Exec(tctx, `SELECT 1 FROM memory_generations WHERE scope = $1 FOR UPDATE`, tm)
		tcancel()
		t.Logf("round %d: T's scope lock: %v", round, lockErr)
		time.Sleep(100 * time.Millisecond)
		require.NoError(t, tx.Rollback(context.Background()))

		res := <-done
		require.NoError(t, res.err, "round %d: the deadlock victim's transaction is retried, not reported", round)
		assert.Equal(t, base+1, res.item.Revision)
	}
	var deadlocks1 int64
	require.NoError(t, f.pool.QueryRow(context.Background(),
		`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`).Scan(&deadlocks1))
	t.Logf("deadlocks detected by PostgreSQL: %d", deadlocks1-deadlocks0)
	after := txaSnap(t, f.pool, item.ID)
	assert.Equal(t, before.Revision+2, after.Revision)
	assert.Equal(t, before.Revisions+2, after.Revisions, "one revision per edit despite the retries")
	assert.Equal(t, before.Gens+2, after.Gens, "one bump per edit despite the retries")
	txaSettled(t, f.pool, false)
}

// TestTxAttackCancelledButCommitted: a write whose context ends while it commits must report what
// happened — an error only if nothing was written ("a failed or cancelled request changes
// nothing"). Six writers, each on its own scope (no lock contention, only CPU contention), with
// deadlines swept around their own write latency; for each edit that returned an error, the test
// looks for its text in the database.
func TestTxAttackCancelledButCommitted(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const writers = 6
	var items []memory.Item
	for w := range writers {
		tm := f.teammate(t, fmt.Sprintf("Ambiguous%d", w))
		items = append(items, f.create(t, &tm, "commit race"))
	}
	var (
		wg          sync.WaitGroup
		mu          sync.Mutex
		bad         []string
		failed, oks atomic.Int64
	)
	deadline := time.Now().Add(7 * time.Second)
	for w, item := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			var lat time.Duration
			for i := range 3 {
				cur, err := f.svc.Item(user, item.ID)
				if err != nil {
					t.Errorf("read: %v", err)
					return
				}
				start := time.Now()
				if _, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: cur.Revision, Content: ptr(fmt.Sprintf("calibrate %d", i))}); err != nil {
					t.Errorf("calibrating edit: %v", err)
					return
				}
				lat += time.Since(start)
			}
			lat /= 3
			for i := 0; time.Now().Before(deadline); i++ {
				cur, err := f.svc.Item(user, item.ID)
				if err != nil {
					t.Errorf("read: %v", err)
					return
				}
				marker := fmt.Sprintf("commit race w%d %d", w, i)
				delay := time.Duration(float64(lat) * (0.3 + 1.7*r.Float64()))
				ctx, cancel := context.WithTimeout(user, delay)
				_, err = f.svc.EditMemory(ctx, memory.EditInput{ID: item.ID, BaseRevision: cur.Revision, Content: ptr(marker)})
				cancel()
				if err == nil {
					oks.Add(1)
					continue
				}
				failed.Add(1)
				var n int
				if err := f.pool.QueryRow(context.Background(),
					`SELECT count(*) FROM memory_revisions WHERE item_id = $1 AND content = $2`, item.ID, marker).Scan(&n); err != nil {
					t.Errorf("count: %v", err)
					return
				}
				if n > 0 {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("%q (deadline %v, latency %v): %v", marker, delay, lat, err))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d ok, %d failed, %d failed yet committed", oks.Load(), failed.Load(), len(bad))
	assert.Empty(t, bad, "writes that returned an error were nevertheless committed")
	txaSettled(t, f.pool, true)
}

// TestTxAttackCancelReleasesScopeLock: when a write fails because its context ended, its
// transaction must be over by the time the caller gets the error — otherwise the scope's lock
// (R1) is still held by a request that already failed, and its connection is still inside an
// (aborted) transaction. Right after each cancelled edit returns, a separate session tries the
// scope lock with NOWAIT; the test also measures how long the lock stays held.
func TestTxAttackCancelReleasesScopeLock(t *testing.T) {
	t.Parallel()
	f, tm, item := txaOneItem(t, "Lingering", "lock seed")
	probe, err := pgx.ConnectConfig(context.Background(), f.pool.Config().ConnConfig)
	require.NoError(t, err)
	defer probe.Close(context.Background())
	tryLock := func() bool {
		tx, err := probe.Begin(context.Background())
		require.NoError(t, err)
		defer func() { _ = tx.Rollback(context.Background()) }()
		_, err = tx.Exec(context.Background(), `SELECT 1 FROM memory_generations WHERE scope = $1 FOR UPDATE NOWAIT`, tm)
		return err == nil
	}
	var held []time.Duration
	cancelled := 0
	for i := range 15 {
		cur := txaSnap(t, f.pool, item.ID)
		ctx, cancel := context.WithTimeout(user, time.Duration(1+i%5)*time.Millisecond)
		_, err := f.svc.EditMemory(ctx, memory.EditInput{ID: item.ID, BaseRevision: cur.Revision, Content: ptr(fmt.Sprintf("lock %d TXA-SLOW", i))})
		cancel()
		if err == nil {
			continue
		}
		cancelled++
		returned := time.Now()
		if tryLock() {
			continue
		}
		for !tryLock() && time.Since(returned) < 3*time.Second {
			time.Sleep(time.Millisecond)
		}
		held = append(held, time.Since(returned))
	}
	t.Logf("%d cancelled edits; the scope lock was still held after %d of them returned, for %v", cancelled, len(held), held)
	require.Positive(t, cancelled, "the test cancelled some edits")
	assert.Empty(t, held, "a cancelled edit returned while its transaction still held the scope lock")
	for _, d := range held {
		assert.Less(t, d, 3*time.Second, "the lock of a cancelled edit is eventually released")
	}
	txaSettled(t, f.pool, false)
}

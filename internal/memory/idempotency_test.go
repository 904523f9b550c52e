package memory_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// Idempotency keys: a retry of a write whose answer was lost gets the first answer and
// writes nothing; the same key with another input is refused; concurrent requests with one key make
// one write; keys belong to their credential and expire after a day; the table holds no text (F5).

// key is a fresh idempotency key.
func key() *string { return ptr(uuid.NewString()) }

// keyRows counts the idempotency records.
func (f fixture) keyRows(t *testing.T) (n int) {
	t.Helper()
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM idempotency_keys`).Scan(&n))
	return n
}

// importFile is an exportMemory JSON file of contents.
func importFile(t *testing.T, contents ...string) string {
	t.Helper()
	items := make([]map[string]any, len(contents))
	for i, c := range contents {
		items[i] = map[string]any{"kind": "fact", "content": c}
	}
	b, err := json.Marshal(map[string]any{"format": "memory-export", "version": 1, "scope": "shared",
		"exportedAt": time.Now().UTC(), "items": items})
	require.NoError(t, err)
	return string(b)
}

// TestRetryWithTheSameKeyAnswersTheFirstAnswer: each create sent twice with one key writes once and
// answers the same thing twice; the same create without a key writes again (the duplicate a retry
// made before keys).
func TestRetryWithTheSameKeyAnswersTheFirstAnswer(t *testing.T) {
	t.Parallel()
	expiry := time.Now().Add(time.Hour) // one request's input, sent twice
	file := importFile(t, "Has a cat", "Speaks Dutch")
	cases := []struct {
		name string
		// do sends the create with k and returns what it answered (ids, and an import's count).
		do func(t *testing.T, f fixture, k *string) []string
	}{
		{"createMemory", func(t *testing.T, f fixture, k *string) []string {
			item, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "Prefers window seats", Pinned: true,
				ExpiresAt: &expiry, IdempotencyKey: k})
			require.NoError(t, err)
			return []string{item.ID}
		}},
		{"createTeammate", func(t *testing.T, f fixture, k *string) []string {
			name := "Ada"
			if k == nil {
				// Without a key, the same name again is refused (teammates' names are unique).
				_, err := f.svc.CreateTeammateWith(user, memory.CreateTeammateInput{Name: name})
				var bad *memory.ValidationError
				require.ErrorAs(t, err, &bad)
				name = "Ada, another"
			}
			tm, err := f.svc.CreateTeammateWith(user, memory.CreateTeammateInput{Name: name, IdempotencyKey: k})
			require.NoError(t, err)
			return []string{tm.ID}
		}},
		{"importMemory", func(t *testing.T, f fixture, k *string) []string {
			res, err := f.svc.ImportMemory(user, memory.ImportInput{Format: memory.ExportJSON,
				Data: file, IdempotencyKey: k})
			require.NoError(t, err)
			// Without a key, importing again writes no duplicate (the text is there) but answers
			// "all unchanged": a retry would tell the user nothing was imported.
			answer := []string{"unchanged " + strconv.Itoa(res.Unchanged)}
			for _, i := range res.Items {
				answer = append(answer, i.ID)
			}
			return answer
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			countAll := func() [4]int64 {
				items, revisions, gens := f.counts(t)
				var teammates int64
				require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM teammates`).Scan(&teammates))
				return [4]int64{int64(items), int64(revisions), gens, teammates}
			}
			k := key()
			first := tc.do(t, f, k)
			require.NotEmpty(t, first)
			after := countAll()
			again := tc.do(t, f, ptr(*k))
			assert.Equal(t, first, again, "the retry answers what the first request made")
			assert.Equal(t, after, countAll(), "the retry wrote nothing: items, revisions, generations, teammates")
			assert.Equal(t, 1, f.keyRows(t))

			// Without a key the same request is a new one (what a retry did before keys).
			other := tc.do(t, f, nil)
			assert.NotEqual(t, first, other)
		})
	}
}

// TestSameKeyWithAnotherInputIsRefused: a key reused for another content, another scope or another
// operation is BAD_USER_INPUT on idempotencyKey, without the input's text, and changes nothing.
func TestSameKeyWithAnotherInputIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Ada")
	k := key()
	_, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "Likes plums", IdempotencyKey: k})
	require.NoError(t, err)
	items, revisions, gens := f.counts(t)

	for name, send := range map[string]func() error{
		"another content": func() error {
			_, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "Likes SECRET-pears", IdempotencyKey: k})
			return err
		},
		"another scope": func() error {
			_, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Likes plums", IdempotencyKey: k})
			return err
		},
		"another pin": func() error {
			_, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "Likes plums", Pinned: true, IdempotencyKey: k})
			return err
		},
		"another operation": func() error {
			_, err := f.svc.CreateTeammateWith(user, memory.CreateTeammateInput{Name: "Likes plums", IdempotencyKey: k})
			return err
		},
	} {
		err := send()
		var bad *memory.ValidationError
		require.ErrorAs(t, err, &bad, name)
		assert.Equal(t, "idempotencyKey", bad.Field, name)
		assert.NotContains(t, err.Error(), "SECRET", "F5: no text in the error")
	}
	i2, r2, g2 := f.counts(t)
	assert.Equal(t, []any{items, revisions, gens}, []any{i2, r2, g2}, "nothing written")

	for name, bad := range map[string]string{"empty": "", "spaces": "a b", "line break": "a\nb",
		"too long": strings.Repeat("k", memory.MaxIdempotencyKeyLength+1)} {
		_, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "Likes figs", IdempotencyKey: &bad})
		var v *memory.ValidationError
		require.ErrorAs(t, err, &v, name)
		assert.Equal(t, "idempotencyKey", v.Field, name)
	}
	i3, _, _ := f.counts(t)
	assert.Equal(t, items, i3, "a bad key writes nothing")
}

// waitForLockWaits waits until n sessions of the test's database wait on a lock.
func (f fixture) waitForLockWaits(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var waiting int
		require.NoError(t, f.pool.QueryRow(context.Background(), `
			SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting))
		if waiting >= n {
			return
		}
		require.True(t, time.Now().Before(deadline), "%d of %d requests waiting on a lock", waiting, n)
		time.Sleep(5 * time.Millisecond) // polling pg_stat_activity: there is no signal to wait on
	}
}

// TestConcurrentRequestsWithOneKeyWriteOnce: requests with one key, sent together while the first
// is held inside its transaction, make one item; every one answers it.
func TestConcurrentRequestsWithOneKeyWriteOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Ada")

	// Hold the scope's lock so the first create waits inside its transaction, with its key claimed
	// and not committed; the others then wait on that claim.
	hold, err := f.pool.Begin(context.Background())
	require.NoError(t, err)
	_, err = hold.Exec(context.Background(), `SELECT 1 FROM memory_generations WHERE scope = $1 FOR UPDATE`, tm)
	require.NoError(t, err)

	// The requests get a pool of their own, a connection each, so that all of them are inside the
	// database at once; the test's pool holds the lock and watches.
	const requests = 8
	cfg := f.pool.Config().Copy()
	cfg.MaxConns = requests
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	svc := memory.NewService(pool, slog.New(slog.DiscardHandler))
	k := key()
	ids := make([]string, requests)
	errs := make([]error, requests)
	var wg sync.WaitGroup
	for i := range requests {
		wg.Go(func() {
			item, err := svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm},
				Content: "Keeps bees", IdempotencyKey: k})
			ids[i], errs[i] = item.ID, err
		})
	}
	f.waitForLockWaits(t, requests) // one on the scope's lock, the others on the key
	require.NoError(t, hold.Rollback(context.Background()))
	wg.Wait()

	for i := range requests {
		require.NoError(t, errs[i], "request %d", i)
		assert.Equal(t, ids[0], ids[i], "request %d answers the one item", i)
	}
	var n int
	require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_items WHERE teammate_id = $1`, tm).Scan(&n))
	assert.Equal(t, 1, n, "one item for %d requests with one key", requests)
	assert.Equal(t, "0:1:0", f.generation(t, tm), "one generation bump")
}

// TestToolRetryWithTheSameKey: a teammate's remember, update and forget, each sent twice with one
// key in one run, write once and answer the first answer twice — the update's retry is not a
// CONFLICT and the forget's not NOT_FOUND, though the first call moved the item on.
func TestToolRetryWithTheSameKey(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Ada")
	run := f.startRun(t, tm, "Please remember that I keep bees.")
	rc := asRun(t, f, run.Token)

	same := func(name string, first, again memory.ToolResult) {
		t.Helper()
		assert.Equal(t, first.Outcome, again.Outcome, name)
		assert.Equal(t, first.Message, again.Message, name)
		assert.Equal(t, first.Reason, again.Reason, name)
		assert.Equal(t, first.Adopted, again.Adopted, name)
		require.Equal(t, first.Item != nil, again.Item != nil, name)
		if first.Item != nil {
			assert.Equal(t, first.Item.ID, again.Item.ID, name)
		}
	}

	k := key()
	first, err := f.svc.Tools().Remember(rc, memory.RememberInput{Content: "I keep bees", IdempotencyKey: k})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSaved, first.Outcome)
	require.True(t, first.Adopted)
	items, revisions, gens := f.counts(t)
	again, err := f.svc.Tools().Remember(rc, memory.RememberInput{Content: "I keep bees", IdempotencyKey: k})
	require.NoError(t, err)
	same("remember", first, again)
	i2, r2, g2 := f.counts(t)
	assert.Equal(t, []any{items, revisions, gens}, []any{i2, r2, g2}, "the retry wrote nothing")

	// The same key with another text is refused, in the run as for the user.
	_, err = f.svc.Tools().Remember(rc, memory.RememberInput{Content: "I keep wasps", IdempotencyKey: k})
	var bad *memory.ValidationError
	require.ErrorAs(t, err, &bad)
	assert.Equal(t, "idempotencyKey", bad.Field)

	// An update (the run saw revision 1 of the item the user wrote before the run).
	note, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "my bike is green"})
	require.NoError(t, err)
	run2 := f.startRun(t, tm, "Please update my bike: my bike is blue.")
	rc2 := asRun(t, f, run2.Token)
	k = key()
	up := memory.ToolUpdateInput{ID: note.ID, BaseRevision: 1, Content: "my bike is blue", IdempotencyKey: k}
	first, err = f.svc.Tools().UpdateMemory(rc2, up)
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSaved, first.Outcome, first.Message)
	again, err = f.svc.Tools().UpdateMemory(rc2, up)
	require.NoError(t, err, "not a CONFLICT: the retry answers the first answer")
	same("update", first, again)
	assert.Equal(t, 2, again.Item.Revision, "one correction")

	// A forget.
	locker, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Key: ptr("locker"),
		Content: "My locker code is 4411"})
	require.NoError(t, err)
	run3 := f.startRun(t, tm, "Please forget my locker.")
	rc3 := asRun(t, f, run3.Token)
	k = key()
	first, err = f.svc.Tools().ForgetMemory(rc3, memory.ToolForgetInput{ID: locker.ID, IdempotencyKey: k})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeForgotten, first.Outcome, first.Message)
	again, err = f.svc.Tools().ForgetMemory(rc3, memory.ToolForgetInput{ID: locker.ID, IdempotencyKey: k})
	require.NoError(t, err, "not NOT_FOUND: the retry answers the first answer")
	same("forget", first, again)
	assert.Equal(t, memory.StatusForgotten, again.Item.Status)
	assert.Empty(t, again.Item.Content, "the forgotten item comes back without its text")
}

// TestKeysBelongToTheirCredential: one key used by the user and by two runs is three keys: none
// answers another's answer or is refused as reused.
func TestKeysBelongToTheirCredential(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ada, bo := f.teammate(t, "Ada"), f.teammate(t, "Bo")
	k := key()
	mine, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "Has a dog", IdempotencyKey: k})
	require.NoError(t, err)

	runA := f.startRun(t, ada, "Please remember that I have a dog")
	resA, err := f.svc.Tools().Remember(asRun(t, f, runA.Token), memory.RememberInput{Content: "I have a dog", IdempotencyKey: k})
	require.NoError(t, err)
	require.NotNil(t, resA.Item)
	runB := f.startRun(t, bo, "Please remember that I have a cat")
	resB, err := f.svc.Tools().Remember(asRun(t, f, runB.Token), memory.RememberInput{Content: "I have a cat", IdempotencyKey: k})
	require.NoError(t, err, "another run's key is its own, not a reuse")
	require.NotNil(t, resB.Item)
	assert.Equal(t, ada, *resA.Item.TeammateID)
	assert.Equal(t, bo, *resB.Item.TeammateID, "run B wrote its own item, not run A's answer")
	assert.NotEqual(t, mine.ID, resA.Item.ID)
	assert.Equal(t, 3, f.keyRows(t))

	// A later run of the same teammate doesn't reach the first run's answer either.
	runA2 := f.startRun(t, ada, "Please remember that I have a parrot")
	resA2, err := f.svc.Tools().Remember(asRun(t, f, runA2.Token), memory.RememberInput{Content: "I have a parrot", IdempotencyKey: k})
	require.NoError(t, err)
	require.NotNil(t, resA2.Item)
	assert.NotEqual(t, resA.Item.ID, resA2.Item.ID)
}

// TestIdempotencyKeyExpiry: a key is kept for a day; the sweep deletes expired keys, and an expired
// key not yet swept is free again.
func TestIdempotencyKeyExpiry(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	k := key()
	create := func() memory.Item {
		item, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "Runs on Sundays", IdempotencyKey: k})
		require.NoError(t, err)
		return item
	}
	first := create()
	var lifetime time.Duration
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT expires_at - created_at FROM idempotency_keys`).Scan(&lifetime))
	assert.Equal(t, 24*time.Hour, lifetime, "kept for a day")
	n, err := f.svc.Background().DeleteExpiredIdempotencyKeys(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "a live key stays")
	assert.Equal(t, first.ID, create().ID)

	// Expired, not yet swept: free again, so the request is a new one.
	_, err = f.pool.Exec(ctx, `UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`)
	require.NoError(t, err)
	second := create()
	assert.NotEqual(t, first.ID, second.ID, "an expired key is free again")
	assert.Equal(t, 1, f.keyRows(t), "the expired record made way for the new one")
	assert.Equal(t, second.ID, create().ID, "and the new one is kept")

	// The sweep deletes expired keys only.
	_, err = f.pool.Exec(ctx, `UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`)
	require.NoError(t, err)
	_, err = f.svc.CreateMemory(user, memory.CreateInput{Content: "Swims on Mondays", IdempotencyKey: key()})
	require.NoError(t, err)
	n, err = f.svc.Background().DeleteExpiredIdempotencyKeys(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	assert.Equal(t, 1, f.keyRows(t))
}

// TestIdempotencyRecordsHoldNoText (F5): after a keyed create and a keyed tool save are forgotten,
// a dump of the database holds neither their text nor the keys, and the fingerprint is not a plain
// hash of the text: it is keyed with the installation's tombstone key.
func TestIdempotencyRecordsHoldNoText(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	marker := markerPrefix(t)
	tm := f.teammate(t, "Ada")
	secretKey := "key-" + marker
	item, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "My PIN is " + marker, IdempotencyKey: &secretKey})
	require.NoError(t, err)
	run := f.startRun(t, tm, "Please remember that my badge is "+marker)
	res, err := f.svc.Tools().Remember(asRun(t, f, run.Token), memory.RememberInput{Content: "my badge is " + marker, IdempotencyKey: key()})
	require.NoError(t, err)
	require.NotNil(t, res.Item)
	for _, id := range []string{item.ID, res.Item.ID} {
		_, err = f.svc.ForgetMemory(user, id)
		require.NoError(t, err)
	}

	require.Equal(t, 2, f.keyRows(t), "both keys are recorded")
	dump := dumpTables(t, f.pool.Config().ConnString())
	require.NotEmpty(t, dump["public.idempotency_keys"], "the dump has the table")
	assert.NotContains(t, tablesWith(dump, marker), "public.idempotency_keys", "no text or key of a request is kept")
	assert.NotContains(t, tablesWith(dump, "key-"), "public.idempotency_keys")

	rows, err := f.pool.Query(ctx, `SELECT fingerprint, key_hash FROM idempotency_keys`)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var fingerprint, keyHash []byte
		require.NoError(t, rows.Scan(&fingerprint, &keyHash))
		plainKey := sha256.Sum256([]byte(secretKey))
		assert.NotEqual(t, plainKey[:], keyHash, "the key is an HMAC, not a plain hash")
		assert.NotEqual(t, memory.ContentHash("My PIN is "+marker), fingerprint, "the fingerprint is an HMAC")
	}
	require.NoError(t, rows.Err())
}

// BenchmarkCreateMemoryKeyed: what a key costs a create (its claim and answer travel in the
// create's transaction), and what its retry costs (the claim and a read of the first answer).
func BenchmarkCreateMemoryKeyed(b *testing.B) {
	for _, mode := range []string{"no key", "key", "retry"} {
		b.Run(mode, func(b *testing.B) {
			f := benchSetup(b)
			retried := key()
			_, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "retried", IdempotencyKey: retried})
			require.NoError(b, err)
			for i := 0; b.Loop(); i++ {
				in := memory.CreateInput{Content: "create " + strconv.Itoa(i)}
				switch mode {
				case "key":
					in.IdempotencyKey = key()
				case "retry":
					in = memory.CreateInput{Content: "retried", IdempotencyKey: retried}
				}
				if _, err := f.svc.CreateMemory(user, in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
		})
	}
}

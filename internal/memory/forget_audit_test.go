package memory_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/textmodel"
)

// The forget audit (RULES F1–F6): memory text is written everywhere it can go — several
// revisions and keys, embeddings, a teammate's suggestion, proposals to change an item (one of them
// dismissed), an extraction candidate with its evidence, the words of the user's message that made
// a suggestion wait, the lessons and about_me projections, a
// run's memory context, a pending and an in-flight job — then everything is forgotten, and a
// pg_dump of the whole database, the captured logs and every NOTIFY payload are searched for the
// text. Only the conversation (messages) may keep it (F6).

// lockedBuffer collects log output written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// markerPrefix is unique per call, so a marker can't be found by accident in anything but this
// test's own writes. The letter before the hex digits keeps the marker one hyphenated word for the
// text search parser: with digits alone after the hyphen (1 prefix in 280) it reads "-123…" as a
// signed number, no lexeme holds the prefix, and memory_terms would look free of the text before
// the forget.
func markerPrefix(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return "MARKER-x" + hex.EncodeToString(b)
}

// pgDumpPath finds pg_dump: the one beside pg_config first (it matches the server's major version
// on a Debian-style install), then PATH.
func pgDumpPath(t *testing.T) string {
	t.Helper()
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "pg_dump")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath("pg_dump")
	if err != nil {
		t.Skip("pg_dump not found: install the PostgreSQL client to run the forget audit")
	}
	return p
}

// dumpTables runs pg_dump --data-only against databaseURL and returns, per table, the lines of its
// COPY block; lines outside any COPY block (SET statements, sequence values, comments) are under
// the key "".
func dumpTables(t *testing.T, databaseURL string) map[string][]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pgDumpPath(t), "--data-only", "--no-owner", "--no-privileges", "--dbname="+databaseURL)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "pg_dump: %s", stderr.String())

	tables := map[string][]string{}
	table := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case table == "" && strings.HasPrefix(line, "COPY ") && strings.HasSuffix(line, " FROM stdin;"):
			// COPY public.<table> (<columns>) FROM stdin;
			table = strings.Fields(line)[1]
			tables[table] = append(tables[table], line)
		case table != "" && line == `\.`:
			table = ""
		default:
			tables[table] = append(tables[table], line)
		}
	}
	require.NoError(t, sc.Err())
	require.Empty(t, table, "the dump ended inside a COPY block")
	return tables
}

// tablesWith returns the tables whose dumped rows contain s (case-insensitively), sorted.
func tablesWith(tables map[string][]string, s string) []string {
	s = strings.ToLower(s)
	var out []string
	for table, lines := range tables {
		for _, line := range lines {
			if strings.Contains(strings.ToLower(line), s) {
				out = append(out, table)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// notifications collects every NOTIFY payload of the memory and job channels.
type notifications struct{ conn *pgx.Conn }

func listenAll(t *testing.T, pool *pgxpool.Pool) notifications {
	t.Helper()
	conn, err := pgx.ConnectConfig(context.Background(), pool.Config().ConnConfig)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	for _, ch := range []string{memory.EventChannel, jobs.Channel} {
		_, err = conn.Exec(context.Background(), "LISTEN "+pgx.Identifier{ch}.Sanitize())
		require.NoError(t, err)
	}
	return notifications{conn}
}

// drain returns every payload delivered so far. It sends an end-of-test payload on each channel and
// reads until both arrive: notifications are delivered in commit order, so nothing committed before
// is left behind, and nothing waits on a clock.
func (n notifications) drain(t *testing.T, pool *pgxpool.Pool) []string {
	t.Helper()
	const end = "audit-end"
	_, err := pool.Exec(context.Background(), `SELECT pg_notify($1, $3), pg_notify($2, $3)`, memory.EventChannel, jobs.Channel, end)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var payloads []string
	for ends := 0; ends < 2; {
		msg, err := n.conn.WaitForNotification(ctx)
		require.NoError(t, err)
		if msg.Payload == end {
			ends++
			continue
		}
		payloads = append(payloads, msg.Payload)
	}
	return payloads
}

func TestForgetAuditLeavesNoTrace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	databaseURL := dbtest.URL(t)
	pool, err := pgxpool.New(ctx, databaseURL)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f := fixture{svc: memory.NewService(pool, logger, memory.WithEmbeddings("audit-embed", 3), memory.WithExtraction()), pool: pool}
	listen := listenAll(t, pool)

	prefix := markerPrefix(t)
	m := func(n int) string { return fmt.Sprintf("%s-%02d", prefix, n) }
	tm := f.teammate(t, "Auditor")

	// Several revisions and keys.
	fact, err := f.svc.CreateMemory(user, memory.CreateInput{
		Scope: memory.Scope{TeammateID: &tm}, Key: ptr("locker " + m(1)), Content: "Locker combination " + m(2), Pinned: true,
	})
	require.NoError(t, err)
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: fact.ID, BaseRevision: 1, Content: ptr("Locker combination " + m(3)), Key: ptr("locker " + m(4))})
	require.NoError(t, err)
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: fact.ID, BaseRevision: 2, Content: ptr("Locker combination " + m(5))})
	require.NoError(t, err)
	// The target of a teammate's proposals.
	car, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Drives a " + m(6) + " car", Pinned: true})
	require.NoError(t, err)
	// Shared facts and preferences: the about_me projection.
	drink, err := f.svc.CreateMemory(user, memory.CreateInput{Kind: memory.KindPreference, Key: ptr("drink " + m(7)), Content: "Prefers " + m(8) + " tea", Pinned: true})
	require.NoError(t, err)
	born, err := f.svc.CreateMemory(user, memory.CreateInput{Kind: memory.KindFact, Content: "Born in " + m(9)})
	require.NoError(t, err)
	// Copies of a text in other scopes: an item with a key of its own in another
	// teammate's scope, and a teammate's suggestion of it in a third; forgotten with alsoForget.
	tm2, tm3 := f.teammate(t, "Auditor two"), f.teammate(t, "Auditor three")
	bornCopy, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm2}, Key: ptr("birth " + m(21)), Content: "born in " + m(9) + "!"})
	require.NoError(t, err)
	run3 := f.startRun(t, tm3, "Hello.")
	res, err := f.svc.Tools().Remember(asRun(t, f, run3.Token), memory.RememberInput{Content: "BORN IN " + m(9)})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	bornSuggestion := *res.Item
	// Forgotten by the teammate, at the user's request (not pinned: a pinned item is only ever
	// proposed for forgetting, A5).
	badge, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Key: ptr("gym badge"), Content: "Gym badge " + m(10)})
	require.NoError(t, err)

	// A run whose packet gives the pinned items (memory_contexts); its message and reply are the
	// conversation, which forgetting keeps (F6).
	run1 := f.startRun(t, tm, "Chat "+m(11)+": I adopted a cat called "+m(12)+". What car do I drive?")
	require.NotEmpty(t, run1.Packet.Entries)
	rc1 := asRun(t, f, run1.Token)
	// A suggestion (no request to save: A2).
	res, err = f.svc.Tools().Remember(rc1, memory.RememberInput{Content: "Has a cat called " + m(12)})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	cat := *res.Item
	// Proposals to change a confirmed item (A4); the user dismisses one of them.
	res, err = f.svc.Tools().UpdateMemoryOf(rc1, car.ID, 1, "Drives a "+m(13)+" van")
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	proposal := *res.Item
	res, err = f.svc.Tools().UpdateMemoryOf(rc1, car.ID, 1, "Drives a "+m(14)+" bike")
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	dismissed, err := f.svc.DismissCandidate(user, res.Item.ID)
	require.NoError(t, err)
	// Why a suggestion waits (A8): the judge's code and the words of the user's message that
	// decided. Which words a judge quotes is its own affair, so the audit writes a marker into them
	// itself, as the judge's words would be stored: the forget must erase them like the evidence.
	require.NotNil(t, proposal.WaitReason, "a suggestion keeps why it waits")
	_, err = pool.Exec(ctx, `UPDATE memory_items SET wait_words = $1 WHERE id = $2`, "I drive a "+m(22)+" now", proposal.ID)
	require.NoError(t, err)
	// Suggestions of texts the user saves later as items of their own, then forgets: one waiting,
	// one dismissed.
	res, err = f.svc.Tools().Remember(rc1, memory.RememberInput{Content: "bank pin " + m(20)})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	sameTextWaiting := *res.Item
	res, err = f.svc.Tools().Remember(rc1, memory.RememberInput{Content: "PASSPORT: " + m(19)})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	sameTextDismissed, err := f.svc.DismissCandidate(user, res.Item.ID)
	require.NoError(t, err)
	_, err = f.svc.Tools().CompleteRun(rc1, "Reply "+m(15)+": you drive a car.")
	require.NoError(t, err)
	// An extraction candidate, with evidence quoted from the message.
	n, err := f.svc.Background().ExtractJob(ctx, run1.Run.ID, answer(memory.ExtractedCandidate{
		Kind: memory.KindFact, Key: "pet", Content: "Adopted a cat, " + m(16), Evidence: "I adopted a cat called " + m(12),
	}))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	extracted := extractCandidates(t, f, tm)
	require.Len(t, extracted, 4, "the teammate's two suggestions, its waiting proposal and the extraction candidate")
	var fromExtraction memory.Item
	for _, c := range extracted {
		if c.Source == memory.SourceExtraction {
			fromExtraction = c
		}
	}
	require.NotEmpty(t, fromExtraction.ID)
	// A lesson: the lessons projection.
	lesson, err := f.svc.KeepLesson(user, run1.Run.ID, "Answer car questions with "+m(17))
	require.NoError(t, err)

	// Every embed job the writes enqueued runs through a runner, as in production (a batch handler).
	runner := jobs.NewRunner(pool, jobs.Options{Log: logger})
	vector := func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i := range out {
			out[i] = []float32{1, 2, 3}
		}
		return out, nil
	}
	var (
		inflightID string
		started    = make(chan struct{})
		release    = make(chan struct{})
	)
	runner.HandleBatch(memory.JobEmbed, func(ctx context.Context, js []jobs.Job) []error {
		refs := make([]memory.EmbedRef, len(js))
		for i, j := range js {
			refs[i] = memory.EmbedRef{ItemID: j.ItemID, Revision: j.Revision}
		}
		embed := vector
		for _, j := range js {
			if inflightID != "" && j.ItemID == inflightID {
				embed = func(ctx context.Context, texts []string) ([][]float32, error) {
					close(started)
					<-release
					return vector(ctx, texts)
				}
			}
		}
		return f.svc.Background().EmbedJobs(ctx, refs, embed)
	})
	for {
		ran, err := runner.RunOnce(ctx)
		require.NoError(t, err)
		if ran == 0 {
			break
		}
	}
	// A vector of an older revision by another model, too.
	_, err = pool.Exec(ctx, `INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES ($1, 1, 'old-model', 3, '[3,2,1]')`, fact.ID)
	require.NoError(t, err)

	// An in-flight job: its embed call is blocked while everything is forgotten.
	inflight, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Passport " + m(19)})
	require.NoError(t, err)
	inflightID = inflight.ID
	type outcome struct {
		ran int
		err error
	}
	runDone := make(chan outcome, 1)
	go func() {
		ran, err := runner.RunOnce(ctx)
		runDone <- outcome{ran, err}
	}()
	waitFor(t, started, "the in-flight embed call")
	// A pending job.
	pending, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "Bank PIN " + m(20)})
	require.NoError(t, err)

	// The run through which the teammate forgets, at the user's request (A5): the item is named by
	// its key, and marker 18 stays in the conversation (F6).
	run2 := f.startRun(t, tm, "My new card number is "+m(18)+". Please forget my gym badge.")
	rc2 := asRun(t, f, run2.Token)

	var embeddingsBefore int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_embeddings`).Scan(&embeddingsBefore))
	require.GreaterOrEqual(t, embeddingsBefore, 6, "the active items were embedded")
	var contextsBefore int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_contexts`).Scan(&contextsBefore))
	require.NotZero(t, contextsBefore)
	// The audit is not vacuous: before the forget, the text is everywhere it can be.
	before := dumpTables(t, databaseURL)
	assert.Equal(t, []string{
		"public.lessons", "public.memory_items", "public.memory_revisions", "public.memory_term_df", "public.memory_terms",
		"public.messages", "public.settings",
	}, tablesWith(before, prefix))
	for _, n := range []int{1, 2, 3, 4, 5, 6, 13, 14, 16, 19, 20} {
		assert.Contains(t, tablesWith(before, m(n)), "public.memory_revisions", "marker %d has a revision", n)
	}
	assert.Contains(t, tablesWith(before, m(12)), "public.memory_items", "the evidence quotes the message")
	assert.Equal(t, []string{"public.memory_items"}, tablesWith(before, m(22)), "the words that made a suggestion wait")
	assert.Equal(t, []string{"public.memory_items", "public.memory_revisions", "public.settings"}, tablesWith(before, m(8)), "about_me")
	assert.Equal(t, []string{"public.lessons", "public.memory_items", "public.memory_revisions"}, tablesWith(before, m(17)))

	// Forget: one item through the teammate's tool, the rest by the user.
	res, err = f.svc.Tools().ForgetMemoryOf(rc2, badge.ID)
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeForgotten, res.Outcome)
	copies, err := f.svc.Copies(user, born.ID)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{bornCopy.ID, bornSuggestion.ID}, []string{copies[0].ID, copies[1].ID})
	_, also, err := f.svc.ForgetWithCopies(user, born.ID, []string{copies[0].ID, copies[1].ID})
	require.NoError(t, err)
	require.Len(t, also, 2)
	for _, id := range []string{fact.ID, car.ID, drink.ID, cat.ID, fromExtraction.ID, lesson.ID, inflight.ID, pending.ID} {
		_, err := f.svc.ForgetMemory(user, id)
		require.NoError(t, err)
	}
	close(release)
	got := receive(t, runDone, "the in-flight job's end")
	require.NoError(t, got.err)
	assert.Equal(t, 1, got.ran)

	// F2: the in-flight job ended without error and wrote nothing; the pending one was cancelled and
	// is never run.
	jobStatus := func(itemID string) (statuses []string) {
		rows, err := pool.Query(ctx, `SELECT status || coalesce(':' || last_error, '') FROM memory_jobs WHERE item_id = $1 ORDER BY id`, itemID)
		require.NoError(t, err)
		statuses, err = pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return statuses
	}
	assert.Equal(t, []string{"done"}, jobStatus(inflight.ID))
	assert.Equal(t, []string{"cancelled"}, jobStatus(pending.ID))
	ran, err := runner.RunOnce(ctx)
	require.NoError(t, err)
	assert.Zero(t, ran, "nothing is left to run")

	// F1: nothing of any item is left — proposals (even the dismissed one) went with their target.
	var notForgotten, embeddings, withText int
	require.NoError(t, pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM memory_items WHERE status <> 'forgotten'),
		       (SELECT count(*) FROM memory_embeddings),
		       (SELECT count(*) FROM memory_revisions WHERE content <> '' OR key IS NOT NULL)`).
		Scan(&notForgotten, &embeddings, &withText))
	assert.Zero(t, notForgotten, "every item is forgotten, and with it every proposal to change it and every suggestion of its text")
	assert.Zero(t, embeddings, "no embedding survives")
	assert.Zero(t, withText, "no revision keeps text or a key")
	for _, id := range []string{proposal.ID, dismissed.ID, sameTextWaiting.ID, sameTextDismissed.ID} {
		p, err := f.svc.Item(user, id)
		require.NoError(t, err)
		assert.Equal(t, memory.StatusForgotten, p.Status)
	}
	aboutMe, err := f.svc.AboutMe(user)
	require.NoError(t, err)
	assert.Empty(t, aboutMe)

	// P7: the run's context keeps ids and shows every entry as forgotten, without text.
	entries, err := f.svc.MemoryContext(user, run1.Run.ID)
	require.NoError(t, err)
	require.Len(t, entries, contextsBefore-countContexts(t, pool, run2.Run.ID)-countContexts(t, pool, run3.Run.ID))
	for _, e := range entries {
		assert.Equal(t, memory.ContextForgotten, e.State)
		assert.Empty(t, e.Item.Content)
		assert.Nil(t, e.Item.Key)
	}

	// F5: the whole database keeps the text only in the conversation (F6).
	after := dumpTables(t, databaseURL)
	assert.Equal(t, []string{"public.messages"}, tablesWith(after, prefix),
		"forgotten text is left only in the conversation's messages")
	for _, n := range []int{11, 12, 15, 18} {
		assert.Equal(t, []string{"public.messages"}, tablesWith(after, m(n)), "the conversation is kept (F6): marker %d", n)
	}
	assert.Empty(t, tablesWith(after, m(22)), "the words that made a suggestion wait went with it")
	var tombstones int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_tombstones`).Scan(&tombstones))
	assert.GreaterOrEqual(t, tombstones, 16, "one content-free hash per forgotten text and scope (F3)")
	// Keyed (F3): no tombstone is the plain hash of a text that was forgotten, so the dump can't be
	// brute-forced.
	var plain int
	var hashes [][]byte
	for n := 1; n <= 21; n++ {
		for _, text := range []string{m(n), "Born in " + m(9), "Locker combination " + m(2), "Locker combination " + m(3),
			"Locker combination " + m(5), "Prefers " + m(8) + " tea", "Gym badge " + m(10), "Bank PIN " + m(20)} {
			hashes = append(hashes, textmodel.Hash(text), memory.ContentHash(text))
		}
	}
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_tombstones WHERE content_hash = ANY($1) OR NOT keyed`, hashes).Scan(&plain))
	assert.Zero(t, plain, "a tombstone is a plain hash")
	for _, scope := range []*string{nil, &tm2, &tm3} {
		gone, err := f.svc.ForgottenBefore(user, memory.Scope{TeammateID: scope}, "Born in "+m(9))
		require.NoError(t, err)
		assert.True(t, gone, "the copy's scope has its tombstone")
	}

	// F5: no log line and no notification carried the text.
	out := logs.String()
	assert.Contains(t, out, `"msg":"memory forgotten"`, "the logs were captured")
	assert.NotContains(t, strings.ToLower(out), strings.ToLower(prefix), "no memory text in a log line")
	payloads := listen.drain(t, pool)
	assert.NotEmpty(t, payloads)
	for _, p := range payloads {
		assert.NotContains(t, strings.ToLower(p), strings.ToLower(prefix), "no memory text in a NOTIFY payload")
	}
}

func countContexts(t *testing.T, pool *pgxpool.Pool, runID string) (n int) {
	t.Helper()
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_contexts WHERE run_id = $1`, runID).Scan(&n))
	return n
}

// waitFor waits until ch is closed; the bound only keeps a broken test from hanging.
func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// receive returns the next value of ch; the bound only keeps a broken test from hanging.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

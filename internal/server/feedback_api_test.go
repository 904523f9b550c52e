package server_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

// newWorldWithDB is newWorld plus a direct connection, to check projections row by row.
func newWorldWithDB(t *testing.T) (world, *pgx.Conn) {
	t.Helper()
	url := dbtest.URL(t)
	conn, err := pgx.Connect(context.Background(), url)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	return world{api: apitest.Start(t, url), t: t}, conn
}

func TestRatingsLessonsAndRetries(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Eli")
	run := w.startRun(tm, "", "Draft a reply to Sam.")
	w.api.Must(t, run.RunToken, `mutation { completeRun(input: {reply: "Hi Sam, ..."}) { id } }`, nil, &struct{}{})

	var rated struct{ RateRun struct{ Rating *string } }
	w.api.Must(t, user, `mutation($id: ID!) { rateRun(input: {runId: $id, rating: DOWN}) { rating } }`, map[string]any{"id": run.Run.ID}, &rated)
	assert.Equal(t, "DOWN", *rated.RateRun.Rating, "L1")
	w.api.Must(t, user, `mutation($id: ID!) { rateRun(input: {runId: $id, rating: null}) { rating } }`, map[string]any{"id": run.Run.ID}, &rated)
	assert.Nil(t, rated.RateRun.Rating, "a rating can be cleared")
	assert.Equal(t, "GRAPHQL_VALIDATION_FAILED", w.api.Do(t, user, `mutation($id: ID!) { rateRun(input: {runId: $id, rating: SIDEWAYS}) { rating } }`, map[string]any{"id": run.Run.ID}).Code())
	assert.Equal(t, "NOT_FOUND", w.api.Do(t, user, `mutation { rateRun(input: {runId: "5b0f3a4e-8f1c-4c1e-9d7a-000000000000", rating: UP}) { rating } }`, nil).Code())
	assert.Equal(t, "UNAUTHENTICATED", w.api.Do(t, run.RunToken, `mutation($id: ID!) { rateRun(input: {runId: $id, rating: UP}) { rating } }`, map[string]any{"id": run.Run.ID}).Code(),
		"a completed run's credential no longer works")
	other := w.startRun(tm, "", "Another turn")
	assert.Equal(t, "FORBIDDEN", w.api.Do(t, other.RunToken, `mutation($id: ID!) { rateRun(input: {runId: $id, rating: UP}) { rating } }`, map[string]any{"id": run.Run.ID}).Code(),
		"only the user rates")

	// L2: the note becomes a pinned lesson of the teammate, linked to the run, in every future packet.
	var kept struct {
		KeepLesson struct {
			Item struct {
				ID, Kind, Source, Scope string
				Pinned                  bool
			}
		}
	}
	w.api.Must(t, user, `mutation($id: ID!) { keepLesson(input: {runId: $id, note: "Keep replies to Sam under three sentences."}) { item { id kind source scope pinned } } }`,
		map[string]any{"id": run.Run.ID}, &kept)
	lesson := kept.KeepLesson.Item
	assert.Equal(t, []any{"LESSON", "FEEDBACK", tm, true}, []any{lesson.Kind, lesson.Source, lesson.Scope, lesson.Pinned})
	var lessons struct {
		Lessons []struct {
			Item struct{ ID string }
			Run  struct{ ID, Reply string }
		}
	}
	w.api.Must(t, user, `query($t: ID!) { lessons(teammateId: $t) { item { id } run { id reply } } }`, map[string]any{"t": tm}, &lessons)
	require.Len(t, lessons.Lessons, 1, "L4")
	assert.Equal(t, lesson.ID, lessons.Lessons[0].Item.ID)
	assert.Equal(t, run.Run.ID, lessons.Lessons[0].Run.ID)
	assert.Equal(t, "Hi Sam, ...", lessons.Lessons[0].Run.Reply)
	next := w.startRun(tm, "", "What's the weather like?")
	assert.Contains(t, next.Packet, "under three sentences", "a pinned lesson goes into every run")

	// L3: the retry is a message that redoes the run, which the worker picks up.
	var retry struct {
		RetryRunWithNote struct{ MessageID, ThreadID, RetryOfRunID, Prompt string }
	}
	w.api.Must(t, user, `mutation($id: ID!) { retryRunWithNote(input: {runId: $id, note: "Be warmer."}) { messageId threadId retryOfRunId prompt } }`,
		map[string]any{"id": run.Run.ID}, &retry)
	assert.Equal(t, fmt.Sprintf(memory.RetryPromptTemplate, "Be warmer."), retry.RetryRunWithNote.Prompt)
	assert.Equal(t, run.Run.ID, retry.RetryRunWithNote.RetryOfRunID)
	var pending struct{ PendingRetries []struct{ MessageID string } }
	w.api.Must(t, worker, `query { pendingRetries { messageId } }`, nil, &pending)
	require.Len(t, pending.PendingRetries, 1)
	var redo struct {
		StartRun struct {
			Run    struct{ UserMessage string }
			Thread struct{ ID string }
		}
	}
	w.api.Must(t, worker, `mutation($t: ID!, $m: ID) { startRun(input: {teammateId: $t, retryMessageId: $m}) { run { userMessage } thread { id } } }`,
		map[string]any{"t": tm, "m": retry.RetryRunWithNote.MessageID}, &redo)
	assert.Equal(t, retry.RetryRunWithNote.Prompt, redo.StartRun.Run.UserMessage)
	w.api.Must(t, worker, `query { pendingRetries { messageId } }`, nil, &pending)
	assert.Empty(t, pending.PendingRetries, "a retry is started once")
	assert.Equal(t, "NOT_FOUND", w.api.Do(t, worker, `mutation($t: ID!, $m: ID) { startRun(input: {teammateId: $t, retryMessageId: $m}) { runToken } }`,
		map[string]any{"t": tm, "m": retry.RetryRunWithNote.MessageID}).Code())
}

func TestProjectionsFollowEveryKindOfChange(t *testing.T) {
	t.Parallel()
	w, db := newWorldWithDB(t)
	tm := w.teammate("Fay")
	aboutMe := func() string {
		var out struct{ AboutMe string }
		w.api.Must(t, user, `query { aboutMe }`, nil, &out)
		var stored string
		require.NoError(t, db.QueryRow(context.Background(), `SELECT about_me FROM settings`).Scan(&stored))
		require.Equal(t, stored, out.AboutMe)
		return out.AboutMe
	}
	lessonRows := func() []string {
		rows, err := db.Query(context.Background(), `SELECT content FROM lessons ORDER BY content`)
		require.NoError(t, err)
		list, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return list
	}
	edit := func(id string, base int, fields string) {
		w.api.Must(t, user, `mutation($id: ID!, $b: Int!) { editMemory(input: {id: $id, baseRevision: $b, `+fields+`}) { item { id } } }`,
			map[string]any{"id": id, "b": base}, &struct{}{})
	}
	assert.Empty(t, aboutMe())

	fact := w.createMemory(nil, "Lives in Lisbon")
	var pref struct{ CreateMemory struct{ Item item } }
	w.api.Must(t, user, `mutation { createMemory(input: {scope: {teammateId: null}, kind: PREFERENCE, key: "coffee", content: "Black, no sugar"}) { item { id } } }`, nil, &pref)
	w.createMemory(&tm, "A teammate-only fact stays out of aboutMe")
	assert.Equal(t, "Facts:\n- Lives in Lisbon\n\nPreferences:\n- coffee: Black, no sugar\n", aboutMe())

	edit(fact.ID, 1, `content: "Lives in Porto"`)
	assert.Contains(t, aboutMe(), "Lives in Porto")
	w.api.Must(t, user, `mutation($id: ID!) { undoMemoryEdit(input: {id: $id, revision: 2}) { item { id } } }`, map[string]any{"id": fact.ID}, &struct{}{})
	assert.Contains(t, aboutMe(), "Lives in Lisbon")
	w.api.Must(t, user, `mutation($id: ID!) { restoreMemoryRevision(input: {id: $id, revision: 2, baseRevision: 3}) { item { id } } }`, map[string]any{"id": fact.ID}, &struct{}{})
	assert.Contains(t, aboutMe(), "Lives in Porto")
	edit(fact.ID, 4, `kind: NOTE`)
	assert.Equal(t, "Preferences:\n- coffee: Black, no sugar\n", aboutMe(), "notes are not facts or preferences")
	w.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": pref.CreateMemory.Item.ID}, &struct{}{})
	assert.Empty(t, aboutMe(), "forgotten preferences leave the projection")

	// lessons: one row per active lesson item.
	lesson := w.createMemory(&tm, "Ask before booking")
	edit(lesson.ID, 1, `kind: LESSON`)
	assert.Equal(t, []string{"Ask before booking"}, lessonRows())
	edit(lesson.ID, 2, `content: "Always ask before booking"`)
	assert.Equal(t, []string{"Always ask before booking"}, lessonRows())
	edit(lesson.ID, 3, `kind: FACT`)
	assert.Empty(t, lessonRows())
	w.api.Must(t, user, `mutation($id: ID!) { undoMemoryEdit(input: {id: $id, revision: 4}) { item { id } } }`, map[string]any{"id": lesson.ID}, &struct{}{})
	assert.Equal(t, []string{"Always ask before booking"}, lessonRows())
	w.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": lesson.ID}, &struct{}{})
	assert.Empty(t, lessonRows())
}

func TestMemoryFileImportHappensOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Gus")
	file := "# Notes\n\nPrefers short answers.\n\n" + strings.Repeat("Long paragraph. ", 300)

	var wg sync.WaitGroup
	outcomes := make([]string, 8)
	for i := range outcomes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out struct{ ImportMemoryFile struct{ Outcome string } }
			w.api.Must(t, worker, `mutation($t: ID!, $c: String) { importMemoryFile(input: {teammateId: $t, content: $c}) { outcome } }`,
				map[string]any{"t": tm, "c": file}, &out)
			outcomes[i] = out.ImportMemoryFile.Outcome
		}()
	}
	wg.Wait()
	counts := map[string]int{}
	for _, o := range outcomes {
		counts[o]++
	}
	assert.Equal(t, map[string]int{"IMPORTED": 1, "ALREADY": 7}, counts, "M1: exactly once under concurrent starts")

	var items struct {
		MemoryItems struct {
			Edges []struct {
				Node struct {
					Kind, Source, Content string
					Pinned                bool
				}
			}
		}
	}
	w.api.Must(t, user, `query($t: ID) { memoryItems(scope: {teammateId: $t}) { edges { node { kind source content pinned } } } }`, map[string]any{"t": tm}, &items)
	require.Len(t, items.MemoryItems.Edges, 5, "split at the paragraph boundary, then the 4,800-character paragraph at spaces into four notes of at most 1,200 characters")
	var joined []string
	for _, e := range items.MemoryItems.Edges {
		assert.Equal(t, []any{"NOTE", "IMPORT", true}, []any{e.Node.Kind, e.Node.Source, e.Node.Pinned})
		joined = append(joined, e.Node.Content)
	}
	assert.Contains(t, strings.Join(joined, "\n"), "Prefers short answers.")

	other := w.teammate("Hal")
	var imported struct{ MemoryImported bool }
	w.api.Must(t, worker, `query($t: ID!) { memoryImported(teammateId: $t) }`, map[string]any{"t": other}, &imported)
	assert.False(t, imported.MemoryImported)
	res := w.api.Do(t, worker, `mutation($t: ID!, $c: String) { importMemoryFile(input: {teammateId: $t, content: $c}) { outcome } }`,
		map[string]any{"t": other, "c": strings.Repeat("x", memory.MaxMemoryFileBytes+1)})
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	w.api.Must(t, worker, `query($t: ID!) { memoryImported(teammateId: $t) }`, map[string]any{"t": other}, &imported)
	assert.False(t, imported.MemoryImported, "a refused file records nothing")

	var absent struct{ ImportMemoryFile struct{ Outcome string } }
	w.api.Must(t, worker, `mutation($t: ID!) { importMemoryFile(input: {teammateId: $t, content: null}) { outcome } }`, map[string]any{"t": other}, &absent)
	assert.Equal(t, "ABSENT", absent.ImportMemoryFile.Outcome)
	w.api.Must(t, worker, `mutation($t: ID!) { importMemoryFile(input: {teammateId: $t, content: "late"}) { outcome } }`, map[string]any{"t": other}, &absent)
	assert.Equal(t, "ALREADY", absent.ImportMemoryFile.Outcome, "a file that appears later is never read")
	assert.Equal(t, "FORBIDDEN", w.api.Do(t, user, `mutation($t: ID!) { importMemoryFile(input: {teammateId: $t}) { outcome } }`, map[string]any{"t": other}).Code())
}

package memory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/memory"
)

// runStatus reads a run's status as the user sees it.
func (f fixture) runStatus(t *testing.T, runID string) memory.RunStatus {
	t.Helper()
	run, err := f.svc.GetRun(user, runID)
	require.NoError(t, err)
	return run.Status
}

// G5: every run-credential operation checks the run's generation itself. After a user's change
// to shared or to the teammate's own memory, each tool — and completeRun — is refused with
// MEMORY_CHANGED without the worker calling checkRunGeneration, the run is interrupted, and nothing
// the call would have written exists; the credential is then spent.
func TestEveryRunOperationRefusedAfterUserChange(t *testing.T) {
	t.Parallel()
	f := setup(t)
	type op struct {
		name string
		call func(ctx context.Context, own memory.Item) error
	}
	ops := []op{
		{"toolRemember", func(ctx context.Context, _ memory.Item) error {
			_, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "I like plums"})
			return err
		}},
		{"toolRememberAboutUser", func(ctx context.Context, _ memory.Item) error {
			_, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "I like plums", ForEveryone: true})
			return err
		}},
		{"toolUpdateMemory", func(ctx context.Context, own memory.Item) error {
			_, err := f.svc.Tools().UpdateMemoryOf(ctx, own.ID, own.Revision, "I like plums")
			return err
		}},
		{"toolForgetMemory", func(ctx context.Context, own memory.Item) error {
			_, err := f.svc.Tools().ForgetMemoryOf(ctx, own.ID)
			return err
		}},
		{"toolSearchMemory", func(ctx context.Context, _ memory.Item) error {
			_, err := f.svc.Tools().SearchMemory(ctx, "plums")
			return err
		}},
		{"toolSearchHistory", func(ctx context.Context, _ memory.Item) error {
			_, err := f.svc.Tools().SearchHistory(ctx, "plums")
			return err
		}},
		{"completeRun", func(ctx context.Context, _ memory.Item) error {
			_, err := f.svc.Tools().CompleteRun(ctx, "Noted: you like plums.")
			return err
		}},
	}
	for _, where := range []string{"shared", "own"} {
		for _, o := range ops {
			t.Run(o.name+"/"+where, func(t *testing.T) {
				tm := f.teammate(t, "G5 "+o.name+" "+where)
				own := f.create(t, &tm, "I like pears")
				run := f.startRun(t, tm, "Please remember for all teammates that I like plums, and forget that I like pears.")
				ctx := asRun(t, f, run.Token)

				// The user corrects memory the run sees; the worker doesn't check in between.
				scope := (*string)(nil)
				if where == "own" {
					scope = &tm
				}
				f.create(t, scope, "The user's correction "+o.name)
				items, revisions, gens := f.counts(t)
				var replies int
				require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM messages WHERE role = 'assistant'`).Scan(&replies))

				err := o.call(ctx, own)
				require.ErrorIs(t, err, memory.ErrMemoryChangedMidTurn, "G5: the call itself checks the generation")
				assert.Equal(t, memory.RunInterrupted, f.runStatus(t, run.Run.ID), "the turn is interrupted")
				i2, r2, g2 := f.counts(t)
				assert.Equal(t, []any{items, revisions, gens}, []any{i2, r2, g2}, "nothing written")
				var replies2 int
				require.NoError(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM messages WHERE role = 'assistant'`).Scan(&replies2))
				assert.Equal(t, replies, replies2, "no reply stored")
				got, err := f.svc.Item(user, own.ID)
				require.NoError(t, err)
				assert.Equal(t, memory.StatusActive, got.Status)
				assert.Equal(t, own.Revision, got.Revision, "the user's item is untouched")

				err = o.call(ctx, own)
				assert.ErrorIs(t, err, memory.ErrUnauthenticated, "an interrupted run's credential no longer acts")
			})
		}
	}
}

// lockWaiters counts the sessions of this test's database that wait for a lock.
func lockWaiters(t *testing.T, pool *pgxpool.Pool) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(context.Background(), `
		SELECT count(*) FROM pg_stat_activity
		 WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`).Scan(&n))
	return n
}

// G6: the user's edit of shared memory is injected inside the teammate's write transaction, between
// taking the generation rows and the write, 200 times; another 100 times it commits just before the
// transaction. Adoption must be exact every time: the in-window edit waits for the write (the write
// adopts its own bump only, and the next check interrupts the run), and the earlier edit makes the
// write answer MEMORY_CHANGED without writing. Any other outcome is a wrong adoption.
func TestAdoptionIsExactWhenTheUserEditsInsideTheWriteWindow(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Racer")
	shared := f.create(t, nil, "Lives in Lisbon")
	const inWindow, before = 200, 100

	userEdit := func(i int) error {
		cur, err := f.svc.Item(user, shared.ID)
		if err != nil {
			return err
		}
		_, err = f.svc.EditMemory(user, memory.EditInput{ID: shared.ID, BaseRevision: cur.Revision, Content: ptr(fmt.Sprintf("Lives in Lisbon (%d)", i))})
		return err
	}

	wrong, blocked := 0, 0
	for i := range inWindow + before {
		content := fmt.Sprintf("I like fig number %d", i)
		run := f.startRun(t, tm, "Please remember that "+content)
		ctx := asRun(t, f, run.Token)
		start := run.Generation

		if i%3 == 2 { // before the transaction: the write must see the change and refuse
			f.svc.SetBeforeToolWrite(func() { require.NoError(t, userEdit(i)) })
			res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: content})
			f.svc.SetBeforeToolWrite(nil)
			if !assert.ErrorIs(t, err, memory.ErrMemoryChangedMidTurn, "iteration %d: %+v", i, res) {
				wrong++
			}
			continue
		}

		done := make(chan error, 1)
		f.svc.SetInToolWriteWindow(func() {
			go func() { done <- userEdit(i) }()
			// Wait for a signal that the edit has run into the write's locks (or, if the write
			// didn't hold them, that it has committed inside the window).
			require.True(t, apitest.WaitUntil(10*time.Second, func() bool {
				select {
				case err := <-done:
					done <- err
					return true
				default:
					return lockWaiters(t, f.pool) > 0
				}
			}), "iteration %d: the user's edit neither waited nor finished", i)
		})
		res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: content})
		f.svc.SetInToolWriteWindow(nil)
		require.NoError(t, <-done, "iteration %d: the user's edit", i)
		require.NoError(t, err, "iteration %d", i)
		require.Equal(t, memory.OutcomeSaved, res.Outcome, "iteration %d: %s", i, res.Message)

		got, err := f.svc.GetRun(user, run.Run.ID)
		require.NoError(t, err)
		thread, err := f.svc.ThreadOf(user, got)
		require.NoError(t, err)
		want := memory.Generation{Shared: start.Shared, Own: start.Own + 1, Expired: start.Expired}.String()
		check, err := f.svc.Tools().CheckRunGeneration(ctx)
		require.NoError(t, err)
		if !res.Adopted || got.Generation != want || thread.Generation != want || !check.Interrupted {
			wrong++
			t.Errorf("iteration %d: adopted %t, run at %s, thread at %s, want %s; interrupted by the later edit: %t",
				i, res.Adopted, got.Generation, thread.Generation, want, check.Interrupted)
		} else {
			blocked++
		}
	}
	assert.Zero(t, wrong, "wrong adoptions")
	assert.Equal(t, inWindow, blocked)
	t.Logf("%d in-window edits waited for the write, %d earlier edits refused the write, %d wrong adoptions", blocked, before, wrong)
}

// G6: the user's own "remember X" doesn't cost the conversation: the run adopts its save and its
// thread moves with it, so the next message continues the thread.
func TestOwnSaveKeepsTheThread(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Cyclist")
	run := f.startRun(t, tm, "Please remember that my bike is green")
	ctx := asRun(t, f, run.Token)
	res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "my bike is green"})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSaved, res.Outcome)
	assert.True(t, res.Adopted)
	// Reads and the reply after the adopted save go through: the only change was the run's own.
	_, err = f.svc.Tools().SearchMemory(ctx, "bike")
	require.NoError(t, err)
	_, err = f.svc.Tools().CompleteRun(ctx, "Noted: your bike is green.")
	require.NoError(t, err)

	next, err := f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, ThreadID: run.Thread.ID, Message: "What colour is my bike?"})
	require.NoError(t, err)
	assert.False(t, next.Fresh, "the thread continues after the user's own save")
	assert.Equal(t, run.Thread.ID, next.Thread.ID)
	assert.Contains(t, next.Packet.Text, "my bike is green")

	// A change by someone else still starts a fresh thread (G3).
	f.create(t, &tm, "Rides to work on Mondays")
	after, err := f.svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: tm, ThreadID: run.Thread.ID, Message: "And on Mondays?"})
	require.NoError(t, err)
	assert.True(t, after.Fresh)
}

// G5 with tools called in parallel: a search that arrives while the same run's save is inside its
// transaction waits for it, then sees the save's adopted generation and answers — the save was the
// run's own change, so nothing is interrupted. (Its repeatable-read snapshot once predated the
// adoption and the search failed with a serialization error, INTERNAL to the teammate.)
func TestParallelReadDuringTheRunsOwnSave(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Parallel")
	run := f.startRun(t, tm, "Please remember that my bike is green")
	ctx := asRun(t, f, run.Token)
	type answer struct {
		items []memory.Item
		err   error
	}
	read := make(chan answer, 1)
	f.svc.SetInToolWriteWindow(func() {
		f.svc.SetInToolWriteWindow(nil)
		go func() {
			items, err := f.svc.Tools().SearchMemory(ctx, "bike")
			read <- answer{items, err}
		}()
		require.True(t, apitest.WaitUntil(10*time.Second, func() bool { return lockWaiters(t, f.pool) > 0 }),
			"the search waits for the save")
	})
	res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: "my bike is green"})
	require.NoError(t, err)
	require.True(t, res.Adopted)
	got := <-read
	require.NoError(t, got.err, "the parallel search")
	require.Len(t, got.items, 1, "the search sees the save it waited for")
	assert.Equal(t, res.Item.ID, got.items[0].ID)
	assert.Equal(t, memory.RunRunning, f.runStatus(t, run.Run.ID))
}

// G6's fixed order is the one order of every write that spans scopes: shared first. A user's
// forget of an item and its shared copy (forgetMemory with alsoForget) queued behind a teammate's
// write must lock shared first too: in the reverse order PostgreSQL ends one of the two as a
// deadlock. Another teammate's write holds shared while both
// queue up, so the two meet in exactly that window.
func TestForgetWithCopiesAndATeammateWriteNeverDeadlock(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b := f.teammate(t, "Writer A"), f.teammate(t, "Writer B")
	own := f.create(t, &a, "The gate code is 4411")
	copied := f.create(t, nil, "The gate code is 4411")
	runA := f.startRun(t, a, "Please remember that I like figs")
	runB := f.startRun(t, b, "Please remember that I like plums")

	write, forget := make(chan error, 1), make(chan error, 1)
	f.svc.SetInToolWriteWindow(func() { // B's write holds shared and B's scope
		f.svc.SetInToolWriteWindow(nil)
		go func() {
			_, err := f.svc.Tools().Remember(asRun(t, f, runA.Token), memory.RememberInput{Content: "I like figs"})
			write <- err
		}()
		require.True(t, apitest.WaitUntil(10*time.Second, func() bool { return lockWaiters(t, f.pool) >= 1 }))
		go func() {
			_, _, err := f.svc.ForgetWithCopies(user, own.ID, []string{copied.ID})
			forget <- err
		}()
		require.True(t, apitest.WaitUntil(10*time.Second, func() bool { return lockWaiters(t, f.pool) >= 2 }))
	})
	_, err := f.svc.Tools().Remember(asRun(t, f, runB.Token), memory.RememberInput{Content: "I like plums"})
	require.NoError(t, err)
	assert.NoError(t, <-write, "A's write")
	assert.NoError(t, <-forget, "the user's forget")
}

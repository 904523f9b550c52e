package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// runSel selects inside the run card with the given id.
func runSel(id string, inner ...string) string {
	s := fmt.Sprintf(`[data-testid="run"][data-run-id=%q]`, id)
	for _, in := range inner {
		s += " " + in
	}
	return s
}

// givenSel selects the memory-context entry of itemID inside the run card runID.
func givenSel(runID, itemID string, inner ...string) string {
	return runSel(runID, fmt.Sprintf(`[data-testid="memory-given-entry"][data-item-id=%q]`, itemID)) + strings.Join(inner, "")
}

// L1–L4: a reply is listed with its message; thumbs up toggles on and off; thumbs down asks what to
// do differently, and "Keep as a lesson" lists the note among the teammate's lessons, linked to the
// reply; "Try again with this" shows the retry waiting for the teammate; a running turn is
// cancelled.
func TestConversationsFeedbackLessonAndRetry(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		summary := startRun(t, ctx, teammate, "Summarise the meeting notes from Tuesday")
		const summaryReply = "Tuesday's meeting covered the budget, the hiring plan and the office move, in that order."
		summary.complete(t, ctx, summaryReply)
		letter := startRun(t, ctx, teammate, "Draft a reply to the landlord")
		letter.complete(t, ctx, "Hey, the heating is broken again, fix it pls")
		booking := startRun(t, ctx, teammate, "Book a table for Friday") // still running

		p := openPage(t, vp, "/teammates/"+teammate+"/conversations")
		p.waitText(runSel(summary.ID, tid("run-reply")), summaryReply)
		p.waitText(runSel(summary.ID, tid("run-user-message")), "Summarise the meeting notes from Tuesday")
		p.waitVisible(runSel(booking.ID) + `[data-status="RUNNING"]`)
		if order := eval[[]string](p, `[...document.querySelectorAll('[data-testid="run"]')].map((el) => el.dataset.runId)`); len(order) != 3 || order[0] != booking.ID || order[2] != summary.ID {
			t.Errorf("runs listed as %q, want newest first: %s, %s, %s", order, booking.ID, letter.ID, summary.ID)
		}

		// Thumbs up, and the same thumb again clears it.
		p.click(runSel(summary.ID, tid("run-thumbs-up")))
		p.waitVisible(runSel(summary.ID) + `[data-rating="UP"]`)
		if got, err := user.runRating(ctx, summary.ID); err != nil || got != "UP" {
			t.Errorf("rating after thumbs up: %q (%v), want UP", got, err)
		}
		p.click(runSel(summary.ID, tid("run-thumbs-up")))
		p.waitVisible(runSel(summary.ID) + `[data-rating=""]`)
		if got, err := user.runRating(ctx, summary.ID); err != nil || got != "" {
			t.Errorf("rating after clearing: %q (%v), want none", got, err)
		}

		// Thumbs down → keep the note as a lesson.
		const lessonNote = "Use bullet points, one per topic"
		p.click(runSel(summary.ID, tid("run-thumbs-down")))
		p.waitVisible(runSel(summary.ID, tid("feedback-form")))
		p.fill(runSel(summary.ID, tid("feedback-note")), lessonNote)
		p.assertNoHorizontalScroll()
		p.shot("feedback")
		p.click(runSel(summary.ID, tid("feedback-keep-lesson")))
		p.waitVisible(runSel(summary.ID, tid("feedback-lesson-kept")))
		if got, err := user.runRating(ctx, summary.ID); err != nil || got != "DOWN" {
			t.Errorf("rating after thumbs down: %q (%v), want DOWN", got, err)
		}

		// Thumbs down → try again with the note.
		p.click(runSel(letter.ID, tid("run-thumbs-down")))
		p.fill(runSel(letter.ID, tid("feedback-note")), "Make it polite and formal")
		p.click(runSel(letter.ID, tid("feedback-retry")))
		p.waitVisible(runSel(letter.ID, tid("retry-waiting")))
		p.waitGone(runSel(letter.ID, tid("feedback-form")))

		// Cancel the running turn.
		p.click(runSel(booking.ID, tid("run-cancel")))
		p.waitVisible(runSel(booking.ID) + `[data-status="CANCELLED"]`)
		p.waitGone(runSel(booking.ID, tid("run-cancel")))
		p.assertNoHorizontalScroll()
		p.shot("conversations")

		// L4: the lesson on the Memory tab, with the reply that prompted it.
		p.click(tid("tab-memory"))
		lesson := fmt.Sprintf(`[...document.querySelectorAll('[data-testid="lessons-section"] [data-testid="memory-item"]')]
			.find((el) => el.querySelector('[data-testid="item-content"]')?.textContent === %s)?.dataset.itemId`, jsString(lessonNote))
		p.waitFor("the lesson in the Lessons section", lesson)
		lessonID := eval[string](p, lesson)
		lessonSel := func(inner string) string {
			return fmt.Sprintf(`[data-testid="lessons-section"] [data-testid="memory-item"][data-item-id=%q] %s`, lessonID, inner)
		}
		p.waitVisible(lessonSel(tid("item-pinned")))
		p.click(lessonSel(tid("lesson-reply-toggle")))
		p.waitText(lessonSel(tid("lesson-reply-text")), summaryReply)
		p.assertNoHorizontalScroll()
		p.shot("lesson")
		p.click(lessonSel(tid("lesson-run-link")))
		p.waitVisible(tid("tab-conversations", `[aria-current="page"]`))
		p.waitVisible(runSel(summary.ID) + `.focused`)
	})
}

// P7: "Memory given" lists what the run was given, marked UNCHANGED; an edit since makes the entry
// CHANGED with the current revision, forgetting makes it FORGOTTEN with no text, and an entry whose
// expiry passes becomes EXPIRED — live, while the panel is open.
func TestMemoryGivenBadgesFollowChanges(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		tea := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Prefers green tea over coffee", Pinned: true})
		desk := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Works from a standing desk", Pinned: true})
		expiry := time.Now().Add(5 * time.Second)
		office := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "In the office today", Pinned: true, ExpiresAt: expiry})
		r := startRun(t, ctx, teammate, "What should I drink this afternoon?")
		r.complete(t, ctx, "Green tea, as usual.")

		p := openPage(t, vp, "/teammates/"+teammate+"/conversations")
		p.waitVisible(runSel(r.ID, tid("run-reply")))
		p.waitLiveGeneration()
		p.click(runSel(r.ID, tid("run-memory-toggle")))
		p.waitVisible(givenSel(r.ID, tea.ID, `[data-state="UNCHANGED"]`))
		p.waitVisible(givenSel(r.ID, desk.ID, `[data-state="UNCHANGED"]`))
		p.waitVisible(givenSel(r.ID, office.ID))
		if time.Until(expiry) > time.Second {
			p.waitVisible(givenSel(r.ID, office.ID, `[data-state="UNCHANGED"]`))
		}
		p.waitText(givenSel(r.ID, tea.ID, " ", tid("memory-given-state")), "Unchanged")
		p.waitText(givenSel(r.ID, tea.ID, " ", tid("memory-given-text")), "Prefers green tea over coffee")
		if got := p.text(runSel(r.ID, tid("memory-given-note"))); !strings.Contains(got, "not what the model relied on") {
			t.Errorf("the note under Memory given says %q", got)
		}
		p.assertNoHorizontalScroll()
		p.shot("memory-given")

		mustEdit(t, ctx, tea.ID, 1, "Prefers jasmine tea over coffee")
		p.waitVisible(givenSel(r.ID, tea.ID, `[data-state="CHANGED"]`))
		p.waitText(givenSel(r.ID, tea.ID, " ", tid("memory-given-state")), "Changed since")

		if err := user.forgetMemory(ctx, desk.ID); err != nil {
			t.Fatalf("forgetMemory: %v", err)
		}
		p.waitVisible(givenSel(r.ID, desk.ID, `[data-state="FORGOTTEN"]`))
		p.waitText(givenSel(r.ID, desk.ID, " ", tid("memory-given-state")), "Forgotten")
		if got := p.text(givenSel(r.ID, desk.ID, " ", tid("memory-given-text"))); strings.Contains(got, "standing desk") {
			t.Errorf("the forgotten entry still shows its text: %q", got)
		}
		p.waitVisible(givenSel(r.ID, office.ID, `[data-state="EXPIRED"]`))
		p.waitText(givenSel(r.ID, office.ID, " ", tid("memory-given-state")), "Expired")
		p.assertNoHorizontalScroll()
		p.shot("memory-given-changed")
	})
}

// waitLiveGeneration waits until the teammate page's generation subscription delivered its first
// value (so changes from now on are seen).
func (p *page) waitLiveGeneration() {
	p.t.Helper()
	p.waitFor("the generation subscription", `document.querySelector('[data-testid="teammate-generation"]')?.dataset.live === 'true'`)
}

// pendingRetry is a redo waiting for the worker (pendingRetries, worker credential).
type pendingRetry struct {
	MessageID    string `json:"messageId"`
	RetryOfRunID string `json:"retryOfRunId"`
	Prompt       string `json:"prompt"`
}

// pendingRetryOf reads the worker's list of waiting retries and returns the one of runID.
func pendingRetryOf(t *testing.T, ctx context.Context, runID string) pendingRetry {
	t.Helper()
	var out struct{ PendingRetries []pendingRetry }
	if err := worker.do(ctx, `{ pendingRetries { messageId retryOfRunId prompt } }`, nil, &out); err != nil {
		t.Fatalf("pendingRetries: %v", err)
	}
	for _, r := range out.PendingRetries {
		if r.RetryOfRunID == runID {
			return r
		}
	}
	t.Fatalf("no pending retry of run %s among %+v", runID, out.PendingRetries)
	return pendingRetry{}
}

// startRetry starts the run of a retry the user asked for, as the worker does.
func startRetry(t *testing.T, ctx context.Context, teammateID, messageID string) run {
	t.Helper()
	return startRunWith(t, ctx, map[string]any{"teammateId": teammateID, "retryMessageId": messageID})
}

// threadOf is the id of a run's thread.
func threadOf(t *testing.T, ctx context.Context, runID string) string {
	t.Helper()
	var out struct {
		Run struct{ Thread struct{ ID string } }
	}
	if err := user.do(ctx, `query($id: ID!) { run(id: $id) { thread { id } } }`, map[string]any{"id": runID}, &out); err != nil {
		t.Fatalf("run %s: %v", runID, err)
	}
	return out.Run.Thread.ID
}

// L3: after "Try again with this" the conversation shows the retry at its top, with the note, as
// waiting — also after a reload — until the worker starts its run; then the new run takes its place,
// marked as a retry, and its reply arrives without a reload.
func TestRetryShownPendingUntilItsRunArrives(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		letter := startRun(t, ctx, teammate, "Draft a reply to the landlord")
		letter.complete(t, ctx, "Hey, the heating is broken again, fix it pls")

		path := "/teammates/" + teammate + "/conversations"
		p := openPage(t, vp, path)
		p.waitVisible(runSel(letter.ID, tid("run-reply")))
		const note = "Make it polite and formal"
		p.click(runSel(letter.ID, tid("run-thumbs-down")))
		p.fill(runSel(letter.ID, tid("feedback-note")), note)
		p.click(runSel(letter.ID, tid("feedback-retry")))

		pending := fmt.Sprintf(`[data-testid="retry-pending"][data-retry-of=%q]`, letter.ID)
		p.waitVisible(pending)
		p.waitText(pending+" "+tid("retry-pending-note"), note)
		if first := eval[string](p, `document.querySelector('[data-testid="runs-list"] > li')?.dataset.testid`); first != "retry-pending" {
			t.Errorf("the top of the conversation is %q, want the waiting retry", first)
		}
		p.waitVisible(runSel(letter.ID, tid("retry-waiting")))
		p.assertNoHorizontalScroll()
		p.shot("retry-pending")

		// Still waiting after a reload: the worker hasn't started it.
		p.navigate(path)
		p.waitVisible(runSel(letter.ID, tid("run-reply")))
		p.waitVisible(pending)

		retry := pendingRetryOf(t, ctx, letter.ID)
		if !strings.HasSuffix(retry.Prompt, note) {
			t.Fatalf("the retry's prompt is %q, want it to carry the note", retry.Prompt)
		}
		redo := startRetry(t, ctx, teammate, retry.MessageID)
		p.waitVisible(runSel(redo.ID) + `[data-status="RUNNING"]`)
		p.waitGone(pending)
		p.waitGone(runSel(letter.ID, tid("retry-waiting")))
		p.waitVisible(runSel(redo.ID, tid("run-retry")))
		const politer = "Dear Ms Smith, the heating has failed again; could you arrange a repair this week?"
		redo.complete(t, ctx, politer)
		p.waitText(runSel(redo.ID, tid("run-reply")), politer)
		if order := eval[[]string](p, `[...document.querySelectorAll('[data-testid="runs-list"] > li')].map((el) => el.dataset.runId || el.dataset.testid)`); len(order) != 2 || order[0] != redo.ID || order[1] != letter.ID {
			t.Errorf("the conversation lists %q, want the retry's run above the reply it redoes", order)
		}
		p.assertNoHorizontalScroll()
	})
}

// G3, G7: while a conversation is open, a change to memory the teammate sees — made here through the
// API — warns at once that the next message starts a fresh thread; the next run then does start
// one, and the warning goes.
func TestStaleThreadWarningInConversations(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		item := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Prefers trains to planes"})
		first := startRun(t, ctx, teammate, "Plan my trip to Lyon")
		first.complete(t, ctx, "I booked a train.")

		p := openPage(t, vp, "/teammates/"+teammate+"/conversations")
		p.waitVisible(runSel(first.ID, tid("run-reply")))
		p.waitLiveGeneration()
		if eval[bool](p, `!!document.querySelector('[data-testid="thread-stale"]')`) {
			t.Fatal("the stale-thread warning shows before memory changed")
		}

		mustEdit(t, ctx, item.ID, 1, "Prefers night trains to planes")
		p.waitVisible(tid("thread-stale"))
		if got := p.text(tid("thread-stale")); !strings.Contains(got, "Memory changed since this conversation started") || !strings.Contains(got, "starts a fresh thread") {
			t.Errorf("the warning says %q", got)
		}
		p.assertNoHorizontalScroll()
		p.shot("thread-stale")

		// The worker asks to continue the thread; its generation is old, so the run gets a new one.
		thread := threadOf(t, ctx, first.ID)
		next := startRunWith(t, ctx, map[string]any{"teammateId": teammate, "threadId": thread, "message": "And the way back?"})
		if got := threadOf(t, ctx, next.ID); got == thread {
			t.Fatalf("the run after the change continued the stale thread %s", thread)
		}
		p.waitVisible(runSel(next.ID))
		p.waitGone(tid("thread-stale"))
		p.waitVisible(runSel(next.ID, `[data-testid="run-new-thread"]`))
	})
}

// Older conversations pages through a teammate's runs, past the API's page limit (100 a request) too;
// a new turn arriving while all of them are shown takes the top and leaves none out or twice.
func TestOlderConversationsPastThePageLimit(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		var first string
		for i := 1; i <= 105; i++ {
			r := startRun(t, ctx, teammate, fmt.Sprintf("Question %03d", i))
			r.complete(t, ctx, fmt.Sprintf("Answer %03d", i))
			if i == 1 {
				first = r.ID
			}
		}
		listed := `[...document.querySelectorAll('[data-testid="runs-list"] [data-testid="run"]')].map((el) => el.dataset.runId)`
		waitRuns := func(p *page, n int) {
			p.t.Helper()
			p.waitFor(fmt.Sprintf("%d runs", n), fmt.Sprintf(`%s.length === %d`, listed, n))
		}
		p := openPage(t, vp, "/teammates/"+teammate+"/conversations")
		waitRuns(p, 20)
		for n := 40; n <= 100; n += 20 {
			p.click(tid("runs-more"))
			waitRuns(p, n)
		}
		p.click(tid("runs-more"))
		waitRuns(p, 105)
		p.waitGone(tid("runs-more"))
		if ids := eval[[]string](p, listed); ids[104] != first {
			t.Fatalf("the last run listed is %s, want the first one, %s", ids[104], first)
		}

		next := startRun(t, ctx, teammate, "Question 106")
		p.waitVisible(runSel(next.ID) + `[data-status="RUNNING"]`)
		waitRuns(p, 106)
		ids := eval[[]string](p, listed)
		if ids[0] != next.ID || ids[105] != first || len(unique(ids)) != 106 {
			t.Errorf("after a new turn the list starts with %s, ends with %s and has %d distinct runs; want %s first, %s last, 106",
				ids[0], ids[len(ids)-1], len(unique(ids)), next.ID, first)
		}
		next.complete(t, ctx, "Answer 106")
	})
}

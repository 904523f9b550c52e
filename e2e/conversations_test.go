package e2e

import (
	"fmt"
	"strings"
	"testing"
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
// CHANGED with the current revision, and forgetting makes it FORGOTTEN with no text — live, while
// the panel is open.
func TestMemoryGivenBadgesFollowChanges(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		tea := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Prefers green tea over coffee", Pinned: true})
		desk := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Works from a standing desk", Pinned: true})
		r := startRun(t, ctx, teammate, "What should I drink this afternoon?")
		r.complete(t, ctx, "Green tea, as usual.")

		p := openPage(t, vp, "/teammates/"+teammate+"/conversations")
		p.waitVisible(runSel(r.ID, tid("run-reply")))
		p.waitLiveGeneration()
		p.click(runSel(r.ID, tid("run-memory-toggle")))
		p.waitVisible(givenSel(r.ID, tea.ID, `[data-state="UNCHANGED"]`))
		p.waitVisible(givenSel(r.ID, desk.ID, `[data-state="UNCHANGED"]`))
		p.waitText(givenSel(r.ID, tea.ID, " ", tid("memory-given-state")), "Unchanged")
		p.waitText(givenSel(r.ID, tea.ID, " ", tid("memory-given-text")), "Prefers green tea over coffee")
		if got := p.text(runSel(r.ID, tid("memory-given-note"))); !strings.Contains(got, "not what the model relied on") {
			t.Errorf("the note under Memory given says %q", got)
		}
		p.assertNoHorizontalScroll()
		p.shot("memory-given")

		mustEdit(t, ctx, tea.ID, 1, "Prefers jasmine tea over coffee")
		p.waitVisible(givenSel(r.ID, tea.ID, `[data-state="CHANGED"]`))
		p.waitText(givenSel(r.ID, tea.ID, " ", tid("memory-given-state")), "Changed (now revision 2)")

		if err := user.forgetMemory(ctx, desk.ID); err != nil {
			t.Fatalf("forgetMemory: %v", err)
		}
		p.waitVisible(givenSel(r.ID, desk.ID, `[data-state="FORGOTTEN"]`))
		p.waitText(givenSel(r.ID, desk.ID, " ", tid("memory-given-state")), "Forgotten")
		if got := p.text(givenSel(r.ID, desk.ID, " ", tid("memory-given-text"))); strings.Contains(got, "standing desk") {
			t.Errorf("the forgotten entry still shows its text: %q", got)
		}
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

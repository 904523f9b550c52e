package e2e

import (
	"fmt"
	"testing"
)

// L3: a "try again" waiting for the worker can be cancelled from its place at the top of the
// conversation: it goes from the page at once, the worker's list no longer has it, and a reload
// doesn't bring it back. The screen with the waiting retry passes the accessibility checks, and on a
// phone its Cancel is big enough to tap.
func TestCancelWaitingRetry(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		letter := startRun(t, ctx, teammate, "Draft a reply to the landlord")
		letter.complete(t, ctx, "Hey, the heating is broken again, fix it pls")

		path := "/teammates/" + teammate + "/conversations"
		p := openPage(t, vp, path)
		p.waitVisible(runSel(letter.ID, tid("run-reply")))
		p.click(runSel(letter.ID, tid("run-thumbs-down")))
		p.fill(runSel(letter.ID, tid("feedback-note")), "Make it polite and formal")
		p.click(runSel(letter.ID, tid("feedback-retry")))
		pending := fmt.Sprintf(`[data-testid="retry-pending"][data-retry-of=%q]`, letter.ID)
		p.waitVisible(pending)
		p.waitVisible(runSel(letter.ID, tid("retry-waiting")))
		retry := pendingRetryOf(t, ctx, letter.ID)
		p.assertAccessible("Conversations with a waiting retry")
		if vp.phone {
			p.assertTargetsBigEnough("Conversations with a waiting retry")
		}

		p.click(pending + " " + tid("retry-cancel"))
		p.waitGone(pending)
		p.waitGone(runSel(letter.ID, tid("retry-waiting")))
		var out struct{ PendingRetries []pendingRetry }
		if err := worker.do(ctx, `{ pendingRetries { messageId retryOfRunId prompt } }`, nil, &out); err != nil {
			t.Fatalf("pendingRetries: %v", err)
		}
		for _, r := range out.PendingRetries {
			if r.MessageID == retry.MessageID {
				t.Errorf("the worker still sees the cancelled retry %s", r.MessageID)
			}
		}

		p.navigate(path)
		p.waitVisible(runSel(letter.ID, tid("run-reply")))
		if n := eval[int](p, `document.querySelectorAll('[data-testid="retry-pending"]').length`); n != 0 {
			t.Errorf("after a reload %d waiting retries are shown, want none", n)
		}
	})
}

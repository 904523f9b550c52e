package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// suggestionSel selects inside the suggestion (candidate) with the given id.
func suggestionSel(id string, inner ...string) string {
	s := fmt.Sprintf(`[data-testid="suggestion"][data-candidate-id=%q]`, id)
	for _, in := range inner {
		s += " " + in
	}
	return s
}

// waitLive waits until the teammate page's subscriptions are up: the generation subscription has
// delivered its first value, and the subscriptions the page started with it were sent before it.
func (p *page) waitLive() {
	p.t.Helper()
	p.waitFor("the page's live subscriptions", `document.querySelector('[data-testid="teammate-generation"]')?.dataset.live === 'true'
		&& document.querySelector('[data-testid="suggestions-panel"]')?.dataset.state === 'ready'`)
}

// A2, A6: a teammate's inference arrives live as a suggestion; the user confirms it after editing
// the text (it becomes memory with the user's words), and dismisses another (it never does).
func TestSuggestionArrivesLiveConfirmWithEditAndDismiss(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(tid("memory-empty"))
		p.waitLive()

		cand := mustSuggest(t, ctx, teammate, "I moved to Berlin last month, the flat is lovely", "Lives in Berlin", false)
		p.waitText(suggestionSel(cand.ID, tid("suggestion-content")), "Lives in Berlin")
		if got := p.text(suggestionSel(cand.ID, tid("suggestion-source"))); !strings.HasPrefix(got, "Suggested by a teammate") {
			t.Errorf("the suggestion's source reads %q, want it to say a teammate suggested it", got)
		}
		p.waitVisible(tid("memory-empty")) // a suggestion is not memory yet
		p.assertNoHorizontalScroll()
		p.shot("suggestion")

		p.click(suggestionSel(cand.ID, tid("suggestion-edit")))
		p.fill(suggestionSel(cand.ID, tid("suggestion-edit-content")), "Lives in Berlin since May")
		p.click(suggestionSel(cand.ID, tid("suggestion-confirm")))
		p.waitGone(suggestionSel(cand.ID))
		id := p.waitItemWithContent("Lives in Berlin since May")
		if status, content, err := user.itemStatus(ctx, id); err != nil || status != "ACTIVE" || content != "Lives in Berlin since May" {
			t.Errorf("the confirmed suggestion is %s %q (%v), want ACTIVE with the edited text", status, content, err)
		}

		other := mustSuggest(t, ctx, teammate, "My cat keeps walking on the keyboard", "Has a cat", false)
		p.waitVisible(suggestionSel(other.ID))
		p.click(suggestionSel(other.ID, tid("suggestion-dismiss")))
		p.waitGone(suggestionSel(other.ID))
		p.waitVisible(tid("suggestions-notice"))
		p.waitItemCount(1)
		if n, err := user.candidateCount(ctx, teammate); err != nil || n != 0 {
			t.Errorf("%d suggestions still wait (%v), want none", n, err)
		}
		if status, _, err := user.itemStatus(ctx, other.ID); err != nil || status != "DISMISSED" {
			t.Errorf("the dismissed suggestion is %s (%v), want DISMISSED", status, err)
		}
	})
}

// A4: a teammate's change to a confirmed item, without the user asking for it, is a proposal shown
// as a word diff against the item's current text; confirming applies it as a new revision.
func TestProposalDiffAndConfirm(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		item := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Works at Acme in Paris", Key: "job"})
		r := startRun(t, ctx, teammate, "What do you know about my job?")
		proposal := r.update(t, ctx, item.ID, 1, "Works at Initech in Paris")
		if proposal.Outcome != "SUGGESTED" || proposal.Item == nil {
			t.Fatalf("toolUpdateMemory: outcome %s, want SUGGESTED", proposal.Outcome)
		}
		r.complete(t, ctx, "You work at Acme.")

		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(suggestionSel(proposal.Item.ID, tid("suggestion-diff")))
		if got := p.text(suggestionSel(proposal.Item.ID, tid("diff-removed"))); got != "[removed: Acme]" {
			t.Errorf("the diff removes %q, want Acme", got)
		}
		if got := p.text(suggestionSel(proposal.Item.ID, tid("diff-added"))); got != "[added: Initech]" {
			t.Errorf("the diff adds %q, want Initech", got)
		}
		if eval[bool](p, `!!document.querySelector('[data-testid="suggestion-conflict"]')`) {
			t.Error("a proposal for the current revision is shown as stale")
		}
		p.assertNoHorizontalScroll()
		p.shot("proposal")

		p.click(suggestionSel(proposal.Item.ID, tid("suggestion-confirm")))
		p.waitGone(suggestionSel(proposal.Item.ID))
		p.waitText(itemSel(item.ID, tid("item-content")), "Works at Initech in Paris")
		p.waitVisible(itemSel(item.ID) + `[data-revision="2"]`)
	})
}

// R2 with A4: a proposal whose item changed since it was made can't be confirmed as it is
// (confirmCandidate would answer CONFLICT). The moment the item changes — here through the API while
// the page is open — the card shows the current version beside the proposal, and what the proposal
// changed in the version it saw; a further change updates it again. "Apply" saves the proposed
// text on top of the current revision and settles the proposal; "Dismiss" leaves the memory as it
// is.
func TestStaleProposalComparedWithCurrentVersion(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		item := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Works at Acme in Paris", Key: "job"})
		r := startRun(t, ctx, teammate, "What do you know about my job?")
		applied := r.update(t, ctx, item.ID, 1, "Works at Initech in Paris")
		dismissed := r.update(t, ctx, item.ID, 1, "Works at Acme in Lyon")
		if applied.Outcome != "SUGGESTED" || dismissed.Outcome != "SUGGESTED" {
			t.Fatalf("toolUpdateMemory: outcomes %s and %s, want SUGGESTED", applied.Outcome, dismissed.Outcome)
		}
		r.complete(t, ctx, "You work at Acme.")
		a, d := applied.Item.ID, dismissed.Item.ID

		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(suggestionSel(a, tid("suggestion-confirm")))
		p.waitVisible(suggestionSel(d, tid("suggestion-confirm")))
		p.waitLive()

		mustEdit(t, ctx, item.ID, 1, "Works at Globex in Berlin") // revision 2, behind the page's back
		for _, id := range []string{a, d} {
			p.waitVisible(suggestionSel(id, tid("suggestion-conflict", `[data-current-revision="2"]`)))
			p.waitText(suggestionSel(id, tid("suggestion-conflict-current")), "Works at Globex in Berlin")
			p.waitGone(suggestionSel(id, tid("suggestion-confirm")))
		}
		p.waitText(suggestionSel(a, tid("suggestion-conflict-proposed")), "Works at Initech in Paris")
		p.waitText(suggestionSel(a, tid("suggestion-conflict-revision")), "revision 2")
		p.waitVisible(suggestionSel(a, tid("suggestion-conflict-base")))
		if got := p.text(suggestionSel(a, tid("suggestion-conflict-base"))); !strings.Contains(got, "[removed: Acme]") || !strings.Contains(got, "[added: Initech]") {
			t.Errorf("what the proposal changed in revision 1 reads %q, want Acme → Initech", got)
		}
		p.assertNoHorizontalScroll()
		p.shot("stale-proposal")

		mustEdit(t, ctx, item.ID, 2, "Works at Globex in Munich") // revision 3, while the comparison is open
		p.waitText(suggestionSel(a, tid("suggestion-conflict-current")), "Works at Globex in Munich")
		p.waitVisible(suggestionSel(a, tid("suggestion-apply-current", `[data-base-revision="3"]`)))
		p.waitText(suggestionSel(a, tid("suggestion-apply-current")), "Apply to the current version")

		p.click(suggestionSel(a, tid("suggestion-apply-current")))
		p.waitGone(suggestionSel(a))
		// The edit itself settled the proposal (already applied): the page says it is done.
		p.waitFor("the notice", `document.querySelector('[data-testid="suggestions-notice"]')?.textContent.startsWith('Change applied to the current version of the memory.')`)
		p.waitText(itemSel(item.ID, tid("item-content")), "Works at Initech in Paris")
		p.waitVisible(itemSel(item.ID) + `[data-revision="4"]`)
		revs, err := user.revisions(ctx, item.ID)
		if err != nil || len(revs) != 4 || revs[0].Content != "Works at Initech in Paris" || revs[0].BasedOn == nil || *revs[0].BasedOn != 3 {
			t.Errorf("revisions after Apply: %+v (%v), want revision 4 = the proposal, based on 3", revs, err)
		}
		if status, _, err := user.itemStatus(ctx, a); err != nil || status != "DISMISSED" {
			t.Errorf("the applied proposal is %s (%v), want it settled (DISMISSED)", status, err)
		}

		// The other one now compares with revision 4, and is dismissed.
		p.waitText(suggestionSel(d, tid("suggestion-conflict-current")), "Works at Initech in Paris")
		p.click(suggestionSel(d, tid("suggestion-dismiss")))
		p.waitGone(suggestionSel(d))
		if got, err := user.memoryItem(ctx, item.ID); err != nil || got.Revision != 4 || got.Content != "Works at Initech in Paris" {
			t.Errorf("after Dismiss the item is %+v (%v), want revision 4 unchanged", got, err)
		}
		if n, err := user.candidateCount(ctx, teammate); err != nil || n != 0 {
			t.Errorf("%d suggestions still wait (%v), want none", n, err)
		}
	})
}

// Suggestions for the shared scope wait in About you, and confirming one makes it shared memory.
func TestAboutYouSuggestion(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		content := "Is vegetarian (" + vp.name + ")"
		cand := mustSuggest(t, ctx, teammate, "I'm vegetarian, by the way", content, true)

		p := openPage(t, vp, "/settings/about-you")
		p.waitText(suggestionSel(cand.ID, tid("suggestion-content")), content)
		p.click(suggestionSel(cand.ID, tid("suggestion-confirm")))
		p.waitGone(suggestionSel(cand.ID))
		id := p.waitItemWithContent(content)
		if got, err := user.memoryItem(ctx, id); err != nil || got.Scope != "shared" {
			t.Errorf("the confirmed suggestion is %+v (%v), want shared memory", got, err)
		}
		p.assertNoHorizontalScroll()
	})
}

// A5: a teammate's forget that the user's message didn't ask for erases nothing; the user sees the
// memory it would forget, keeps one and forgets the other from Suggestions.
func TestForgetProposalKeepAndForget(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		kept := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Allergic to penicillin", Key: "health"})
		gone := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Works at Initech"})
		r := startRun(t, ctx, teammate, "Please remove the typo in my essay")
		k, g := r.forget(t, ctx, kept.ID), r.forget(t, ctx, gone.ID)
		if k.Outcome != "SUGGESTED" || g.Outcome != "SUGGESTED" || k.Item == nil || g.Item == nil {
			t.Fatalf("toolForgetMemory: outcomes %s and %s, want SUGGESTED proposals", k.Outcome, g.Outcome)
		}
		r.complete(t, ctx, "Fixed the typo.")

		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitText(suggestionSel(k.Item.ID, tid("suggestion-forget-content")), "Allergic to penicillin")
		p.waitText(suggestionSel(k.Item.ID, tid("suggestion-type")), "Forget a memory")
		p.waitVisible(suggestionSel(k.Item.ID, tid("suggestion-forget-explained")))
		p.waitVisible(itemSel(kept.ID)) // still memory
		p.assertNoHorizontalScroll()
		p.shot("forget-proposal")

		p.click(suggestionSel(k.Item.ID, tid("suggestion-dismiss")))
		p.waitGone(suggestionSel(k.Item.ID))
		if status, content, err := user.itemStatus(ctx, kept.ID); err != nil || status != "ACTIVE" || content != "Allergic to penicillin" {
			t.Errorf("the kept memory is %s %q (%v), want it ACTIVE and unchanged", status, content, err)
		}

		p.click(suggestionSel(g.Item.ID, tid("suggestion-confirm")))
		p.waitGone(suggestionSel(g.Item.ID))
		p.waitGone(itemSel(gone.ID))
		if status, content, err := user.itemStatus(ctx, gone.ID); err != nil || status != "FORGOTTEN" || content != "" {
			t.Errorf("the forgotten memory is %s %q (%v), want FORGOTTEN with no text", status, content, err)
		}
		if n, err := user.candidateCount(ctx, teammate); err != nil || n != 0 {
			t.Errorf("%d suggestions still wait (%v), want none", n, err)
		}
	})
}

// A suggestion says where it came from — the sentence of the user's message, with a link to that
// conversation — and the same suggestion made twice is one card that says so.
func TestSuggestionSourceAndMergedCard(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		r := startRun(t, ctx, teammate, "Can you find a dentist for me? I moved to Lyon last spring. Thanks!")
		first, again := r.remember(t, ctx, "Lives in Lyon", false), r.remember(t, ctx, "Lives in Lyon", false)
		if first.Outcome != "SUGGESTED" || again.Outcome != "SUGGESTED" || first.Item == nil || again.Item == nil || first.Item.ID != again.Item.ID {
			t.Fatalf("two identical suggestions: %+v and %+v, want one SUGGESTED item", first, again)
		}
		r.complete(t, ctx, "Here are three dentists in Lyon.")

		p := openPage(t, vp, "/teammates/"+teammate)
		id := first.Item.ID
		p.waitText(suggestionSel(id, tid("suggestion-evidence-text")), "“I moved to Lyon last spring”")
		p.waitText(suggestionSel(id, tid("suggestion-times")), "Suggested 2 times")
		if n := eval[int](p, `document.querySelectorAll('[data-testid="suggestion"]').length`); n != 1 {
			t.Errorf("%d suggestion cards, want one for the merged suggestion", n)
		}
		p.assertNoHorizontalScroll()
		p.shot("suggestion-source")

		p.click(suggestionSel(id, tid("suggestion-run-link")))
		p.waitVisible(fmt.Sprintf(`[data-run-id=%q] [data-testid="run-user-message"]`, r.ID))
	})
}

// A long list of suggestions is paged, never cut off: the count says how many wait, and "Show more"
// brings the rest.
func TestManySuggestionsArePaged(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		for runs := range 3 { // a run may make 20
			r := startRun(t, ctx, teammate, "Here is a long list of things about me.")
			for i := range 20 {
				if got := r.remember(t, ctx, fmt.Sprintf("Fact %d of run %d", i, runs), false); got.Outcome != "SUGGESTED" {
					t.Fatalf("suggestion %d of run %d: %s", i, runs, got.Outcome)
				}
			}
			r.complete(t, ctx, "Noted.")
		}
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(`[data-testid="suggestions-panel"][data-count="60"]`)
		p.waitText(tid("suggestions-more"), "Show 10 more (10 not shown)")
		if n := eval[int](p, `document.querySelectorAll('[data-testid="suggestion"]').length`); n != 50 {
			t.Errorf("%d suggestion cards before Show more, want a page of 50", n)
		}
		p.click(tid("suggestions-more"))
		p.waitFor("all 60 suggestions", `document.querySelectorAll('[data-testid="suggestion"]').length === 60`)
		p.waitGone(tid("suggestions-more"))
		p.assertNoHorizontalScroll()
	})
}

// waitReasons reads, as the user, why each suggestion waiting in the teammate's scope waits: the
// plain words the app shows (A8), by suggestion id.
func (a api) waitReasons(ctx context.Context, teammateID string) (map[string]string, error) {
	var out struct {
		Candidates []struct {
			ID         string
			WaitReason *string
		}
	}
	err := a.do(ctx, `query($tm: ID!) { candidates(scope: {teammateId: $tm}) { id waitReason } }`,
		map[string]any{"tm": teammateID}, &out)
	reasons := map[string]string{}
	for _, c := range out.Candidates {
		if c.WaitReason != nil {
			reasons[c.ID] = *c.WaitReason
		}
	}
	return reasons, err
}

// A8: a suggestion and a proposal to forget say in plain words why they wait, on a quiet line under
// the evidence, readable at both sizes. Both wait whatever the judge makes of the wording: the
// suggested text is nowhere in the user's message, and a pinned memory is only ever proposed for
// forgetting (A5).
func TestSuggestionAndForgetProposalSayWhyTheyWait(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		pinned := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Allergic to penicillin", Key: "health", Pinned: true})
		r := startRun(t, ctx, teammate, "Remember that I fly to Oslo on Friday.")
		suggested := r.remember(t, ctx, "Plays the cello in an orchestra", false)
		r.complete(t, ctx, "Noted.")
		r2 := startRun(t, ctx, teammate, "Please forget that I'm allergic to penicillin.")
		proposed := r2.forget(t, ctx, pinned.ID)
		r2.complete(t, ctx, "I've asked you to confirm that.")
		if suggested.Outcome != "SUGGESTED" || proposed.Outcome != "SUGGESTED" || suggested.Item == nil || proposed.Item == nil {
			t.Fatalf("toolRemember %s and toolForgetMemory %s, want both SUGGESTED", suggested.Outcome, proposed.Outcome)
		}
		reasons, err := user.waitReasons(ctx, teammate)
		if err != nil {
			t.Fatalf("candidates: %v", err)
		}

		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(suggestionSel(proposed.Item.ID, tid("suggestion-forget-content")))
		for _, id := range []string{suggested.Item.ID, proposed.Item.ID} {
			reason := reasons[id]
			if reason == "" || strings.Contains(reason, "_") {
				t.Fatalf("suggestion %s waits for %q, want plain words", id, reason)
			}
			p.waitText(suggestionSel(id, tid("suggestion-reason")), "Why it waits: "+reason)
			// Readable: on the card, inside the screen's width, not clipped to nothing.
			fits := eval[bool](p, fmt.Sprintf(`(() => {
				const el = document.querySelector(%s);
				const r = el.getBoundingClientRect();
				return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= document.documentElement.clientWidth;
			})()`, jsString(suggestionSel(id, tid("suggestion-reason")))))
			if !fits {
				t.Errorf("the reason of suggestion %s is not laid out within the %d px screen", id, vp.width)
			}
		}
		if got := p.text(suggestionSel(suggested.Item.ID, tid("suggestion-reason"))); strings.Contains(got, "cello") {
			t.Errorf("the reason %q quotes the suggested text, not the user's words", got)
		}
		p.assertAccessible("Suggestions with their reasons")
		p.shot("suggestion-reasons")
	})
}

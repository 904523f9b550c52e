package e2e

import (
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
// as a word diff against the item's current text; confirming applies it as a new revision. A
// proposal the item has moved past answers CONFLICT (R2), and the card shows the current text and
// can apply the proposed text on top of it.
func TestProposalDiffConfirmAndConflict(t *testing.T) {
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
		p.assertNoHorizontalScroll()
		p.shot("proposal")

		p.click(suggestionSel(proposal.Item.ID, tid("suggestion-confirm")))
		p.waitGone(suggestionSel(proposal.Item.ID))
		p.waitText(itemSel(item.ID, tid("item-content")), "Works at Initech in Paris")
		p.waitVisible(itemSel(item.ID) + `[data-revision="2"]`)

		// A second proposal, made stale by an edit behind the page's back.
		r2 := startRun(t, ctx, teammate, "Tell me about my job again")
		stale := r2.update(t, ctx, item.ID, 2, "Works at Initech in Lyon")
		r2.complete(t, ctx, "You work at Initech.")
		p.waitVisible(suggestionSel(stale.Item.ID, tid("suggestion-diff")))
		mustEdit(t, ctx, item.ID, 2, "Works at Globex in Berlin")
		p.waitText(itemSel(item.ID, tid("item-content")), "Works at Globex in Berlin")
		p.click(suggestionSel(stale.Item.ID, tid("suggestion-confirm")))
		p.waitVisible(suggestionSel(stale.Item.ID, tid("suggestion-conflict")))
		p.waitText(suggestionSel(stale.Item.ID, tid("suggestion-conflict-current")), "Works at Globex in Berlin")
		p.assertNoHorizontalScroll()
		p.shot("stale-proposal")
		if got, err := user.memoryItem(ctx, item.ID); err != nil || got.Content != "Works at Globex in Berlin" || got.Revision != 3 {
			t.Errorf("after the conflicting confirm the item is %+v (%v), want revision 3 unchanged", got, err)
		}

		// The proposed text can still be had, as an ordinary edit of the current version.
		p.click(suggestionSel(stale.Item.ID, tid("suggestion-apply-current")))
		p.waitGone(suggestionSel(stale.Item.ID))
		p.waitText(itemSel(item.ID, tid("item-content")), "Works at Initech in Lyon")
		p.waitVisible(itemSel(item.ID) + `[data-revision="4"]`)
		if n, err := user.candidateCount(ctx, teammate); err != nil || n != 0 {
			t.Errorf("%d suggestions still wait (%v), want none once the stale one was applied", n, err)
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

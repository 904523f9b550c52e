package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// checkedSel reports whether the checkbox sel is ticked.
func (p *page) checked(sel string) bool {
	p.t.Helper()
	return eval[bool](p, `!!document.querySelector(`+jsString(sel)+`)?.checked`)
}

// waitingCount is the count of the badge sel, 0 when it isn't shown (nothing waits).
func (p *page) waitingCount(sel string) int {
	p.t.Helper()
	n, err := strconv.Atoi(eval[string](p, `document.querySelector(`+jsString(sel)+`)?.dataset.count ?? '0'`))
	if err != nil {
		p.t.Fatalf("the badge %s holds no count: %v", sel, err)
	}
	return n
}

// packetFor starts a run of the teammate for message and returns the memory packet it was given,
// then completes the run.
func packetFor(t *testing.T, ctx context.Context, teammateID, message string) string {
	t.Helper()
	var out struct {
		StartRun struct {
			Packet   string
			RunToken string
		}
	}
	if err := worker.do(ctx, `mutation($input: StartRunInput!) { startRun(input: $input) { packet runToken } }`,
		map[string]any{"input": map[string]any{"teammateId": teammateID, "message": message}}, &out); err != nil {
		t.Fatalf("startRun: %v", err)
	}
	run{api: srv.as(out.StartRun.RunToken)}.complete(t, ctx, "Here is your summary.")
	return out.StartRun.Packet
}

// P2: a preference made in the New memory form is pinned unless the user unticks it, and the form
// says why; it then reaches the packet of a request that shares no word with it. The recall preview
// says what it left out: the fact that shares no word with the request.
func TestNewPreferencePinnedReachesEveryRequest(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		cat := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Has a cat called Miso"})
		pref := "Prefers answers in bullet points (" + vp.name + ")"
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(itemSel(cat.ID))

		p.click(tid("memory-new"))
		p.fill(tid("create-content"), pref)
		if p.checked(tid("create-pinned")) {
			t.Error("a new fact is pinned before the user asks")
		}
		p.choose(tid("create-kind"), "PREFERENCE")
		p.waitText(tid("create-pinned-why"), "Preferences are pinned so they apply to every request — unpin to give it only when it matches.")
		if !p.checked(tid("create-pinned")) {
			t.Error("a new preference is not pinned by default")
		}
		p.assertNoHorizontalScroll()
		p.shot("preference-pinned")
		p.click(tid("create-submit"))
		id := p.waitItemWithContent(pref)
		p.waitVisible(itemSel(id, tid("item-pinned")))

		request := "Give me a summary of this week's news"
		p.fill(tid("recall-query"), request)
		p.click(tid("recall-submit"))
		p.waitVisible(`[data-testid="recall-entry"][data-item-id="` + id + `"]`)
		// At least the cat; About you may hold more from other tests of the suite.
		p.waitFor("what the preview left out", `/^\d+ (memory shares|memories share) no word with this request, so (it was|they were) left out — pin one to always give it\.$/`+
			`.test(document.querySelector('[data-testid="recall-left-out-line"]')?.textContent ?? '')`)
		if eval[bool](p, `!!document.querySelector('[data-testid="recall-entry"][data-item-id="`+cat.ID+`"]')`) {
			t.Error("the fact about the cat, which shares no word with the request, is in the preview")
		}
		p.assertNoHorizontalScroll()
		p.shot("recall-left-out")

		packet := packetFor(t, ctx, teammate, request)
		if !strings.Contains(packet, pref) {
			t.Errorf("the packet for %q doesn't hold the pinned preference:\n%s", request, packet)
		}
		if strings.Contains(packet, "Miso") {
			t.Errorf("the packet for %q holds the unpinned fact that shares no word with it:\n%s", request, packet)
		}
	})
}

// A6 for About you: a teammate's suggestion about the user shows at once as a count on the Settings
// link and on the About you tab, without a reload; the home page adds it to the total waiting.
func TestAboutYouWaitingBadgeArrivesLive(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitLive() // the page's subscriptions, the Settings link's among them, are up
		before := p.waitingCount(tid("nav-settings-waiting"))

		suggestion := mustSuggest(t, ctx, teammate, "Chatting about my week.", "Speaks Portuguese at home ("+vp.name+")", true)
		if suggestion.Scope != "shared" {
			t.Fatalf("the suggestion is in %q, want About you (shared)", suggestion.Scope)
		}
		want := strconv.Itoa(before + 1)
		p.waitVisible(tid("nav-settings-waiting", `[data-count="`+want+`"]`))
		p.assertNoHorizontalScroll()
		p.shot("nav-waiting")

		p.click(tid("nav-settings"))
		p.waitVisible(tid("about-you-page"))
		p.waitVisible(tid("settings-about-you-waiting", `[data-count="`+want+`"]`))
		p.waitVisible(suggestionSel(suggestion.ID))
		p.assertNoHorizontalScroll()
		p.shot("about-you-waiting")

		p.click(tid("nav-teammates"))
		p.waitVisible(tid("waiting-summary"))
		p.waitText(tid("waiting-summary-about-you"), want+" in About you")
		total := eval[string](p, `document.querySelector('[data-testid="waiting-summary"]').dataset.total`)
		if n, err := strconv.Atoi(total); err != nil || n < before+1 {
			t.Errorf("the home page says %q suggestions wait in all, want at least the %s of About you", total, want)
		}
		p.assertNoHorizontalScroll()

		// Settled, the count goes down as live: the suite's later tests find About you as it was.
		if err := user.do(ctx, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`,
			map[string]any{"id": suggestion.ID}, nil); err != nil {
			t.Fatalf("dismissCandidate: %v", err)
		}
		if before == 0 {
			p.waitGone(tid("waiting-summary-about-you"))
		} else {
			p.waitText(tid("waiting-summary-about-you"), strconv.Itoa(before)+" in About you")
		}
	})
}

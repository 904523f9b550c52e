package e2e

import (
	"strings"
	"testing"
)

// Where a memory came from: a teammate's save shows on its card who saved it, from which of the
// user's words and when, with a link to the conversation; its history names the teammate; and under
// the teammate's reply a "Memory updated" line lists what the turn saved and suggested. Once the
// memory is forgotten, neither the card's source nor the line quotes it (F1).
func TestProvenanceOnCardAndUnderReply(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		name := strings.ReplaceAll(t.Name(), "/", " ")
		r := startRun(t, ctx, teammate, "Hi! Please remember that my locker code is 3310.")
		saved := r.remember(t, ctx, "my locker code is 3310", false)
		if saved.Outcome != "SAVED" || saved.Item == nil {
			t.Fatalf("toolRemember: outcome %s, want SAVED", saved.Outcome)
		}
		suggested := r.remember(t, ctx, "Has a gym locker", false)
		if suggested.Outcome != "SUGGESTED" || suggested.Item == nil {
			t.Fatalf("toolRemember: outcome %s, want SUGGESTED", suggested.Outcome)
		}
		r.complete(t, ctx, "Noted.")

		p := openPage(t, vp, "/teammates/"+teammate)
		source := itemSel(saved.Item.ID, tid("item-source"))
		want := "Saved by " + name + " when you said “Please remember that my locker code is 3310” — today"
		p.waitText(source, want)
		p.assertAccessible("a memory's source")
		if vp.phone {
			p.assertTargetsBigEnough("a memory's source")
		}
		p.shot("item-source")

		p.click(itemSel(saved.Item.ID, tid("item-history")))
		p.waitText(itemSel(saved.Item.ID, tid("history-teammate")), name)
		if got := p.text(itemSel(saved.Item.ID, tid("history-revision"))); strings.Contains(got, "a teammate") {
			t.Errorf("history reads %q, want it to name the teammate", got)
		}

		// The quote links to the turn, and under its reply the line says what the turn did.
		p.click(itemSel(saved.Item.ID, tid("item-source-quote")))
		p.waitVisible(runSel(r.ID) + `.focused`)
		line := runSel(r.ID, tid("run-memory-updated"))
		p.waitVisible(line)
		got := p.text(line)
		for _, part := range []string{"Memory updated:", "saved “my locker code is 3310”", "suggested “Has a gym locker” — waiting for you"} {
			if !strings.Contains(got, part) {
				t.Errorf("the Memory updated line reads %q, want it to say %q", got, part)
			}
		}
		p.assertAccessible("Memory updated")
		if vp.phone {
			p.assertTargetsBigEnough("Memory updated")
		}
		p.shot("memory-updated")

		// Forgotten: the words leave the line under the reply.
		if err := user.forgetMemory(ctx, saved.Item.ID); err != nil {
			t.Fatalf("forgetMemory: %v", err)
		}
		p.navigate("/teammates/" + teammate + "/conversations?run=" + r.ID)
		p.waitText(runSel(r.ID, tid("run-memory-change")+`[data-item-id="`+saved.Item.ID+`"]`), "saved a memory that was forgotten since")
		if got := p.text(line); strings.Contains(got, "3310") {
			t.Errorf("after forgetting, the line reads %q, which still quotes the memory", got)
		}
	})
}

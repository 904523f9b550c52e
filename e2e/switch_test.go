package e2e

import (
	"context"
	"strings"
	"testing"
)

// startRunPacket starts a turn (worker credential) and returns the run with the packet it was given
// and whether memory was off for it.
func startRunPacket(t *testing.T, ctx context.Context, teammateID, message string) (r run, packet string, memoryOff bool) {
	t.Helper()
	var out struct {
		StartRun struct {
			Run       struct{ ID string }
			RunToken  string
			Packet    string
			MemoryOff bool
		}
	}
	err := worker.do(ctx, `mutation($t: ID!, $m: String!) { startRun(input: {teammateId: $t, message: $m}) { run { id } runToken packet memoryOff } }`,
		map[string]any{"t": teammateID, "m": message}, &out)
	if err != nil {
		t.Fatalf("startRun: %v", err)
	}
	return run{ID: out.StartRun.Run.ID, api: srv.as(out.StartRun.RunToken)}, out.StartRun.Packet, out.StartRun.MemoryOff
}

// waitContains waits until the element sel holds want in its text.
func waitContains(p *page, sel, want string) {
	p.t.Helper()
	p.waitFor(sel+" to hold "+jsString(want), "document.querySelector("+jsString(sel)+")?.textContent.includes("+jsString(want)+")")
}

// The memory switch from the teammate's page: the two toggles are labelled and explained; turning
// both off shows at once in another window's teammates list ("memory off"); the next run's packet is
// empty but for the note that memory is off (not even the pinned item), as the recall preview says
// too, and a save the user asked
// for in so many words waits as a suggestion, which the page shows with its reason.
func TestMemorySwitch(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Prefers tea to coffee", Pinned: true})

		list := openPage(t, vp, "/")
		row := `[data-testid="teammate-row"][data-teammate-id="` + teammate + `"]`
		list.waitVisible(row)
		if n := eval[int](list, `document.querySelectorAll('`+row+` [data-testid="teammate-memory-off"]').length`); n != 0 {
			t.Fatalf("a new teammate is marked memory off")
		}

		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(tid("memory-switch"))
		for _, sw := range []string{"switch-use-memory", "switch-save-memory"} {
			p.waitFor(sw+" on", `document.querySelector('[data-testid="`+sw+`"]').checked === true`)
			label := eval[string](p, `document.querySelector('[data-testid="`+sw+`"]').closest('label').textContent`)
			if !strings.Contains(label, "memory") {
				t.Errorf("%s is labelled %q", sw, label)
			}
		}
		p.assertNoHorizontalScroll()
		p.shot("switch-on")

		p.click(tid("switch-use-memory"))
		p.waitFor("use memory off", `document.querySelector('[data-testid="switch-use-memory"]').checked === false && !document.querySelector('[data-testid="switch-use-memory"]').disabled`)
		waitContains(p, tid("switch-use-memory-hint"), "Off: ")
		p.click(tid("switch-save-memory"))
		p.waitFor("save to memory off", `document.querySelector('[data-testid="switch-save-memory"]').checked === false && !document.querySelector('[data-testid="switch-save-memory"]').disabled`)
		waitContains(p, tid("switch-save-memory-hint"), "Off: ")
		// The preview says memory is off, not that nothing matches.
		p.fill(tid("recall-query"), "what do I drink")
		p.click(tid("recall-submit"))
		waitContains(p, tid("recall-memory-off"), "Use memory is off")
		p.assertAccessible("The memory switch, off")
		p.shot("switch-off")

		// The other window follows live.
		list.waitVisible(row + ` [data-testid="teammate-memory-off"]`)
		list.shot("list-memory-off")

		r, packet, off := startRunPacket(t, ctx, teammate, "Please remember that I fly to Oslo on Friday.")
		if !off || strings.Contains(packet, "Prefers tea") || !strings.Contains(packet, "Memory is off for this teammate") {
			t.Fatalf("the next run's packet is %q (memoryOff %t), want only the note that memory is off", packet, off)
		}
		saved := r.remember(t, ctx, "I fly to Oslo on Friday", false)
		r.complete(t, ctx, "I've asked you to confirm that.")
		if saved.Outcome != "SUGGESTED" || saved.Item == nil {
			t.Fatalf("toolRemember answered %s, want SUGGESTED", saved.Outcome)
		}
		p.waitVisible(suggestionSel(saved.Item.ID))
		waitContains(p, suggestionSel(saved.Item.ID, tid("suggestion-reason")), "Save to memory is off")
		p.shot("suggestion-saving-off")
	})
}

package e2e

import (
	"strings"
	"testing"
)

// F1, F6: Forget asks first, saying what is erased (the text and key, from every version and
// embedding, and suggestions to change it; the data files, after the purge) and what is not
// (conversations, replies, backups), and offers to forget the same text elsewhere too; the item
// then leaves the list at once. F3: saving the same text again — by an edit or a new item —
// warns first, and saves only after a second confirmation.
func TestForgetAndTombstoneWarning(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		allergy := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Allergic to peanuts", Key: "allergy"})
		train := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Takes the train to work"})
		// A copy of the text in shared memory: listed, and forgotten with it.
		copied := mustMemory(t, ctx, newMemory{Content: "ALLERGIC to peanuts!"})
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(itemSel(allergy.ID))

		p.click(itemSel(allergy.ID, tid("item-forget")))
		p.waitVisible(tid("forget-dialog"))
		p.waitVisible(tid("forget-copies"))
		p.waitFor("the storage facts", `!!document.querySelector('[data-testid="forget-storage"]')`)
		// What is erased is said plainly; how the storage erases it is folded under Technical details.
		shown := eval[string](p, `document.querySelector('[data-testid="forget-dialog"]').innerText`)
		for _, want := range []string{
			"Allergic to peanuts", "allergy", "forget these too", "ALLERGIC to peanuts!", "About you",
			"every saved version in the history and from search", "Suggestions to change it", "leaves memory immediately",
			"can’t be undone", "original conversations", "Replies teammates already gave",
			"Backups made before now — restoring one forgets this again.", "Technical details",
		} {
			if !strings.Contains(shown, want) {
				t.Errorf("the forget dialog doesn't say %q; it says %q", want, shown)
			}
		}
		for _, jargon := range []string{"embedding", "write-ahead log", "row versions", "statistics"} {
			if strings.Contains(shown, jargon) {
				t.Errorf("the forget dialog says %q outside Technical details: %q", jargon, shown)
			}
		}
		p.click(tid("forget-details", " summary"))
		p.waitVisible(tid("forget-storage"))
		if got := p.text(tid("forget-details")); !strings.Contains(got, "Every embedding") || !strings.Contains(got, "database files are rewritten") {
			t.Errorf("the forget dialog's technical details say %q", got)
		}
		p.assertNoHorizontalScroll()
		p.shot("forget-dialog")
		p.click(tid("forget-confirm"))
		p.waitGone(tid("forget-dialog"))
		p.waitGone(itemSel(allergy.ID))
		p.waitItemCount(1)
		for _, id := range []string{allergy.ID, copied.ID} {
			if status, content, err := user.itemStatus(ctx, id); err != nil || status != "FORGOTTEN" || content != "" {
				t.Errorf("the forgotten item is %s %q (%v), want FORGOTTEN with no content", status, content, err)
			}
		}

		// Editing another item to the forgotten text warns; "Don't save" leaves it as it was.
		p.click(itemSel(train.ID, tid("item-edit")))
		p.fill(itemSel(train.ID, tid("editor-content")), "Allergic to peanuts")
		p.click(itemSel(train.ID, tid("editor-save")))
		p.waitVisible(itemSel(train.ID, tid("forgotten-warning")))
		if got := p.text(itemSel(train.ID, tid("forgotten-warning"))); !strings.Contains(got, "You asked to forget this before. Save it again?") {
			t.Errorf("the warning says %q", got)
		}
		p.click(itemSel(train.ID, tid("forgotten-cancel")))
		p.waitGone(itemSel(train.ID, tid("forgotten-warning")))
		p.click(itemSel(train.ID, tid("editor-cancel")))
		p.waitText(itemSel(train.ID, tid("item-content")), "Takes the train to work")

		// A new item with the forgotten text: the warning, then the second confirmation saves it.
		p.click(tid("memory-new"))
		p.fill(tid("create-content"), "Allergic to peanuts")
		p.click(tid("create-submit"))
		p.waitVisible(tid("memory-create-form", " ", tid("forgotten-warning")))
		p.assertNoHorizontalScroll()
		p.shot("tombstone-warning")
		p.click(tid("forgotten-confirm"))
		again := p.waitItemWithContent("Allergic to peanuts")
		if again == allergy.ID {
			t.Error("saving the text again brought the forgotten item back instead of a new one")
		}
		p.waitGone(tid("memory-create-form"))
		p.waitItemCount(2)
	})
}

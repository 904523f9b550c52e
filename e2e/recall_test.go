package e2e

import (
	"strings"
	"testing"
)

// P2–P6: the recall preview shows what a run would be given for a request, and why: here the
// full-text place (there are no embeddings), and nothing for an item whose words don't match.
func TestRecallPreview(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		hiking := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Likes hiking in the Alps"})
		bike := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Owns a red bicycle"})
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(itemSel(hiking.ID))

		p.fill(tid("recall-query"), "plan a hiking weekend")
		p.click(tid("recall-submit"))
		entry := `[data-testid="recall-entry"][data-item-id="` + hiking.ID + `"]`
		p.waitVisible(entry)
		if got := p.text(entry + " " + tid("recall-fulltext")); !strings.HasPrefix(got, "#1 (rank ") {
			t.Errorf("the full-text place reads %q, want #1 with its rank", got)
		}
		if got := p.text(entry + " " + tid("recall-vector-distance")); got != "—" {
			t.Errorf("the vector distance reads %q, want none without embeddings", got)
		}
		if got := p.text(tid("recall-vector")); !strings.Contains(got, "words only") {
			t.Errorf("the preview says %q, want that it searched by words only", got)
		}
		if eval[bool](p, `!!document.querySelector('[data-testid="recall-entry"][data-item-id="`+bike.ID+`"]')`) {
			t.Error("the bicycle, which the request doesn't mention, is in the preview")
		}
		p.assertNoHorizontalScroll()
		p.shot("recall")
	})
}

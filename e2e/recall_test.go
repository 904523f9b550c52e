package e2e

import (
	"strings"
	"testing"
)

// P2–P6: the recall preview shows what a run would be given for a request, and why, in words: a
// pinned item is "pinned", a matched one names the request's words it matched ("matched ‘hiking’");
// the raw places and scores are folded away under Scores. An item whose words don't match is not
// given.
func TestRecallPreview(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		hiking := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Likes hiking in the Alps"})
		bike := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Owns a red bicycle"})
		papers := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Reads the papers on Sunday", Pinned: true})
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(itemSel(hiking.ID))

		p.fill(tid("recall-query"), "plan a hiking weekend")
		p.click(tid("recall-submit"))
		entry := func(id string) string { return `[data-testid="recall-entry"][data-item-id="` + id + `"]` }
		p.waitVisible(entry(hiking.ID))
		if got := p.text(entry(hiking.ID) + " " + tid("recall-why")); got != "Why: matched ‘hiking’" {
			t.Errorf("the hiking entry says %q, want why in words: matched ‘hiking’", got)
		}
		if got := p.text(entry(papers.ID) + " " + tid("recall-why")); got != "Why: pinned, so always given" {
			t.Errorf("the pinned entry says %q, want that it is pinned", got)
		}
		why := eval[string](p, `[...document.querySelectorAll('[data-testid="recall-why"]')].map((el) => el.innerText).join(' | ')`)
		for _, raw := range []string{"rank", "Score", "0.0", "#1"} {
			if strings.Contains(why, raw) {
				t.Errorf("the reasons show %q, a raw score: %q", raw, why)
			}
		}
		if eval[bool](p, `[...document.querySelectorAll('.recall-scores')].some((d) => d.open)`) {
			t.Error("the raw scores are unfolded before the user asked for them")
		}
		if got := p.text(entry(hiking.ID) + " " + tid("recall-fulltext")); !strings.HasPrefix(got, "#2 (rank ") {
			t.Errorf("the full-text place (under Scores) reads %q, want #2 (after the pinned item) with its rank", got)
		}
		if got := p.text(entry(hiking.ID) + " " + tid("recall-found-by")); got != "found by full text (BM25)" {
			t.Errorf("the hiking entry's label reads %q, want found by full text (BM25)", got)
		}
		if got := p.text(entry(papers.ID) + " " + tid("recall-found-by")); got != "found by pinned" {
			t.Errorf("the pinned entry's label reads %q, want found by pinned", got)
		}
		if got := p.text(entry(hiking.ID) + " " + tid("recall-vector-distance")); got != "—" {
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

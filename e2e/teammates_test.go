package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// teammateName reads a teammate's name as the user.
func (a api) teammateName(ctx context.Context, id string) (string, error) {
	var out struct{ Teammate *struct{ Name string } }
	if err := a.do(ctx, `query($id: ID!) { teammate(id: $id) { name } }`, map[string]any{"id": id}, &out); err != nil {
		return "", err
	}
	if out.Teammate == nil {
		return "", fmt.Errorf("teammate %s is null", id)
	}
	return out.Teammate.Name, nil
}

// A teammate is renamed from its page. A name that is empty, only spaces or too long is refused
// with a sentence saying why, before anything is sent; Escape leaves the name as it was; a good name
// shows at once in the heading and in the list, and the focus goes back to Rename. Adding a teammate
// without a name is refused the same way.
func TestRenameTeammate(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		before := "Rename me " + vp.name
		teammate, err := user.createTeammate(ctx, before)
		if err != nil {
			t.Fatalf("createTeammate: %v", err)
		}
		unchanged := func(when string) {
			t.Helper()
			if got, err := user.teammateName(ctx, teammate); err != nil || got != before {
				t.Errorf("%s the name is %q (%v), want it unchanged: %q", when, got, err, before)
			}
		}

		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitText(tid("teammate-title"), before)
		p.click(tid("teammate-rename"))
		p.waitVisible(tid("rename-form"))
		if got := p.value(tid("rename-input")); got != before {
			t.Errorf("the rename field starts with %q, want the current name", got)
		}
		p.waitFor("the focus in the name field", `document.activeElement?.dataset.testid === 'rename-input'`)

		for _, empty := range []string{"", "   "} {
			p.fill(tid("rename-input"), empty)
			p.click(tid("rename-save"))
			p.waitText(tid("rename-problem"), "Enter a name: it can’t be empty or only spaces.")
			p.waitVisible(tid("rename-input") + `[aria-invalid="true"]`)
		}
		p.fill(tid("rename-input"), strings.Repeat("x", 121))
		p.waitText(tid("rename-problem"), "The name is too long: 121 characters, and at most 120 fit.")
		p.assertNoHorizontalScroll()
		p.shot("rename-problem")
		p.click(tid("rename-save"))
		p.waitVisible(tid("rename-problem"))
		unchanged("after refused names")

		p.press(kb.Escape)
		p.waitGone(tid("rename-form"))
		p.waitFor("the focus back on Rename", `document.activeElement?.dataset.testid === 'teammate-rename'`)
		p.waitText(tid("teammate-title"), before)
		unchanged("after Escape")

		after := "Travel planner " + vp.name
		p.click(tid("teammate-rename"))
		p.fill(tid("rename-input"), "  "+after+"  ")
		p.click(tid("rename-save"))
		p.waitGone(tid("rename-form"))
		p.waitText(tid("teammate-title"), after)
		p.waitFor("the focus back on Rename", `document.activeElement?.dataset.testid === 'teammate-rename'`)
		if got := eval[string](p, `document.title`); !strings.HasPrefix(got, after) {
			t.Errorf("the document title is %q, want it to start with the new name", got)
		}
		if got, err := user.teammateName(ctx, teammate); err != nil || got != after {
			t.Errorf("the name is %q (%v), want %q (trimmed)", got, err, after)
		}

		p.click(tid("nav-teammates"))
		p.waitVisible(tid("teammate-row", fmt.Sprintf(`[data-teammate-id=%q]`, teammate)))
		p.waitText(tid("teammate-row", fmt.Sprintf(`[data-teammate-id=%q] `, teammate), ".teammate-name"), after)

		// Adding one without a name says why instead of doing nothing.
		p.fill(tid("teammate-name-input"), " ")
		p.click(tid("teammate-create"))
		p.waitText(tid("teammate-name-problem"), "Enter a name: it can’t be empty or only spaces.")
		p.assertNoHorizontalScroll()
	})
}

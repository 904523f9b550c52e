package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The accessibility checks every screen gets: named controls, no horizontal scrolling, text
// contrast in both colour schemes, and axe-core's rules (axe_test.go). They read what the browser computed (the accessibility tree, the
// computed styles), not the source.

// controlSelector is every element a user operates: each must have an accessible name.
const controlSelector = `input, button, select, textarea, a[href], [role="button"], [tabindex]:not([tabindex="-1"])`

// assertControlsNamed fails the test for every rendered control whose accessible name, as Chromium
// computes it for assistive technology, is empty (an input without a label, an icon-only button).
func (p *page) assertControlsNamed(screen string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(controlSelector), chromedp.AtLeast(0)))
	if err != nil {
		p.t.Fatalf("%s: listing controls: %v", screen, err)
	}
	if len(nodes) == 0 {
		p.t.Fatalf("%s: no controls found", screen)
	}
	var unnamed []string
	checked := 0
	fetchRelatives := false
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, n := range nodes {
			res, err := cdp.Call(ctx, t, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{
				BackendNodeID: n.BackendNodeID, FetchRelatives: &fetchRelatives,
			})
			if err != nil {
				return fmt.Errorf("accessibility node of %s: %w", describeNode(n), err)
			}
			if len(res.Nodes) == 0 || res.Nodes[0].Ignored {
				continue // not rendered (display: none, hidden, inert behind nothing)
			}
			checked++
			if name := axString(res.Nodes[0].Name); strings.TrimSpace(name) == "" {
				unnamed = append(unnamed, describeNode(n))
			}
		}
		return nil
	}))
	if err != nil {
		p.t.Fatalf("%s: %v", screen, err)
	}
	if checked == 0 {
		p.t.Fatalf("%s: no rendered controls among %d elements", screen, len(nodes))
	}
	for _, u := range unnamed {
		p.t.Errorf("%s at %s: %s has no accessible name (no label, text, aria-label or title)", screen, p.vp.name, u)
	}
}

func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	return strings.Trim(string(v.Value), `"`)
}

func describeNode(n *chromedp.Node) string {
	d := strings.ToLower(n.NodeName)
	for _, attr := range []string{"data-testid", "id", "type", "class", "href"} {
		if v := n.AttributeValue(attr); v != "" {
			d += fmt.Sprintf("[%s=%q]", attr, v)
		}
	}
	return d
}

// colorFunctions are the JavaScript helpers of the contrast checks: parse a computed colour (rgb(),
// rgba(), or color(srgb …) as color-mix gives), composite one colour over another, WCAG's contrast
// ratio, and the opaque background behind an element — every ancestor's background colour
// composited from the root down.
const colorFunctions = `
	const unparsed = new Set();
	const parse = (c) => {
		let m = c.match(/^rgba?\(([^)]+)\)/);
		if (m) {
			const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
			return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
		}
		m = c.match(/^color\(srgb ([^)]+)\)/);
		if (m) {
			const p = m[1].split(/[\s\/]+/).filter(Boolean).map(Number);
			return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
		}
		unparsed.add(c);
		return null;
	};
	const over = (top, bottom) => {
		const a = top[3] + bottom[3] * (1 - top[3]);
		if (a === 0) return [0, 0, 0, 0];
		return [0, 1, 2].map((i) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a).concat([a]);
	};
	const channel = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
	const lum = (c) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
	const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
	const backgroundOf = (el) => {
		const chain = [];
		for (let a = el; a; a = a.parentElement) chain.unshift(a);
		let bg = [255, 255, 255, 1];
		for (const a of chain) {
			const c = parse(getComputedStyle(a).backgroundColor);
			if (c) bg = over(c, bg);
		}
		return bg;
	};
	const rgb = (c) => 'rgb(' + c.slice(0, 3).map(Math.round).join(', ') + ')';
`

// contrastScript lists the text on the page whose contrast against what is behind it is below WCAG
// AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). Inactive (disabled) controls are
// exempt, as WCAG says, and so is text clipped to nothing (visually hidden for screen readers).
const contrastScript = `(() => {` + colorFunctions + `
	const problems = [];
	const formControl = (el) => ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
	const hasText = (el) => formControl(el) ? !!el.value
		: [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
	for (const el of document.querySelectorAll('body *')) {
		if (['SCRIPT', 'STYLE', 'OPTION', 'NOSCRIPT'].includes(el.tagName) || !hasText(el)) continue;
		if (el.closest(':disabled, [aria-disabled="true"], [inert]')) continue;
		const rect = el.getBoundingClientRect();
		if (rect.width <= 1 || rect.height <= 1) continue;
		const style = getComputedStyle(el);
		if (style.visibility !== 'visible' || el.closest('dialog:not([open])')) continue;
		let opacity = 1;
		for (let a = el; a; a = a.parentElement) opacity *= Number(getComputedStyle(a).opacity);
		if (opacity === 0) continue;
		const bg = backgroundOf(el);
		let fg = parse(style.color);
		if (!fg) continue;
		fg = over([fg[0], fg[1], fg[2], fg[3] * opacity], bg);
		const size = parseFloat(style.fontSize);
		const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
		const r = ratio(fg, bg);
		if (r < (large ? 3 : 4.5)) {
			const text = (formControl(el) ? el.value : el.textContent).trim().slice(0, 40);
			problems.push(el.tagName.toLowerCase() + (el.dataset.testid ? '[data-testid=' + el.dataset.testid + ']' : el.className ? '.' + String(el.className).split(' ').join('.') : '') +
				' "' + text + '" ' + r.toFixed(2) + ':1 (' + rgb(fg) + ' on ' + rgb(bg) + ')');
		}
	}
	return problems.concat([...unparsed].map((c) => 'a colour the check cannot read: ' + c));
})()`

// assertContrast checks text contrast in the light and in the dark colour scheme.
func (p *page) assertContrast(screen string) {
	p.t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		p.emulateColorScheme(scheme)
		for _, problem := range eval[[]string](p, contrastScript) {
			p.t.Errorf("%s at %s, %s scheme: contrast too low: %s", screen, p.vp.name, scheme, problem)
		}
	}
	p.emulateColorScheme("")
}

// emulateColorScheme makes the page see prefers-color-scheme: scheme ("" for the browser's own).
func (p *page) emulateColorScheme(scheme string) {
	p.t.Helper()
	p.do("prefers-color-scheme: "+scheme, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	}))
}

// assertAccessible is every check of a screen as it is shown now.
func (p *page) assertAccessible(screen string) {
	p.t.Helper()
	p.assertControlsNamed(screen)
	p.assertNoHorizontalScroll()
	p.assertContrast(screen)
	p.assertAxe(screen)
	if n := eval[int](p, `[...document.querySelectorAll('[tabindex]')].filter((el) => el.tabIndex > 0).length`); n > 0 {
		p.t.Errorf("%s: %d elements have a positive tabindex, which breaks the focus order", screen, n)
	}
}

// press sends one key (kb.Tab, kb.Escape …) to whatever has the focus.
func (p *page) press(key string, opts ...chromedp.KeyOption) {
	p.t.Helper()
	p.do("press "+fmt.Sprintf("%q", key), chromedp.KeyEvent(key, opts...))
}

// focused describes the element that has the keyboard focus: its data-testid, or its tag.
const focusedScript = `(() => { const el = document.activeElement; return el ? (el.dataset.testid || el.tagName.toLowerCase()) : '' })()`

// assertTabOrderFollowsLayout presses Tab from where the focus is and checks that each control it
// reaches is on the same row as the one before or below it — the focus never jumps back up the page
// — and that each shows a focus ring that stands out (2 px or more, 3:1 against what is behind it).
func (p *page) assertTabOrderFollowsLayout(screen string, steps int) {
	p.t.Helper()
	type stop struct {
		Desc         string  `json:"desc"`
		Top          float64 `json:"top"`
		Height       float64 `json:"height"`
		Ring         string  `json:"ring"`
		RingContrast float64 `json:"ringContrast"`
		RingWidth    float64 `json:"ringWidth"`
		InMain       bool    `json:"inMain"`
		InTopLayer   bool    `json:"inTopLayer"`
	}
	var prev *stop
	for i := 0; i < steps; i++ {
		p.press(kb.Tab)
		s := eval[stop](p, `(() => {`+colorFunctions+`
			const el = document.activeElement;
			const r = el.getBoundingClientRect();
			const st = getComputedStyle(el);
			// The ring: the outline, drawn outside the element (over its parent) unless its offset is
			// negative, or else the first colour of a box-shadow.
			const outline = st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0;
			const ringColor = outline ? st.outlineColor : (st.boxShadow.match(/(rgba?\([^)]*\)|color\([^)]*\))/) || [])[0];
			const behind = outline && parseFloat(st.outlineOffset) < 0 ? backgroundOf(el) : backgroundOf(el.parentElement);
			const ring = ringColor ? parse(ringColor) : null;
			return {
				desc: (el.dataset.testid || el.tagName.toLowerCase()) + (el.textContent ? ' "' + el.textContent.trim().slice(0, 30) + '"' : ''),
				top: r.top + window.scrollY, height: r.height,
				ring: ring ? rgb(over(ring, behind)) + ' on ' + rgb(behind) : 'none',
				ringContrast: ring ? ratio(over(ring, behind), behind) : 0,
				ringWidth: outline ? parseFloat(st.outlineWidth) : ring ? 3 : 0,
				inMain: !!el.closest('main'), inTopLayer: !!el.closest('dialog[open], .toast-region'),
			};
		})()`)
		if !s.InMain {
			break // past the page's content, into the footer
		}
		// WCAG 2.4.7 and 1.4.11: a focus indicator at least 2 px thick, at 3:1 against what is behind it.
		if s.RingWidth < 2 || s.RingContrast < 3 {
			p.t.Errorf("%s at %s: %s has the focus but no clearly visible focus ring (%s, %.1f:1, %.0f px)", screen, p.vp.name, s.Desc, s.Ring, s.RingContrast, s.RingWidth)
		}
		if prev != nil && !s.InTopLayer && !prev.InTopLayer && s.Top < prev.Top-max(8, prev.Height) {
			p.t.Errorf("%s at %s: Tab went from %s (y %.0f) back up to %s (y %.0f)", screen, p.vp.name, prev.Desc, prev.Top, s.Desc, s.Top)
		}
		prev = &s
	}
	if prev == nil {
		p.t.Errorf("%s: Tab reached no control of the page", screen)
	}
}

// mustMainScreens fills a new teammate's main screens: a pinned fact and a preference, a suggestion,
// and a completed run with a lesson kept from it. It returns the teammate, the fact and the run.
func mustMainScreens(t *testing.T, ctx context.Context) (string, memoryItem, run) {
	t.Helper()
	teammate := mustTeammate(t, ctx)
	fact := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Prefers meetings before noon", Key: "meetings", Pinned: true})
	mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Writes in British English", Kind: "PREFERENCE"})
	mustSuggest(t, ctx, teammate, "I've started running on Tuesdays", "Runs on Tuesdays", false)
	r := startRun(t, ctx, teammate, "When should we meet?")
	r.complete(t, ctx, "Before noon, as you prefer.")
	if err := user.keepLesson(ctx, r.ID, "Offer two time slots, not one"); err != nil {
		t.Fatalf("keepLesson: %v", err)
	}
	return teammate, fact, r
}

// Every main screen, with its forms and panels open: every control has an accessible name, the
// text contrast is at least 4.5:1 (3:1 when large) in the light and the dark scheme, axe-core finds
// no serious or critical violation, nothing is wider than the phone, Tab moves down the page with a
// visible focus ring, and the Forget dialog keeps the focus inside, closes on Escape and gives the
// focus back to the button that opened it. GraphiQL is not among them: its interface is GraphiQL's
// own, a developer tool (graphiql_test.go checks the notice the app puts before it on a phone).
func TestAccessibilityOfMainScreens(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate, fact, r := mustMainScreens(t, ctx)

		p := openPage(t, vp, "/")
		p.waitVisible(tid("teammate-list"))
		p.assertAccessible("Teammates")

		p.navigate("/teammates/" + teammate)
		p.waitVisible(itemSel(fact.ID))
		p.waitLive()
		p.waitVisible(tid("suggestion"))
		p.waitVisible(tid("lessons-section", `[data-state="ready"]`))
		p.assertAccessible("Memory tab")
		p.assertTabOrderFollowsLayout("Memory tab", 30)

		p.click(tid("teammate-rename"))
		p.waitVisible(tid("rename-form"))
		p.click(tid("memory-new"))
		p.waitVisible(tid("memory-create-form"))
		p.click(itemSel(fact.ID, tid("item-edit")))
		p.waitVisible(itemSel(fact.ID, tid("item-editor")))
		p.click(tid("suggestion-edit"))
		p.fill(tid("recall-query"), "meetings")
		p.click(tid("recall-submit"))
		p.waitVisible(tid("recall-entry"))
		p.assertAccessible("Memory tab with its forms open")
		p.click(itemSel(fact.ID, tid("editor-cancel")))
		p.click(itemSel(fact.ID, tid("item-history")))
		p.waitVisible(itemSel(fact.ID, tid("history-revision")))
		p.assertAccessible("History")

		// The Forget dialog, with the keyboard only.
		forget := itemSel(fact.ID, tid("item-forget"))
		p.do("focus Forget", chromedp.Focus(chromedp.CSS(forget)))
		p.press(kb.Enter)
		p.waitVisible(tid("forget-dialog"))
		p.waitFor("the focus on Cancel, not on the destructive Forget", `document.activeElement?.dataset.testid === 'forget-cancel'`)
		p.assertAccessible("Forget dialog")
		for i := 0; i < 5; i++ {
			p.press(kb.Tab)
			if !eval[bool](p, `document.querySelector('[data-testid="forget-dialog"]').contains(document.activeElement)`) {
				t.Fatalf("Tab %d left the open dialog for %s", i+1, eval[string](p, focusedScript))
			}
		}
		for i := 0; i < 5; i++ {
			p.press(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))
			if !eval[bool](p, `document.querySelector('[data-testid="forget-dialog"]').contains(document.activeElement)`) {
				t.Fatalf("Shift+Tab %d left the open dialog for %s", i+1, eval[string](p, focusedScript))
			}
		}
		p.press(kb.Escape)
		p.waitGone(tid("forget-dialog"))
		p.waitFor("the focus back on Forget", fmt.Sprintf(`document.activeElement === document.querySelector(%s)`, jsString(forget)))
		if status, _, err := user.itemStatus(ctx, fact.ID); err != nil || status != "ACTIVE" {
			t.Errorf("after Escape the item is %s (%v), want it still ACTIVE", status, err)
		}

		p.click(tid("tab-conversations"))
		p.waitVisible(runSel(r.ID, tid("run-reply")))
		p.click(runSel(r.ID, tid("run-thumbs-down")))
		p.waitVisible(runSel(r.ID, tid("feedback-form")))
		p.click(runSel(r.ID, tid("run-memory-toggle")))
		p.waitVisible(runSel(r.ID, tid("memory-given", `[data-state="ready"]`)))
		p.assertAccessible("Conversations")
		p.click(runSel(r.ID, tid("feedback-close")))

		p.click(tid("nav-settings"))
		p.waitVisible(tid("about-you-page"))
		p.waitVisible(tid("memory-list", `[data-state="ready"]`))
		p.assertAccessible("About you")
		p.click(tid("settings-ai"))
		p.waitVisible(tid("ai-section", `[data-state="ready"]`))
		p.assertAccessible("Settings → AI")
		p.click(tid("settings-backups"))
		p.waitVisible(tid("backups-section", `[data-state="ready"]`))
		p.assertAccessible("Settings → Backups")

		login := openPageIn(t, browser, vp, "/", chromedp.WithNewBrowserContext())
		login.waitVisible(tid("login-required"))
		login.assertAccessible("Sign in")
	})
}

// keepLesson keeps a note of a run as a lesson, as the user.
func (a api) keepLesson(ctx context.Context, runID, note string) error {
	return a.do(ctx, `mutation($input: KeepLessonInput!) { keepLesson(input: $input) { item { id } } }`,
		map[string]any{"input": map[string]any{"runId": runID, "note": note}}, nil)
}

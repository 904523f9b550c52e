package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// viewport is one screen size every flow runs at.
type viewport struct {
	name          string
	width, height int64
	phone         bool
}

var viewports = []viewport{
	{name: "desktop", width: 1280, height: 800},
	{name: "phone", width: 390, height: 844, phone: true},
}

// eachViewport runs flow as one subtest per viewport.
func eachViewport(t *testing.T, flow func(t *testing.T, vp viewport)) {
	t.Helper()
	requireSuite(t)
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) { flow(t, vp) })
	}
}

// stepTimeout bounds each wait; a page that doesn't get there by then has failed.
const stepTimeout = 15 * time.Second

// page is one browser tab at one viewport, bound to a test: every failed step fails the test, and
// a failed test leaves a screenshot of the tab in artifacts/e2e/<test>-<viewport>.png.
type page struct {
	t    *testing.T
	ctx  context.Context // the tab
	vp   viewport
	base string // the server the tab talks to: http://127.0.0.1:<port>

	mu       sync.Mutex
	problems []string // console errors, uncaught exceptions, failed loads
	expected []string // parts of console errors the test expects (expectConsole)
}

// openPage opens a new tab in the signed-in browser at vp and navigates to path.
func openPage(t *testing.T, vp viewport, path string) *page {
	t.Helper()
	return openPageIn(t, browser, vp, path)
}

// openPageIn is openPage in the browser (context) of parent.
func openPageIn(t *testing.T, parent context.Context, vp viewport, path string, opts ...chromedp.ContextOption) *page {
	t.Helper()
	return openPageOn(t, srv, parent, vp, path, opts...)
}

// openPageOn is openPageIn on another server than the suite's (the demo's).
func openPageOn(t *testing.T, s *server, parent context.Context, vp viewport, path string, opts ...chromedp.ContextOption) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, opts...)
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx, vp: vp, base: s.base}
	if err := chromedp.Do(ctx); err != nil { // attach the tab before listening
		t.Fatalf("opening a tab: %v", err)
	}
	p.watchConsole()
	t.Cleanup(p.finish)

	emulate := chromedp.EmulateViewport(vp.width, vp.height)
	if vp.phone {
		emulate = chromedp.EmulateViewport(vp.width, vp.height, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	p.do("set the viewport", emulate)
	p.do("open "+path, chromedp.Navigate(s.base+path))
	return p
}

// navigate opens path of the page's server in the tab, as typing the address would.
func (p *page) navigate(path string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.base+path))
}

// watchConsole records console errors, uncaught exceptions and failed loads of the tab.
func (p *page) watchConsole() {
	messages := chromedp.Console(p.ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				p.mu.Lock()
				p.problems = append(p.problems, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
				p.mu.Unlock()
			}
		}
	}()
}

// finish runs when the test ends, before the tab closes: a screenshot when the test failed (or when
// MEMORY_E2E_SCREENSHOTS=1), and a check that the console stayed clean.
func (p *page) finish() {
	if p.t.Failed() || screenshotsWanted() {
		p.screenshot("")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
next:
	for _, problem := range p.problems {
		for _, want := range p.expected {
			if strings.Contains(problem, want) {
				continue next
			}
		}
		p.t.Errorf("browser console: %s", problem)
	}
}

// expectConsole lets console errors that contain text pass: the browser reports a page answered
// with an error status, even when that status is the point of the test.
func (p *page) expectConsole(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expected = append(p.expected, text)
}

func screenshotsWanted() bool { return os.Getenv("MEMORY_E2E_SCREENSHOTS") == "1" }

// shot saves a screenshot named after the step when MEMORY_E2E_SCREENSHOTS=1.
func (p *page) shot(step string) {
	if screenshotsWanted() {
		p.screenshot(step)
	}
}

// screenshot writes artifacts/e2e/<test>-<viewport>[-<step>].png. The test name already ends in the
// viewport (the subtest), so "TestEditAndUndo/phone" becomes "TestEditAndUndo-phone.png".
func (p *page) screenshot(step string) {
	name := strings.ReplaceAll(p.t.Name(), "/", "-")
	if step != "" {
		name += "-" + step
	}
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	// From the top, so that the sticky header is drawn where it belongs in the full-page image.
	_ = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	dir := artifactsDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	p.t.Logf("screenshot: %s", path)
}

// do runs actions as one step; a failure ends the test with the step's description.
func (p *page) do(step string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", step, err)
	}
}

// tid is the CSS selector of a data-testid, optionally narrowed by more selector text.
func tid(id string, more ...string) string {
	return fmt.Sprintf(`[data-testid=%q]%s`, id, strings.Join(more, ""))
}

// itemSel selects inside the memory item with the given id.
func itemSel(itemID string, inner ...string) string {
	s := fmt.Sprintf(`[data-testid="memory-item"][data-item-id=%q]`, itemID)
	for _, in := range inner {
		s += " " + in
	}
	return s
}

func (p *page) waitVisible(sel string) {
	p.t.Helper()
	p.do("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
}

func (p *page) waitGone(sel string) {
	p.t.Helper()
	p.do("wait for "+sel+" to go", chromedp.WaitNotPresent(chromedp.CSS(sel)))
}

// click clicks sel with the mouse, after scrolling it to the middle of the viewport: clear of the
// sticky header and of a toast at the bottom, as a user would have it before tapping.
func (p *page) click(sel string) {
	p.t.Helper()
	p.do("click "+sel,
		chromedp.WaitVisible(chromedp.CSS(sel)),
		// A button the page disables while it works ("Preview" while a request is in flight)
		// takes no click: under load the click can come before the page allows it.
		chromedp.WaitEnabled(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%s).scrollIntoView({ block: 'center', behavior: 'instant' })`, jsString(sel))),
		chromedp.Click(chromedp.CSS(sel)),
	)
}

// fill replaces the text of an input or textarea as a user would: focus it, select what it holds,
// and enter the new text, which the browser delivers as input events like typing or pasting (setting
// the value from script would bypass React's change handling). An empty text deletes the selection.
func (p *page) fill(sel, text string) {
	p.t.Helper()
	enter := chromedp.KeyEvent("\b")
	if text != "" {
		enter = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: text})
			return err
		})
	}
	p.do("fill "+sel,
		chromedp.WaitVisible(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const el = document.querySelector(%s); el.focus(); el.select(); })()`, jsString(sel))),
		enter,
	)
}

// choose picks an option of a <select> the way the browser does when the user picks one: it sets
// the value and fires the change event React listens to.
func (p *page) choose(sel, value string) {
	p.t.Helper()
	p.do("choose "+value+" in "+sel,
		chromedp.WaitVisible(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
			const el = document.querySelector(%s);
			el.value = %s;
			el.dispatchEvent(new Event('change', { bubbles: true }));
		})()`, jsString(sel), jsString(value))),
	)
}

func (p *page) text(sel string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func (p *page) value(sel string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("value of %s: %v", sel, err)
	}
	return s
}

// waitFor waits until the JavaScript expression is true in the page (re-checked on every DOM
// change), failing the test with what as the reason.
func (p *page) waitFor(what, expression string) {
	p.t.Helper()
	if err := p.untilTrue(expression); err != nil {
		p.t.Fatalf("waiting for %s: %v", what, err)
	}
}

// untilTrue waits up to stepTimeout for the JavaScript expression to be true, re-checking it on every
// DOM change.
func (p *page) untilTrue(expression string) error {
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`(() => { try { return !!(%s) } catch (e) { return false } })()`, expression),
		chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(stepTimeout)))
	return err
}

// eval returns the value of a JavaScript expression in the page.
func eval[T any](p *page, expression string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expression))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expression, err)
	}
	return v
}

// waitText waits until the element sel shows exactly want (its trimmed text content).
// On a timeout the failure says what it read instead.
func (p *page) waitText(sel, want string) {
	p.t.Helper()
	read := fmt.Sprintf(`document.querySelector(%s)?.textContent.trim() ?? '(no such element)'`, jsString(sel))
	if p.untilTrue(fmt.Sprintf(`%s === %s`, read, jsString(want))) == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(p.ctx), 5*time.Second)
	defer cancel()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](read))
	if err != nil {
		got = "(unreadable: " + err.Error() + ")"
	}
	p.t.Fatalf("waiting for %s to read %q: it reads %q after %s", sel, want, got, stepTimeout)
}

// waitItemWithContent waits for a memory item whose content reads content and returns its id.
func (p *page) waitItemWithContent(content string) string {
	p.t.Helper()
	expr := fmt.Sprintf(`[...document.querySelectorAll('[data-testid="memory-item"]')]
		.find((el) => el.querySelector('[data-testid="item-content"]')?.textContent === %s)?.dataset.itemId`, jsString(content))
	p.waitFor(fmt.Sprintf("an item that reads %q", content), expr)
	return eval[string](p, expr)
}

// listedContents is the content of every memory item shown, top to bottom.
func (p *page) listedContents() []string {
	p.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll('[data-testid="memory-item"] [data-testid="item-content"]')].map((el) => el.textContent)`)
}

// waitItemCount waits until exactly n memory items are listed.
func (p *page) waitItemCount(n int) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("%d memory items", n), fmt.Sprintf(`document.querySelectorAll('[data-testid="memory-item"]').length === %d`, n))
}

// assertNoHorizontalScroll checks that nothing is wider than the viewport (phone layouts above all).
func (p *page) assertNoHorizontalScroll() {
	p.t.Helper()
	overflow := eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
	if overflow > 0 {
		wide := eval[[]string](p, `[...document.querySelectorAll('body *')]
			.filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
			.slice(0, 5).map((el) => el.tagName.toLowerCase() + (el.dataset.testid ? '[data-testid=' + el.dataset.testid + ']' : '.' + el.className))`)
		p.t.Errorf("the page scrolls horizontally by %d px at %dx%d; too wide: %v", overflow, p.vp.width, p.vp.height, wide)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestScreenshots saves the pictures of the main screens docs/WEB-APP.md and the README show: the
// demo's teammates, Ada's memory, her suggestions, her conversations and Settings → About you, at
// the desktop and the phone width. It runs only when MEMORY_SCREENSHOTS names the folder to write
// them to (`make screenshots` writes docs/screenshots/); each picture is what the window shows,
// not the whole page.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("MEMORY_SCREENSHOTS")
	if dir == "" {
		t.Skip("MEMORY_SCREENSHOTS names the folder the screenshots go to (make screenshots)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	eachViewport(t, func(t *testing.T, vp viewport) {
		p := openDemoPage(t, vp, "/")
		// One CSS pixel to one image pixel, so that the pictures stay small.
		emulate := chromedp.EmulateViewport(vp.width, vp.height)
		if vp.phone {
			emulate = chromedp.EmulateViewport(vp.width, vp.height, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		p.do("one pixel per CSS pixel", emulate)
		p.emulateColorScheme("light")
		save := func(name string) {
			t.Helper()
			ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
			defer cancel()
			// Let the page settle: no animation or focus ring caught half-way.
			p.do("settle", chromedp.Evaluate[chromedp.Void](`document.activeElement?.blur()`),
				chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatalf("screenshot %s: %v", name, err)
			}
			if len(png) < 8 || string(png[1:4]) != "PNG" {
				t.Fatalf("screenshot %s: not a PNG", name)
			}
			path := filepath.Join(dir, fmt.Sprintf("%s-%s.png", name, vp.name))
			if err := os.WriteFile(path, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes)", path, len(png))
		}
		// scrollTo puts the element just below the sticky header.
		scrollTo := func(sel string) {
			t.Helper()
			p.waitVisible(sel)
			p.do("scroll to "+sel, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
				const header = document.querySelector('.topbar')?.getBoundingClientRect().height ?? 0
				const top = document.querySelector(%s).getBoundingClientRect().top + window.scrollY
				window.scrollTo({ top: top - header - 12, behavior: 'instant' })
			})()`, jsString(sel))))
		}
		top := func() {
			p.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo({ top: 0, behavior: 'instant' })`))
		}

		p.waitVisible(tid("demo-notice"))
		p.waitFor("two teammates", `document.querySelectorAll('[data-testid="teammate-row"]').length === 2`)
		ada := p.teammateIDByName("Ada (demo)")
		top()
		save("teammates")

		p.navigate("/teammates/" + ada)
		p.waitText(tid("teammate-title"), "Ada (demo)")
		p.waitLive()
		p.itemIDIn(tid("memory-panel"), "Ada drafts replies to the user's email, friendly and short (demo)")
		p.waitVisible(tid("suggestion"))
		p.waitVisible(tid("lessons-section", `[data-state="ready"]`))
		top()
		save("memory")
		scrollTo(tid("suggestions-panel"))
		save("suggestions")

		p.click(tid("tab-conversations"))
		p.waitFor("Ada's run", `document.querySelectorAll('[data-testid="run"]').length === 1`)
		run := eval[string](p, `document.querySelector('[data-testid="run"]').dataset.runId`)
		p.waitVisible(runSel(run, tid("run-reply")))
		p.click(runSel(run, tid("run-memory-toggle")))
		p.waitVisible(runSel(run, tid("memory-given", `[data-state="ready"]`)))
		top()
		save("conversations")

		p.click(tid("nav-settings"))
		p.waitVisible(tid("about-you-page"))
		p.waitVisible(tid("memory-list", `[data-state="ready"]`))
		p.itemIDIn(tid("memory-panel"), "Lives in Porto (demo)")
		top()
		save("settings-about-you")
	})
}

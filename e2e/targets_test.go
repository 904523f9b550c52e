package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// minTarget is the smallest width and height of a control a finger operates (WCAG 2.5.5, 44 CSS px).
const minTarget = 44

// smallTargetsScript lists, for the screen as shown, every visible button, link, [role=button],
// checkbox and summary smaller than minTarget in either direction that has less than that room: grown
// about its centre to minTarget in each short direction, it would overlap another control. One that
// small but with the room around it is still easy to hit. A checkbox
// inside a label is measured as its label, which takes the tap; a link inside a sentence (display
// inline in a longer text) is exempt, as WCAG exempts it.
var smallTargetsScript = `(() => {
  const min = ` + strconv.Itoa(minTarget) + `
  const controls = [...document.querySelectorAll('button, a[href], [role="button"], input[type="checkbox"], summary')]
    .map((el) => ({ el, target: el.matches('input') && el.closest('label') ? el.closest('label') : el }))
    .filter(({ el, target }) => {
      const r = target.getBoundingClientRect()
      const style = getComputedStyle(el)
      // Not shown: no box, the one-pixel box of a visually hidden control, or moved off the page
      // (the skip link until it has the focus).
      return r.width > 1 && r.height > 1 && style.visibility !== 'hidden' && r.right > 0 && r.bottom + window.scrollY > 0
    })
  const rects = controls.map(({ target }) => target.getBoundingClientRect())
  const inSentence = (el) => el.matches('a') && getComputedStyle(el).display === 'inline' &&
    (el.parentElement?.textContent ?? '').trim().length > (el.textContent ?? '').trim().length + 20
  const describe = (el) => {
    const id = el.dataset.testid ? '[data-testid=' + el.dataset.testid + ']' : el.className ? '.' + String(el.className).trim().split(/\s+/).join('.') : ''
    const text = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40)
    return el.tagName.toLowerCase() + id + ' "' + text + '"'
  }
  const small = []
  controls.forEach(({ el, target }, i) => {
    const r = rects[i]
    if ((r.width >= min && r.height >= min) || inSentence(el)) return
    // The target grown about its centre to min in each direction it falls short in.
    const w = Math.max(r.width, min), h = Math.max(r.height, min)
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2
    const crowded = controls.some(({ target: other }, j) => {
      if (j === i || other.contains(target) || target.contains(other)) return false
      const o = rects[j]
      return o.left < cx + w / 2 && o.right > cx - w / 2 && o.top < cy + h / 2 && o.bottom > cy - h / 2
    })
    if (crowded) small.push(describe(el) + ' ' + Math.round(r.width) + '×' + Math.round(r.height))
  })
  return small
})()`

// assertTargetsBigEnough fails the test with every control of the screen too small to tap.
func (p *page) assertTargetsBigEnough(screen string) {
	p.t.Helper()
	p.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	p.shot(strings.NewReplacer(" ", "-", "→", "", "'", "").Replace(screen))
	if small := eval[[]string](p, smallTargetsScript); len(small) > 0 {
		p.t.Errorf("%s at %d px: %d controls smaller than %d×%d px with other controls closer than that:\n  %s",
			screen, p.vp.width, len(small), minTarget, minTarget, strings.Join(small, "\n  "))
	}
}

// assertTabsDontScrollVertically fails the test when a tab strip's content is taller than the strip,
// which shows a stray vertical scrollbar in it.
func (p *page) assertTabsDontScrollVertically(screen string) {
	p.t.Helper()
	heights := eval[[][]float64](p, `[...document.querySelectorAll('.tabs')].map((el) => [el.scrollHeight, el.clientHeight])`)
	if len(heights) == 0 {
		p.t.Fatalf("%s: no tab strip", screen)
	}
	for _, h := range heights {
		if h[0] > h[1] {
			p.t.Errorf("%s: a tab strip's content is %.0f px tall in a %.0f px strip: it scrolls vertically", screen, h[0], h[1])
		}
	}
}

// On a phone every control of the main screens is big enough to tap (WCAG 2.5.5): the teammates,
// a teammate's Memory tab with its suggestions and lessons, its Conversations, Settings, and the
// demo's notice.
func TestPhoneTargetsBigEnough(t *testing.T) {
	requireSuite(t)
	vp := viewports[1]
	if !vp.phone {
		t.Fatal("the second viewport is not the phone's")
	}
	ctx := setup(t)
	teammate, fact, r := mustMainScreens(t, ctx)
	mustSuggest(t, ctx, teammate, "I moved to Lisbon", "Lives in Lisbon", false)

	p := openPage(t, vp, "/")
	p.waitVisible(tid("teammate-list"))
	p.assertTargetsBigEnough("Teammates")

	p.navigate("/teammates/" + teammate)
	p.waitVisible(itemSel(fact.ID))
	p.waitLive()
	p.waitVisible(tid("suggestion"))
	p.waitVisible(tid("lessons-section", `[data-state="ready"]`))
	p.assertTargetsBigEnough("Memory tab with suggestions and lessons")
	p.assertTabsDontScrollVertically("Memory tab")

	p.click(tid("tab-conversations"))
	p.waitVisible(runSel(r.ID, tid("run-reply")))
	p.assertTargetsBigEnough("Conversations")
	p.click(runSel(r.ID, tid("run-memory-toggle")))
	p.waitVisible(runSel(r.ID, tid("memory-given", `[data-state="ready"]`)))
	p.assertTargetsBigEnough("Conversations with a reply's memory open")

	p.click(tid("nav-settings"))
	p.waitVisible(tid("about-you-page"))
	p.waitVisible(tid("memory-list", `[data-state="ready"]`))
	p.assertTargetsBigEnough("Settings → About you")
	p.assertTabsDontScrollVertically("Settings")
	p.click(tid("settings-ai"))
	p.waitVisible(tid("ai-section", `[data-state="ready"]`))
	p.assertTargetsBigEnough("Settings → AI")
	p.click(tid("settings-backups"))
	p.waitVisible(tid("backups-section", `[data-state="ready"]`))
	p.assertTargetsBigEnough("Settings → Backups")

	// The demo's notice: its text takes the notice's width, its buttons go under it.
	d := openDemoPage(t, vp, "/")
	d.waitVisible(tid("demo-notice"))
	widths := eval[[]float64](d, `(() => {
	  const notice = document.querySelector('[data-testid="demo-notice"]')
	  const style = getComputedStyle(notice)
	  const inner = notice.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
	  return [notice.querySelector(':scope > p').getBoundingClientRect().width, inner]
	})()`)
	if widths[0] < widths[1]-1 {
		t.Errorf("the demo notice's text is %.0f px wide in a notice %.0f px wide inside: its buttons squeeze it", widths[0], widths[1])
	}
	d.assertTargetsBigEnough("Teammates with the demo's notice")
}

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The demo is loaded only into a brand-new embedded database (MEMORY_DEMO, on by default), and the
// suite's server runs without it so that every flow starts empty. The demo gets a second server of
// the same binary on its own data directory, started the first time a test asks for it and stopped
// with the suite. That server also has the optional AI configured, with the test playing the
// OpenAI-compatible endpoints (fakeAI), so that Settings → AI can be seen with AI on.
var demo struct {
	once sync.Once
	srv  *server
	ai   *fakeAI
	err  error
	log  string
}

// demoServer is the server with the demo, started on first use.
func demoServer(t *testing.T) *server {
	t.Helper()
	demo.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), defaultDemoStart)
		defer cancel()
		demo.log = filepath.Join(workDir, "demo-server.log")
		demo.ai = startFakeAI()
		demo.srv, demo.err = startServer(ctx, serverBin, filepath.Join(workDir, "demo-data"), demo.log,
			"MEMORY_DEMO=true",
			"MEMORY_EMBEDDING_URL="+demo.ai.url+"/v1", "MEMORY_EMBEDDING_MODEL=fake-embedding",
			"MEMORY_EXTRACTION_URL="+demo.ai.url+"/v1", "MEMORY_EXTRACTION_MODEL=fake-extraction",
			"MEMORY_AI_API_KEY=e2e-fake-key")
	})
	if demo.err != nil {
		t.Fatalf("starting the server with the demo: %v", demo.err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			saveLog(demo.log, "demo-server.log")
		}
	})
	return demo.srv
}

// defaultDemoStart bounds the demo server's start: initdb, migrations and the demo itself.
const defaultDemoStart = 2 * time.Minute

// stopDemoServer stops the demo's server if a test started it (TestMain, at the end).
func stopDemoServer() {
	if demo.srv != nil {
		demo.srv.stop()
	}
	if demo.ai != nil {
		demo.ai.Close()
	}
}

// saveLog copies a server log's tail into the artifacts folder.
func saveLog(path, name string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if len(b) > 8000 {
		b = b[len(b)-8000:]
	}
	if os.MkdirAll(artifactsDir(), 0o755) == nil {
		_ = os.WriteFile(filepath.Join(artifactsDir(), name), b, 0o644)
	}
}

// openDemoPage signs a browser context of its own in to the demo's server with the login link (the
// cookie must not replace the suite's own session) and opens path.
func openDemoPage(t *testing.T, vp viewport, path string) *page {
	t.Helper()
	s := demoServer(t)
	p := openPageOn(t, s, browser, vp, "/login?token="+s.userToken, chromedp.WithNewBrowserContext())
	p.waitVisible(tid("teammates-page"))
	if path != "/" {
		p.navigate(path)
	}
	return p
}

// teammateIDByName waits for the row of the teammate named name and returns its id.
func (p *page) teammateIDByName(name string) string {
	p.t.Helper()
	expr := fmt.Sprintf(`[...document.querySelectorAll('[data-testid="teammate-row"]')]
		.find((row) => row.querySelector('.teammate-name')?.textContent === %s)?.dataset.teammateId`, jsString(name))
	p.waitFor("the teammate "+name, expr)
	return eval[string](p, expr)
}

// itemIDIn waits for a memory item inside section (a selector) whose content reads content.
func (p *page) itemIDIn(section, content string) string {
	p.t.Helper()
	expr := fmt.Sprintf(`[...document.querySelectorAll(%s)]
		.find((el) => el.querySelector('[data-testid="item-content"]')?.textContent === %s)?.dataset.itemId`,
		jsString(section+` [data-testid="memory-item"]`), jsString(content))
	p.waitFor(fmt.Sprintf("the item %q in %s", content, section), expr)
	return eval[string](p, expr)
}

// A brand-new embedded database starts with the labelled demo, and every screen shows it: two
// teammates marked Demo with a notice saying what they are; Ada's own memory (a pinned note), her
// suggestion, her lesson linked to the reply that prompted it; shared memory in About you; runs
// with their replies, a rating, and the memory each was given — one entry CHANGED since, because the
// demo corrected the fact after the run — and the stale-thread warning that correction causes; the
// recall preview finds the corrected fact.
func TestDemoDataOnEveryScreen(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		p := openDemoPage(t, vp, "/")

		// Teammates: two, both labelled, with the notice.
		p.waitVisible(tid("demo-notice"))
		if got := p.text(tid("demo-notice")); !strings.Contains(got, "This is a demo") || !strings.Contains(got, "Ada (demo)") || !strings.Contains(got, "Ben (demo)") {
			t.Errorf("the demo notice says %q", got)
		}
		p.waitFor("two teammates", `document.querySelectorAll('[data-testid="teammate-row"]').length === 2`)
		if n := eval[int](p, `document.querySelectorAll('[data-testid="teammate-row"][data-demo="true"] [data-testid="demo-badge"]').length`); n != 2 {
			t.Errorf("%d teammates carry the Demo badge, want 2", n)
		}
		ada := p.teammateIDByName("Ada (demo)")
		ben := p.teammateIDByName("Ben (demo)")
		p.assertAccessible("Demo: teammates")
		p.shot("teammates")

		// Ada's Memory tab.
		p.click(tid("teammate-row", fmt.Sprintf(`[data-teammate-id=%q] `, ada), tid("teammate-link")))
		p.waitText(tid("teammate-title"), "Ada (demo)")
		p.waitVisible(`.page-head ` + tid("demo-badge"))
		p.waitVisible(tid("demo-notice"))
		note := p.itemIDIn(tid("memory-panel"), "Ada drafts replies to the user's email, friendly and short (demo)")
		p.waitVisible(itemSel(note, tid("item-pinned")))
		p.waitVisible(itemSel(note, tid("demo-badge")))
		p.itemIDIn(tid("memory-panel"), "my sister's name is Eva")
		p.waitFor("Ada's suggestion", `[...document.querySelectorAll('[data-testid="suggestion"]')]
			.some((s) => s.querySelector('[data-testid="suggestion-content"]')?.textContent === 'Enjoys long walks on Sundays (demo suggestion)'
				&& s.querySelector('[data-testid="demo-badge"]'))`)
		lesson := p.itemIDIn(tid("lessons-section"), "Sign replies with the user's first name (demo lesson).")
		lessonSel := func(inner string) string {
			return fmt.Sprintf(`[data-testid="lessons-section"] [data-testid="memory-item"][data-item-id=%q] %s`, lesson, inner)
		}
		p.waitVisible(lessonSel(tid("demo-badge")))
		p.click(lessonSel(tid("lesson-reply-toggle")))
		p.waitText(lessonSel(tid("lesson-reply-text")), "You live in Lisbon. I'll remember that your sister is Eva.")
		p.fill(tid("recall-query"), "where do I live")
		p.click(tid("recall-submit"))
		p.waitFor("the corrected fact in the recall preview", `[...document.querySelectorAll('[data-testid="recall-entry"]')]
			.some((e) => e.textContent.includes('Lives in Porto (demo)'))`)
		p.assertAccessible("Demo: Ada's memory")
		p.shot("ada-memory")

		// Ada's conversation: the reply, its thumbs down, what it was given (one entry changed since),
		// and the warning that the next message starts a fresh thread.
		p.click(tid("tab-conversations"))
		p.waitFor("Ada's run", `document.querySelectorAll('[data-testid="run"]').length === 1`)
		run := eval[string](p, `document.querySelector('[data-testid="run"]').dataset.runId`)
		p.waitText(runSel(run, tid("run-reply")), "You live in Lisbon. I'll remember that your sister is Eva.")
		p.waitVisible(runSel(run) + `[data-rating="DOWN"]`)
		p.waitVisible(tid("thread-stale"))
		p.click(runSel(run, tid("run-memory-toggle")))
		p.waitVisible(runSel(run, tid("memory-given", `[data-state="ready"]`)))
		changed := runSel(run, `[data-testid="memory-given-entry"][data-state="CHANGED"]`)
		p.waitVisible(changed)
		if got := p.text(changed + " " + tid("memory-given-text")); got != "Lives in Porto (demo)" {
			t.Errorf("the changed entry shows %q, want the corrected fact", got)
		}
		p.waitVisible(changed + " " + tid("demo-badge"))
		p.waitVisible(runSel(run, `[data-testid="memory-given-entry"][data-state="UNCHANGED"]`))
		p.assertAccessible("Demo: Ada's conversations")
		p.shot("ada-conversations")

		// Ben's conversation, with the memory it was given.
		p.navigate("/teammates/" + ben + "/conversations")
		p.waitText(tid("teammate-title"), "Ben (demo)")
		p.waitFor("Ben's run", `document.querySelectorAll('[data-testid="run"]').length === 1`)
		benRun := eval[string](p, `document.querySelector('[data-testid="run"]').dataset.runId`)
		p.waitText(runSel(benRun, tid("run-reply")), "Black, no sugar.")
		p.click(runSel(benRun, tid("run-memory-toggle")))
		p.waitFor("Ben's memory context", fmt.Sprintf(`[...document.querySelectorAll(%s)].some((e) => e.textContent.includes('Black, no sugar (demo)'))`,
			jsString(runSel(benRun, tid("memory-given-entry")))))
		p.assertNoHorizontalScroll()

		// About you: the shared fact (as corrected) and the shared preference.
		p.click(tid("nav-settings"))
		p.waitVisible(tid("about-you-page"))
		home := p.itemIDIn(tid("memory-panel"), "Lives in Porto (demo)")
		coffee := p.itemIDIn(tid("memory-panel"), "Black, no sugar (demo)")
		p.waitVisible(itemSel(home, tid("demo-badge")))
		p.waitVisible(itemSel(coffee, tid("demo-badge")))
		p.waitText(itemSel(coffee, tid("item-key")), "coffee")
		p.waitVisible(itemSel(home) + `[data-revision="2"]`)
		p.assertAccessible("Demo: About you")
		p.shot("about-you")
	})
}

// "Remove the demo" takes it away in one click and a confirmation: the dialog names both demo
// teammates and the shared memories marked (demo), Cancel has the focus; after confirming, the
// demo teammates leave the list — live on another open page too — the user's own teammate stays, the notice is gone, and About you keeps
// only what the user added. The test runs a demo server of its own, as the suite's demo server is
// read by other tests.
func TestRemoveDemo(t *testing.T) {
	requireSuite(t)
	ctx, cancel := context.WithTimeout(context.Background(), defaultDemoStart)
	defer cancel()
	logPath := filepath.Join(workDir, "remove-demo-server.log")
	s, err := startServer(ctx, serverBin, filepath.Join(workDir, "remove-demo-data"), logPath, "MEMORY_DEMO=true")
	if err != nil {
		t.Fatalf("starting a server with the demo: %v", err)
	}
	t.Cleanup(s.stop) // after the pages have closed (cleanups run last first)
	t.Cleanup(func() {
		if t.Failed() {
			saveLog(logPath, "remove-demo-server.log")
		}
	})
	as := s.as(s.userToken)
	if _, err := as.createMemory(ctx, newMemory{Content: "Works from home on Fridays"}); err != nil {
		t.Fatal(err)
	}

	desktop, phone := viewports[0], viewports[1]
	other := openPageOn(t, s, browser, phone, "/login?token="+s.userToken, chromedp.WithNewBrowserContext())
	other.waitFor("two teammates", `document.querySelectorAll('[data-testid="teammate-row"]').length === 2`)
	// The list is live once a teammate added elsewhere shows up; the user's own one must survive.
	if _, err := as.createTeammate(ctx, "Zed"); err != nil {
		t.Fatal(err)
	}
	other.waitFor("Zed, live", `document.querySelectorAll('[data-testid="teammate-row"]').length === 3`)

	p := openPageOn(t, s, browser, desktop, "/login?token="+s.userToken, chromedp.WithNewBrowserContext())
	p.waitVisible(tid("demo-notice"))
	p.click(tid("demo-remove"))
	p.waitVisible(tid("remove-demo-dialog"))
	p.waitFor("Cancel to have the focus", `document.activeElement?.dataset.testid === 'remove-demo-cancel'`)
	if got := p.text(tid("remove-demo-explanation")); !strings.Contains(got, "Ada (demo)") || !strings.Contains(got, "Ben (demo)") || !strings.Contains(got, "(demo)”") {
		t.Errorf("the confirmation says %q", got)
	}
	p.assertAccessible("Remove the demo")
	p.shot("remove-demo-dialog")
	p.click(tid("remove-demo-cancel"))
	p.waitGone(tid("remove-demo-dialog"))
	if n := eval[int](p, `document.querySelectorAll('[data-testid="teammate-row"]').length`); n != 3 {
		t.Fatalf("Cancel removed something: %d teammates left", n)
	}

	p.click(tid("demo-remove"))
	p.click(tid("remove-demo-confirm"))
	p.waitGone(tid("remove-demo-dialog"))
	p.waitFor("only Zed", `document.querySelectorAll('[data-testid="teammate-row"]').length === 1`)
	p.teammateIDByName("Zed")
	p.waitGone(tid("demo-notice"))
	other.waitFor("only Zed on the other page, live", `document.querySelectorAll('[data-testid="teammate-row"]').length === 1`)
	other.waitGone(tid("demo-notice"))

	p.navigate("/settings/about-you")
	p.waitItemWithContent("Works from home on Fridays")
	p.waitItemCount(1)
	p.shot("demo-removed")
}

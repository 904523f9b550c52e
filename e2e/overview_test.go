package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// teammateRowSel selects inside the teammate list's row of id.
func teammateRowSel(id string, inner ...string) string {
	s := fmt.Sprintf(`[data-testid="teammate-row"][data-teammate-id=%q]`, id)
	for _, in := range inner {
		s += " " + in
	}
	return s
}

// The teammate list says what each teammate keeps (memories, suggestions waiting,
// last conversation), most recently active first; one search finds memory of every teammate and of
// About you, each result saying whose it is; memory cards show their date and name their item on
// every button; a lesson is listed once, under Lessons.
func TestTeammateListCountsSearchAndLessonsOnce(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		// Busy is added first, Quiet second; Busy's later activity puts it above Quiet.
		busy, err := user.createTeammate(ctx, "Busy "+vp.name)
		if err != nil {
			t.Fatal(err)
		}
		quiet, err := user.createTeammate(ctx, "Quiet "+vp.name)
		if err != nil {
			t.Fatal(err)
		}
		tag := "quokka-" + vp.name
		mustMemory(t, ctx, newMemory{TeammateID: busy, Content: "Took a photo tagged " + tag, Key: "photo"})
		plain := mustMemory(t, ctx, newMemory{TeammateID: busy, Content: "Prefers short answers", Kind: "PREFERENCE"})
		shared := mustMemory(t, ctx, newMemory{Content: "Shared note about " + tag})
		mustSuggest(t, ctx, busy, "I started learning Portuguese", "Learns Portuguese", false)
		r := startRun(t, ctx, busy, "Summarise my week")
		r.complete(t, ctx, "A busy week.")
		if err := user.keepLesson(ctx, r.ID, "Lead with the numbers"); err != nil {
			t.Fatalf("keepLesson: %v", err)
		}

		p := openPage(t, vp, "/")
		p.waitVisible(teammateRowSel(busy))
		p.waitText(teammateRowSel(busy, tid("teammate-memories")), "3 memories") // two and the lesson
		p.waitText(teammateRowSel(busy, tid("teammate-suggestions")), "1 suggestion waiting")
		if got := p.text(teammateRowSel(busy, tid("teammate-last-conversation"))); !strings.HasPrefix(got, "last conversation ") {
			t.Errorf("Busy's row says %q, want its last conversation", got)
		}
		p.waitText(teammateRowSel(quiet, tid("teammate-memories")), "0 memories")
		if eval[bool](p, `!!document.querySelector(`+jsString(teammateRowSel(quiet, tid("teammate-suggestions")))+`)`) {
			t.Error("Quiet's row shows suggestions waiting; it has none")
		}
		if got := p.text(teammateRowSel(quiet, tid("teammate-last-conversation"))); !strings.HasPrefix(got, "no conversations yet") {
			t.Errorf("Quiet's row says %q, want no conversations yet", got)
		}
		order := eval[[]string](p, `[...document.querySelectorAll('[data-testid="teammate-row"]')].map((r) => r.dataset.teammateId)`)
		if i, j := indexOf(order, busy), indexOf(order, quiet); i < 0 || j < 0 || i > j {
			t.Errorf("Busy (active just now) is at %d and Quiet (only added) at %d; want the most recently active first", i, j)
		}
		p.assertAccessible("Teammates with counts")
		p.shot("counts")

		// One search across every teammate and About you.
		p.fill(tid("search-all-input"), tag)
		p.waitFor("two results", fmt.Sprintf(`document.querySelector('[data-testid="search-all-count"]')?.dataset.search === %s
			&& document.querySelectorAll('[data-testid="search-all-result"]').length === 2`, jsString(tag)))
		if got := p.text(fmt.Sprintf(`[data-testid="search-all-result"][data-item-id=%q] [data-testid="search-all-where"]`, shared.ID)); !strings.HasPrefix(got, "About you") {
			t.Errorf("the shared result says it is in %q, want About you", got)
		}
		busyResult := `[data-testid="search-all-result"][data-scope="` + busy + `"]`
		if got := p.text(busyResult + " " + tid("search-all-where")); got != "Busy "+vp.name+"’s memory" {
			t.Errorf("Busy's result says it is in %q", got)
		}
		p.assertNoHorizontalScroll()
		p.shot("search")
		p.click(busyResult + " " + tid("search-all-where"))
		p.waitText(tid("teammate-title"), "Busy "+vp.name)

		// The lesson once: under Lessons, not also in the memory list.
		p.waitVisible(tid("lessons-section", `[data-state="ready"]`))
		p.waitFor("the lesson under Lessons", `[...document.querySelectorAll('[data-testid="lessons-section"] [data-testid="item-content"]')].some((el) => el.textContent === 'Lead with the numbers')`)
		// The same count as the teammate list's: memories, lessons included.
		p.waitText(tid("memory-count"), "3 memories, 1 of them a lesson")
		if eval[bool](p, `[...document.querySelectorAll('[data-testid="memory-panel"] [data-testid="item-content"]')].some((el) => el.textContent === 'Lead with the numbers')`) {
			t.Error("the lesson is listed twice: in the memory list too")
		}
		if n := eval[int](p, `[...document.querySelectorAll('[data-testid="item-content"]')].filter((el) => el.textContent === 'Lead with the numbers').length`); n != 1 {
			t.Errorf("the lesson is shown %d times on the page, want once", n)
		}

		// Dates, and buttons that say which item they act on.
		if got := p.text(itemSel(plain.ID, tid("item-date"))); got != "Added today" {
			t.Errorf("the card's date reads %q, want when it was added: Added today", got)
		}
		if got := eval[string](p, fmt.Sprintf(`document.querySelector(%s).title`, jsString(itemSel(plain.ID, tid("item-date"))))); !strings.Contains(got, fmt.Sprint(time.Now().UTC().Year())) {
			t.Errorf("the card's date has the title %q, want the full date", got)
		}
		for sel, want := range map[string]string{
			itemSel(plain.ID, tid("item-edit")):   "Edit ‘Prefers short answers’",
			itemSel(plain.ID, tid("item-forget")): "Forget ‘Prefers short answers’",
			itemSel(plain.ID, tid("item-pin")):    "Pin ‘Prefers short answers’",
		} {
			if got := eval[string](p, `document.querySelector(`+jsString(sel)+`).getAttribute('aria-label')`); got != want {
				t.Errorf("%s is named %q, want %q", sel, got, want)
			}
		}
		keyed := eval[string](p, `[...document.querySelectorAll('[data-testid="memory-panel"] [data-testid="memory-item"]')].find((el) => el.querySelector('[data-testid="item-key"]')?.textContent === 'photo').querySelector('[data-testid="item-edit"]').getAttribute('aria-label')`)
		if keyed != "Edit ‘photo’" {
			t.Errorf("the keyed item's Edit is named %q, want it named by its key", keyed)
		}
	})
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// The demo's notices can be hidden, once for the list and the demo teammates' pages, and stay hidden.
func TestDemoNoticeCanBeHidden(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		p := openDemoPage(t, vp, "/")
		p.waitVisible(tid("demo-notice"))
		ada := p.teammateIDByName("Ada (demo)")
		p.click(tid("demo-notice-dismiss"))
		p.waitGone(tid("demo-notice"))
		p.navigate("/")
		p.waitVisible(teammateRowSel(ada))
		p.waitVisible(teammateRowSel(ada, tid("demo-badge"))) // the rows stay labelled
		if eval[bool](p, `!!document.querySelector('[data-testid="demo-notice"]')`) {
			t.Error("the demo notice is back after a reload")
		}
		p.navigate("/teammates/" + ada)
		p.waitText(tid("teammate-title"), "Ada (demo)")
		p.waitVisible(tid("memory-list", `[data-state="ready"]`))
		if eval[bool](p, `!!document.querySelector('[data-testid="demo-notice"]')`) {
			t.Error("the demo teammate's page still shows the notice the user hid")
		}
	})
}

// The offline banner: when the server stops, an open page says it can't reach it and keeps trying;
// when the server is back, the page says so, is live again (a change made meanwhile shows without
// a reload) and the banner goes. The test runs a server of its own, stopped and started again on
// the same address and data.
func TestOfflineBanner(t *testing.T) {
	requireSuite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dataDir := filepath.Join(workDir, "offline-data")
	logPath := filepath.Join(workDir, "offline-server.log")
	s, err := startServer(ctx, serverBin, dataDir, logPath)
	if err != nil {
		t.Fatalf("starting a server to stop: %v", err)
	}
	defer func() { s.stop() }()
	t.Cleanup(func() {
		if t.Failed() {
			saveLog(logPath, "offline-server.log")
		}
	})
	addr := strings.TrimPrefix(s.base, "http://")
	as := s.as(s.userToken)

	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			teammate, err := as.createTeammate(ctx, "Offline "+vp.name)
			if err != nil {
				t.Fatal(err)
			}
			p := openPageOn(t, s, browser, vp, "/login?token="+s.userToken, chromedp.WithNewBrowserContext())
			// Stopping the server makes the browser log failed connections: expected here.
			p.expectConsole("ERR_CONNECTION_REFUSED")
			p.expectConsole("WebSocket connection to")
			p.expectConsole("Failed to load resource")
			p.waitVisible(tid("teammates-page"))
			p.navigate("/teammates/" + teammate)
			p.waitVisible(tid("memory-empty"))
			p.waitLive()
			if eval[bool](p, `!!document.querySelector('[data-testid="connection-banner"]')`) {
				t.Fatal("the connection banner shows while the server is up")
			}

			s.stop()
			p.waitVisible(tid("connection-banner", `[data-state="down"]`))
			if got := p.text(tid("connection-banner")); !strings.Contains(got, "Can’t reach the server") || !strings.Contains(got, "Trying again") {
				t.Errorf("the banner says %q", got)
			}
			p.assertNoHorizontalScroll()
			p.assertContrast("Offline banner")
			p.shot("offline")

			if s, err = startServerAt(ctx, serverBin, dataDir, logPath, addr); err != nil {
				t.Fatalf("starting the server again: %v", err)
			}
			item, err := s.as(s.userToken).createMemory(ctx, newMemory{TeammateID: teammate, Content: "Written while the page was reconnecting"})
			if err != nil {
				t.Fatalf("createMemory: %v", err)
			}
			p.waitVisible(tid("connection-banner", `[data-state="back"]`))
			p.waitText(itemSel(item.ID, tid("item-content")), "Written while the page was reconnecting")
			p.waitGone(tid("connection-banner"))
		})
	}
}

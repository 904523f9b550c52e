package e2e

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// setup gives a test a context for API calls that ends with it.
func setup(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// mustTeammate creates a teammate through the API, named after the test so runs don't collide.
func mustTeammate(t *testing.T, ctx context.Context) string {
	t.Helper()
	id, err := user.createTeammate(ctx, strings.ReplaceAll(t.Name(), "/", " "))
	if err != nil {
		t.Fatalf("createTeammate: %v", err)
	}
	return id
}

func mustMemory(t *testing.T, ctx context.Context, m newMemory) memoryItem {
	t.Helper()
	item, err := user.createMemory(ctx, m)
	if err != nil {
		t.Fatalf("createMemory %q: %v", m.Content, err)
	}
	return item
}

func mustEdit(t *testing.T, ctx context.Context, id string, base int, content string) memoryItem {
	t.Helper()
	item, err := user.editContent(ctx, id, base, content)
	if err != nil {
		t.Fatalf("editMemory %s@%d: %v", id, base, err)
	}
	return item
}

// Without the session cookie the app says where the login link is, and makes no noise about it.
func TestLoginRequiredWithoutSession(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		// A fresh browser context has no cookies: the state of a browser that never opened the link.
		p := openPageIn(t, browser, vp, "/", chromedp.WithNewBrowserContext())
		p.waitVisible(tid("login-required"))
		if got := p.text(tid("login-required")); !strings.Contains(got, "Open the login link the server printed at start") {
			t.Errorf("login screen says %q, want it to point at the printed login link", got)
		}
		p.assertNoHorizontalScroll()

		// Pasting the token instead: a wrong one, or the worker's, is explained on the spot.
		p.click(tid("login-submit"))
		p.waitText(tid("login-problem"), "Paste the user token first.")
		p.fill(tid("login-token"), "mu_this-is-not-the-token-of-this-server")
		p.click(tid("login-submit"))
		p.waitText(tid("login-problem"), "That token doesn’t work on this server. Copy the user token again, whole, from the file named above.")
		p.fill(tid("login-token"), srv.workerToken)
		p.click(tid("login-submit"))
		p.waitText(tid("login-problem"), "That is the worker’s token, not yours. Paste the user token (the file user-token, not worker-token).")
		p.assertNoHorizontalScroll()
		p.shot("login-problem")
		p.fill(tid("login-token"), srv.userToken)
		p.click(tid("login-submit"))
		p.waitVisible(tid("teammates-page"))
	})
}

// A login link with a wrong token answers 401 with the app's own sign-in page, which says so, shows
// this server's address in its example, and drops the token from the address bar.
func TestBadLoginLink(t *testing.T) {
	requireSuite(t)
	resp, err := http.Get(srv.base + "/login?token=mu_wrong")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("a bad login link answers %d %s, want 401 with the app's HTML page", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	eachViewport(t, func(t *testing.T, vp viewport) {
		p := openPageIn(t, browser, vp, "/login?token=mu_wrong", chromedp.WithNewBrowserContext())
		p.expectConsole("status of 401 (Unauthorized) (" + srv.base + "/login?token=mu_wrong")
		p.waitVisible(tid("login-link-invalid"))
		p.waitText(tid("login-example"), srv.base+"/login?token=mu_…")
		if got := eval[string](p, `location.pathname + location.search`); got != "/" {
			t.Errorf("the address bar still reads %q after a bad login link, want /", got)
		}
		p.assertNoHorizontalScroll()
	})
}

// A bad login link opened in a browser that is signed in already says the link is not valid and
// that the browser is still signed in, with a way home, rather than "Not found"; the token leaves
// the address bar.
func TestBadLoginLinkWhenSignedIn(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		p := openPage(t, vp, "/login?token=mu_wrong")
		p.expectConsole("status of 401 (Unauthorized) (" + srv.base + "/login?token=mu_wrong")
		p.waitVisible(tid("login-link-refused"))
		if text := p.text(tid("login-link-refused")); !strings.Contains(text, "not valid or has expired") || !strings.Contains(text, "still signed in") {
			t.Errorf("the page reads %q, want it to say the link is not valid and the browser still signed in", text)
		}
		if got := eval[string](p, `location.pathname + location.search`); got != "/login" {
			t.Errorf("the address bar reads %q after a bad login link, want /login without the token", got)
		}
		p.assertAccessible("Refused login link")
		p.click(tid("login-link-home"))
		p.waitVisible(tid("teammates-page"))
	})
}

// Teammates are created by name on the list, and open on their Memory tab.
func TestCreateTeammateAndOpenIt(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		name := "Research assistant " + vp.name
		p := openPage(t, vp, "/")
		p.waitVisible(tid("teammates-page"))
		p.fill(tid("teammate-name-input"), name)
		p.click(tid("teammate-create"))
		row := fmt.Sprintf(`[...document.querySelectorAll('[data-testid="teammate-row"]')].find((row) => row.querySelector('.teammate-name')?.textContent === %s)?.dataset.teammateId`, jsString(name))
		p.waitFor("the new teammate in the list", row)
		p.assertNoHorizontalScroll()
		p.shot("list")
		p.click(tid("teammate-row", fmt.Sprintf(`[data-teammate-id=%q] `, eval[string](p, row)), tid("teammate-link")))
		p.waitText(tid("teammate-title"), name)
		p.waitVisible(tid("tab-memory", `[aria-current="page"]`))
		p.waitVisible(tid("memory-empty"))
		p.waitFor("the generation from the subscription", `document.querySelector('[data-testid="teammate-generation"]').dataset.live === 'true'`)
		if g := p.text(tid("teammate-generation")); !strings.HasPrefix(g, "generation ") || strings.Count(g, ":") != 2 {
			t.Errorf("generation shows %q, want shared:own:expired", g)
		}
	})
}

// Items created in the form show key, content, kind and revision; pinned ones come first.
func TestCreateItemsPinnedFirst(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(tid("memory-empty"))

		p.click(tid("memory-new"))
		p.fill(tid("create-content"), "Writes reports in British English")
		p.fill(tid("create-key"), "spelling")
		p.choose(tid("create-kind"), "PREFERENCE")
		p.click(tid("create-pinned")) // a preference is pinned unless unticked (P2); this one is not
		p.assertNoHorizontalScroll()
		p.shot("create-form")
		p.click(tid("create-submit"))
		first := p.waitItemWithContent("Writes reports in British English")
		p.waitGone(tid("memory-create-form"))

		p.click(tid("memory-new"))
		p.fill(tid("create-content"), "Never schedule meetings on Friday afternoons")
		p.click(tid("create-pinned"))
		p.click(tid("create-submit"))
		pinned := p.waitItemWithContent("Never schedule meetings on Friday afternoons")
		p.waitItemCount(2)

		if got := p.listedContents(); got[0] != "Never schedule meetings on Friday afternoons" {
			t.Errorf("list order %q, want the pinned item first", got)
		}
		p.waitVisible(itemSel(pinned, tid("item-pinned")))
		if got := p.text(itemSel(first, tid("item-key"))); got != "spelling" {
			t.Errorf("key shows %q, want %q", got, "spelling")
		}
		if got := p.text(itemSel(first, tid("item-kind"))); got != "Preference" {
			t.Errorf("kind shows %q, want Preference", got)
		}
		if got := p.text(itemSel(first, tid("item-date"))); got != "Added today" {
			t.Errorf("the date shows %q, want Added today", got)
		}
		// Revision numbers only under Technical details: none on the page as it first shows.
		if eval[bool](p, `document.querySelector('main').innerText.toLowerCase().includes('revision')`) {
			t.Error("the word revision shows outside a folded Technical details panel")
		}
		p.waitText(tid("memory-count"), "2 memories")
		p.assertNoHorizontalScroll()
	})
}

// Search (debounced, server-side) and the kind filter narrow the list.
func TestSearchAndKindFilter(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Drinks espresso before nine", Key: "coffee"})
		mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Prefers green tea in the afternoon", Kind: "PREFERENCE"})
		mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Dentist appointment on the 14th", Kind: "NOTE"})
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitItemCount(3)

		p.fill(tid("memory-search"), "espresso")
		p.waitVisible(tid("memory-list", `[data-search="espresso"][data-state="ready"]`))
		p.waitItemCount(1)
		if got := p.listedContents(); got[0] != "Drinks espresso before nine" {
			t.Errorf("search espresso lists %q", got)
		}
		p.fill(tid("memory-search"), "coffee") // the key matches too
		p.waitVisible(tid("memory-list", `[data-search="coffee"]`))
		p.waitItemCount(1)

		p.fill(tid("memory-search"), "")
		p.waitVisible(tid("memory-list", `[data-search=""]`))
		p.waitItemCount(3)
		p.choose(tid("memory-kind-filter"), "PREFERENCE")
		p.waitVisible(tid("memory-list", `[data-kind="PREFERENCE"]`))
		p.waitItemCount(1)
		if got := p.listedContents(); got[0] != "Prefers green tea in the afternoon" {
			t.Errorf("kind PREFERENCE lists %q", got)
		}
		p.fill(tid("memory-search"), "espresso")
		p.waitVisible(tid("memory-list", `[data-search="espresso"][data-kind="PREFERENCE"]`))
		p.waitVisible(tid("memory-empty"))
		p.assertNoHorizontalScroll()
	})
}

// Editing in place saves a new revision based on the one shown; Undo brings the old text back;
// pin and unpin are revisions too.
func TestEditUndoAndPin(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		item := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Lives in Lisbon", Key: "home"})
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(itemSel(item.ID))

		p.click(itemSel(item.ID, tid("item-edit")))
		p.fill(itemSel(item.ID, tid("editor-content")), "Lives in Porto")
		p.assertNoHorizontalScroll()
		p.shot("editor")
		p.click(itemSel(item.ID, tid("editor-save")))
		p.waitText(itemSel(item.ID, tid("item-content")), "Lives in Porto")
		p.waitVisible(itemSel(item.ID) + `[data-revision="2"]`)

		p.click(itemSel(item.ID, tid("item-undo")))
		p.waitText(itemSel(item.ID, tid("item-content")), "Lives in Lisbon")
		p.waitVisible(itemSel(item.ID) + `[data-revision="3"]`)
		p.waitGone(itemSel(item.ID, tid("item-undo")))

		p.click(itemSel(item.ID, tid("item-pin")))
		p.waitVisible(itemSel(item.ID) + `[data-pinned="true"][data-revision="4"]`)
		p.click(itemSel(item.ID, tid("item-pin")))
		p.waitVisible(itemSel(item.ID) + `[data-pinned="false"][data-revision="5"]`)

		got, err := user.memoryItem(ctx, item.ID)
		if err != nil || got.Content != "Lives in Lisbon" || got.Revision != 5 || got.Pinned {
			t.Errorf("after edit, undo, pin, unpin the item is %+v (%v), want Lisbon at revision 5, unpinned", got, err)
		}
	})
}

// R4: a save based on an old revision answers CONFLICT; the editor keeps the user's text beside the
// newer version. "Use mine" saves it on top of the current revision; "Discard mine" drops it.
func TestConflictKeepsUnsavedText(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		item := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Works at Acme"})
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(itemSel(item.ID))

		const mine = "Works at Acme as head of research"
		const theirs = "Works at Initech since March"
		p.click(itemSel(item.ID, tid("item-edit")))
		p.fill(itemSel(item.ID, tid("editor-content")), mine)
		mustEdit(t, ctx, item.ID, 1, theirs) // behind the editor's back: revision 2
		p.click(itemSel(item.ID, tid("editor-save")))

		p.waitVisible(itemSel(item.ID, tid("conflict-view")))
		if got := p.value(itemSel(item.ID, tid("conflict-mine"))); got != mine {
			t.Errorf("the conflict view keeps %q as the user's text, want %q", got, mine)
		}
		p.waitText(itemSel(item.ID, tid("conflict-theirs")), theirs)
		p.waitText(itemSel(item.ID, tid("conflict-current-revision")), "revision 2")
		p.assertNoHorizontalScroll()
		p.shot("conflict")

		p.click(itemSel(item.ID, tid("conflict-use-mine")))
		p.waitGone(itemSel(item.ID, tid("conflict-view")))
		p.waitText(itemSel(item.ID, tid("item-content")), mine)
		p.waitVisible(itemSel(item.ID) + `[data-revision="3"]`)
		revs, err := user.revisions(ctx, item.ID)
		if err != nil || len(revs) != 3 || revs[0].Content != mine || revs[0].BasedOn == nil || *revs[0].BasedOn != 2 {
			t.Errorf("revisions after Use mine: %+v (%v), want revision 3 = mine, based on 2", revs, err)
		}

		// Again, and this time the user gives up their text.
		p.click(itemSel(item.ID, tid("item-edit")))
		p.fill(itemSel(item.ID, tid("editor-content")), "A draft nobody will see")
		const newer = "Works at Initech as head of research"
		mustEdit(t, ctx, item.ID, 3, newer)
		p.click(itemSel(item.ID, tid("editor-save")))
		p.waitVisible(itemSel(item.ID, tid("conflict-view")))
		p.click(itemSel(item.ID, tid("conflict-discard")))
		p.waitGone(itemSel(item.ID, tid("conflict-view")))
		p.waitText(itemSel(item.ID, tid("item-content")), newer)
		p.waitVisible(itemSel(item.ID) + `[data-revision="4"]`)
	})
}

// History lists revisions newest first with action and actor; Restore writes an earlier one again.
func TestHistoryAndRestore(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		item := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Favourite colour: blue", Key: "colour"})
		mustEdit(t, ctx, item.ID, 1, "Favourite colour: green")
		mustEdit(t, ctx, item.ID, 2, "Favourite colour: red")
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitText(itemSel(item.ID, tid("item-content")), "Favourite colour: red")

		p.click(itemSel(item.ID, tid("item-history")))
		p.waitFor("three revisions", fmt.Sprintf(`document.querySelectorAll(%s).length === 3`, jsString(itemSel(item.ID, tid("history-revision")))))
		order := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%s)].map((el) => el.dataset.revision + ' ' + el.dataset.action)`, jsString(itemSel(item.ID, tid("history-revision")))))
		if !slices.Equal(order, []string{"3 EDIT", "2 EDIT", "1 CREATE"}) {
			t.Errorf("history lists %q, want newest first: 3 EDIT, 2 EDIT, 1 CREATE", order)
		}
		if got := p.text(itemSel(item.ID, tid("history-revision", `[data-revision="1"]`), tid("history-content"))); got != "Favourite colour: blue" {
			t.Errorf("revision 1 shows %q", got)
		}
		p.waitGone(itemSel(item.ID, tid("history-revision", `[data-revision="3"]`), tid("history-restore")))
		// In words: what was done, by whom and when; the revision numbers only under Technical details.
		if got := eval[string](p, fmt.Sprintf(`document.querySelector(%s).innerText`, jsString(itemSel(item.ID, tid("history-panel"))))); strings.Contains(strings.ToLower(got), "revision") || !strings.Contains(got, "Technical details") {
			t.Errorf("the history says %q, want no revision numbers outside Technical details", got)
		}
		if got := p.text(itemSel(item.ID, tid("history-details"))); !strings.Contains(got, "revision 2, edited") || !strings.Contains(got, "based on revision 1") {
			t.Errorf("the history's technical details say %q", got)
		}
		p.assertNoHorizontalScroll()
		p.shot("history")

		p.click(itemSel(item.ID, tid("history-revision", `[data-revision="1"]`), tid("history-restore")))
		p.waitText(itemSel(item.ID, tid("item-content")), "Favourite colour: blue")
		p.waitVisible(itemSel(item.ID) + `[data-revision="4"]`)
		p.waitVisible(itemSel(item.ID, tid("history-revision", `[data-revision="4"][data-action="RESTORE"]`)))
		p.waitVisible(itemSel(item.ID, tid("item-undo"))) // a restore is a save: Undo is offered
	})
}

// G7 and live lists: changes made elsewhere (here through the API) show up in the open page without a
// reload; the generation moves, shown only in the Technical details panel, and the Memory tab shows
// no "fresh thread" notice (that is said once, in Conversations); an item is marked expired when its
// time passes.
func TestLiveUpdatesAndGenerationNotice(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		item := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Uses a standing desk"})
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(itemSel(item.ID))
		p.waitFor("the generation subscription", `document.querySelector('[data-testid="teammate-generation"]').dataset.live === 'true'`)
		before := p.text(tid("teammate-generation"))
		if eval[bool](p, `!!document.querySelector('[data-testid="teammate-details"]').open`) {
			t.Error("the Technical details panel is open before the user opened it")
		}

		added := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Added while the page was open", Pinned: true})
		p.waitText(itemSel(added.ID, tid("item-content")), "Added while the page was open")
		// By the attribute: the text changes in place, which is no DOM mutation the wait sees.
		p.waitFor("a new generation", fmt.Sprintf(`document.querySelector('[data-testid="teammate-generation"]').dataset.generation !== %s`, jsString(strings.TrimPrefix(before, "generation "))))

		mustEdit(t, ctx, item.ID, 1, "Uses a standing desk in the afternoons")
		p.waitText(itemSel(item.ID, tid("item-content")), "Uses a standing desk in the afternoons")
		p.waitVisible(itemSel(item.ID) + `[data-revision="2"]`)
		if eval[bool](p, `!!document.querySelector('[data-testid="generation-notice"]') || document.body.innerText.includes('fresh thread')`) {
			t.Error("the Memory tab shows a fresh-thread notice; it belongs to Conversations")
		}
		if eval[bool](p, `document.querySelector('main').innerText.includes('generation')`) {
			t.Error("the word generation shows outside the folded Technical details panel")
		}
		p.click(tid("teammate-details") + " summary")
		p.waitVisible(tid("teammate-generation"))
		if g := p.text(tid("teammate-generation")); !strings.HasPrefix(g, "generation ") || strings.Count(g, ":") != 2 {
			t.Errorf("generation shows %q, want shared:own:expired", g)
		}
		p.assertNoHorizontalScroll()
		p.shot("details")

		// Expiry: marked when the time passes, without a reload.
		soon := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Out of office today", ExpiresAt: time.Now().Add(3 * time.Second)})
		p.waitVisible(itemSel(soon.ID) + `[data-expired="false"]`)
		p.waitVisible(itemSel(soon.ID, tid("item-expired")))
	})
}

// Load more follows the Relay cursor to the next page.
func TestLoadMore(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		for i := 1; i <= 25; i++ {
			mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: fmt.Sprintf("Fact number %02d", i)})
		}
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitItemCount(20)
		p.waitText(tid("memory-count"), "25 memories")
		p.click(tid("memory-load-more"))
		p.waitItemCount(25)
		p.waitGone(tid("memory-load-more"))
		contents := p.listedContents()
		seen := map[string]bool{}
		for _, c := range contents {
			if seen[c] {
				t.Errorf("%q is listed twice", c)
			}
			seen[c] = true
		}
	})
}

// Past the API's page limit (100 a request) Load more reads the pages after it one by one; a change
// that moves the last item to the top while all of them are shown neither loses an item nor lists one
// twice (the pages after the first are read again from its new end).
func TestLoadMorePastThePageLimit(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		var oldest memoryItem
		for i := 1; i <= 125; i++ {
			item := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: fmt.Sprintf("Fact number %03d", i)})
			if i == 1 {
				oldest = item
			}
		}
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitItemCount(20)
		for n := 40; n <= 120; n += 20 {
			p.click(tid("memory-load-more"))
			p.waitItemCount(n)
		}
		p.waitText(tid("memory-load-more"), "Load more (5 left)")
		p.click(tid("memory-load-more"))
		p.waitItemCount(125)
		p.waitGone(tid("memory-load-more"))
		if got := p.listedContents(); got[124] != "Fact number 001" {
			t.Fatalf("the last item listed is %q, want the oldest", got[124])
		}

		mustEdit(t, ctx, oldest.ID, 1, "Fact number 001, edited")
		p.waitFor("the edited item at the top", `document.querySelector('[data-testid="memory-item"] [data-testid="item-content"]')?.textContent === 'Fact number 001, edited'`)
		p.waitItemCount(125)
		contents := p.listedContents()
		if !slices.Equal(unique(contents), contents) || len(contents) != 125 {
			t.Errorf("after the edit the list shows %d items, %d of them distinct; want all 125 once", len(contents), len(unique(contents)))
		}
		p.waitGone(tid("memory-load-more"))
	})
}

// unique is s without repeats, in order.
func unique(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Settings → About you is the shared scope, with the same list and editor.
func TestAboutYouSharedScope(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		content := "Prefers metric units (" + vp.name + ")"
		edited := "Prefers metric units and 24-hour time (" + vp.name + ")"
		p := openPage(t, vp, "/")
		p.click(tid("nav-settings"))
		p.waitVisible(tid("about-you-page"))
		p.waitVisible(tid("settings-about-you", `[aria-current="page"]`))

		p.click(tid("memory-new"))
		p.fill(tid("create-content"), content)
		p.choose(tid("create-kind"), "PREFERENCE")
		// Unpinned: a pinned shared item would lead the packets of every later test's teammates (P2).
		p.click(tid("create-pinned"))
		p.click(tid("create-submit"))
		id := p.waitItemWithContent(content)

		p.click(itemSel(id, tid("item-edit")))
		p.fill(itemSel(id, tid("editor-content")), edited)
		p.click(itemSel(id, tid("editor-save")))
		p.waitText(itemSel(id, tid("item-content")), edited)
		p.waitVisible(itemSel(id, tid("item-undo")))
		p.assertNoHorizontalScroll()
		p.shot("about-you")

		got, err := user.memoryItem(ctx, id)
		if err != nil || got.Scope != "shared" || got.Content != edited || got.Kind != "PREFERENCE" || got.Revision != 2 {
			t.Errorf("the About you item is %+v (%v), want a shared PREFERENCE at revision 2 reading %q", got, err, edited)
		}
	})
}

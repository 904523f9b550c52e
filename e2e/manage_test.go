package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Everyday memory management in the web app: deleting a teammate, export and import, bulk forget,
// confirm-all / dismiss-all with undo, kind and key chosen when confirming.

// settle waits until every section of a teammate's Memory tab has read its data, so that nothing
// moves under a click at the bottom of the page (the suggestions appear above everything else).
func (p *page) settle() {
	p.t.Helper()
	p.waitLive()
	p.waitVisible(tid("memory-list", `[data-state="ready"]`))
	p.waitVisible(tid("lessons-section", `[data-state="ready"]`))
}

// teammateExists reports whether the API still knows the teammate.
func (a api) teammateExists(ctx context.Context, id string) (bool, error) {
	var out struct{ Teammate *struct{ ID string } }
	err := a.do(ctx, `query($id: ID!) { teammate(id: $id) { id } }`, map[string]any{"id": id}, &out)
	return out.Teammate != nil, err
}

// Deleting a teammate asks first, saying exactly what goes (its memories and suggestions, counted,
// and its conversations) and what stays (shared memory, backups), with the focus on Cancel; then
// the list opens and says what was removed, and a second window's list drops the teammate live.
func TestDeleteTeammate(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		name := "Delete me " + vp.name
		teammate, err := user.createTeammate(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Secret project codename Falcon"})
		mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Meets Tom on Fridays"})
		mustSuggest(t, ctx, teammate, "I have a dog now", "Has a dog", false)
		r := startRun(t, ctx, teammate, "Anything for today?")
		r.complete(t, ctx, "Nothing urgent.")
		shared := mustMemory(t, ctx, newMemory{Content: "Shared and kept after a delete (" + vp.name + ")"})

		list := openPage(t, vp, "/")
		list.waitVisible(teammateRowSel(teammate))

		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitText(tid("teammate-title"), name)
		p.settle()
		p.click(tid("teammate-delete"))
		p.waitVisible(tid("delete-dialog"))
		p.waitFor("the focus on Cancel", `document.activeElement?.dataset.testid === 'delete-cancel'`)
		// Waited for by its attribute: the counts replace the text of the same node, which a wait on
		// DOM mutations would not see.
		p.waitVisible(tid("delete-memories", `[data-state="ready"]`))
		if got, want := p.text(tid("delete-memories")), "2 memories (lessons included) and 1 suggestion waiting of "+name+": the text and key of each, from every saved version and from search — as Forget does."; got != want {
			t.Errorf("the dialog says %q, want %q", got, want)
		}
		said := p.text(tid("delete-dialog"))
		for _, want := range []string{"Delete " + name + "?", "All its conversations", "your messages, its replies", "Not erased", "About you and suggestions for it",
			"Backups made before now — restoring one deletes " + name + " again.", "can’t be undone"} {
			if !strings.Contains(said, want) {
				t.Errorf("the delete dialog doesn't say %q; it says %q", want, said)
			}
		}
		p.assertAccessible("Delete dialog")
		p.shot("delete-dialog")
		p.click(tid("delete-confirm"))
		p.waitVisible(tid("teammates-page"))
		p.waitVisible(tid("teammate-deleted-notice"))
		if got := p.text(tid("teammate-deleted-notice")); !strings.HasPrefix(got, "Deleted "+name+": 3 memories and suggestions forgotten, 2 conversation turns") {
			t.Errorf("after the delete the list says %q", got)
		}
		p.waitGone(teammateRowSel(teammate))
		list.waitGone(teammateRowSel(teammate)) // the other window, live

		if ok, err := user.teammateExists(ctx, teammate); err != nil || ok {
			t.Errorf("the teammate still exists (%v)", err)
		}
		if status, _, err := user.itemStatus(ctx, shared.ID); err != nil || status != "ACTIVE" {
			t.Errorf("shared memory is %s (%v) after the delete, want it kept", status, err)
		}
	})
}

// downloads makes the tab save downloads into a fresh directory and returns a function that waits
// for the next download to be complete there and returns its bytes. Chromium names each file by
// its download's id and renames it from a .crdownload file once complete; the directory is watched
// rather than the download events, which a busy browser has been seen to drop.
func (p *page) downloads() (next func() []byte) {
	p.t.Helper()
	dir := p.t.TempDir()
	p.do("allow downloads", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir,
		})
		return err
	}))
	seen := map[string]bool{}
	return func() []byte {
		p.t.Helper()
		deadline := time.Now().Add(stepTimeout)
		for time.Now().Before(deadline) {
			entries, err := os.ReadDir(dir)
			if err != nil {
				p.t.Fatal(err)
			}
			for _, e := range entries {
				if seen[e.Name()] || strings.HasSuffix(e.Name(), ".crdownload") {
					continue
				}
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil || len(b) == 0 {
					continue
				}
				seen[e.Name()] = true
				return b
			}
			time.Sleep(50 * time.Millisecond) // a directory has no event to wait on here
		}
		p.t.Fatal("no download finished in time")
		return nil
	}
}

// Export downloads the teammate's memory as a file — JSON (complete) or Markdown — with the
// session cookie; forgotten memories are not in it.
func TestExportDownload(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Prefers tea to coffee", Key: "drinks", Kind: "PREFERENCE", Pinned: true})
		gone := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Forgotten before the export"})
		if err := user.forgetMemory(ctx, gone.ID); err != nil {
			t.Fatal(err)
		}
		p := openPage(t, vp, "/teammates/"+teammate)
		p.settle()
		next := p.downloads()

		p.click(tid("export-json"))
		raw := next()
		var file struct {
			Format string
			Items  []struct {
				Kind, Content string
				Key           *string
				Pinned        bool
			}
		}
		if err := json.Unmarshal(raw, &file); err != nil {
			t.Fatalf("the JSON export doesn't parse: %v\n%s", err, raw)
		}
		if file.Format != "memory-export" || len(file.Items) != 1 || file.Items[0].Content != "Prefers tea to coffee" ||
			file.Items[0].Kind != "preference" || file.Items[0].Key == nil || *file.Items[0].Key != "drinks" || !file.Items[0].Pinned {
			t.Errorf("the JSON export holds %+v, want the one active preference, pinned, with its key", file)
		}
		if strings.Contains(string(raw), "Forgotten before the export") {
			t.Error("the export holds a forgotten memory")
		}

		p.click(tid("export-markdown"))
		md := string(next())
		if !strings.Contains(md, "Prefers tea to coffee") || !strings.HasPrefix(strings.TrimSpace(md), "#") {
			t.Errorf("the Markdown export reads %q", md)
		}
		p.assertNoHorizontalScroll()
		p.shot("export")
	})
}

// Import takes a JSON export through the file picker: a file that isn't an export is refused with
// the reason and nothing written; a good one adds its memories, shown at once.
func TestImport(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		from := mustTeammate(t, ctx)
		mustMemory(t, ctx, newMemory{TeammateID: from, Content: "Imported fact one (" + vp.name + ")"})
		mustMemory(t, ctx, newMemory{TeammateID: from, Content: "Imported fact two (" + vp.name + ")", Key: "two", Pinned: true})
		var exported struct{ ExportMemory string }
		if err := user.do(ctx, `query($t: ID) { exportMemory(scope: {teammateId: $t}, format: JSON) }`, map[string]any{"t": from}, &exported); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		good := filepath.Join(dir, "memory.json")
		bad := filepath.Join(dir, "not-an-export.json")
		notJSON := filepath.Join(dir, "notes.md")
		for path, data := range map[string]string{good: exported.ExportMemory, bad: `{"format": "something-else", "items": []}`, notJSON: "# Notes\n"} {
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}

		to, err := user.createTeammate(ctx, "Import into "+vp.name)
		if err != nil {
			t.Fatal(err)
		}
		p := openPage(t, vp, "/teammates/"+to)
		p.waitVisible(tid("memory-empty"))
		p.waitLive()
		upload := func(path string) {
			t.Helper()
			p.do("choose "+filepath.Base(path), chromedp.SetUploadFiles(chromedp.CSS(tid("import-file")), []string{path}))
		}

		upload(notJSON)
		p.waitVisible(tid("import-error"))
		if got := p.text(tid("import-error")); !strings.Contains(got, "notes.md isn’t a memory export") {
			t.Errorf("a Markdown file is refused with %q", got)
		}
		upload(bad)
		p.waitFor("the server's reason", `document.querySelector('[data-testid="import-error"]')?.textContent.startsWith('Nothing was imported from not-an-export.json.')`)
		p.assertNoHorizontalScroll()
		p.shot("import-error")
		// The server's reason, in words: the file's field as a person knows it, no path into the JSON.
		if got, want := p.text(tid("import-error")), `Nothing was imported from not-an-export.json. The file's format must be "memory-export".`; got != want {
			t.Errorf("the refusal reads %q, want %q", got, want)
		}
		p.waitVisible(tid("memory-empty"))

		upload(good)
		p.waitText(tid("import-done"), "Imported 2 memories from memory.json into Import into "+vp.name+"’s memory.")
		p.waitItemWithContent("Imported fact one (" + vp.name + ")")
		two := p.waitItemWithContent("Imported fact two (" + vp.name + ")")
		p.waitVisible(itemSel(two, tid("item-pinned")))
		p.waitText(itemSel(two, tid("item-key")), "two")
		p.shot("import-done")
	})
}

// Several memories are forgotten together: select them, one confirmation listing them and the same
// text in another teammate's memory (focus on Cancel), and they are gone, the copy with them; the
// others stay.
func TestBulkForget(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		a := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Old address: Elm Street"})
		b := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Old phone number ends in 42"})
		keep := mustMemory(t, ctx, newMemory{TeammateID: teammate, Content: "Likes jazz"})
		other, err := user.createTeammate(ctx, "Copy holder "+vp.name)
		if err != nil {
			t.Fatalf("createTeammate: %v", err)
		}
		copied := mustMemory(t, ctx, newMemory{TeammateID: other, Content: "old address: Elm Street"})
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitItemCount(3)

		p.click(tid("memory-select-mode"))
		p.waitVisible(tid("bulk-bar"))
		p.click(itemSel(a.ID, tid("item-select")))
		p.click(itemSel(b.ID, tid("item-select")))
		p.waitText(tid("bulk-count"), "2 selected")
		p.assertAccessible("Selecting memories")
		p.shot("selected")

		// Pin both, then forget both.
		p.click(tid("bulk-pin"))
		p.waitVisible(itemSel(a.ID) + `[data-pinned="true"]`)
		p.waitVisible(itemSel(b.ID) + `[data-pinned="true"]`)

		p.click(tid("bulk-forget", ":not(:disabled)"))
		p.waitVisible(tid("bulk-forget-dialog"))
		p.waitFor("the focus on Cancel", `document.activeElement?.dataset.testid === 'bulk-forget-cancel'`)
		listed := p.text(tid("bulk-forget-list"))
		if !strings.Contains(listed, "Old address: Elm Street") || !strings.Contains(listed, "Old phone number ends in 42") || strings.Contains(listed, "Likes jazz") {
			t.Errorf("the confirmation lists %q", listed)
		}
		p.waitVisible(tid("forget-copies"))
		if got := p.text(tid("forget-copies")); !strings.Contains(got, "old address: Elm Street") || !strings.Contains(got, "Copy holder "+vp.name) {
			t.Errorf("the copies are listed as %q", got)
		}
		p.assertNoHorizontalScroll()
		p.assertAccessible("The bulk forget dialog with copies")
		p.shot("bulk-forget-dialog")
		p.click(tid("bulk-forget-confirm"))
		p.waitGone(tid("bulk-forget-dialog"))
		p.waitText(tid("bulk-done-notice"), "Forgot 2 memories.")
		p.waitItemCount(1)
		p.waitVisible(itemSel(keep.ID))
		for _, id := range []string{a.ID, b.ID, copied.ID} {
			if status, content, err := user.itemStatus(ctx, id); err != nil || status != "FORGOTTEN" || content != "" {
				t.Errorf("%s is %s %q (%v), want FORGOTTEN with no text", id, status, content, err)
			}
		}
	})
}

// Confirm all makes every suggestion shown memory at once, and its Undo takes them all back; Dismiss
// all settles them, and Undo brings them back; a suggestion confirmed after editing takes the kind and key the user chose.
func TestConfirmAllDismissAllAndUndo(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		p := openPage(t, vp, "/teammates/"+teammate)
		p.waitVisible(tid("memory-empty"))
		p.waitLive()

		for _, s := range []string{"Plays chess", "Reads sci-fi", "Grows tomatoes"} {
			mustSuggest(t, ctx, teammate, "By the way, something about me", s, false)
		}
		p.waitFor("three suggestions", `document.querySelectorAll('[data-testid="suggestion"]').length === 3`)
		p.assertNoHorizontalScroll()
		p.shot("suggestions")
		p.click(tid("suggestions-confirm-all", ":not(:disabled)"))
		p.waitGone(tid("suggestion"))
		p.waitFor("the notice", `document.querySelector('[data-testid="suggestions-notice"]')?.textContent.startsWith('Confirmed all 3 suggestions: they are memory now.')`)
		p.waitItemCount(3)
		if n, err := user.candidateCount(ctx, teammate); err != nil || n != 0 {
			t.Errorf("%d suggestions still wait (%v)", n, err)
		}
		// Undo takes the whole batch back: they wait again, and are memory no more; confirmed again.
		p.click(tid("suggestions-undo", ":not(:disabled)"))
		p.waitFor("all three back", `document.querySelectorAll('[data-testid="suggestion"]').length === 3`)
		p.waitFor("the notice", `document.querySelector('[data-testid="suggestions-notice"]')?.textContent.startsWith('Undone: the 3 suggestions wait for you again.')`)
		p.waitVisible(tid("memory-empty"))
		if n, err := user.candidateCount(ctx, teammate); err != nil || n != 3 {
			t.Errorf("%d suggestions wait after Undo of Confirm all (%v), want 3", n, err)
		}
		p.click(tid("suggestions-confirm-all", ":not(:disabled)"))
		p.waitGone(tid("suggestion"))
		p.waitItemCount(3)

		for _, s := range []string{"Owns a kayak", "Learns Dutch"} {
			mustSuggest(t, ctx, teammate, "Something else about me", s, false)
		}
		p.waitFor("two suggestions", `document.querySelectorAll('[data-testid="suggestion"]').length === 2`)
		p.click(tid("suggestions-dismiss-all", ":not(:disabled)"))
		p.waitGone(tid("suggestion"))
		p.waitVisible(tid("suggestions-undo"))
		if n, err := user.candidateCount(ctx, teammate); err != nil || n != 0 {
			t.Errorf("%d suggestions still wait after Dismiss all (%v)", n, err)
		}
		p.click(tid("suggestions-undo", ":not(:disabled)")) // enabled once Dismiss all has settled
		p.waitFor("both back", `document.querySelectorAll('[data-testid="suggestion"]').length === 2`)
		if n, err := user.candidateCount(ctx, teammate); err != nil || n != 2 {
			t.Errorf("%d suggestions wait after Undo (%v), want 2", n, err)
		}
		p.waitItemCount(3)

		// Kind and key while confirming.
		first := eval[string](p, `document.querySelector('[data-testid="suggestion"]').dataset.candidateId`)
		p.click(suggestionSel(first, tid("suggestion-edit")))
		p.choose(suggestionSel(first, tid("suggestion-edit-kind")), "PREFERENCE")
		p.fill(suggestionSel(first, tid("suggestion-edit-key")), "hobby")
		p.click(suggestionSel(first, tid("suggestion-confirm")))
		p.waitGone(suggestionSel(first))
		got, err := user.memoryItem(ctx, first)
		if err != nil || got.Kind != "PREFERENCE" || got.Key == nil || *got.Key != "hobby" {
			t.Errorf("the confirmed suggestion is %+v (%v), want a PREFERENCE keyed hobby", got, err)
		}
		p.waitItemCount(4)
		p.waitText(itemSel(first, tid("item-key")), "hobby")
	})
}

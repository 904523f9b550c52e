package server_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
)

// Export and import, bulk actions on items and suggestions, through the real API.

// exported is the part of a JSON export the round trip compares: everything but where it came from.
type exported struct {
	Format  string
	Version int
	Scope   string
	Items   []exportedItem
}

type exportedItem struct {
	ID, Kind, Content, Source string
	Key                       *string
	Pinned                    bool
	ExpiresAt                 *time.Time
	Revision                  int
	CreatedAt, UpdatedAt      time.Time
	Revisions                 []struct {
		Revision      int
		Content, Kind string
		Key           *string
		Pinned        bool
		ExpiresAt     *time.Time
		Action, Actor string
		CreatedAt     time.Time
	}
}

func (w world) export(teammateID *string, format string, revisions bool) string {
	var out struct{ ExportMemory string }
	w.api.Must(w.t, user, `query($s: ScopeInput!, $f: ExportFormat!, $r: Boolean) { exportMemory(scope: $s, format: $f, includeRevisions: $r) }`,
		map[string]any{"s": map[string]any{"teammateId": teammateID}, "f": format, "r": revisions}, &out)
	return out.ExportMemory
}

func (w world) generation(teammateID string) string {
	var out struct{ Teammate struct{ Generation string } }
	w.api.Must(w.t, user, `query($id: ID!) { teammate(id: $id) { generation } }`, map[string]any{"id": teammateID}, &out)
	return out.Teammate.Generation
}

func (w world) count(teammateID string) int {
	var out struct{ MemoryItems struct{ TotalCount int } }
	w.api.Must(w.t, user, `query($tm: ID) { memoryItems(scope: {teammateId: $tm}) { totalCount } }`, map[string]any{"tm": teammateID}, &out)
	return out.MemoryItems.TotalCount
}

const importMutation = `mutation($s: ScopeInput!, $f: ExportFormat!, $d: String!) { importMemory(input: {scope: $s, format: $f, data: $d}) {
	unchanged items { id kind key content pinned expiresAt source status revision } } }`

type importedItem struct {
	ID, Kind, Content, Source, Status string
	Key                               *string
	Pinned                            bool
	ExpiresAt                         *time.Time
	Revision                          int
}

func (w world) importJSON(teammateID, data string) (items []importedItem, unchanged int) {
	var out struct {
		ImportMemory struct {
			Unchanged int
			Items     []importedItem
		}
	}
	w.api.Must(w.t, user, importMutation, map[string]any{"s": map[string]any{"teammateId": teammateID}, "f": "JSON", "d": data}, &out)
	return out.ImportMemory.Items, out.ImportMemory.Unchanged
}

func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	from, to := w.teammate("Ada"), w.teammate("Ben")

	expires := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	w.api.Must(t, user, `mutation($tm: ID, $e: Time) { createMemory(input: {scope: {teammateId: $tm}, kind: PREFERENCE, key: "drink", content: "Green tea, no sugar", pinned: true, expiresAt: $e}) { item { id } } }`,
		map[string]any{"tm": from, "e": expires}, &struct{}{})
	edited := w.createMemory(&from, "Lives in Oslo")
	w.api.Must(t, user, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 1, content: "Lives in Bergen\nsince 2020", key: "home"}) { item { id } } }`,
		map[string]any{"id": edited.ID}, &struct{}{})
	w.api.Must(t, user, `mutation($tm: ID) { createMemory(input: {scope: {teammateId: $tm}, kind: LESSON, content: "Keep replies short"}) { item { id } } }`,
		map[string]any{"tm": from}, &struct{}{})
	// Never exported: a forgotten item, a waiting and a dismissed suggestion.
	gone := w.createMemory(&from, "Forgotten locker code Quxwell")
	w.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": gone.ID}, &struct{}{})
	run := w.startRun(from, "", "Hello.")
	w.remember(run.RunToken, "Waiting suggestion about chess", false)
	dismissed := w.remember(run.RunToken, "Dismissed suggestion about golf", false)
	w.api.Must(t, user, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": dismissed.Item.ID}, &struct{}{})

	data := w.export(&from, "JSON", true)
	for _, never := range []string{"Quxwell", "chess", "golf"} {
		assert.NotContains(t, data, never, "forgotten items and suggestions are never exported")
	}
	var file exported
	require.NoError(t, json.Unmarshal([]byte(data), &file))
	assert.Equal(t, "memory-export", file.Format)
	assert.Equal(t, 1, file.Version)
	assert.Equal(t, from, file.Scope)
	require.Len(t, file.Items, 3)
	byContent := map[string]exportedItem{}
	for _, it := range file.Items {
		byContent[it.Content] = it
	}
	tea := byContent["Green tea, no sugar"]
	assert.Equal(t, "preference", tea.Kind)
	assert.Equal(t, "drink", *tea.Key)
	assert.True(t, tea.Pinned)
	require.NotNil(t, tea.ExpiresAt)
	assert.True(t, expires.Equal(*tea.ExpiresAt))
	home := byContent["Lives in Bergen\nsince 2020"]
	require.Len(t, home.Revisions, 2, "the history travels with the item")
	assert.Equal(t, "Lives in Oslo", home.Revisions[0].Content)
	assert.Equal(t, "edit", home.Revisions[1].Action)

	md := w.export(&from, "MARKDOWN", true)
	for _, want := range []string{"# Memory of Ada", ": 3 memories.\n", "## Preferences", "**drink:** Green tea, no sugar _(pinned, expires ", "## Lessons", "Lives in Bergen\n  since 2020", "revision 1 (create"} {
		assert.Contains(t, md, want)
	}
	assert.NotContains(t, md, "Quxwell")

	// The import writes every item as it was, with one generation bump (G1), source IMPORT.
	genBefore := w.generation(to)
	items, unchanged := w.importJSON(to, data)
	assert.Zero(t, unchanged)
	require.Len(t, items, 3)
	for _, it := range items {
		assert.Equal(t, "IMPORT", it.Source)
		assert.Equal(t, "ACTIVE", it.Status)
	}
	assert.Equal(t, bumpOwn(t, genBefore, 1), w.generation(to), "one generation bump for the whole import")

	var again exported
	require.NoError(t, json.Unmarshal([]byte(w.export(&to, "JSON", true)), &again))
	require.Len(t, again.Items, len(file.Items))
	for i := range file.Items {
		a, b := file.Items[i], again.Items[i]
		assert.Equal(t, "import", b.Source)
		for j := range b.Revisions {
			assert.Equal(t, "import", b.Revisions[j].Actor)
			b.Revisions[j].Actor = a.Revisions[j].Actor
		}
		a.ID, b.ID, b.Source = "", "", a.Source
		assert.Equal(t, a, b, "item %d survives the round trip", i)
	}

	// Importing the same file again writes nothing: every text is there already.
	genBefore = w.generation(to)
	items, unchanged = w.importJSON(to, data)
	assert.Empty(t, items)
	assert.Equal(t, 3, unchanged)
	assert.Equal(t, genBefore, w.generation(to))
}

// bumpOwn returns the generation shared:own:expired with own increased by n.
func bumpOwn(t *testing.T, gen string, n int) string {
	t.Helper()
	parts := strings.Split(gen, ":")
	require.Len(t, parts, 3)
	own, err := strconv.Atoi(parts[1])
	require.NoError(t, err)
	parts[1] = strconv.Itoa(own + n)
	return strings.Join(parts, ":")
}

// Bad files are refused whole, with the place in the file named, and change nothing.
func TestImportValidatesEverythingFirst(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Ada")
	w.createMemory(&tm, "Already here")
	genBefore := w.generation(tm)

	item := func(content string) map[string]any {
		return map[string]any{"kind": "fact", "key": nil, "content": content, "pinned": false, "expiresAt": nil}
	}
	file := func(items ...map[string]any) string {
		b, err := json.Marshal(map[string]any{"format": "memory-export", "version": 1, "items": items})
		require.NoError(t, err)
		return string(b)
	}
	badKind := item("B")
	badKind["kind"] = "rumour"
	badKey := item("C")
	badKey["key"] = "line\nbreak"
	future := item("D")
	future["createdAt"] = time.Now().Add(25 * time.Hour) // a day of clock skew is allowed
	yearOne := item("D")
	yearOne["createdAt"] = "0001-01-01T00:00:00Z" // would break every listing if it were stored
	oldRevision := item("D")
	oldRevision["revisions"] = []map[string]any{{"revision": 1, "content": "D", "kind": "fact", "key": nil, "pinned": false,
		"expiresAt": nil, "action": "create", "createdAt": "1969-12-31T23:59:59Z"}}
	badHistory := item("E")
	badHistory["revisions"] = []map[string]any{{"revision": 1, "content": "not E", "kind": "fact", "key": nil, "pinned": false, "expiresAt": nil, "action": "create"}}
	forgetHistory := item("F")
	forgetHistory["revisions"] = []map[string]any{{"revision": 1, "content": "F", "kind": "fact", "key": nil, "pinned": false, "expiresAt": nil, "action": "forget"}}
	cases := []struct {
		name, format, data, field string
	}{
		{"markdown", "MARKDOWN", file(item("A")), "format"},
		{"not JSON", "JSON", "not json", "data"},
		{"another JSON", "JSON", `{"hello": "world"}`, "data"},
		{"wrong format name", "JSON", `{"format": "other", "version": 1, "items": []}`, "data.format"},
		{"a later version", "JSON", `{"format": "memory-export", "version": 2, "items": []}`, "data.version"},
		{"empty content in the third item", "JSON", file(item("A"), item("B"), item(" ")), "data.items[2].content"},
		{"unknown kind", "JSON", file(item("A"), badKind), "data.items[1].kind"},
		{"a key with a line break", "JSON", file(item("A"), badKey), "data.items[1].key"},
		{"a date in the future", "JSON", file(item("A"), future), "data.items[1].createdAt"},
		{"a date of year 1", "JSON", file(yearOne), "data.items[0].createdAt"},
		{"a revision before 1970", "JSON", file(item("A"), oldRevision), "data.items[1].revisions[0].createdAt"},
		{"a history that ends elsewhere", "JSON", file(badHistory), "data.items[0].revisions"},
		{"a forget in the history", "JSON", file(forgetHistory), "data.items[0].revisions[0].action"},
		{"a NUL in the content", "JSON", file(item("A\u0000")), "data.items[0].content"},
		{"two values", "JSON", file(item("A")) + " {}", "data"},
		// The file's own escapes: a lone surrogate would be decoded as U+FFFD.
		{"a lone surrogate escape in the content", "JSON", strings.Replace(file(item("A")), `"A"`, `"Likes \ud800 tea"`, 1), "data"},
	}
	for _, c := range cases {
		res := w.api.Do(t, user, importMutation, map[string]any{"s": map[string]any{"teammateId": tm}, "f": c.format, "d": c.data})
		require.Equal(t, "BAD_USER_INPUT", res.Code(), c.name)
		assert.Equal(t, c.field, res.Errors[0].Extensions["field"], c.name)
		assert.NotContains(t, res.Errors[0].Message, "rumour", "errors don't quote the file")
	}
	assert.Equal(t, 1, w.count(tm), "nothing was written")
	assert.Equal(t, genBefore, w.generation(tm))
	assert.Equal(t, "NOT_FOUND", w.api.Do(t, user, importMutation, map[string]any{
		"s": map[string]any{"teammateId": "5b0f3a4e-8f1c-4c1e-9d7a-000000000000"}, "f": "JSON", "d": file(item("A")),
	}).Code())
}

// The web app's download: the same export as a file, with the same checks.
func TestExportDownload(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Ada Lovelace")
	w.createMemory(&tm, "Likes the Analytical Engine")

	get := func(query string, header http.Header) (*http.Response, string) {
		return w.api.Fetch(t, "/export?"+query, header)
	}

	// The web app's way: the session cookie from the login URL.
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	login, err := noRedirect.Get(w.api.URL + "/login?token=" + user)
	require.NoError(t, err)
	login.Body.Close()
	require.NotEmpty(t, login.Cookies())
	cookie := http.Header{"Cookie": {login.Cookies()[0].String()}}

	resp, body := get("scope="+tm+"&format=json&revisions=true", cookie)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Regexp(t, `^attachment; filename="memory-ada-lovelace-\d{4}-\d{2}-\d{2}\.json"$`, resp.Header.Get("Content-Disposition"))
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	var file exported
	require.NoError(t, json.Unmarshal([]byte(body), &file))
	require.Len(t, file.Items, 1)
	assert.Equal(t, "Likes the Analytical Engine", file.Items[0].Content)
	assert.Len(t, file.Items[0].Revisions, 1)

	resp, body = get("scope=shared&format=markdown", apitest.Bearer(user))
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, "text/markdown; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Regexp(t, `filename="memory-shared-[0-9-]+\.md"`, resp.Header.Get("Content-Disposition"))
	assert.Contains(t, body, "# Shared memory")

	for _, c := range []struct {
		query  string
		header http.Header
		status int
		code   string
	}{
		{"scope=" + tm, nil, http.StatusUnauthorized, "UNAUTHENTICATED"},
		{"scope=" + tm, apitest.Bearer("mu_not-the-token-0123456789abcdef"), http.StatusUnauthorized, "UNAUTHENTICATED"},
		{"scope=" + tm, apitest.Bearer(worker), http.StatusForbidden, "FORBIDDEN"},
		{"", apitest.Bearer(user), http.StatusBadRequest, "BAD_USER_INPUT"},
		{"scope=nope", apitest.Bearer(user), http.StatusBadRequest, "BAD_USER_INPUT"},
		{"scope=" + tm + "&format=pdf", apitest.Bearer(user), http.StatusBadRequest, "BAD_USER_INPUT"},
		{"scope=" + tm + "&revisions=maybe", apitest.Bearer(user), http.StatusBadRequest, "BAD_USER_INPUT"},
		{"scope=5b0f3a4e-8f1c-4c1e-9d7a-000000000000", apitest.Bearer(user), http.StatusNotFound, "NOT_FOUND"},
	} {
		resp, body := get(c.query, c.header)
		assert.Equal(t, c.status, resp.StatusCode, "%s: %s", c.query, body)
		assert.Contains(t, body, `"code":"`+c.code+`"`, c.query)
		assert.NotContains(t, body, "Analytical", c.query)
	}
	// A GET changes nothing, and nothing but GET is served.
	req, err := http.NewRequest(http.MethodPost, w.api.URL+"/export?scope="+tm, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+user)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

type bulkItem struct {
	ID, Status, Content string
	Pinned              bool
	Revision            int
}

const bulkFields = `id status content pinned revision`

func TestBulkForgetAndPin(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Ada")
	a, b, c := w.createMemory(&tm, "Item A"), w.createMemory(&tm, "Item B"), w.createMemory(nil, "Shared item C")

	pin := func(pinned bool, refs ...map[string]any) ([]bulkItem, string, map[string]any) {
		res := w.api.Do(t, user, `mutation($items: [MemoryItemRevisionInput!]!, $p: Boolean!) { pinMemories(input: {items: $items, pinned: $p}) { items { `+bulkFields+` } } }`,
			map[string]any{"items": refs, "p": pinned})
		if res.Code() != "" {
			return nil, res.Code(), res.Errors[0].Extensions
		}
		var out struct{ PinMemories struct{ Items []bulkItem } }
		res.Decode(t, &out)
		return out.PinMemories.Items, "", nil
	}
	ref := func(id string, rev int) map[string]any { return map[string]any{"id": id, "baseRevision": rev} }

	// Across two scopes, in one call; each a PIN revision.
	genBefore := w.generation(tm)
	items, code, _ := pin(true, ref(a.ID, 1), ref(c.ID, 1))
	require.Empty(t, code)
	require.Len(t, items, 2)
	for _, it := range items {
		assert.True(t, it.Pinned)
		assert.Equal(t, 2, it.Revision)
	}
	assert.NotEqual(t, genBefore, w.generation(tm))
	// Already pinned: left as it is, no revision; the other one is pinned.
	items, code, _ = pin(true, ref(a.ID, 2), ref(b.ID, 1))
	require.Empty(t, code)
	assert.Equal(t, 2, items[0].Revision)
	assert.Equal(t, 2, items[1].Revision)
	assert.True(t, items[1].Pinned)

	// All or nothing: one stale revision fails the call, naming the item, and nothing is unpinned.
	_, code, ext := pin(false, ref(a.ID, 2), ref(b.ID, 1))
	assert.Equal(t, "CONFLICT", code)
	assert.Equal(t, b.ID, ext["itemId"])
	assert.EqualValues(t, 2, ext["currentRevision"])
	assert.True(t, w.item(a.ID).Revision == 2, "a was not unpinned")
	// A revision ahead of the item was never read from it: bad input naming the entry, not a conflict.
	_, code, ext = pin(false, ref(a.ID, 2), ref(b.ID, 9))
	assert.Equal(t, "BAD_USER_INPUT", code)
	assert.Equal(t, "items[1].baseRevision", ext["field"])

	for name, refs := range map[string][]map[string]any{
		"empty":      {},
		"duplicates": {ref(a.ID, 2), ref(a.ID, 2)},
		"bad id":     {ref("nope", 1)},
		"revision 0": {ref(a.ID, 0)},
	} {
		_, code, _ := pin(false, refs...)
		assert.Equal(t, "BAD_USER_INPUT", code, name)
	}
	_, code, _ = pin(false, ref(a.ID, 2), ref("5b0f3a4e-8f1c-4c1e-9d7a-000000000000", 1))
	assert.Equal(t, "NOT_FOUND", code)
	tooMany := make([]map[string]any, 101)
	for i := range tooMany {
		tooMany[i] = ref(a.ID, 2)
	}
	_, code, _ = pin(false, tooMany...)
	assert.Equal(t, "BAD_USER_INPUT", code)

	// A suggestion is not an active memory: the whole call is refused.
	run := w.startRun(tm, "", "Hello.")
	sugg := w.remember(run.RunToken, "A suggestion", false).Item
	_, code, _ = pin(true, ref(a.ID, 2), ref(sugg.ID, 1))
	assert.Equal(t, "BAD_USER_INPUT", code)

	forget := func(refs ...map[string]any) ([]bulkItem, string) {
		res := w.api.Do(t, user, `mutation($items: [MemoryItemRevisionInput!]!) { forgetMemories(input: {items: $items}) { items { `+bulkFields+` } } }`,
			map[string]any{"items": refs})
		if res.Code() != "" {
			return nil, res.Code()
		}
		var out struct{ ForgetMemories struct{ Items []bulkItem } }
		res.Decode(t, &out)
		return out.ForgetMemories.Items, ""
	}
	_, code = forget(ref(a.ID, 2), ref(b.ID, 1))
	assert.Equal(t, "CONFLICT", code)
	assert.Equal(t, "ACTIVE", w.item(a.ID).Status, "nothing forgotten")
	items, code = forget(ref(a.ID, 2), ref(b.ID, 2))
	require.Empty(t, code)
	for _, it := range items {
		assert.Equal(t, "FORGOTTEN", it.Status)
		assert.Empty(t, it.Content)
	}
	assert.Equal(t, "ACTIVE", w.item(c.ID).Status)
	_, code = forget(ref(a.ID, 3))
	assert.Equal(t, "NOT_FOUND", code, "a forgotten item can't be forgotten again")
}

// Select → Forget lists the copies of the selected items' text in other scopes and forgets the
// ticked ones with them, as the single forget does.
func TestBulkForgetListsAndForgetsCopies(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ada, ben := w.teammate("Ada"), w.teammate("Ben")
	a := w.createMemory(&ada, "Takes the 7:40 train")
	b := w.createMemory(&ada, "Parks at the north lot")
	copyA := w.createMemory(&ben, "takes the 7:40 train")
	copyB := w.createMemory(nil, "Parks at the north lot.")
	kept := w.createMemory(&ben, "Parks at the north lot!")
	other := w.createMemory(&ben, "Likes tea")

	var listed struct{ CopiesOf []struct{ ID string } }
	w.api.Must(t, user, `query($ids: [ID!]!) { copiesOf(ids: $ids) { id } }`, map[string]any{"ids": []string{a.ID, b.ID}}, &listed)
	var ids []string
	for _, c := range listed.CopiesOf {
		ids = append(ids, c.ID)
	}
	assert.ElementsMatch(t, []string{copyA.ID, copyB.ID, kept.ID}, ids, "every copy of either text, none of the selected items")
	assert.NotContains(t, ids, other.ID)

	// A worker or run can't list them.
	assert.Equal(t, "FORBIDDEN", w.api.Do(t, workerToken, `query($ids: [ID!]!) { copiesOf(ids: $ids) { id } }`, map[string]any{"ids": []string{a.ID}}).Code())
	assert.Equal(t, "BAD_USER_INPUT", w.api.Do(t, user, `query { copiesOf(ids: []) { id } }`, nil).Code())

	var out struct {
		ForgetMemories struct {
			Items, AlsoForgotten []bulkItem
		}
	}
	w.api.Must(t, user, `mutation($items: [MemoryItemRevisionInput!]!, $also: [ID!]) { forgetMemories(input: {items: $items, alsoForget: $also}) { items { `+bulkFields+` } alsoForgotten { `+bulkFields+` } } }`,
		map[string]any{"items": []map[string]any{{"id": a.ID, "baseRevision": 1}, {"id": b.ID, "baseRevision": 1}}, "also": []string{copyA.ID, copyB.ID}}, &out)
	require.Len(t, out.ForgetMemories.Items, 2)
	require.Len(t, out.ForgetMemories.AlsoForgotten, 2)
	for _, id := range []string{a.ID, b.ID, copyA.ID, copyB.ID} {
		it := w.item(id)
		assert.Equal(t, "FORGOTTEN", it.Status, id)
		assert.Empty(t, it.Content)
	}
	assert.Equal(t, "ACTIVE", w.item(kept.ID).Status, "the copy the user unticked stays")
	assert.Equal(t, "ACTIVE", w.item(other.ID).Status)

	// An unknown item among alsoForget fails the whole call: nothing forgotten.
	c := w.createMemory(&ada, "Walks the dog at six")
	res := w.api.Do(t, user, `mutation($items: [MemoryItemRevisionInput!]!, $also: [ID!]) { forgetMemories(input: {items: $items, alsoForget: $also}) { items { id } } }`,
		map[string]any{"items": []map[string]any{{"id": c.ID, "baseRevision": 1}}, "also": []string{"00000000-0000-4000-8000-000000000000"}})
	assert.Equal(t, "NOT_FOUND", res.Code())
	assert.Equal(t, "ACTIVE", w.item(c.ID).Status)
}

func TestConfirmAllDismissAllAndUndo(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm, other := w.teammate("Ada"), w.teammate("Ben")
	scope := map[string]any{"teammateId": tm}
	run := w.startRun(tm, "", "Hello.")
	s1 := w.remember(run.RunToken, "Plays chess", false).Item
	s2 := w.remember(run.RunToken, "Plays golf", false).Item
	s3 := w.remember(run.RunToken, "Plays tennis", false).Item
	otherRun := w.startRun(other, "", "Hello.")
	foreign := w.remember(otherRun.RunToken, "Plays cricket", false).Item

	bulk := func(op string, ids []string) ([]bulkItem, string) {
		vars := map[string]any{"s": scope}
		if ids != nil {
			vars["ids"] = ids
		}
		res := w.api.Do(t, user, `mutation($s: ScopeInput!, $ids: [ID!]) { `+op+`(input: {scope: $s, ids: $ids}) { items { `+bulkFields+` } } }`, vars)
		if res.Code() != "" {
			return nil, res.Code()
		}
		var out map[string]struct{ Items []bulkItem }
		res.Decode(t, &out)
		return out[op].Items, ""
	}
	undo := func(id string) (bulkItem, string) {
		res := w.api.Do(t, user, `mutation($id: ID!) { undoDismissCandidate(input: {id: $id}) { item { `+bulkFields+` } } }`, map[string]any{"id": id})
		if res.Code() != "" {
			return bulkItem{}, res.Code()
		}
		var out struct{ UndoDismissCandidate struct{ Item bulkItem } }
		res.Decode(t, &out)
		return out.UndoDismissCandidate.Item, ""
	}

	// Dismiss one, bring it back (A2: it waits again, no generation change).
	genBefore := w.generation(tm)
	items, code := bulk("dismissCandidates", []string{s1.ID})
	require.Empty(t, code)
	assert.Equal(t, "DISMISSED", items[0].Status)
	assert.Len(t, w.candidates(&tm), 2)
	back, code := undo(s1.ID)
	require.Empty(t, code)
	assert.Equal(t, "CANDIDATE", back.Status)
	assert.Len(t, w.candidates(&tm), 3)
	_, code = undo(s1.ID)
	assert.Equal(t, "BAD_USER_INPUT", code, "only a dismissed suggestion can come back")
	assert.Equal(t, genBefore, w.generation(tm), "G1: suggestions don't count")

	// A suggestion of another scope, or one named twice, refuses the whole call.
	_, code = bulk("confirmCandidates", []string{s1.ID, foreign.ID})
	assert.Equal(t, "BAD_USER_INPUT", code)
	_, code = bulk("dismissCandidates", []string{s1.ID, s1.ID})
	assert.Equal(t, "BAD_USER_INPUT", code)
	_, code = bulk("confirmCandidates", []string{})
	assert.Equal(t, "BAD_USER_INPUT", code)
	assert.Len(t, w.candidates(&tm), 3, "nothing changed")

	// Confirm all: every waiting suggestion of the scope, and nothing of another scope.
	items, code = bulk("confirmCandidates", nil)
	require.Empty(t, code)
	require.Len(t, items, 3)
	got := []string{}
	for _, it := range items {
		assert.Equal(t, "ACTIVE", it.Status)
		got = append(got, it.ID)
	}
	assert.ElementsMatch(t, []string{s1.ID, s2.ID, s3.ID}, got)
	assert.Empty(t, w.candidates(&tm))
	assert.Len(t, w.candidates(&other), 1)
	assert.Equal(t, bumpOwn(t, genBefore, 3), w.generation(tm))

	// Dismiss all. (The confirmations moved the generation: a run started before them would be
	// interrupted at its next tool call, G5.)
	run = w.startRun(tm, "", "Hello.")
	w.remember(run.RunToken, "Plays squash", false)
	w.remember(run.RunToken, "Plays polo", false)
	items, code = bulk("dismissCandidates", nil)
	require.Empty(t, code)
	assert.Len(t, items, 2)
	assert.Empty(t, w.candidates(&tm))

	// A proposal whose target moved on fails confirm-all with CONFLICT, and nothing is confirmed.
	fact := w.createMemory(&tm, "Works at Acme")
	run = w.startRun(tm, "", "Hello.")
	var upd struct{ ToolUpdateMemory toolResult }
	w.api.Must(t, run.RunToken, `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 1, content: "Works at Globex"}) { outcome item { `+itemFields+` } } }`,
		map[string]any{"id": fact.ID}, &upd)
	require.Equal(t, "SUGGESTED", upd.ToolUpdateMemory.Outcome)
	w.remember(run.RunToken, "Plays darts", false)
	w.api.Must(t, user, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 1, content: "Works at Initech"}) { item { id } } }`,
		map[string]any{"id": fact.ID}, &struct{}{})
	res := w.api.Do(t, user, `mutation($s: ScopeInput!) { confirmCandidates(input: {scope: $s}) { items { id } } }`, map[string]any{"s": scope})
	assert.Equal(t, "CONFLICT", res.Code())
	assert.Equal(t, fact.ID, res.Errors[0].Extensions["itemId"])
	assert.Len(t, w.candidates(&tm), 2, "all or nothing")
}

func TestConfirmWithKindAndKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Ada")
	run := w.startRun(tm, "", "Hello.")
	confirm := func(vars map[string]any) (map[string]any, string, string) {
		res := w.api.Do(t, user, `mutation($id: ID!, $k: MemoryKind, $key: String, $c: String) { confirmCandidate(input: {id: $id, kind: $k, key: $key, content: $c}) { item { kind key content status } } }`, vars)
		if res.Code() != "" {
			field, _ := res.Errors[0].Extensions["field"].(string)
			return nil, res.Code(), field
		}
		var out struct{ ConfirmCandidate struct{ Item map[string]any } }
		res.Decode(t, &out)
		return out.ConfirmCandidate.Item, "", ""
	}

	s := w.remember(run.RunToken, "Drinks green tea", false).Item
	_, code, field := confirm(map[string]any{"id": s.ID, "key": "two\nlines"})
	assert.Equal(t, "BAD_USER_INPUT", code)
	assert.Equal(t, "key", field)
	assert.Equal(t, "CANDIDATE", w.item(s.ID).Status, "a refused confirmation changes nothing")
	item, code, _ := confirm(map[string]any{"id": s.ID, "k": "PREFERENCE", "key": " drink "})
	require.Empty(t, code)
	assert.Equal(t, map[string]any{"kind": "PREFERENCE", "key": "drink", "content": "Drinks green tea", "status": "ACTIVE"}, item)

	// A proposed change takes the target's kind and key unless the user changes them; blank removes
	// the key. (A new run: the confirmation moved the generation, G5.)
	run = w.startRun(tm, "", "Hello.")
	var upd struct{ ToolUpdateMemory toolResult }
	w.api.Must(t, run.RunToken, `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 2, content: "Drinks black tea"}) { outcome item { `+itemFields+` } } }`,
		map[string]any{"id": s.ID}, &upd)
	require.Equal(t, "SUGGESTED", upd.ToolUpdateMemory.Outcome)
	item, code, _ = confirm(map[string]any{"id": upd.ToolUpdateMemory.Item.ID, "key": " "})
	require.Empty(t, code)
	assert.Equal(t, map[string]any{"kind": "PREFERENCE", "key": nil, "content": "Drinks black tea", "status": "ACTIVE"}, item)
}

package server_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/server"
)

type limits struct {
	ContentLength      int
	NoteLength         int
	KeyLength          int
	TeammateNameLength int
	SearchLength       int
	MessageLength      int
	PageSize           int
	BulkItems          int
	RequestBytes       int
}

const limitsQuery = `{ limits { contentLength noteLength keyLength teammateNameLength searchLength messageLength pageSize bulkItems requestBytes } }`

// The limits query reports the limits the API enforces — the web app reads them from there rather
// than keep copies — to every credential, and a value at a limit passes where one more is refused.
func TestLimitsAreTheOnesEnforced(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ada := w.teammate("Ada")
	run := w.startRun(ada, "", "Hello")

	want := limits{
		ContentLength: memory.MaxContentLength, NoteLength: memory.MaxNoteLength, KeyLength: memory.MaxKeyLength,
		TeammateNameLength: memory.MaxTeammateNameLength, SearchLength: memory.MaxSearchLength,
		MessageLength: memory.MaxMessageLength, PageSize: memory.MaxPageSize, BulkItems: memory.MaxBulkItems,
		RequestBytes: server.MaxBodyBytes,
	}
	for _, token := range []string{user, worker, run.RunToken} {
		var out struct{ Limits limits }
		w.api.Must(t, token, limitsQuery, nil, &out)
		assert.Equal(t, want, out.Limits)
	}
	assert.Equal(t, "UNAUTHENTICATED", w.api.Do(t, "", limitsQuery, nil).Code())

	create := `mutation($c: String!, $k: String) { createMemory(input: {scope: {teammateId: null}, content: $c, key: $k}) { item { id } } }`
	w.api.Must(t, user, create, map[string]any{"c": strings.Repeat("é", want.ContentLength), "k": strings.Repeat("k", want.KeyLength)}, &struct{}{})
	assert.Equal(t, "BAD_USER_INPUT", w.api.Do(t, user, create, map[string]any{"c": strings.Repeat("é", want.ContentLength+1)}).Code())
	assert.Equal(t, "BAD_USER_INPUT", w.api.Do(t, user, create, map[string]any{"c": "x", "k": strings.Repeat("k", want.KeyLength+1)}).Code())

	rename := `mutation($id: ID!, $n: String!) { renameTeammate(input: {id: $id, name: $n}) { teammate { id } } }`
	w.api.Must(t, user, rename, map[string]any{"id": ada, "n": strings.Repeat("n", want.TeammateNameLength)}, &struct{}{})
	assert.Equal(t, "BAD_USER_INPUT", w.api.Do(t, user, rename, map[string]any{"id": ada, "n": strings.Repeat("n", want.TeammateNameLength+1)}).Code())

	search := `query($s: String!) { searchMemory(search: $s) { id } }`
	w.api.Must(t, user, search, map[string]any{"s": strings.Repeat("s", want.SearchLength)}, &struct{}{})
	assert.Equal(t, "BAD_USER_INPUT", w.api.Do(t, user, search, map[string]any{"s": strings.Repeat("s", want.SearchLength+1)}).Code())

	page := `query($n: Int!) { memoryItems(scope: {teammateId: null}, first: $n) { totalCount } }`
	w.api.Must(t, user, page, map[string]any{"n": want.PageSize}, &struct{}{})
	assert.Equal(t, "BAD_USER_INPUT", w.api.Do(t, user, page, map[string]any{"n": want.PageSize + 1}).Code())
}

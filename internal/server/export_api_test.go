package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/dbtest"
)

// An export's bound counts revisions, not only items (a scope of few items with a long history can
// make a 40 MB download under a cap of 10,000 items). With a bound of 1 MiB, a scope of one
// short item whose history holds 1.2 MB exports without its revisions, and with them is refused —
// BAD_USER_INPUT on scope, saying what to do — through the download and the query alike, before any
// of it is read; with a shorter history it exports whole.
func TestExportBoundCountsRevisions(t *testing.T) {
	t.Parallel()
	url := dbtest.URL(t)
	s := apitest.StartWith(t, url, settings, func(o *app.Options) { o.Limits.ExportMaxBytes = 1 << 20 })
	conn, err := pgx.Connect(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	w := world{api: s, t: t}
	tm := w.teammate("Ada")
	id := w.createMemory(&tm, "Prefers tea").ID
	history := func(revisions int) {
		_, err := conn.Exec(t.Context(), `DELETE FROM memory_revisions WHERE item_id = $1 AND revision > 1`, id)
		require.NoError(t, err)
		_, err = conn.Exec(t.Context(), `INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor, based_on)
			SELECT $1, g, repeat('x', 4000), 'fact', false, 'edit', 'user', g - 1 FROM generate_series(2, $2::int + 1) g`, id, revisions)
		require.NoError(t, err)
	}
	download := func(revisions bool) (*http.Response, string) {
		query := "/export?scope=" + tm
		if revisions {
			query += "&revisions=true"
		}
		return s.Fetch(t, query, apitest.Bearer(user))
	}
	const exportQuery = `query($s: ScopeInput!, $r: Boolean) { exportMemory(scope: $s, format: JSON, includeRevisions: $r) }`
	vars := func(revisions bool) map[string]any {
		return map[string]any{"s": map[string]any{"teammateId": tm}, "r": revisions}
	}

	history(300) // 1.2 MB
	resp, body := download(false)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, "Prefers tea")
	assert.Empty(t, s.Do(t, user, exportQuery, vars(false)).Errors)

	resp, body = download(true)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode, "refused, not streamed")
	assert.Contains(t, body, `"code":"BAD_USER_INPUT"`)
	assert.Contains(t, body, `"field":"scope"`)
	assert.Contains(t, body, "without revisions")
	assert.NotContains(t, body, "xxxx")
	assert.NotContains(t, body, "Prefers tea")
	res := s.Do(t, user, exportQuery, vars(true))
	assert.Equal(t, "BAD_USER_INPUT", res.Code())

	history(200) // 800 kB
	resp, body = download(true)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	t.Logf("an export of 1 item and 201 revisions of 4,000 bytes: %d bytes", len(body))
	assert.Empty(t, s.Do(t, user, exportQuery, vars(true)).Errors)
}

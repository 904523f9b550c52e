package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/backup"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/pgcluster"
)

// The schedule backs up every interval and keeps the newest Keep: after five backups, two files
// are left, the two newest, each a readable backup of the current schema.
func TestScheduledBackupsKeepTheNewest(t *testing.T) {
	t.Parallel()
	url := dbtest.URL(t)
	pgDump, err := pgcluster.Program("pg_dump")
	require.NoError(t, err)
	dir := t.TempDir()
	api := apitest.StartWith(t, url, func(o *app.Options) {
		o.Backups = app.Backups{Dir: dir, Interval: 300 * time.Millisecond, Keep: 2,
			Source: backup.Source{DatabaseURL: url, PGDump: pgDump}}
	})
	seen := map[string]bool{}
	var newest []string
	require.Eventually(t, func() bool {
		all, err := backup.List(dir)
		require.NoError(t, err)
		require.LessOrEqual(t, len(all), 3, "at most Keep, and the one being written") // Prune runs right after a backup
		newest = newest[:0]
		for _, b := range all {
			seen[filepath.Base(b.Path)] = true
			newest = append(newest, filepath.Base(b.Path))
		}
		return len(seen) >= 5
	}, time.Minute, 20*time.Millisecond)
	require.Eventually(t, func() bool {
		all, err := backup.List(dir)
		return err == nil && len(all) == 2
	}, 10*time.Second, 20*time.Millisecond)
	all, err := backup.List(dir)
	require.NoError(t, err)
	require.True(t, all[0].Manifest.CreatedAt.After(all[1].Manifest.CreatedAt))

	// Each is counted for Prometheus, the last one's size too.
	rec := httptest.NewRecorder()
	api.App.Metrics().Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	var ok float64
	_, err = fmt.Sscanf(metricLine(t, rec.Body.String(), `memory_backups_total{outcome="success"} `), "%g", &ok)
	require.NoError(t, err)
	require.GreaterOrEqual(t, ok, 5.0)
	require.NotEqual(t, "0", metricLine(t, rec.Body.String(), "memory_backup_last_size_bytes "))
}

// metricLine is the value after prefix on its line of a Prometheus text exposition.
func metricLine(t *testing.T, exposition, prefix string) string {
	t.Helper()
	for _, line := range strings.Split(exposition, "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			return v
		}
	}
	require.FailNow(t, "no metric line "+prefix)
	return ""
}

package server_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/backup"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/pgcluster"
)

const backupsQuery = `query { backups { enabled intervalSeconds keep count totalBytes
	last { name createdAt bytes migration } } }`

// backupStatus is the backups query's answer.
type backupStatus struct {
	Enabled         bool
	IntervalSeconds *int
	Keep            int
	Count           int
	TotalBytes      float64
	Last            *struct {
		Name      string
		CreatedAt time.Time
		Bytes     float64
		Migration int
	}
}

func readBackups(t *testing.T, s *apitest.API) backupStatus {
	t.Helper()
	var data struct{ Backups backupStatus }
	s.Must(t, userToken, backupsQuery, nil, &data)
	return data.Backups
}

// The backups query reports the directory's backups (RULES F8): none at first, then the newest of
// two with their count and total size, by the file's base name only; other credentials are refused.
func TestBackupsQuery(t *testing.T) {
	t.Parallel()
	url := dbtest.URL(t)
	dir := t.TempDir()
	s := apitest.StartWith(t, url, settings, func(o *app.Options) {
		o.Backups = app.Backups{Dir: dir, Interval: 0, Keep: 7}
	})

	st := readBackups(t, s)
	assert.True(t, st.Enabled, "a backup directory is configured")
	assert.Nil(t, st.IntervalSeconds, "no schedule")
	assert.Equal(t, 7, st.Keep)
	assert.Zero(t, st.Count)
	assert.Zero(t, st.TotalBytes)
	assert.Nil(t, st.Last)

	src := testBackupSource(t, url)
	ctx := context.Background()
	older, err := backup.Create(ctx, src, backup.NamedIn(dir, time.Now()), "test")
	require.NoError(t, err)
	newer, err := backup.Create(ctx, src, backup.NamedIn(dir, time.Now().Add(time.Second)), "test")
	require.NoError(t, err)
	require.True(t, newer.Manifest.CreatedAt.After(older.Manifest.CreatedAt))

	st = readBackups(t, s)
	assert.Equal(t, 2, st.Count)
	assert.Equal(t, float64(older.Bytes+newer.Bytes), st.TotalBytes)
	require.NotNil(t, st.Last)
	assert.Equal(t, filepath.Base(newer.Path), st.Last.Name, "the newest, by its base name")
	assert.True(t, newer.Manifest.CreatedAt.Equal(st.Last.CreatedAt), "created %s, reported %s", newer.Manifest.CreatedAt, st.Last.CreatedAt)
	assert.Equal(t, float64(newer.Bytes), st.Last.Bytes)
	assert.Equal(t, int(newer.Manifest.Migration), st.Last.Migration)
	assert.Positive(t, st.Last.Migration)

	// Nothing in the answer names the directory.
	raw := s.Do(t, userToken, backupsQuery, nil)
	require.Empty(t, raw.Errors)
	assert.NotContains(t, string(raw.Data), dir)
	assert.False(t, strings.Contains(string(raw.Data), "/"), "no path in %s", raw.Data)

	for _, c := range []struct{ name, token, code string }{
		{"no credential", "", "UNAUTHENTICATED"},
		{"a wrong token", "not-a-token", "UNAUTHENTICATED"},
		{"the worker", workerToken, "FORBIDDEN"},
	} {
		res := s.Do(t, c.token, backupsQuery, nil)
		assert.Equal(t, c.code, res.Code(), "%s: %s", c.name, res.Data)
		assert.NotContains(t, string(res.Data), "memory-", c.name)
	}
}

// Without a backup directory (DATABASE_URL without MEMORY_BACKUP_DIR) backups are the operator's:
// the query says off, with nothing to count.
func TestBackupsQueryOff(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	st := readBackups(t, s)
	assert.Equal(t, backupStatus{}, st)
}

// A schedule is reported in seconds. A backup made just before keeps the schedule from taking one
// while the test reads (it waits an interval after the newest).
func TestBackupsQuerySchedule(t *testing.T) {
	t.Parallel()
	url, dir := dbtest.URL(t), t.TempDir()
	src := testBackupSource(t, url)
	made, err := backup.Create(context.Background(), src, backup.NamedIn(dir, time.Now()), "test")
	require.NoError(t, err)
	s := apitest.StartWith(t, url, settings, func(o *app.Options) {
		o.Backups = app.Backups{Dir: dir, Interval: 24 * time.Hour, Keep: 3, Source: src}
	})
	st := readBackups(t, s)
	require.NotNil(t, st.IntervalSeconds)
	assert.Equal(t, 24*60*60, *st.IntervalSeconds)
	assert.Equal(t, 3, st.Keep)
	assert.Equal(t, 1, st.Count)
	require.NotNil(t, st.Last)
	assert.Equal(t, filepath.Base(made.Path), st.Last.Name)
}

// testBackupSource is the test database with the cluster's own pg_dump.
func testBackupSource(t *testing.T, url string) backup.Source {
	t.Helper()
	pgDump, err := pgcluster.Program("pg_dump")
	require.NoError(t, err)
	return backup.Source{DatabaseURL: url, PGDump: pgDump}
}

package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/frontend"
	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
)

func TestHealthz(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	res, body := s.Fetch(t, "/healthz", nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.JSONEq(t, `{"status":"ok"}`, body)
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"))
}

func TestReadyz(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings)

	readyz := func(t *testing.T) (int, map[string]string) {
		t.Helper()
		res, body := s.Fetch(t, "/readyz", nil)
		var checks map[string]string
		require.NoError(t, json.Unmarshal([]byte(body), &checks), body)
		return res.StatusCode, checks
	}
	status, checks := readyz(t)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, map[string]string{"database": "ok", "migrations": "ok", "listener": "ok"}, checks)

	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	defer conn.Close(t.Context())
	var latest int64
	require.NoError(t, conn.QueryRow(t.Context(), `SELECT version FROM schema_migrations`).Scan(&latest))

	_, err = conn.Exec(t.Context(), `UPDATE schema_migrations SET version = version - 1`)
	require.NoError(t, err)
	status, checks = readyz(t)
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.Equal(t, "pending", checks["migrations"])
	require.Equal(t, "ok", checks["database"])

	_, err = conn.Exec(t.Context(), `UPDATE schema_migrations SET version = $1`, latest)
	require.NoError(t, err)
	status, _ = readyz(t)
	require.Equal(t, http.StatusOK, status)
}

func TestGraphiQL(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	res, body := s.Fetch(t, "/graphiql", nil)
	if frontend.Built() {
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.True(t, strings.HasPrefix(res.Header.Get("Content-Type"), "text/html"), res.Header.Get("Content-Type"))
		require.Contains(t, strings.ToLower(body), "<!doctype html>")
		require.Contains(t, body, "GraphiQL")
		return
	}
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	require.Contains(t, body, "make frontend")
}

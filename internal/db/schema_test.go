package db_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/pgcluster"
)

// snapshotFile is the committed schema snapshot: what the migrations build, as pg_dump prints it.
const snapshotFile = "testdata/schema.sql"

var update = flag.Bool("update", false, "rewrite "+snapshotFile+" from a freshly migrated database (TestSchemaSnapshot)")

// snapshotHeader opens snapshotFile; %d is the PostgreSQL major version whose pg_dump wrote it.
const snapshotHeader = `-- The schema the migrations build: pg_dump --schema-only --no-owner --no-privileges of a database
-- migrated to the latest version, by PostgreSQL %d, without pg_dump's version lines and settings.
-- Generated, do not edit: internal/db's TestSchemaSnapshot fails when it differs from what the
-- migrations build; make schema rewrites it.

`

// snapshotMajor finds the PostgreSQL major version in snapshotHeader's text.
var snapshotMajor = regexp.MustCompile(`by PostgreSQL (\d+),`)

// TestSchemaSnapshot compares the schema of a freshly migrated database with the committed snapshot,
// so that every change of the schema shows in review as a change of one readable file, and a
// migration edited after the fact (or a schema changed by hand in a test template) is caught.
func TestSchemaSnapshot(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	major := pgMajor(t, databaseURL)
	got := fmt.Sprintf(snapshotHeader, major) + schemaDump(t, databaseURL)
	if *update {
		require.NoError(t, os.WriteFile(snapshotFile, []byte(got), 0o644))
		t.Logf("wrote %s", snapshotFile)
		return
	}
	want, err := os.ReadFile(snapshotFile)
	require.NoError(t, err, "no snapshot: write it with make schema")
	m := snapshotMajor.FindSubmatch(want)
	require.NotNil(t, m, "%s has no header naming the PostgreSQL version: rewrite it with make schema", snapshotFile)
	if written, _ := strconv.Atoi(string(m[1])); written != major {
		// Another major's pg_dump prints the same schema differently.
		t.Skipf("%s was dumped by PostgreSQL %d and this server and pg_dump are %d: the check needs PostgreSQL %d",
			snapshotFile, written, major, written)
	}
	requireSchema(t, string(want), got,
		"the schema the migrations build is not %s: if the change is meant, rewrite the snapshot with make schema "+
			"(go test ./internal/db -run '^TestSchemaSnapshot$' -update) and commit it", snapshotFile)
}

// pgMajor is the major version of the server at databaseURL, which must also be pg_dump's.
func pgMajor(t *testing.T, databaseURL string) int {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var server int
	require.NoError(t, conn.QueryRow(t.Context(), `SELECT current_setting('server_version_num')::int / 10000`).Scan(&server))
	program, err := pgcluster.Program("pg_dump")
	require.NoError(t, err)
	out, err := exec.CommandContext(t.Context(), program, "--version").Output()
	require.NoError(t, err)
	// "pg_dump (PostgreSQL) 15.14 (Debian 15.14-1.pgdg120+1)"
	fields := strings.Fields(string(out))
	require.GreaterOrEqual(t, len(fields), 3, "pg_dump --version: %s", out)
	client, err := strconv.Atoi(strings.SplitN(fields[2], ".", 2)[0])
	require.NoError(t, err, "pg_dump --version: %s", out)
	if client != server {
		t.Skipf("pg_dump is PostgreSQL %d and the server %d: their dumps are not comparable", client, server)
	}
	return server
}

// schemaDump is pg_dump's schema of the database at databaseURL, normalised (normalizeDump).
func schemaDump(t *testing.T, databaseURL string) string {
	t.Helper()
	program, err := pgcluster.Program("pg_dump")
	require.NoError(t, err)
	u, err := url.Parse(databaseURL)
	require.NoError(t, err)
	env := os.Environ()
	if password, ok := u.User.Password(); ok {
		env = append(env, "PGPASSWORD="+password)
		u.User = url.User(u.User.Username())
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, "--schema-only", "--no-owner", "--no-privileges", "--no-tablespaces",
		"--dbname="+u.String())
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "pg_dump: %s", stderr.String())
	return normalizeDump(stdout.String())
}

// normalizeDump keeps what describes the schema from pg_dump's output and drops what varies between
// runs and machines: the versions of pg_dump and the server, the session settings it starts with,
// the random key of \restrict and \unrestrict (pg_dump 15.14 and later), and runs of blank lines.
func normalizeDump(dump string) string {
	var out []string
	blank := true // no blank line at the start
	for line := range strings.Lines(dump) {
		line = strings.TrimRight(line, " \t\r\n")
		switch {
		case strings.HasPrefix(line, "-- Dumped from database version"),
			strings.HasPrefix(line, "-- Dumped by pg_dump version"),
			strings.HasPrefix(line, `\restrict`), strings.HasPrefix(line, `\unrestrict`),
			strings.HasPrefix(line, "SET "),
			strings.HasPrefix(line, "SELECT pg_catalog.set_config("):
			continue
		case line == "":
			if blank {
				continue
			}
			blank = true
		default:
			blank = false
		}
		out = append(out, line)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n") + "\n"
}

func TestNormalizeDump(t *testing.T) {
	t.Parallel()
	dump := "--\n-- PostgreSQL database dump\n--\n\n\\restrict AbC123\n\n-- Dumped from database version 15.14\n" +
		"-- Dumped by pg_dump version 15.14\n\nSET statement_timeout = 0;\nSET client_encoding = 'UTF8';\n" +
		"SELECT pg_catalog.set_config('search_path', '', false);\n\n\nCREATE TABLE public.t (\n    id integer\n);  \n\n\n" +
		"\\unrestrict AbC123\n\n"
	require.Equal(t, "--\n-- PostgreSQL database dump\n--\n\nCREATE TABLE public.t (\n    id integer\n);\n", normalizeDump(dump))
}

// requireSchema fails t with the lines that differ when got is not the schema want.
func requireSchema(t *testing.T, want, got string, msgAndArgs ...any) {
	t.Helper()
	if want == got {
		return
	}
	msg := "the schemas differ"
	if len(msgAndArgs) > 0 {
		msg = fmt.Sprintf(msgAndArgs[0].(string), msgAndArgs[1:]...)
	}
	t.Fatalf("%s (- want, + got):\n%s", msg, lineDiff(want, got))
}

// lineDiff lists the lines only a has (-) and only b has (+), with their line numbers, in the order
// of a longest common subsequence of the two.
func lineDiff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// common[i][j] is the length of the longest common subsequence of x[i:] and y[j:].
	common := make([][]int, len(x)+1)
	for i := range common {
		common[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				common[i][j] = common[i+1][j+1] + 1
			} else {
				common[i][j] = max(common[i+1][j], common[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || common[i+1][j] >= common[i][j+1]):
			fmt.Fprintf(&out, "-%d: %s\n", i+1, x[i])
			i++
		default:
			fmt.Fprintf(&out, "+%d: %s\n", j+1, y[j])
			j++
		}
	}
	return out.String()
}

func TestLineDiff(t *testing.T) {
	t.Parallel()
	require.Equal(t, "-2: b\n+2: B\n+4: d\n", lineDiff("a\nb\nc", "a\nB\nc\nd"))
	require.Empty(t, lineDiff("a\nb", "a\nb"))
}

package dbtest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/pgcluster"
)

// envDatabaseURL names a server to use instead of starting a cluster, e.g. in CI with a service
// container. Its role needs CREATEDB, and CREATE EXTENSION vector unless the extension is trusted.
const envDatabaseURL = "TEST_DATABASE_URL"

// setupTimeout bounds the one-off work: starting the cluster, and migrating the template.
const setupTimeout = 2 * time.Minute

// cloneAttempts: the server itself waits 5 s for sessions on the template to go away before it
// gives up with object_in_use, so each attempt already includes the wait.
const cloneAttempts = 3

// harness is set up once per test binary. Tests only read it after the sync.Onces; Main reads it
// after m.Run, which returns once every test has finished.
var harness struct {
	mainCalled bool

	serverOnce sync.Once
	server     *server
	serverErr  error

	templateOnce sync.Once
	template     string
	templateErr  error
}

// server is where test databases are created.
type server struct {
	base     *url.URL // every test database's URL is this one with another path
	adminURL string
	cluster  *pgcluster.Cluster // nil when TEST_DATABASE_URL is used
	dir      string
	watchdog *watchdog
	// cloneStrategy is appended to CREATE DATABASE … TEMPLATE; see createTemplate.
	cloneStrategy string
}

// Main runs the tests of a package that uses this harness, from its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }
//
// Without TEST_DATABASE_URL it starts a throwaway cluster the first time a test asks for a
// database (so a run that selects no database test starts none), and removes it after the tests.
// It returns the exit code for os.Exit.
func Main(m *testing.M) int {
	if dir := os.Getenv(watchdogEnv); dir != "" {
		return watch(dir)
	}
	harness.mainCalled = true
	code := m.Run()
	if err := teardown(); err != nil {
		fmt.Fprintf(os.Stderr, "dbtest: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// URL returns the URL of a new database holding the migrated schema and nothing else, dropped
// when t ends.
func URL(t testing.TB) string {
	t.Helper()
	s := requireServer(t)
	template := requireTemplate(t, s)
	name := "memory_t_" + randomSuffix()
	if err := s.clone(t.Context(), name, template); err != nil {
		t.Fatalf("dbtest: create database %s from template %s: %v", name, template, err)
	}
	t.Cleanup(func() {
		// t.Context is already cancelled when cleanups run.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.drop(ctx, name); err != nil {
			t.Errorf("dbtest: drop database %s: %v", name, err)
		}
	})
	return s.databaseURL(name)
}

// Pool returns a pool on a new database from URL; the pool is closed before the database is
// dropped.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(URL(t))
	if err != nil {
		t.Fatalf("dbtest: parse URL: %v", err)
	}
	db.CancelByRequest(&cfg.ConnConfig.Config) // as the service's pool (db.OpenPool)
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatalf("dbtest: open pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// AdminURL returns a URL for creating and dropping databases on the test server, for tests that
// need an unmigrated database (say, migrating up, down and up again). It points at the "postgres"
// database of the throwaway cluster, or at TEST_DATABASE_URL as given. Databases made through it
// are the test's to drop.
func AdminURL(t testing.TB) string {
	t.Helper()
	return requireServer(t).adminURL
}

func requireServer(t testing.TB) *server {
	t.Helper()
	harness.serverOnce.Do(func() { harness.server, harness.serverErr = connectServer() })
	if harness.serverErr != nil {
		t.Fatalf("dbtest: %v", harness.serverErr)
	}
	return harness.server
}

func requireTemplate(t testing.TB, s *server) string {
	t.Helper()
	harness.templateOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
		defer cancel()
		harness.template, harness.templateErr = s.createTemplate(ctx)
	})
	if harness.templateErr != nil {
		t.Fatalf("dbtest: prepare the migrated template database: %v", harness.templateErr)
	}
	return harness.template
}

func connectServer() (*server, error) {
	if raw := os.Getenv(envDatabaseURL); raw != "" {
		u, err := url.Parse(raw)
		// The parse error quotes the URL, password included, so it is not passed on.
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return nil, fmt.Errorf("%s must be a postgres:// URL", envDatabaseURL)
		}
		return &server{base: u, adminURL: raw}, nil
	}
	if !harness.mainCalled {
		return nil, fmt.Errorf("no PostgreSQL to test against: call dbtest.Main from the package's TestMain (func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }) or set %s", envDatabaseURL)
	}
	return startCluster()
}

func startCluster() (*server, error) {
	dir, err := os.MkdirTemp("", "memory-dbtest-")
	if err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		// As root the server runs as postgres, which must pass through this 0700 directory.
		if err := os.Chmod(dir, 0o711); err != nil {
			return nil, errors.Join(err, os.RemoveAll(dir))
		}
	}
	// Started before the cluster, so that even a start cut short is cleaned up.
	wd, err := startWatchdog(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "dbtest: no watchdog, so an interrupted run will leave a PostgreSQL running in %s: %v\n", dir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Fast: true, Logger: logger})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("start a throwaway PostgreSQL (or set %s): %w", envDatabaseURL, err),
			os.RemoveAll(dir), wd.release())
	}
	adminURL := cluster.URL("postgres")
	base, err := url.Parse(adminURL)
	if err != nil {
		return nil, errors.Join(err, cluster.Stop(ctx), os.RemoveAll(dir), wd.release())
	}
	return &server{base: base, adminURL: adminURL, cluster: cluster, dir: dir, watchdog: wd}, nil
}

// teardown drops what outlives the test binary on a shared server, or removes the throwaway one.
func teardown() error {
	s := harness.server
	if s == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if s.cluster == nil {
		if harness.template == "" {
			return nil
		}
		if err := s.drop(ctx, harness.template); err != nil {
			return fmt.Errorf("drop template database %s: %w", harness.template, err)
		}
		return nil
	}
	if err := s.cluster.Stop(ctx); err != nil {
		// The files stay for the watchdog, which retries the stop before removing them.
		return errors.Join(fmt.Errorf("stop the throwaway PostgreSQL: %w", err), s.watchdog.release())
	}
	return errors.Join(os.RemoveAll(s.dir), s.watchdog.release())
}

func (s *server) databaseURL(name string) string {
	u := *s.base
	u.Path = "/" + name
	u.RawPath = ""
	return u.String()
}

// createTemplate makes the database every test database is cloned from. It starts from template0
// so that whatever a shared server added to template1 stays out.
func (s *server) createTemplate(ctx context.Context) (string, error) {
	// Copying the files takes half the time of PostgreSQL 15's default WAL_LOG strategy (about
	// 85 against 160 ms here), but it forces two checkpoints per database: cheap only with fsync
	// off, so only on our own cluster, never on a shared server.
	if s.cluster != nil {
		version, err := serverVersion(ctx, s.adminURL)
		if err != nil {
			return "", err
		}
		if version >= 150000 {
			s.cloneStrategy = " STRATEGY FILE_COPY"
		}
	}
	name := "memory_tpl_" + randomSuffix()
	if err := execOn(ctx, s.adminURL, "CREATE DATABASE "+ident(name)+" TEMPLATE template0"+s.cloneStrategy); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	// A superuser may be needed for the extension; the migration's own CREATE EXTENSION then
	// finds it in place.
	if err := execOn(ctx, s.databaseURL(name), "CREATE EXTENSION IF NOT EXISTS vector"); err != nil {
		return name, fmt.Errorf("create extension vector in %s: %w", name, err)
	}
	if err := db.MigrateUp(s.databaseURL(name)); err != nil {
		return name, fmt.Errorf("migrate %s: %w", name, err)
	}
	// Cloning fails while anyone is connected to the template; refusing connections keeps a
	// stray one from breaking every later test.
	if err := execOn(ctx, s.adminURL, "ALTER DATABASE "+ident(name)+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return name, fmt.Errorf("close %s to connections: %w", name, err)
	}
	return name, nil
}

// serverVersion returns server_version_num, e.g. 150004 for 15.4.
func serverVersion(ctx context.Context, databaseURL string) (int, error) {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var version int
	if err := conn.QueryRow(ctx, "SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
		return 0, fmt.Errorf("read server version: %w", err)
	}
	return version, nil
}

func (s *server) clone(ctx context.Context, name, template string) error {
	conn, err := pgx.Connect(ctx, s.adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	sql := "CREATE DATABASE " + ident(name) + " TEMPLATE " + ident(template) + s.cloneStrategy
	for attempt := 1; ; attempt++ {
		_, err := conn.Exec(ctx, sql)
		// 55006 object_in_use: the migration's session on the template is still exiting.
		if err == nil || !hasCode(err, "55006") || attempt == cloneAttempts {
			return err
		}
	}
}

// drop forces the database out even if the test leaked connections to it.
func (s *server) drop(ctx context.Context, name string) error {
	return execOn(ctx, s.adminURL, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)")
}

// execOn runs one statement on a connection of its own: CREATE and DROP DATABASE cannot run in a
// transaction, and a short-lived connection leaves no pool goroutines behind for goleak to find.
func execOn(ctx context.Context, databaseURL, sql string) error {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, sql)
	return errors.Join(err, conn.Close(context.WithoutCancel(ctx)))
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

func hasCode(err error, code string) bool {
	pgErr, ok := errors.AsType[*pgconn.PgError](err)
	return ok && pgErr.Code == code
}

// randomSuffix keeps names apart across parallel test binaries sharing one server.
func randomSuffix() string { return strings.ToLower(rand.Text()[:12]) }

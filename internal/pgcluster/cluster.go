package pgcluster

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// superuser is the role initdb creates; the API connects as it, so it owns every database.
const superuser = "memory"

// startAttempts bounds the retries when another process grabs the free port we picked before the
// server could bind it.
const startAttempts = 5

// errPortTaken marks a start that failed only because the port was in use.
var errPortTaken = errors.New("port already in use")

// Options configures Start.
type Options struct {
	// Dir is the cluster's root directory, created when missing. The data directory is Dir/pg and
	// the superuser's password is Dir/pg-password (mode 0600); deleting both starts over.
	Dir string
	// Port is the TCP port on 127.0.0.1; 0 picks a free one at every start.
	Port int
	// Logger receives progress and warnings; nil means slog.Default().
	Logger *slog.Logger
	// Fast turns off fsync, synchronous_commit and full_page_writes for this run of the server. A
	// machine crash can then corrupt the cluster, which only throwaway test clusters can afford.
	Fast bool
}

// Cluster is a running server in a cluster directory. Its methods are safe for concurrent use.
type Cluster struct {
	dataDir  string
	port     int
	password string
	bins     binDir
	owner    account
	logger   *slog.Logger

	mu      sync.Mutex
	stopped bool
}

// Start initializes the cluster in opts.Dir when it has none, then starts its server, or adopts
// the server already running there (left by a process that died without calling Stop). It
// returns once the server accepts connections with the stored password. On error nothing it
// started is left running.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	return start(ctx, opts, FreePort)
}

// start takes the port picker as a parameter so a test can hand out a taken port first.
func start(ctx context.Context, opts Options, pickPort func() (int, error)) (*Cluster, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	if opts.Dir == "" {
		return nil, errors.New("pgcluster: Options.Dir is empty")
	}
	root, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: resolve %s: %w", opts.Dir, err)
	}
	bins, err := findBinDir()
	if err != nil {
		return nil, err
	}
	owner, err := serverAccount()
	if err != nil {
		return nil, err
	}
	// The server account needs to pass through root when that is not us; the password file in it
	// stays 0600, so search permission for others reveals nothing.
	rootPerm := os.FileMode(0o700)
	if owner.cred != nil {
		rootPerm = 0o711
	}
	if err := os.MkdirAll(root, rootPerm); err != nil {
		return nil, fmt.Errorf("pgcluster: create %s: %w", root, err)
	}
	if err := owner.checkReach(ctx, root, bins.path("postgres")); err != nil {
		return nil, err
	}

	c := &Cluster{dataDir: filepath.Join(root, "pg"), bins: bins, owner: owner, logger: logger}
	if c.password, err = c.prepare(ctx, filepath.Join(root, "pg-password"), opts.Fast); err != nil {
		return nil, err
	}

	running, err := serverRunning(ctx, owner, bins, c.dataDir)
	if err != nil {
		return nil, err
	}
	if running {
		if c.port, err = c.runningPort(); err != nil {
			return nil, err
		}
		if opts.Port != 0 && opts.Port != c.port {
			logger.Warn("PostgreSQL already running on another port than requested; keeping it", "dir", c.dataDir, "port", c.port, "requested_port", opts.Port)
		} else {
			logger.Info("PostgreSQL already running; reusing it", "dir", c.dataDir, "port", c.port)
		}
		if err := c.ping(ctx); err != nil {
			return nil, fmt.Errorf("pgcluster: a server already runs on %s (port %d), but connecting to it failed: %w", c.dataDir, c.port, err)
		}
		return c, nil
	}

	if err := c.launch(ctx, opts, pickPort); err != nil {
		return nil, err
	}
	if err := c.ping(ctx); err != nil {
		stopErr := c.Stop(context.WithoutCancel(ctx))
		return nil, errors.Join(fmt.Errorf("pgcluster: connect to the new server on port %d: %w", c.port, err), stopErr)
	}
	return c, nil
}

// prepare returns the superuser's password, initializing the cluster first when it has none.
func (c *Cluster) prepare(ctx context.Context, passwordPath string, fast bool) (string, error) {
	_, err := os.Stat(filepath.Join(c.dataDir, "PG_VERSION"))
	if errors.Is(err, fs.ErrNotExist) {
		return c.initialize(ctx, passwordPath, fast)
	}
	if err != nil {
		return "", fmt.Errorf("pgcluster: %w", err)
	}
	if err := c.owner.adopt(c.dataDir); err != nil {
		return "", fmt.Errorf("pgcluster: hand %s to user %s: %w", c.dataDir, c.owner.name, err)
	}
	data, err := os.ReadFile(passwordPath)
	if err != nil {
		return "", fmt.Errorf("pgcluster: the cluster in %s exists but its password is unreadable; remove %s to start over, losing its data: %w", c.dataDir, c.dataDir, err)
	}
	return strings.TrimSpace(string(data)), nil
}

// initialize runs initdb into a staging directory renamed into place on success, so a process
// killed halfway leaves no cluster that looks complete but is not.
func (c *Cluster) initialize(ctx context.Context, passwordPath string, fast bool) (string, error) {
	if entries, err := os.ReadDir(c.dataDir); err == nil && len(entries) > 0 {
		return "", fmt.Errorf("pgcluster: %s holds files but no cluster (no PG_VERSION); move it away", c.dataDir)
	}
	began := time.Now()
	root := filepath.Dir(c.dataDir)
	password := rand.Text()
	if err := writeFileAtomic(passwordPath, []byte(password+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("pgcluster: write %s: %w", passwordPath, err)
	}

	// initdb reads the password from a file the server account can open; it lives only as long
	// as initdb runs.
	pwFile, err := os.CreateTemp(root, ".initdb-pwfile-*")
	if err != nil {
		return "", fmt.Errorf("pgcluster: %w", err)
	}
	defer os.Remove(pwFile.Name())
	_, err = pwFile.WriteString(password + "\n")
	if closeErr := pwFile.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = c.owner.chown(pwFile.Name())
	}
	if err != nil {
		return "", fmt.Errorf("pgcluster: write initdb password file: %w", err)
	}

	staging := c.dataDir + ".initdb"
	args := []string{"-D", staging, "-U", superuser, "--auth=scram-sha-256", "--pwfile=" + pwFile.Name(), "-E", "UTF8"}
	if fast {
		// Skips flushing the new cluster's 40 MB to disk, which slow disks feel, at the same
		// price as fsync=off.
		args = append(args, "--no-sync")
	}
	out, err := c.initdb(ctx, staging, append(args, "--locale=C.UTF-8"))
	if err != nil && strings.Contains(out, "invalid locale name") {
		c.logger.Warn("locale C.UTF-8 unavailable; initializing the cluster without a locale", "dir", c.dataDir)
		_, err = c.initdb(ctx, staging, append(args, "--no-locale"))
	}
	if err != nil {
		_ = os.RemoveAll(staging) // best effort: initdb's error is the one to report
		return "", fmt.Errorf("pgcluster: %w", err)
	}
	if err := os.Rename(staging, c.dataDir); err != nil {
		_ = os.RemoveAll(staging) // best effort: the rename's error is the one to report
		return "", fmt.Errorf("pgcluster: move the new cluster into place: %w", err)
	}
	c.logger.Info("initialized PostgreSQL cluster", "dir", c.dataDir, "elapsed", time.Since(began).Round(time.Millisecond))
	return password, nil
}

// initdb runs initdb on a fresh, empty staging directory owned by the server account.
func (c *Cluster) initdb(ctx context.Context, staging string, args []string) (string, error) {
	if err := os.RemoveAll(staging); err != nil {
		return "", err
	}
	if err := os.Mkdir(staging, 0o700); err != nil {
		return "", err
	}
	if err := c.owner.chown(staging); err != nil {
		return "", err
	}
	return c.owner.run(ctx, filepath.Dir(c.dataDir), c.bins.path("initdb"), args...)
}

// serverRunning asks pg_ctl, which also checks that the pid in postmaster.pid is alive, so a
// stale file left by a crashed server reads as not running.
func serverRunning(ctx context.Context, owner account, bins binDir, dataDir string) (bool, error) {
	cmd := owner.command(ctx, filepath.Dir(dataDir), bins.path("pg_ctl"), "status", "-D", dataDir)
	out, err := cmd.CombinedOutput()
	if err == nil {
		return true, nil
	}
	// pg_ctl status exits 3 when no server runs.
	if exitErr, ok := errors.AsType[*exec.ExitError](err); ok && exitErr.ExitCode() == 3 {
		return false, nil
	}
	return false, fmt.Errorf("pgcluster: pg_ctl status: %w: %s", err, strings.TrimSpace(string(out)))
}

// runningPort reads the port from postmaster.pid, whose fourth line it is.
func (c *Cluster) runningPort() (int, error) {
	path := filepath.Join(c.dataDir, "postmaster.pid")
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("pgcluster: %w", err)
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) < 4 {
		return 0, fmt.Errorf("pgcluster: %s has no port line", path)
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[3]))
	if err != nil {
		return 0, fmt.Errorf("pgcluster: port in %s: %w", path, err)
	}
	return port, nil
}

// launch starts the server, moving to another free port when the one picked was taken in the
// meantime; a port the caller chose is never swapped.
func (c *Cluster) launch(ctx context.Context, opts Options, pickPort func() (int, error)) error {
	for attempt := 1; ; attempt++ {
		port := opts.Port
		if port == 0 {
			var err error
			if port, err = pickPort(); err != nil {
				return fmt.Errorf("pgcluster: pick a free port: %w", err)
			}
		}
		err := c.pgCtlStart(ctx, port, opts.Fast)
		if err == nil {
			c.port = port
			return nil
		}
		if errors.Is(err, errPortTaken) && opts.Port != 0 {
			return fmt.Errorf("%w; choose another port, or 0 to pick a free one", err)
		}
		if !errors.Is(err, errPortTaken) || attempt == startAttempts {
			return err
		}
		c.logger.Warn("port taken before PostgreSQL could bind it; trying another", "port", port, "attempt", attempt)
	}
}

func (c *Cluster) pgCtlStart(ctx context.Context, port int, fast bool) error {
	logPath := filepath.Join(c.dataDir, "server.log")
	logStart := fileSize(logPath)
	durability := "on"
	if fast {
		durability = "off"
	}
	// pg_ctl hands -o to /bin/sh, so '' reaches the server as an empty value: no Unix socket, and
	// thus no socket directory to own or clash over.
	settings := strings.Join([]string{
		"-c listen_addresses=127.0.0.1",
		"-p " + strconv.Itoa(port),
		"-c unix_socket_directories=''",
		"-c fsync=" + durability,
		"-c synchronous_commit=" + durability,
		"-c full_page_writes=" + durability,
		// Forgetting is physical here (F5, memory.Background.Purge): a checkpoint must unlink old WAL
		// segments, not rename them for reuse with the forgotten text still inside, and an error
		// must not copy a failing row's values into server.log (DETAIL lines).
		"-c wal_recycle=off",
		"-c log_error_verbosity=terse",
	}, " ")
	began := time.Now()
	_, err := c.owner.run(ctx, filepath.Dir(c.dataDir), c.bins.path("pg_ctl"),
		"start", "-w", "-t", "60", "-D", c.dataDir, "-l", logPath, "-o", settings)
	if err != nil {
		serverLog := readTail(logPath, logStart, 20)
		if strings.Contains(serverLog, "Address already in use") {
			return fmt.Errorf("pgcluster: port %d: %w", port, errPortTaken)
		}
		return fmt.Errorf("pgcluster: %w\nserver log (%s):\n%s", err, logPath, serverLog)
	}
	c.logger.Info("PostgreSQL started", "dir", c.dataDir, "port", port, "fast", fast, "elapsed", time.Since(began).Round(time.Millisecond))
	return nil
}

// ping proves the server accepts the stored password, which pg_ctl's readiness check does not.
func (c *Cluster) ping(ctx context.Context) error {
	conn, err := c.Admin(ctx)
	if err != nil {
		return err
	}
	return conn.Close(ctx)
}

// FreePort is a TCP port on 127.0.0.1 that was free a moment ago: the cluster's, and the API
// processes' of the tools and tests that start their own.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// URL returns a connection URL for database dbname as the superuser. It holds the password, so
// it must not be logged.
func (c *Cluster) URL(dbname string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword(superuser, c.password),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)),
		Path:     "/" + dbname,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// Port returns the TCP port the server listens on at 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// Admin connects to the "postgres" database as the superuser, for work that needs no
// application database, such as creating one. The caller closes the connection.
func (c *Cluster) Admin(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return nil, fmt.Errorf("pgcluster: connect to port %d: %w", c.port, err)
	}
	return conn, nil
}

// EnsureDatabase creates database name unless it exists, then pgvector in it, so the caller can
// migrate it at once. Safe to run concurrently and at every start.
func (c *Cluster) EnsureDatabase(ctx context.Context, name string) error {
	admin, err := c.Admin(ctx)
	if err != nil {
		return err
	}
	defer admin.Close(context.WithoutCancel(ctx))
	var exists bool
	err = admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists)
	if err != nil {
		return fmt.Errorf("pgcluster: look up database %s: %w", name, err)
	}
	if !exists {
		// 42P04 duplicate_database: a concurrent caller won the race, which is what we wanted.
		_, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
		if err != nil && !hasCode(err, "42P04") {
			return fmt.Errorf("pgcluster: create database %s: %w", name, err)
		}
		if err == nil {
			c.logger.Info("created database", "database", name)
		}
	}

	conn, err := pgx.Connect(ctx, c.URL(name))
	if err != nil {
		return fmt.Errorf("pgcluster: connect to database %s: %w", name, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector"); err != nil {
		// 58P01 undefined_file: the server has no vector.control.
		if hasCode(err, "58P01") {
			return fmt.Errorf("pgcluster: pgvector is not installed for the server in %s; run make bootstrap: %w", c.bins, err)
		}
		return fmt.Errorf("pgcluster: create extension vector in %s: %w", name, err)
	}
	return nil
}

// Stop shuts the server down (fast mode: open sessions are rolled back) and waits for it to exit.
// It does nothing when called again, on a nil Cluster (what a failed Start returns), or when the
// server is already gone.
func (c *Cluster) Stop(ctx context.Context) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	if err := stop(ctx, c.owner, c.bins, c.dataDir, c.logger); err != nil {
		return err
	}
	c.stopped = true
	return nil
}

// StopDir stops the server of the cluster in dir (laid out by Start) and waits for it to exit; it
// does nothing when none runs. It is for cleaning up after a process that died without calling
// Stop, so it needs neither the password nor a connection.
func StopDir(ctx context.Context, dir string, logger *slog.Logger) error {
	if logger == nil {
		logger = slog.Default()
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("pgcluster: resolve %s: %w", dir, err)
	}
	dataDir := filepath.Join(root, "pg")
	if _, err := os.Stat(filepath.Join(dataDir, "postmaster.pid")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	bins, err := findBinDir()
	if err != nil {
		return err
	}
	owner, err := serverAccount()
	if err != nil {
		return err
	}
	return stop(ctx, owner, bins, dataDir, logger)
}

func stop(ctx context.Context, owner account, bins binDir, dataDir string, logger *slog.Logger) error {
	began := time.Now()
	_, err := owner.run(ctx, filepath.Dir(dataDir), bins.path("pg_ctl"), "stop", "-w", "-t", "60", "-m", "fast", "-D", dataDir)
	if err != nil {
		// pg_ctl stop fails when no server runs; that is the state we want.
		if running, statusErr := serverRunning(ctx, owner, bins, dataDir); statusErr == nil && !running {
			return nil
		}
		return fmt.Errorf("pgcluster: %w", err)
	}
	logger.Info("PostgreSQL stopped", "dir", dataDir, "elapsed", time.Since(began).Round(time.Millisecond))
	return nil
}

func hasCode(err error, code string) bool {
	pgErr, ok := errors.AsType[*pgconn.PgError](err)
	return ok && pgErr.Code == code
}

// Program is the path of one of the cluster's own PostgreSQL programs (pg_dump, pg_restore …).
func (c *Cluster) Program(name string) string { return c.bins.path(name) }

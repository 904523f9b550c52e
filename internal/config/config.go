package config

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Shared is the configuration every process reads the same way: where the database and the data
// directory are, the tombstone key and logging.
type Shared struct {
	// DatabaseURL is DATABASE_URL; empty means the embedded private cluster in DataDir (cmd/api
	// only: the worker requires it).
	DatabaseURL string
	// DataDir is MEMORY_DATA_DIR (default ./.data): the embedded cluster and generated tokens.
	DataDir string
	// TombstoneKey is MEMORY_TOMBSTONE_KEY: the secret that keys tombstone hashes (F3), kept out of
	// the database so that a dump can't be brute-forced. Required with DATABASE_URL by the API;
	// empty means the one generated into DataDir (embedded database only).
	TombstoneKey string
	// LogLevel is MEMORY_LOG_LEVEL: debug, info (default), warn or error.
	LogLevel string
	// LogFormat is MEMORY_LOG_FORMAT: text (default) or json.
	LogFormat string
}

// Config is the validated configuration of cmd/api.
type Config struct {
	Shared
	// Addr is MEMORY_ADDR, the HTTP listen address (default 127.0.0.1:8080).
	Addr string
	// PGPort is MEMORY_PG_PORT, the embedded cluster's port (0, the default, picks a free one).
	PGPort int
	// UserToken and WorkerToken are MEMORY_USER_TOKEN and MEMORY_WORKER_TOKEN; empty means generated
	// into DataDir (embedded database only).
	UserToken   string
	WorkerToken string
	// SkipMigrations is MEMORY_SKIP_MIGRATIONS=true: don't migrate at start (the API then refuses to be
	// ready until the schema is current).
	SkipMigrations bool
	// AllowedOrigins is MEMORY_ALLOWED_ORIGINS: extra origins (scheme://host:port) allowed to open
	// websockets; the server's own origin is always allowed.
	AllowedOrigins []string
	// Demo is MEMORY_DEMO (default true): load the labelled demo into a brand-new embedded database.
	// It never applies to a database given by DATABASE_URL.
	Demo bool
	// DebugAddr is MEMORY_DEBUG_ADDR: where cmd/api serves Go's profiler (/debug/pprof/) for
	// profiling a live process, as make bench can; empty (the default) serves nothing. It must be a
	// loopback address: profiles show the process's internals to whoever can read them.
	DebugAddr string
	// MetricsAddr is MEMORY_METRICS_ADDR: where cmd/api serves Prometheus metrics (/metrics); empty
	// (the default) serves nothing. It must be a loopback address, like DebugAddr: a scraper on
	// another host reaches it through a proxy or a tunnel the operator chooses.
	MetricsAddr string
	// RunSuggestionLimit is MEMORY_RUN_SUGGESTION_LIMIT (default 20, 1–1000): how many suggestions
	// one run may leave for the user.
	RunSuggestionLimit int
	// DBMaxConns is MEMORY_DB_MAX_CONNS: the size of the API's request pool (DefaultDBMaxConns). The
	// health checks and the event listener have connections of their own on top of it.
	DBMaxConns int
	// DBStatementTimeout is MEMORY_DB_STATEMENT_TIMEOUT, a Go duration (default 30s; 0 turns it
	// off): PostgreSQL's statement_timeout on the pool's connections, so that no statement holds a
	// connection longer.
	DBStatementTimeout time.Duration
	// BackupDir is MEMORY_BACKUP_DIR: where `api backup` and the schedule write backups and where the
	// forget ledger is kept (RULES F8). Default DataDir/backups with the embedded database; with
	// DATABASE_URL, empty (the default) keeps no ledger and takes no scheduled backups.
	BackupDir string
	// BackupInterval is MEMORY_BACKUP_INTERVAL, a Go duration of at least 1m: the API backs up on its
	// own this often (and at start when the newest backup is older). 0, the default, schedules none.
	BackupInterval time.Duration
	// BackupKeep is MEMORY_BACKUP_KEEP (default 7, 1–1000): how many backups the schedule keeps in
	// BackupDir; older ones it named are removed.
	BackupKeep int
}

// DefaultDBStatementTimeout is MEMORY_DB_STATEMENT_TIMEOUT's default: far above any statement a
// request makes at the benchmark's sizes (recall over 100,000 items takes tens of milliseconds),
// so it only ends statements that have gone wrong.
const DefaultDBStatementTimeout = 30 * time.Second

// maxDBMaxConns bounds MEMORY_DB_MAX_CONNS: PostgreSQL's default max_connections is 100, shared by
// every process on the database.
const maxDBMaxConns = 1000

// DefaultDBMaxConns is MEMORY_DB_MAX_CONNS's default on this machine: four connections per CPU, at
// least 8 and at most 32. PostgreSQL's throughput stops growing at a few active sessions per core,
// and one operation uses at most a few connections at once (see internal/server), so 8 on a small
// machine leaves room for several slow operations while others are served.
func DefaultDBMaxConns() int {
	return min(max(8, 4*runtime.GOMAXPROCS(0)), 32)
}

// MinTokenLength is the shortest MEMORY_USER_TOKEN / MEMORY_WORKER_TOKEN accepted.
const MinTokenLength = 24

// MinTombstoneKeyLength is the shortest MEMORY_TOMBSTONE_KEY accepted, in bytes (as
// memory.MinTombstoneKeyLength; config doesn't import memory).
const MinTombstoneKeyLength = 32

// Load reads the environment through getenv (os.Getenv when nil).
func Load(getenv func(string) string) (Config, error) {
	getenv, get := getters(getenv)
	shared, err := loadShared(getenv, get)
	if err != nil {
		return Config{}, err
	}
	c := Config{
		Shared:      shared,
		Addr:        get("MEMORY_ADDR", "127.0.0.1:8080"),
		UserToken:   get("MEMORY_USER_TOKEN", ""),
		WorkerToken: get("MEMORY_WORKER_TOKEN", ""),
		DebugAddr:   get("MEMORY_DEBUG_ADDR", ""),
		MetricsAddr: get("MEMORY_METRICS_ADDR", ""),
	}
	if c.DBMaxConns, err = strconv.Atoi(get("MEMORY_DB_MAX_CONNS", strconv.Itoa(DefaultDBMaxConns()))); err != nil || c.DBMaxConns < 1 || c.DBMaxConns > maxDBMaxConns {
		return c, fmt.Errorf("MEMORY_DB_MAX_CONNS: want a number of connections from 1 to %d", maxDBMaxConns)
	}
	if c.DBStatementTimeout, err = time.ParseDuration(get("MEMORY_DB_STATEMENT_TIMEOUT", DefaultDBStatementTimeout.String())); err != nil ||
		c.DBStatementTimeout < 0 || (c.DBStatementTimeout > 0 && c.DBStatementTimeout < time.Millisecond) {
		return c, fmt.Errorf("MEMORY_DB_STATEMENT_TIMEOUT: want a Go duration like 30s (at least 1ms), or 0 for none")
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return c, fmt.Errorf("MEMORY_ADDR: want host:port, like 127.0.0.1:8080: %v", err)
	}
	if c.DebugAddr != "" && !loopback(c.DebugAddr) {
		return c, fmt.Errorf("MEMORY_DEBUG_ADDR: want a loopback host:port, like 127.0.0.1:6060")
	}
	if c.MetricsAddr != "" && !loopback(c.MetricsAddr) {
		return c, fmt.Errorf("MEMORY_METRICS_ADDR: want a loopback host:port, like 127.0.0.1:9464")
	}
	port, err := strconv.Atoi(get("MEMORY_PG_PORT", "0"))
	if err != nil || port < 0 || port > 65535 {
		return c, fmt.Errorf("MEMORY_PG_PORT: want a port number (0 = any free port)")
	}
	c.PGPort = port
	limit, err := strconv.Atoi(get("MEMORY_RUN_SUGGESTION_LIMIT", "20"))
	if err != nil || limit < 1 || limit > 1000 {
		return c, fmt.Errorf("MEMORY_RUN_SUGGESTION_LIMIT: want a number from 1 to 1000 (default 20)")
	}
	c.RunSuggestionLimit = limit
	switch v := strings.ToLower(get("MEMORY_SKIP_MIGRATIONS", "false")); v {
	case "true", "1", "yes":
		c.SkipMigrations = true
	case "false", "0", "no":
	default:
		return c, fmt.Errorf("MEMORY_SKIP_MIGRATIONS: want true or false")
	}
	for _, o := range strings.Split(get("MEMORY_ALLOWED_ORIGINS", ""), ",") {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o == "" {
			continue
		}
		if !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
			return c, fmt.Errorf("MEMORY_ALLOWED_ORIGINS: %q is not an origin like https://example.com", o)
		}
		c.AllowedOrigins = append(c.AllowedOrigins, o)
	}
	for name, tok := range map[string]string{"MEMORY_USER_TOKEN": c.UserToken, "MEMORY_WORKER_TOKEN": c.WorkerToken} {
		if tok != "" && len(tok) < MinTokenLength {
			return c, fmt.Errorf("%s: must be at least %d characters", name, MinTokenLength)
		}
	}
	if c.UserToken != "" && c.UserToken == c.WorkerToken {
		return c, fmt.Errorf("MEMORY_USER_TOKEN and MEMORY_WORKER_TOKEN must differ")
	}
	if c.DatabaseURL != "" && (c.UserToken == "" || c.WorkerToken == "") {
		return c, fmt.Errorf("MEMORY_USER_TOKEN and MEMORY_WORKER_TOKEN are required with DATABASE_URL (they are generated only for the embedded database)")
	}
	if c.DatabaseURL != "" && c.TombstoneKey == "" {
		return c, fmt.Errorf("MEMORY_TOMBSTONE_KEY is required with DATABASE_URL: the secret that keys the hashes of forgotten texts, kept outside the database (at least %d bytes, e.g. openssl rand -hex 32; every process on the database needs the same one)", MinTombstoneKeyLength)
	}
	c.BackupDir = get("MEMORY_BACKUP_DIR", "")
	if c.BackupDir == "" && c.DatabaseURL == "" {
		c.BackupDir = filepath.Join(c.DataDir, "backups")
	}
	if c.BackupInterval, err = time.ParseDuration(get("MEMORY_BACKUP_INTERVAL", "0")); err != nil ||
		c.BackupInterval < 0 || (c.BackupInterval > 0 && c.BackupInterval < time.Minute) {
		return c, fmt.Errorf("MEMORY_BACKUP_INTERVAL: want a Go duration like 24h (at least 1m), or 0 for no scheduled backups")
	}
	if c.BackupInterval > 0 && c.BackupDir == "" {
		return c, fmt.Errorf("MEMORY_BACKUP_INTERVAL needs MEMORY_BACKUP_DIR with DATABASE_URL: where the backups and the forget ledger go")
	}
	if c.BackupKeep, err = strconv.Atoi(get("MEMORY_BACKUP_KEEP", "7")); err != nil || c.BackupKeep < 1 || c.BackupKeep > 1000 {
		return c, fmt.Errorf("MEMORY_BACKUP_KEEP: want a number of backups from 1 to 1000 (default 7)")
	}
	switch v := strings.ToLower(get("MEMORY_DEMO", "true")); v {
	case "true", "1", "yes":
		c.Demo = c.DatabaseURL == ""
	case "false", "0", "no":
	default:
		return c, fmt.Errorf("MEMORY_DEMO: want true or false")
	}
	return c, nil
}

// loopback reports whether addr is a host:port on the loopback interface (localhost, 127.0.0.0/8,
// ::1).
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	ip := net.ParseIP(host)
	return err == nil && (host == "localhost" || ip != nil && ip.IsLoopback())
}

// Worker is the validated configuration of cmd/worker: the shared part, with DATABASE_URL required
// (the worker never starts a database of its own), and the optional AI whose jobs it runs.
type Worker struct {
	Shared
	AI AI
}

// LoadWorker reads the worker's environment through getenv (os.Getenv when nil). It needs neither
// the user's nor the worker's token: it runs jobs on the database, not requests on the API.
func LoadWorker(getenv func(string) string) (Worker, error) {
	getenv, get := getters(getenv)
	shared, err := loadShared(getenv, get)
	if err != nil {
		return Worker{}, err
	}
	if shared.DatabaseURL == "" {
		return Worker{}, errors.New("DATABASE_URL is required (the worker never starts a database of its own)")
	}
	ai, err := LoadAI(getenv)
	return Worker{Shared: shared, AI: ai}, err
}

// getters returns getenv (os.Getenv when nil) and get, which reads a trimmed variable, or def when
// it is blank.
func getters(getenv func(string) string) (func(string) string, func(name, def string) string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	return getenv, func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
}

// loadShared reads and checks the Shared part.
func loadShared(getenv func(string) string, get func(name, def string) string) (Shared, error) {
	s := Shared{
		DatabaseURL: get("DATABASE_URL", ""),
		DataDir:     get("MEMORY_DATA_DIR", ".data"),
		// Not trimmed: every byte of a secret counts.
		TombstoneKey: getenv("MEMORY_TOMBSTONE_KEY"),
		LogLevel:     strings.ToLower(get("MEMORY_LOG_LEVEL", "info")),
		LogFormat:    strings.ToLower(get("MEMORY_LOG_FORMAT", "text")),
	}
	if s.TombstoneKey != "" && len(s.TombstoneKey) < MinTombstoneKeyLength {
		return s, fmt.Errorf("MEMORY_TOMBSTONE_KEY: must be at least %d bytes (try: openssl rand -hex 32)", MinTombstoneKeyLength)
	}
	switch s.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return s, fmt.Errorf("MEMORY_LOG_LEVEL: want debug, info, warn or error")
	}
	switch s.LogFormat {
	case "text", "json":
	default:
		return s, fmt.Errorf("MEMORY_LOG_FORMAT: want text or json")
	}
	return s, nil
}

// Logger is the process's logger on w, at LogLevel in LogFormat.
func (s Shared) Logger(w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(s.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if s.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

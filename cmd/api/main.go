// Command api serves the memory service: the GraphQL API (HTTP and graphql-transport-ws), GraphiQL,
// the web app, /healthz and /readyz. With no DATABASE_URL it starts (and stops) its own PostgreSQL
// cluster with pgvector in MEMORY_DATA_DIR.
//
//	api                          serve (migrating first unless -skip-migrations / MEMORY_SKIP_MIGRATIONS)
//	api migrate up|down|version  manage the schema and exit (down drops every table: --allow-lossy)
//	api migrate force N          record migration N as applied and clean, running nothing (after a
//	                             failed migration was repaired by hand; 0: none applied)
//	api migrate to N             migrate up or down to migration N; a down that loses data is refused,
//	  [--allow-lossy]            changing nothing, unless --allow-lossy is given (db.MigrateTo)
//	api backup [-o FILE]         write a backup (RULES F8)
//	api restore FILE             replace the embedded database with a backup, re-applying later forgets
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/backup"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/pgcluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	// Read before stop, which cancels ctx too: after it every failure would look interrupted, exit 0
	// and lose its message (a missing extension's CREATE EXTENSION, say).
	interrupted := ctx.Err() != nil
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		// -h: the usage was printed; asking for it is not a failure.
	case err != nil && interrupted && isCommand(os.Args[1:]):
		// A command cut short did not do its job: a script must be able to tell.
		fmt.Fprintln(os.Stderr, "api: interrupted:", err)
		os.Exit(1)
	case err != nil && interrupted:
		// Ctrl-C or SIGTERM while starting: whatever was interrupted, stopping is what was asked.
		fmt.Fprintln(os.Stderr, "api: stopped")
	case err != nil:
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	flags := flag.NewFlagSet("api", flag.ContinueOnError)
	skipMigrations := flags.Bool("skip-migrations", false, "don't apply migrations at start (also MEMORY_SKIP_MIGRATIONS=true)")
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), usage)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	// Before anything starts: a mistyped command must not first start (or create) the embedded
	// cluster and generate tokens.
	if err := checkCommand(flags.Args()); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			flags.Usage()
		}
		return err
	}
	cfg, err := config.Load(nil)
	if err != nil {
		return err
	}
	aiCfg, err := config.LoadAI(nil)
	if err != nil {
		return err
	}
	limits, err := config.LoadLimits(nil)
	if err != nil {
		return err
	}
	// Where the user token came from, so that start-up names it instead of printing a token it
	// didn't generate.
	token := userTokenSource{from: "MEMORY_USER_TOKEN"}
	log := cfg.Logger(os.Stderr)

	command := ""
	if rest := flags.Args(); len(rest) > 0 {
		command = rest[0]
	}
	if command == "restore" && cfg.DatabaseURL != "" {
		return errors.New("api restore restores the embedded database; with DATABASE_URL, restore with pg_restore as docs/OPERATIONS.md (Backups) says")
	}
	databaseURL := cfg.DatabaseURL
	var cluster *pgcluster.Cluster
	if databaseURL == "" {
		// The serving process owns the data directory's cluster, marked by a lock held while it runs:
		// a second server refuses to start, and `migrate` uses a running server's cluster without
		// stopping it.
		lock, err := lockDataDir(cfg.DataDir)
		if err != nil {
			return err
		}
		owner := lock != nil
		if owner {
			// Deferred first, so released last: after the cluster below has stopped.
			defer lock.Close()
		}
		serving := len(flags.Args()) == 0
		if !owner && serving {
			return fmt.Errorf("another api process is serving MEMORY_DATA_DIR %s; stop it first", cfg.DataDir)
		}
		if !owner && command == "restore" {
			return fmt.Errorf("another api process (a serving API, or a restore) holds MEMORY_DATA_DIR %s; stop it, then restore", cfg.DataDir)
		}
		// A restore needs the key the backup was made with: a new one would be generated below and
		// match nothing the backup holds.
		keyFile := filepath.Join(cfg.DataDir, TombstoneKeyFile)
		if _, err := os.Stat(keyFile); command == "restore" && cfg.TombstoneKey == "" && err != nil {
			return fmt.Errorf("api restore needs the tombstone key the backup was made with: put it in %s (or MEMORY_TOMBSTONE_KEY) first (docs/OPERATIONS.md, Backups)", keyFile)
		}
		cluster, err = pgcluster.Start(ctx, pgcluster.Options{Dir: cfg.DataDir, Port: cfg.PGPort, Logger: log})
		if err != nil {
			return fmt.Errorf("embedded PostgreSQL: %w", err)
		}
		if owner {
			defer func() {
				stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				if err := cluster.Stop(stopCtx); err != nil {
					log.Error("stop embedded PostgreSQL", "err", err)
				}
			}()
		}
		if err := cluster.EnsureDatabase(ctx, "memory"); err != nil {
			return fmt.Errorf("embedded PostgreSQL: %w", err)
		}
		databaseURL = cluster.URL("memory")
		if cfg.UserToken == "" {
			token.from = filepath.Join(cfg.DataDir, "user-token")
			if cfg.UserToken, token.generated, err = auth.LoadOrCreateToken(token.from, "mu_"); err != nil {
				return err
			}
		}
		if cfg.WorkerToken == "" {
			if cfg.WorkerToken, _, err = auth.LoadOrCreateToken(filepath.Join(cfg.DataDir, "worker-token"), "mw_"); err != nil {
				return err
			}
		}
		// The tombstone key lives beside the cluster, not in it: a dump alone can't be brute-forced.
		if cfg.TombstoneKey == "" {
			if cfg.TombstoneKey, _, err = auth.LoadOrCreateToken(keyFile, "mk_"); err != nil {
				return err
			}
		}
	}

	pgDump := func() (string, error) {
		if cluster != nil {
			return cluster.Program("pg_dump"), nil
		}
		return pgcluster.Program("pg_dump")
	}
	switch rest := flags.Args(); command {
	case "migrate":
		return migrate(databaseURL, rest[1:])
	case "backup":
		return backupCommand(ctx, cfg, databaseURL, pgDump, rest[1:])
	case "restore":
		return restoreCommand(ctx, cfg, cluster, rest[1], log)
	}
	if !*skipMigrations && !cfg.SkipMigrations {
		if err := db.MigrateUp(databaseURL); err != nil {
			return err
		}
	}
	backups := app.Backups{Dir: cfg.BackupDir, Interval: cfg.BackupInterval, Keep: cfg.BackupKeep}
	if backups.Interval > 0 {
		program, err := pgDump()
		if err != nil {
			return fmt.Errorf("MEMORY_BACKUP_INTERVAL: %w", err)
		}
		backups.Source = backup.Source{DatabaseURL: databaseURL, PGDump: program}
	}
	return serve(ctx, cfg, aiCfg, limits, token, databaseURL, backups, log)
}

// userTokenSource says where the user token came from: generated into a file just now, read from
// that file, or the environment variable.
type userTokenSource struct {
	generated bool
	from      string
}

// purgeDelay is how soon after forgets the embedded cluster is purged; 0 with DATABASE_URL.
func purgeDelay(cfg config.Config) time.Duration {
	if cfg.DatabaseURL != "" {
		return 0
	}
	return memory.DefaultPurgeDelay
}

// TombstoneKeyFile is the generated tombstone key's file in MEMORY_DATA_DIR (mode 0600).
const TombstoneKeyFile = "tombstone-key"

// usage is what api -h prints before the flags.
const usage = `api: the memory service.

Usage:
  api [-skip-migrations]       serve (migrating first), on MEMORY_ADDR (default 127.0.0.1:8080)
  api migrate up|down|version  manage the schema and exit; down reverts every migration, dropping
                               every table and all it holds, so it needs --allow-lossy
  api migrate force N          record migration N as applied and clean, running nothing (after a
                               failed migration was repaired by hand; 0: none applied)
  api migrate to N [--allow-lossy]
                               migrate up or down to migration N (0: none). Some downs lose data:
                               the migration's file says what on its first line ("-- lossy: …").
                               Without --allow-lossy such a down is refused before anything runs,
                               naming each lossy migration and what it loses; back up first (api
                               backup), as migrating up again doesn't bring the data back
  api backup [-o FILE]         write a backup of the memory database (default: a new file in
                               MEMORY_BACKUP_DIR); works while the API serves
  api restore FILE             replace the embedded database with a backup, then apply again every
                               forget the ledger recorded after it; the API must be stopped

Without DATABASE_URL it starts (and stops) its own PostgreSQL in MEMORY_DATA_DIR (default ./.data).
docs/CONFIGURATION.md lists every MEMORY_* variable.

Flags:
`

// isCommand reports whether args run a command (migrate, backup, restore) rather than serve.
func isCommand(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return a == "migrate" || a == "backup" || a == "restore" })
}

// checkCommand accepts the commands usage lists: none (serve), or a migrate command. A -h among
// them, or "help", is flag.ErrHelp.
func checkCommand(args []string) error {
	if slices.ContainsFunc(args, func(a string) bool { return a == "help" || a == "-h" || a == "-help" || a == "--help" }) {
		return flag.ErrHelp
	}
	switch {
	case len(args) == 0,
		args[0] == "migrate" && (len(args) == 2 && slices.Contains([]string{"up", "down", "version"}, args[1]) ||
			len(args) == 3 && ((args[1] == "force" || args[1] == "to") && isNumber(args[2]) || args[1] == "down" && isAllowLossy(args[2])) ||
			len(args) == 4 && args[1] == "to" && isNumber(args[2]) && isAllowLossy(args[3])),
		args[0] == "backup" && (len(args) == 1 || len(args) == 3 && args[1] == "-o" && args[2] != ""),
		args[0] == "restore" && len(args) == 2 && args[1] != "":
		return nil
	}
	return fmt.Errorf("unknown command %q; want: migrate up|down [--allow-lossy]|version|force N|to N [--allow-lossy], backup [-o FILE], restore FILE (api -h explains them)", strings.Join(args, " "))
}

// isNumber reports whether arg is a migration number.
func isNumber(arg string) bool {
	_, err := strconv.ParseUint(arg, 10, 0)
	return err == nil
}

// isAllowLossy reports whether arg is the flag that lets migrate down and migrate to run downs that
// lose data.
func isAllowLossy(arg string) bool { return arg == "--allow-lossy" || arg == "-allow-lossy" }

// migrate runs a migrate command checkCommand accepted.
func migrate(databaseURL string, args []string) error {
	lossy := db.RefuseLossy
	if isAllowLossy(args[len(args)-1]) {
		lossy = db.AllowLossy
	}
	switch args[0] {
	case "up":
		return db.MigrateUp(databaseURL)
	case "down":
		if err := db.MigrateDown(databaseURL, lossy); err != nil {
			return err
		}
		fmt.Println("version 0")
		return nil
	case "version":
		v, dirty, err := db.Version(databaseURL)
		if err != nil {
			return err
		}
		latest, err := db.LatestVersion()
		if err != nil {
			return err
		}
		fmt.Printf("version %d (latest %d, dirty %t)\n", v, latest, dirty)
		return nil
	case "to":
		n, err := strconv.ParseUint(args[1], 10, 0)
		if err != nil {
			return fmt.Errorf("migrate to %q: want a migration number (0 for none)", args[1])
		}
		if err := db.MigrateTo(databaseURL, uint(n), lossy); err != nil {
			return err
		}
		fmt.Printf("version %d\n", n)
		return nil
	default: // force N
		n, err := strconv.ParseUint(args[1], 10, 0)
		if err != nil {
			return fmt.Errorf("migrate force %q: want a migration number (0 for none)", args[1])
		}
		if err := db.Force(databaseURL, uint(n)); err != nil {
			return err
		}
		fmt.Printf("version %d recorded as applied, clean; nothing was run\n", n)
		return nil
	}
}

func serve(ctx context.Context, cfg config.Config, aiCfg config.AI, limits config.Limits, token userTokenSource,
	databaseURL string, backups app.Backups, log *slog.Logger) error {
	a, err := app.New(ctx, app.Options{
		DatabaseURL: databaseURL, UserToken: cfg.UserToken, WorkerToken: cfg.WorkerToken,
		TombstoneKey: []byte(cfg.TombstoneKey),
		// Only the embedded cluster is the service's own to rewrite (F5).
		PurgeDelay:     purgeDelay(cfg),
		AllowedOrigins: cfg.AllowedOrigins, Log: log, AI: aiCfg, Demo: cfg.Demo, Limits: limits,
		RunSuggestionLimit: cfg.RunSuggestionLimit,
		DBMaxConns:         cfg.DBMaxConns, DBStatementTimeout: cfg.DBStatementTimeout,
		Backups: backups,
	})
	if err != nil {
		return err
	}
	defer a.Close()

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on MEMORY_ADDR %s: %w", cfg.Addr, err)
	}
	// Hijacked websockets outlive Shutdown; cancelling their base context ends their subscriptions.
	baseCtx, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	srv := a.HTTPServer()
	srv.BaseContext = func(net.Listener) context.Context { return baseCtx }
	srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if cfg.DebugAddr != "" {
		stop, err := serveProfiler(cfg.DebugAddr, log)
		if err != nil {
			return err
		}
		defer stop()
	}
	if cfg.MetricsAddr != "" {
		stop, err := serveMetrics(cfg.MetricsAddr, a.Metrics().Handler(), log)
		if err != nil {
			return err
		}
		defer stop()
	}

	base := "http://" + ln.Addr().String()
	log.Info("memory service ready", "url", base, "graphiql", base+"/graphiql")
	printLogin(os.Stderr, base, cfg.UserToken, token)

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cancelBase()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("http shutdown", "err", err)
	}
	return nil
}

// printLogin tells the person at the terminal how to open the web app. The login URL carries the user
// token, so it goes to the terminal, never into the log stream, and only when the token was generated
// by this very start: a token someone chose, or one printed before, is named by where it lives.
func printLogin(w io.Writer, base, userToken string, token userTokenSource) {
	if token.generated {
		fmt.Fprintf(w, "\n  Memory is running: open %s/login?token=%s\n  (a new user token, shown this once; it is kept in %s)\n\n",
			base, userToken, token.from)
		return
	}
	fmt.Fprintf(w, "\n  Memory is running at %s\n  Log in with %s/login?token=<the user token in %s>\n\n", base, base, token.from)
}

// lockDataDir takes an exclusive lock on dir/api.lock, held until the returned file is closed. It
// returns nil when another process holds it. The kernel releases the lock when the process ends,
// however it ends, so a crash never leaves the directory locked.
func lockDataDir(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("MEMORY_DATA_DIR %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "api.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("MEMORY_DATA_DIR %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, nil
		}
		return nil, fmt.Errorf("lock MEMORY_DATA_DIR %s: %w", dir, err)
	}
	return f, nil
}

// serveProfiler serves Go's profiler on addr (MEMORY_DEBUG_ADDR, a loopback address) until stop.
func serveProfiler(addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on MEMORY_DEBUG_ADDR %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("profiler", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	return func() { _ = srv.Close() }, nil
}

// serveMetrics serves the app's Prometheus metrics at /metrics on addr (MEMORY_METRICS_ADDR, a
// loopback address) until stop.
func serveMetrics(addr string, metrics http.Handler, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on MEMORY_METRICS_ADDR %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return func() { _ = srv.Close() }, nil
}

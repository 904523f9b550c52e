// Command worker runs the background jobs (embeddings and extraction) against the same database as
// cmd/api, until SIGINT or SIGTERM. Any number of workers, on any number of machines, may work one
// database: jobs are claimed with leases and FOR UPDATE SKIP LOCKED, and a job whose worker dies is
// taken back when its lease expires. cmd/api runs the same runner unless MEMORY_JOBS_IN_API=false.
//
// It needs DATABASE_URL (the embedded database belongs to cmd/api) at the current schema, and reads
// the MEMORY_* AI variables (see internal/config.AI) and MEMORY_LOG_LEVEL / MEMORY_LOG_FORMAT. On
// SIGINT/SIGTERM it stops claiming, lets running jobs finish for a grace period, puts back the ones
// that didn't, and exits 0.
//
// It is also the reference for the run-preparation side, as a client of the API (MEMORY_API_URL,
// default http://127.0.0.1:8080; the worker token from MEMORY_WORKER_TOKEN or
// $MEMORY_DATA_DIR/worker-token):
//
//	worker                                          run background jobs (the default)
//	worker prepare -teammate ID -workspace DIR      the one-time MEMORY.md import (M1–M3)
//	worker play -teammate ID -message TEXT [-thread ID] [-workspace DIR]
//	                                                play one run from the terminal: prepare, start,
//	                                                tool calls read from stdin, complete
//	worker play -teammate ID -retry [-workspace DIR]
//	                                                the same for the teammate's oldest retry waiting
//	                                                for a run ("Try again with this", L3)
//	worker play ... -mcp [-agent CMD]               the same, with the tools called by an agent over
//	                                                MCP: play prints the endpoint and run token (or
//	                                                gives them to CMD) and completes with the reply
//
//	MEMORY_RUN_TOKEN=... worker mcp                 serve the run's memory tools over stdio (MCP),
//	                                                relayed to the API's /mcp
//
// play exits non-zero when the run was interrupted (memory changed mid-turn, G5) or a tool call
// failed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/wire"
)

func main() {
	var err error
	switch cmd := firstArg(); cmd {
	case "":
		err = runJobs(nil)
	case "jobs":
		err = runJobs(os.Args[2:])
	case "prepare":
		err = prepareCommand(os.Args[2:])
	case "play":
		err = playCommand(os.Args[2:], os.Stdin, os.Stdout)
	case "mcp":
		err = mcpCommand(os.Args[2:], os.Stderr)
	case "-h", "-help", "--help", "help":
		fmt.Print(usage)
	default:
		err = fmt.Errorf("unknown command %q; want jobs, prepare, play or mcp (worker -h explains them)", cmd)
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		// "worker play -h": the flags were printed; asking for them is not a failure.
	case err != nil:
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

// usage is what worker -h prints.
const usage = `worker: the reference worker of the memory service.

Usage:
  worker [jobs]          run the background jobs (embeddings, extraction) until Ctrl-C (worker jobs -h)
  worker prepare ...     import a teammate's MEMORY.md once (worker prepare -h for its flags)
  worker play ...        run one turn of a teammate from the terminal (worker play -h)
  worker mcp             serve a run's memory tools over stdio (MCP) for an agent; the run token
                         comes from MEMORY_RUN_TOKEN (worker mcp -h)

"prepare", "play" and "mcp" talk to the API at MEMORY_API_URL (default http://127.0.0.1:8080);
"prepare" and "play" with MEMORY_WORKER_TOKEN, or the worker-token file in MEMORY_DATA_DIR (default
./.data), "mcp" with the run token alone. "jobs" needs DATABASE_URL: the worker never starts a
database of its own. docs/WORKER.md walks through a turn, and docs/MCP.md connects Codex, Claude
Code or any MCP client.
`

func firstArg() string {
	if len(os.Args) < 2 {
		return ""
	}
	return os.Args[1]
}

// runJobs runs the background jobs until SIGINT/SIGTERM. It takes no arguments: -h explains it.
func runJobs(args []string) error {
	flags := flag.NewFlagSet("jobs", flag.ContinueOnError)
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), "usage: DATABASE_URL=... worker jobs\n\n"+
			"Runs the background jobs (embeddings, extraction) of the database at DATABASE_URL until Ctrl-C;\n"+
			"any number of workers may share one database. The MEMORY_* AI variables configure the jobs.\n")
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		flags.Usage()
		return errors.New("jobs takes no arguments")
	}
	cfg, err := config.LoadWorker(nil)
	if err != nil {
		return err
	}
	log := cfg.Logger(os.Stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	pool, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	current, err := db.SchemaCurrent(ctx, pool)
	if err != nil || !current {
		return errors.New("the database schema is not current: start cmd/api (it migrates) or run `api migrate up` first")
	}

	aiw, err := wire.NewAI(pool, cfg.AI, nil)
	if err != nil {
		return err
	}
	svc := memory.NewService(pool, log, aiw.Options()...)
	key, err := tombstoneKey(cfg.Shared)
	if err != nil {
		return err
	}
	// Extraction drops suggestions of forgotten texts: it must match the API's tombstones (F3).
	if err := svc.Background().UseTombstoneKey(ctx, key); err != nil {
		return err
	}
	runner := jobs.NewRunner(pool, jobs.Options{Log: log, Lease: cfg.AI.JobLease})
	aiw.RegisterJobs(runner, svc)
	requeued, err := aiw.CatchUp(ctx, svc, log)
	if err != nil {
		return err
	}
	log.Info("worker starting", "runner", runner.ID(), "ai", cfg.AI.String(), "jobs", fmt.Sprint(runner.Kinds()),
		"requeued", requeued)
	if len(runner.Kinds()) == 0 {
		// Nothing to run, but exiting would make a supervisor restart us in a loop.
		log.Warn("no memory AI is configured (MEMORY_EMBEDDING_URL, MEMORY_AI_DAILY_REQUEST_LIMIT > 0): this worker has no jobs to run and waits for a signal")
		<-ctx.Done()
		log.Info("worker stopped")
		return nil
	}
	if err := runner.Run(ctx); err != nil {
		return err
	}
	log.Info("worker stopped")
	return nil
}

// tombstoneKey is MEMORY_TOMBSTONE_KEY, or the key cmd/api generated in MEMORY_DATA_DIR when the
// worker runs beside an embedded database; never a new one, which would match no tombstone.
func tombstoneKey(cfg config.Shared) ([]byte, error) {
	if cfg.TombstoneKey != "" {
		return []byte(cfg.TombstoneKey), nil
	}
	b, err := os.ReadFile(filepath.Join(cfg.DataDir, "tombstone-key"))
	if k := strings.TrimSpace(string(b)); err == nil && k != "" {
		return []byte(k), nil
	}
	return nil, errors.New("MEMORY_TOMBSTONE_KEY is required: the same secret the API uses to key the hashes of forgotten texts (or run beside the API's MEMORY_DATA_DIR, which holds it)")
}

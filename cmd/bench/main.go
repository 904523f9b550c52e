// Command bench is `make bench`: it starts a throwaway PostgreSQL cluster, seeds it, runs the real
// API (the compiled cmd/api, two processes) against it, drives load over loopback, measures each
// row's floor — the bare SQL or LISTEN/NOTIFY doing the same work through pgx — in the same run,
// prints one table and writes it with the machine's description to docs/BENCHMARKS.md.
//
// Everything is local: the only stand-in is the OpenAI-compatible embeddings endpoint, served by
// this process with deterministic vectors and no network latency (a real endpoint's 50–300 ms would
// swamp what is being measured, and none is reachable here).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/open-bot/memory/internal/apiproc"
)

func main() {
	var o options
	flag.StringVar(&o.out, "out", "docs/BENCHMARKS.md", "where to write the table (empty: print only)")
	flag.IntVar(&o.items, "items", 1_000_000, "items in the main database, across -teammates teammates")
	flag.IntVar(&o.teammates, "teammates", 1_000, "teammates in the main database")
	flag.IntVar(&o.big, "big", 100_000, "items visible to the large teammate")
	flag.IntVar(&o.small, "small", 10_000, "items visible to the small teammate (and in the vector database)")
	flag.IntVar(&o.tiny, "tiny", 1_000, "items visible to the smallest teammate (the common case); a fifth of them are the shared scope's")
	flag.DurationVar(&o.phase, "phase", 10*time.Second, "how long each throughput phase runs")
	flag.IntVar(&o.requests, "requests", 400, "requests per latency row")
	o.subscribers = counts{1_000, 10_000}
	flag.Var(&o.subscribers, "subscribers", "websocket subscribers of the live-delivery rows, comma-separated: one pair of rows for each")
	flag.StringVar(&o.dir, "dir", "", "cluster directory (default: a temporary one, removed at the end)")
	flag.StringVar(&o.profile, "profile", "", "write a CPU profile of the API during each step into this directory")
	flag.StringVar(&o.steps, "steps", "", "comma-separated steps to run after the seed (default: all), e.g. writes,jobs")
	flag.StringVar(&o.quality, "quality", "", "a results file of cmd/eval, written just before: its quality table is added to the report")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, log); err != nil {
		log.Error("bench failed", "err", err)
		os.Exit(1)
	}
}

type options struct {
	out                 string
	items, teammates    int
	big, small, tiny    int
	phase               time.Duration
	requests            int
	subscribers         counts
	dir, profile, steps string
	quality             string
}

// counts is a comma-separated list of positive numbers, as a flag.
type counts []int

func (c *counts) String() string {
	parts := make([]string, len(*c))
	for i, n := range *c {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

func (c *counts) Set(v string) error {
	var out counts
	for _, part := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 {
			return fmt.Errorf("%q is not a positive number", part)
		}
		out = append(out, n)
	}
	*c = out
	return nil
}

func run(ctx context.Context, o options, log *slog.Logger) error {
	if o.tiny < 100 || o.small < 2_000 || o.small < o.tiny || o.big < o.small || o.items < o.big+o.small+o.tiny || o.teammates < 66 {
		return fmt.Errorf("want -items ≥ -big + -small + -tiny, -big ≥ -small ≥ 2000, -small ≥ -tiny ≥ 100 and -teammates ≥ 66")
	}
	// Every subscriber is a socket here and, in the resident-memory row, in one API process; the API
	// processes inherit the limit.
	if err := raiseOpenFiles(uint64(slices.Max(o.subscribers)) + 1024); err != nil {
		return err
	}
	started := time.Now()
	ws, err := apiproc.Prepare(ctx, apiproc.WorkspaceOptions{Dir: o.dir, Prefix: "memory-bench-", Databases: []string{"bench", "bench_vectors"}, Logger: log})
	if err != nil {
		return err
	}
	defer ws.Close(ctx)
	env := &bench{o: o, log: log, cluster: ws.Cluster, apiBin: ws.Bin}
	if err := env.open(ctx); err != nil {
		return err
	}
	defer env.close()

	var rows []row
	for _, step := range []struct {
		name string
		run  func(context.Context) ([]row, error)
	}{
		{"seed", env.seed},
		{"recall", env.benchRecall},
		{"recall with vectors", env.benchVectorRecall},
		{"startRun", env.benchStartRun},
		{"heavy request", env.benchHeavy},
		{"writes", env.benchWrites},
		{"live delivery", env.benchLive},
		{"jobs", env.benchJobs},
	} {
		if o.steps != "" && step.name != "seed" && !slices.Contains(strings.Split(o.steps, ","), step.name) {
			continue
		}
		t := time.Now()
		log.Info("running", "step", step.name)
		profiled := env.profile(ctx, step.name)
		got, err := step.run(ctx)
		profiled()
		if err != nil {
			return fmt.Errorf("%s: %w", step.name, err)
		}
		log.Info("done", "step", step.name, "took", time.Since(t).Round(time.Second))
		rows = append(rows, got...)
	}
	quality, err := qualitySection(o.quality)
	if err != nil {
		return err
	}
	report := render(ctx, env, rows, time.Since(started), quality)
	fmt.Print(report)
	if o.out == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(o.out, []byte(report), 0o644)
}

// raiseOpenFiles raises this process's limit on open files (ulimit -n) to at least need, the hard
// limit too when it is lower and this process may (root).
func raiseOpenFiles(need uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Cur >= need {
		return nil
	}
	lim.Cur, lim.Max = need, max(lim.Max, need)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("the live-delivery rows need %d open files (ulimit -n) and the limit can't be raised: %w", need, err)
	}
	return nil
}

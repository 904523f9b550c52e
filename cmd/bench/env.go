package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/apiproc"
	"github.com/open-bot/memory/internal/pgcluster"
)

// Tokens of the benchmark's API processes.
const (
	userToken   = "mu_bench-user-token-0123456789abcdef"
	workerToken = "mw_bench-worker-token-0123456789abcdef"
	// embeddingModel is what the fake endpoint answers for; maxDistance is the API's
	// MEMORY_SEMANTIC_MAX_DISTANCE in the vector database (the fake vectors of related sentences lie
	// further apart than a real model's, so the default 0.4 would keep too few).
	embeddingModel = "bench-embedding-1536"
	maxDistance    = "0.8"
)

// bench is one run: the cluster, pools on its two databases, the API processes and the fixtures the
// seed step created.
type bench struct {
	o       options
	log     *slog.Logger
	cluster *pgcluster.Cluster
	apiBin  string

	pool  *pgxpool.Pool // the main database: -items items across -teammates teammates
	vpool *pgxpool.Pool // the vector database: -small items visible to one teammate, all embedded

	big, small, tiny string   // main database: the teammates with -big, -small and -tiny visible items
	hot              []string // main database: 64 items created through the API, one per teammate scope
	vsmall           string   // vector database: the teammate

	apis  []*apiProc // two API processes on the main database, no AI
	vapi  *apiProc   // one API process on the vector database, embeddings on
	fake  *httptest.Server
	httpc *http.Client
}

func (b *bench) open(ctx context.Context) error {
	var err error
	if b.pool, err = openPool(ctx, b.cluster.URL("bench"), 40); err != nil {
		return err
	}
	if b.vpool, err = openPool(ctx, b.cluster.URL("bench_vectors"), 8); err != nil {
		return err
	}
	b.fake = httptest.NewServer(http.HandlerFunc(serveEmbeddings))
	b.httpc = &http.Client{Transport: &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 512, IdleConnTimeout: time.Minute}}
	return nil
}

func openPool(ctx context.Context, url string, size int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = size
	return pgxpool.NewWithConfig(ctx, cfg)
}

func (b *bench) close() {
	for _, a := range append(b.apis, b.vapi) {
		a.Stop()
	}
	if b.fake != nil {
		b.fake.Close()
	}
	if b.pool != nil {
		b.pool.Close()
	}
	if b.vpool != nil {
		b.vpool.Close()
	}
}

// apiProc is one running cmd/api process.
type apiProc = apiproc.Proc

// startAPI runs the API binary on databaseURL with the benchmark's tokens, GOMAXPROCS=2 and extra
// environment (and the profiler with -profile), and waits until it is ready.
func (b *bench) startAPI(ctx context.Context, databaseURL string, extra ...string) (*apiProc, error) {
	return apiproc.Start(ctx, apiproc.Options{
		Bin:          b.apiBin,
		DatabaseURL:  databaseURL,
		UserToken:    userToken,
		WorkerToken:  workerToken,
		TombstoneKey: "mk_bench-tombstone-key-0123456789abcdef",
		Env:          append([]string{"GOMAXPROCS=2"}, extra...),
		Debug:        b.o.profile != "",
		HTTP:         b.httpc,
	})
}

// rssMB is the process's resident set size (VmRSS) in MiB.
func rssMB(a *apiProc) (float64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", a.Pid()))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024, err
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}

// apisCPU is the CPU time (user and system) the two API processes have used so far.
func (b *bench) apisCPU() (time.Duration, error) {
	var total time.Duration
	for _, a := range b.apis {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", a.Pid()))
		if err != nil {
			return 0, err
		}
		// utime and stime are the 14th and 15th fields, in clock ticks; the command name (the 2nd,
		// in parentheses) is skipped first, as it may hold spaces.
		_, rest, ok := bytes.Cut(raw, []byte(") "))
		fields := strings.Fields(string(rest))
		if !ok || len(fields) < 13 {
			return 0, errors.New("unexpected /proc stat")
		}
		for _, f := range fields[11:13] {
			ticks, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return 0, err
			}
			total += time.Duration(ticks) * time.Second / clockTicks
		}
	}
	return total, nil
}

// clockTicks is the kernel's USER_HZ, the unit of /proc's CPU times: 100 on every Linux build Go
// supports.
const clockTicks = 100

// gqlError is a GraphQL error answer, with its extensions.code.
type gqlError = apiproc.Error

// do posts one GraphQL operation to a with token and decodes data into out (when not nil). An answer
// with errors returns the first as a *gqlError.
func (b *bench) do(ctx context.Context, a *apiProc, token, query string, vars map[string]any, out any) error {
	return a.Do(ctx, token, query, vars, out)
}

// profile starts CPU and allocation profiles of the API processes (with -profile) for a step; the
// returned func waits for them and writes them. A profile covers the step's first
// profileSeconds at most.
func (b *bench) profile(ctx context.Context, step string) (wait func()) {
	return b.profileFor(ctx, step, 20)
}

// profileFor is profile over the next seconds, named after what (a step, or a part of one).
func (b *bench) profileFor(ctx context.Context, step string, profileSeconds int) (wait func()) {
	procs := map[string]*apiProc{"api": nil, "vectors-api": b.vapi}
	if len(b.apis) > 0 {
		procs["api"] = b.apis[0]
	}
	if b.o.profile == "" {
		return func() {}
	}
	if err := os.MkdirAll(b.o.profile, 0o755); err != nil {
		b.log.Warn("profile", "err", err)
		return func() {}
	}
	// Each process gives two profiles over the same seconds: its CPU (<step>-<process>.pprof) and
	// the memory it allocated (<step>-<process>-allocs.pprof, a delta of the allocs profile).
	kinds := map[string]string{"": "profile", "-allocs": "allocs"}
	done := make(chan struct{}, len(procs)*len(kinds))
	for name, a := range procs {
		for suffix, kind := range kinds {
			go func() {
				defer func() { done <- struct{}{} }()
				if a == nil || a.DebugURL == "" {
					return
				}
				req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/debug/pprof/%s?seconds=%d", a.DebugURL, kind, profileSeconds), nil)
				if err != nil {
					return
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					b.log.Warn("profile", "step", step, "err", err)
					return
				}
				defer res.Body.Close()
				raw, err := io.ReadAll(res.Body)
				if err == nil && res.StatusCode == http.StatusOK {
					err = os.WriteFile(filepath.Join(b.o.profile, strings.ReplaceAll(step, " ", "-")+"-"+name+suffix+".pprof"), raw, 0o644)
				}
				if err != nil {
					b.log.Warn("profile", "step", step, "err", err)
				}
			}()
		}
	}
	return func() {
		for range len(procs) * len(kinds) {
			<-done
		}
	}
}

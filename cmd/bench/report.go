package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"
)

// row is one line of the table.
type row struct {
	name     string
	measured string
	floor    string
	ratio    string
	target   string
	// met is "yes", "no" or "" (no target).
	met string
}

// latencies collects durations and answers percentiles.
type latencies []time.Duration

func (l latencies) at(q float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	s := slices.Clone(l)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

// p50p99 is "p50 x ms · p99 y ms".
func (l latencies) p50p99() string {
	return "p50 " + ms(l.at(0.5)) + " · p99 " + ms(l.at(0.99))
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

func ratio(x, floor float64) string {
	if floor == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", x/floor)
}

// render is the report: the table, the machine, the settings and what each floor is.
func render(ctx context.Context, b *bench, rows []row, took time.Duration, quality string) string {
	var sb strings.Builder
	sb.WriteString("# Benchmarks\n\n")
	sb.WriteString("Written by `make bench` (cmd/bench): one run, every floor measured in the same run on the same\n")
	sb.WriteString("database as what it is compared with. Latencies are of sequential requests from one client over\n")
	sb.WriteString("loopback HTTP to the compiled API, unless the row says otherwise. Regenerate with `make bench`.\n\n")
	sb.WriteString("| Benchmark | Measured | Floor (same run) | Ratio | Target | Met |\n")
	sb.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s |\n", r.name, r.measured, or(r.floor), or(r.ratio), or(r.target), or(r.met))
	}
	sb.WriteString("\n## Machine\n\n")
	for _, line := range machine(ctx, b) {
		sb.WriteString("- " + line + "\n")
	}
	o := b.o
	sb.WriteString("\n## Data and method\n\n")
	fmt.Fprintf(&sb, "- Main database: %d items across %d teammates; the large teammate sees %d (its own and the\n", o.items, o.teammates, o.big)
	fmt.Fprintf(&sb, "  shared scope's %d), the small one %d, the smallest %d (the common case). Items are short\n", o.tiny/5, o.small, o.tiny)
	sb.WriteString("  sentences over a small vocabulary: each common word is in 1 item in 10 to 30, each rare word in\n")
	sb.WriteString("  1 in 800; 1 in 5,000 is pinned.\n")
	fmt.Fprintf(&sb, "- Vector database: %d items visible to one teammate and as many of nine others, all embedded at\n", o.small)
	sb.WriteString("  1,536 dimensions by the benchmark's fake OpenAI-compatible endpoint (deterministic, loopback, no\n")
	fmt.Fprintf(&sb, "  model latency), sketched and HNSW-indexed; MEMORY_SEMANTIC_MAX_DISTANCE=%s for the fake model's\n", maxDistance)
	sb.WriteString("  geometry. At this size the vector list is a sketch scan (migrations 000024, 000026, 000028 and 000029).\n")
	sb.WriteString("- Recall requests alternate between common-word turns (\"What does grandma like for breakfast on\n")
	sb.WriteString("  weekends?\"), rare-word turns (\"Is the quokka or the narwhal on the origami list?\") and one with no\n")
	sb.WriteString("  searchable word; each API request is followed by its floor query, so both see the same cache.\n")
	sb.WriteString("- Fixed cost: the smallest authenticated operation (`query { __typename }`, worker token) through\n")
	fmt.Fprintf(&sb, "  the same client and API process, sent after each %d-visible recall request and its floor: loopback\n", o.tiny)
	sb.WriteString("  HTTP, the middleware, GraphQL and the JSON answer with no work behind them. At that size the bare\n")
	sb.WriteString("  statement takes about as long, so those rows compare the recall work — the API's p50 less the\n")
	sb.WriteString("  fixed cost's p50 — with the floor's p50; their p99 target stays absolute, fixed cost included.\n")
	sb.WriteString("- The memory service alone: after each vector request and its floor, the same preview through\n")
	sb.WriteString("  memory.Service in the benchmark's own process, on the same database, with the same embedding\n")
	sb.WriteString("  endpoint over loopback, budget and cut-off — the API's work less HTTP, GraphQL and the JSON\n")
	sb.WriteString("  answer. It is what a faster API could at best approach: its p99 against the row's 10 ms target.\n")
	sb.WriteString("- Floors: recall — the bare full-text statement (the request's lexemes OR-ed, the same visibility,\n")
	sb.WriteString("  every match ranked by ts_rank_cd, top 30, with the items' text) through pgx, with a GIN index on\n")
	sb.WriteString("  (scope, search) built for it (the product has none; dropped before the writes); recall computes the\n")
	sb.WriteString("  same list from term frequencies (migration 000010), so it may beat this floor; vectors — that\n")
	sb.WriteString("  statement plus the bare pgvector HNSW query; writes — a transaction of one INSERT and one NOTIFY\n")
	sb.WriteString("  per edit, same clients; live delivery — a bare LISTEN/NOTIFY round trip; jobs — one SKIP LOCKED\n")
	sb.WriteString("  claim statement and one completing statement per batch.\n")
	sb.WriteString("- Writes: where an edit's CPU goes against its floor's on these cores, with the profiles and what\n")
	sb.WriteString("  was tried, is in [WRITES.md](WRITES.md).\n")
	fmt.Fprintf(&sb, "- Live delivery: the user's subscribers, all with one document (memoryChanged of the shared scope),\n")
	fmt.Fprintf(&sb, "  half on each API process, so each process runs one execution for all of its own; %d edits, one\n", liveEvents)
	fmt.Fprintf(&sb, "  every %v for each 1,000 subscribers (the same messages a second in every row), each timed from\n", liveGap)
	sb.WriteString("  its commit to its message's arrival at every subscriber's socket, taken before the client parses\n")
	sb.WriteString("  anything. API CPU is both processes' user and system time over the timed edits, per edit.\n")
	fmt.Fprintf(&sb, "- Heavy request: the most aliased recallPreview the API's limits accept in one document, over the\n")
	fmt.Fprintf(&sb, "  large teammate's items, sent back to back by %d clients while one client probes /readyz and a\n", heavyClients)
	sb.WriteString("  teammate by id, 5 ms apart; its floor is the same probes with nothing else running.\n")
	fmt.Fprintf(&sb, "- The whole run took %s.\n", took.Round(time.Second))
	if quality != "" {
		sb.WriteString("\n" + quality)
	}
	return sb.String()
}

// qualitySection is cmd/eval's results file as a section of this report: its title one level down,
// its text as it is. `make bench` runs cmd/eval just before, so the quality rows are of the same run.
func qualitySection(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	title, rest, ok := strings.Cut(string(text), "\n")
	if !ok || !strings.HasPrefix(title, "# ") {
		return "", fmt.Errorf("%s: not a cmd/eval results file", path)
	}
	return "#" + title + "\n" + rest, nil
}

func or(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// machine describes where the run happened.
func machine(ctx context.Context, b *bench) []string {
	var lines []string
	if out, err := exec.CommandContext(ctx, "uname", "-srm").Output(); err == nil {
		lines = append(lines, "OS: "+strings.TrimSpace(string(out)))
	}
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(raw), "\n") {
			if name, ok := strings.CutPrefix(l, "model name"); ok {
				lines = append(lines, "CPU: "+strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":")))
				break
			}
		}
	}
	lines = append(lines, fmt.Sprintf("Cores visible to Go: %d", runtime.NumCPU()))
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil {
		first, _, _ := strings.Cut(string(raw), "\n")
		lines = append(lines, "Memory: "+strings.Join(strings.Fields(strings.TrimPrefix(first, "MemTotal:")), " "))
	}
	lines = append(lines, "Go: "+runtime.Version())
	var pg, vec string
	if err := b.pool.QueryRow(ctx, `SELECT current_setting('server_version'), (SELECT extversion FROM pg_extension WHERE extname = 'vector')`).Scan(&pg, &vec); err == nil {
		lines = append(lines, "PostgreSQL "+pg+", pgvector "+vec+" (the private cluster's default settings, fsync on)")
	}
	// Other work on the machine shows in every row; the load average says how much there was.
	if raw, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(raw)); len(f) >= 3 {
			lines = append(lines, "Load average at the end of the run (1, 5, 15 min): "+strings.Join(f[:3], ", "))
		}
	}
	lines = append(lines, "Date: "+time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	return lines
}

// Command eval is `make eval`: recall quality beside speed. It generates a synthetic conversational
// data set (dataset.go; docs/EVAL.md describes it), starts a throwaway PostgreSQL cluster and the
// real API (the compiled cmd/api) through internal/apiproc, as cmd/bench does, imports each
// conversation into a teammate's scope through importMemory, asks each question through
// recallPreview, and reports per question type how often the packet holds the evidence, beside
// baselines computed in the same run over the same items' stored lexemes (lists.go): BM25 top 12,
// the full-text list alone, and their fusion. The table is printed and written to
// docs/EVAL-RESULTS.md.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/apiproc"
	"github.com/open-bot/memory/internal/memory"
)

type options struct {
	gen    genOptions
	out    string
	sample string
	dir    string
}

func main() {
	var o options
	flag.Uint64Var(&o.gen.Seed, "seed", 1, "the generator's seed")
	flag.IntVar(&o.gen.Conversations, "conversations", 6, "conversations, one teammate each")
	flag.IntVar(&o.gen.Memories, "memories", 300, "memories of each conversation")
	flag.IntVar(&o.gen.PerType, "per-type", 10, "questions of each type in each conversation")
	flag.StringVar(&o.out, "out", "docs/EVAL-RESULTS.md", "where to write the table (empty: print only)")
	flag.StringVar(&o.sample, "sample", "", "write the data set as JSON to this file and stop (no database)")
	flag.StringVar(&o.dir, "dir", "", "cluster directory (default: a temporary one, removed at the end)")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, log); err != nil {
		log.Error("eval failed", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, log *slog.Logger) error {
	if o.gen.Conversations < 1 || o.gen.PerType < 1 || o.gen.Memories < 8*o.gen.PerType || o.gen.Memories > memory.MaxImportItems {
		return fmt.Errorf("want -conversations ≥ 1, -per-type ≥ 1 and 8 × -per-type ≤ -memories ≤ %d", memory.MaxImportItems)
	}
	convs := generate(o.gen)
	if o.sample != "" {
		raw, err := json.MarshalIndent(convs, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(o.sample, append(raw, '\n'), 0o644)
	}
	started := time.Now()
	ws, err := apiproc.Prepare(ctx, apiproc.WorkspaceOptions{Dir: o.dir, Prefix: "memory-eval-", Databases: []string{"eval"}, Logger: log, Fast: true})
	if err != nil {
		return err
	}
	defer ws.Close(ctx)
	pool, err := pgxpool.New(ctx, ws.Cluster.URL("eval"))
	if err != nil {
		return err
	}
	defer pool.Close()
	api, err := startAPI(ctx, ws.Bin, ws.Cluster.URL("eval"))
	if err != nil {
		return err
	}
	defer api.Stop()

	var results []result
	for _, c := range convs {
		got, err := evalConversation(ctx, api, pool, c)
		if err != nil {
			return fmt.Errorf("conversation %s: %w", c.Name, err)
		}
		results = append(results, got...)
		log.Info("evaluated", "conversation", c.Name, "memories", len(c.Memories), "questions", len(c.Questions))
	}
	report := render(o, results, time.Since(started))
	fmt.Print(report)
	if o.out == "" {
		return nil
	}
	return os.WriteFile(o.out, []byte(report), 0o644)
}

// The systems whose top 12 the report compares. packetSystem is the product's packet, through the
// API; the others are computed here over the same items.
const (
	packetSystem = "packet"
	bm25System   = "BM25"
	tsSystem     = "ts_rank_cd"
	fusedSystem  = "ts_rank_cd + BM25 (RRF)"
)

var systems = []string{packetSystem, bm25System, tsSystem, fusedSystem}

// result is one question and the ids each system put in its top 12.
type result struct {
	question Question
	evidence []string            // the evidence's item ids
	top      map[string][]string // system → item ids
	// foundBy counts, over the packet's entries, the lists that found them.
	foundBy map[string]int
}

// evalConversation imports one conversation into a new teammate and asks its questions.
func evalConversation(ctx context.Context, api *apiproc.Proc, pool *pgxpool.Pool, c Conversation) ([]result, error) {
	var tm struct {
		CreateTeammate struct{ Teammate struct{ ID string } }
	}
	err := api.Do(ctx, userToken, `mutation($in: CreateTeammateInput!) { createTeammate(input: $in) { teammate { id } } }`,
		map[string]any{"in": map[string]any{"name": "Eval " + c.Name + " " + c.Persona}}, &tm)
	if err != nil {
		return nil, fmt.Errorf("create the teammate: %w", err)
	}
	teammate := tm.CreateTeammate.Teammate.ID
	items := make([]map[string]any, len(c.Memories))
	for i, m := range c.Memories {
		items[i] = map[string]any{"kind": m.Kind, "key": nil, "content": m.Content, "pinned": false, "expiresAt": nil}
	}
	file, err := json.Marshal(map[string]any{"format": memory.ExportFileFormat, "version": memory.ExportFileVersion,
		"scope": teammate, "exportedAt": time.Now().UTC().Format(time.RFC3339), "items": items})
	if err != nil {
		return nil, err
	}
	var imp struct {
		ImportMemory struct {
			Items     []struct{ ID string }
			Unchanged int
		}
	}
	err = api.Do(ctx, userToken, `mutation($in: ImportMemoryInput!) { importMemory(input: $in) { items { id } unchanged } }`,
		map[string]any{"in": map[string]any{"scope": map[string]any{"teammateId": teammate}, "data": string(file)}}, &imp)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if len(imp.ImportMemory.Items) != len(c.Memories) {
		return nil, fmt.Errorf("import wrote %d items of %d", len(imp.ImportMemory.Items), len(c.Memories))
	}
	ids := make(map[string]string, len(c.Memories))
	for i, m := range c.Memories {
		ids[m.Label] = imp.ImportMemory.Items[i].ID
	}
	idx, err := loadScope(ctx, pool, teammate)
	if err != nil {
		return nil, err
	}
	out := make([]result, 0, len(c.Questions))
	for _, q := range c.Questions {
		var pv struct {
			RecallPreview struct {
				Entries []struct {
					Item    struct{ ID string }
					FoundBy []string
				}
			}
		}
		err := api.Do(ctx, userToken, `query($t: ID!, $q: String!) { recallPreview(teammateId: $t, query: $q) { entries { item { id } `+foundByField+` } } }`,
			map[string]any{"t": teammate, "q": q.Text}, &pv)
		if err != nil {
			return nil, fmt.Errorf("recallPreview: %w", err)
		}
		r := result{question: q, top: map[string][]string{}, foundBy: map[string]int{}}
		for _, e := range q.Evidence {
			r.evidence = append(r.evidence, ids[e])
		}
		for _, e := range pv.RecallPreview.Entries {
			r.top[packetSystem] = append(r.top[packetSystem], e.Item.ID)
			for _, f := range e.FoundBy {
				r.foundBy[strings.ToLower(f)]++
			}
		}
		lexemes, err := queryLexemes(ctx, pool, q.Text)
		if err != nil {
			return nil, err
		}
		bm := idx.bm25(lexemes, bm25K1, bm25B, listLength)
		ts := idx.tsRankCD(lexemes, listLength)
		r.top[bm25System] = bm[:min(packetLength, len(bm))]
		r.top[tsSystem] = ts[:min(packetLength, len(ts))]
		r.top[fusedSystem] = rrf(packetLength, ts, bm)
		out = append(out, r)
	}
	return out, nil
}

// foundByField asks each packet entry which lists found it.
const foundByField = `foundBy`

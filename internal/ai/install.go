package ai

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
)

// extractionTimeout bounds one extraction request: a chat answer takes longer than an embedding,
// and must still end within the job's timeout (jobs.DefaultJobTimeout).
const extractionTimeout = 90 * time.Second

// Installed is what Install turned on, for aiStatus and the start-up log.
type Installed struct {
	// Budget is the daily budget (never nil; with limit 0 everything is spent).
	Budget *Budget
	// Embeddings is true when items are embedded and recall uses vectors (I1, P3).
	Embeddings bool
	// EmbeddingModel and EmbeddingDimensions are the configured model (for aiStatus).
	EmbeddingModel      string
	EmbeddingDimensions int
	// Extraction is true when completed runs the user started are read for candidates (I2).
	Extraction      bool
	ExtractionModel string
	// Requeued is how many embed jobs the start-up catch-up enqueued (a model change, missed work).
	Requeued int
}

// Install turns on the optional AI that cfg configures, in one process: the service embeds new
// revisions and uses vectors in recall, enqueues extraction after runs, and — when runner is not nil
// (the process runs jobs) — the runner gets the embed and extract handlers. It then enqueues embed jobs for whatever active items lack a vector
// of the configured model (ReembedActive; safe to run from every process at once). With no endpoint,
// or a daily limit of 0, it turns nothing on. Call it before the service is used and before
// runner.Run.
func Install(ctx context.Context, pool *pgxpool.Pool, svc *memory.Service, runner *jobs.Runner, cfg config.AI, log *slog.Logger) (Installed, error) {
	in := Installed{Budget: NewBudget(pool, cfg.DailyRequestLimit)}
	if cfg.Extraction() {
		client, err := NewClient(Options{BaseURL: cfg.ExtractionURL, APIKey: cfg.APIKey, Budget: in.Budget, Timeout: extractionTimeout})
		if err != nil {
			return in, fmt.Errorf("MEMORY_EXTRACTION_URL: %w", err)
		}
		ex := Extractor{Client: client, Model: cfg.ExtractionModel}
		svc.SetExtraction(true)
		if runner != nil {
			runner.Handle(jobs.KindExtract, func(ctx context.Context, j jobs.Job) error {
				_, err := svc.ExtractJob(ctx, j.RunID, ex.Extract)
				return err
			})
		}
		in.Extraction, in.ExtractionModel = true, cfg.ExtractionModel
	}
	if !cfg.Embeddings() {
		return in, nil
	}
	client, err := NewClient(Options{BaseURL: cfg.EmbeddingURL, APIKey: cfg.APIKey, Budget: in.Budget})
	if err != nil {
		return in, fmt.Errorf("MEMORY_EMBEDDING_URL: %w", err)
	}
	emb := Embedder{Client: client, Model: cfg.EmbeddingModel, Dimensions: cfg.EmbeddingDimensions}
	svc.SetEmbedding(cfg.EmbeddingModel, cfg.EmbeddingDimensions)
	if err := svc.SetQueryEmbedder(emb, cfg.SemanticMaxDistance); err != nil {
		return in, err
	}
	if runner != nil {
		// The embed jobs claimed together share one request: the daily budget counts requests.
		runner.HandleBatch(jobs.KindEmbed, func(ctx context.Context, js []jobs.Job) []error {
			refs := make([]memory.EmbedRef, len(js))
			for i, j := range js {
				refs[i] = memory.EmbedRef{ItemID: j.ItemID, Revision: j.Revision}
			}
			return svc.EmbedJobs(ctx, refs, emb.EmbedTexts)
		})
	}
	in.Embeddings, in.EmbeddingModel, in.EmbeddingDimensions = true, cfg.EmbeddingModel, cfg.EmbeddingDimensions
	if in.Requeued, err = svc.ReembedActive(ctx); err != nil {
		return in, err
	}
	if log != nil && in.Requeued > 0 {
		log.InfoContext(ctx, "embedding active memories that lack a vector of the configured model", "jobs", in.Requeued)
	}
	return in, nil
}

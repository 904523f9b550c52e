// Package wire connects the parts a process is made of where both commands need the same wiring:
// the optional AI (internal/ai's clients and budget, configured by internal/config) becomes options
// of the memory service and handlers of the job runner. cmd/api (through internal/app) and
// cmd/worker call it; the packages it connects know nothing of each other.
package wire

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/ai"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/metrics"
)

// extractionTimeout bounds one extraction request: a chat answer takes longer than an embedding,
// and must still end within the job's timeout (jobs.DefaultJobTimeout).
const extractionTimeout = 90 * time.Second

// AI is the optional AI of one process, built from its configuration before the memory service:
// Options turn it on in the service, RegisterJobs gives a runner its handlers. With no endpoint, or
// a daily limit of 0, it turns nothing on.
type AI struct {
	cfg config.AI
	// Budget is the daily request budget (never nil; with limit 0 everything is spent).
	Budget    *ai.Budget
	embedder  *ai.Embedder  // nil: embeddings off
	extractor *ai.Extractor // nil: extraction off
}

// NewAI builds the clients cfg configures, all drawing on one budget over pool and counting their
// requests in m (nil: not counted).
func NewAI(pool *pgxpool.Pool, cfg config.AI, m *metrics.Metrics) (AI, error) {
	a := AI{cfg: cfg, Budget: ai.NewBudget(pool, cfg.DailyRequestLimit)}
	if cfg.Extraction() {
		client, err := ai.NewClient(ai.Options{BaseURL: cfg.ExtractionURL, APIKey: cfg.APIKey, Budget: a.Budget, Timeout: extractionTimeout, Metrics: m})
		if err != nil {
			return a, fmt.Errorf("MEMORY_EXTRACTION_URL: %w", err)
		}
		a.extractor = &ai.Extractor{Client: client, Model: cfg.ExtractionModel}
	}
	if cfg.Embeddings() {
		client, err := ai.NewClient(ai.Options{BaseURL: cfg.EmbeddingURL, APIKey: cfg.APIKey, Budget: a.Budget, Metrics: m})
		if err != nil {
			return a, fmt.Errorf("MEMORY_EMBEDDING_URL: %w", err)
		}
		a.embedder = &ai.Embedder{Client: client, Model: cfg.EmbeddingModel, Dimensions: cfg.EmbeddingDimensions}
	}
	return a, nil
}

// Options are the memory service's options for this AI: embeddings written with every active
// revision and used in recall (I1, P3), extraction enqueued after runs (I2).
func (a AI) Options() []memory.Option {
	var opts []memory.Option
	if a.extractor != nil {
		opts = append(opts, memory.WithExtraction())
	}
	if a.embedder != nil {
		opts = append(opts, memory.WithEmbeddings(a.cfg.EmbeddingModel, a.cfg.EmbeddingDimensions),
			memory.WithSemanticRecall(a.embedder, a.cfg.SemanticMaxDistance))
	}
	return opts
}

// Embeddings and Extraction say what is on.
func (a AI) Embeddings() bool { return a.embedder != nil }
func (a AI) Extraction() bool { return a.extractor != nil }

// RegisterJobs gives runner the handlers of the domain's jobs this AI turns on: memory.JobEmbed
// (the embed jobs claimed together share one request, as the budget counts requests) and
// memory.JobExtract. svc must have been built with Options.
func (a AI) RegisterJobs(runner *jobs.Runner, svc *memory.Service) {
	if ex := a.extractor; ex != nil {
		runner.Handle(memory.JobExtract, func(ctx context.Context, j jobs.Job) error {
			_, err := svc.Background().ExtractJob(ctx, j.RunID, ex.Extract)
			return err
		})
	}
	if emb := a.embedder; emb != nil {
		runner.HandleBatch(memory.JobEmbed, func(ctx context.Context, js []jobs.Job) []error {
			refs := make([]memory.EmbedRef, len(js))
			for i, j := range js {
				refs[i] = memory.EmbedRef{ItemID: j.ItemID, Revision: j.Revision}
			}
			return svc.Background().EmbedJobs(ctx, refs, emb.EmbedTexts)
		})
	}
}

// CatchUp enqueues embed jobs for the active items that lack a vector of the configured model (a
// model change, work missed while embeddings were off) and returns how many; safe to run from every
// process at once. It does nothing when embeddings are off.
func (a AI) CatchUp(ctx context.Context, svc *memory.Service, log *slog.Logger) (int, error) {
	if a.embedder == nil {
		return 0, nil
	}
	n, err := svc.Background().ReembedActive(ctx)
	if err == nil && n > 0 && log != nil {
		log.InfoContext(ctx, "embedding active memories that lack a vector of the configured model", "jobs", n)
	}
	return n, err
}

// Status is what the optional AI does and sends where (I5), and today's use (I4).
type Status struct {
	Embeddings, Extraction bool
	// EmbeddingModel and EmbeddingDimensions are set when embeddings are on; Embedded of Embeddable
	// active items have a vector of the model.
	EmbeddingModel                   string
	EmbeddingDimensions              int
	EmbeddingHost                    string // the endpoint's host, never its credentials or path
	Embedded, Embeddable             int
	ExtractionModel, ExtractionHost  string
	DailyRequestLimit, RequestsToday int
}

// Status reads the budget's use today and, with embeddings on, the embedding progress.
func (a AI) Status(ctx context.Context, svc *memory.Service) (Status, error) {
	st := Status{Embeddings: a.Embeddings(), Extraction: a.Extraction(), DailyRequestLimit: a.Budget.Limit()}
	var err error
	// The progress is read before the budget: a job reserves its request before it stores the vector,
	// so a status that counts an item embedded also counts the request that embedded it.
	if st.Embeddings {
		st.EmbeddingModel, st.EmbeddingDimensions, st.EmbeddingHost = a.cfg.EmbeddingModel, a.cfg.EmbeddingDimensions, hostOf(a.cfg.EmbeddingURL)
		if st.Embedded, st.Embeddable, err = svc.EmbeddingProgress(ctx); err != nil {
			return st, err
		}
	}
	if st.RequestsToday, err = a.Budget.Used(ctx); err != nil {
		return st, err
	}
	if st.Extraction {
		st.ExtractionModel, st.ExtractionHost = a.cfg.ExtractionModel, hostOf(a.cfg.ExtractionURL)
	}
	return st, nil
}

// hostOf is the host of an endpoint URL (never its credentials or path); "" when it has none.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

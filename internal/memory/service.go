package memory

import (
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/metrics"
)

// The service: its type, its construction and its options. A Service's configuration is fixed when
// it is built (the options below); what it does lives in the files named after each concern.

// Service is the memory domain over one database. It is safe for concurrent use. Its methods are
// what the user does (a user credential), and the reads the user, the worker and a run share (each
// checks which of them may). The other callers reach it through facets over the same value: Tools
// (a run's teammate), Worker (the worker) and Background (jobs, sweeps and start-up, no credential).
type Service struct {
	pool     *pgxpool.Pool
	log      *slog.Logger
	hooks    hooks
	embedder QueryEmbedder
	// ai is the optional AI in use (embed.go, extract.go); zero when off.
	ai aiConfig
	// runSuggestionLimit is how many suggestions one run may make.
	runSuggestionLimit int
	// tombstoneKey keys tombstone hashes (tombstone.go): the installation's, or a random one.
	tombstoneKey []byte
	// purgeDelay is set when this Service owns its cluster and purges after forgets (purge.go).
	purgeDelay time.Duration
	// runIdle is the run idle timeout (runexpiry.go); zero: runs never idle out.
	runIdle time.Duration
	// exportMaxBytes bounds one export (transfer.go).
	exportMaxBytes int
	// metrics records judge decisions and recalls (metrics.go); nil records nothing.
	metrics *metrics.Metrics
}

// DefaultRunSuggestionLimit is how many suggestions one run may make unless configured otherwise:
// enough for a long turn, few enough that one turn can't bury the user's list.
const DefaultRunSuggestionLimit = 20

// Option configures a Service at construction.
type Option func(*Service)

// NewService returns a Service on pool. A nil logger means slog.Default().
func NewService(pool *pgxpool.Pool, log *slog.Logger, opts ...Option) *Service {
	if log == nil {
		log = slog.Default()
	}
	s := &Service{pool: pool, log: log, runSuggestionLimit: DefaultRunSuggestionLimit, tombstoneKey: newEphemeralKey(),
		exportMaxBytes: DefaultExportMaxBytes}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Background is the service as background work sees it: the same value, with the entry points of
// jobs (embeddings, extraction), sweeps (expiry, idle runs), the purge and start-up maintenance
// (rehashing, the tombstone key) instead of the request-facing methods. None of them takes a
// credential: they run as the service itself, from the API's or the worker's own loops, never on
// behalf of a request. Get it with Service.Background.
type Background Service

// Background returns s's background entry points.
func (s *Service) Background() *Background { return (*Background)(s) }

// service is s with the request-facing method set, for the helpers both sides share.
func (s *Background) service() *Service { return (*Service)(s) }

// Tools is the service as a run's teammate calls it (run credential): its memory tools over
// GraphQL and MCP, the generation check and the run's end. Every method checks the run credential
// and runs the run prologue (runtx.go). Get it with Service.Tools. A new teammate tool is a method
// here, a line of the schema and a line of the MCP server.
type Tools Service

// Tools returns s's run-tool entry points.
func (s *Service) Tools() *Tools { return (*Tools)(s) }

func (t *Tools) service() *Service { return (*Service)(t) }

// Worker is the service as the worker calls it (worker credential): starting runs, the retries it
// owes and a teammate's MEMORY.md import. Get it with Service.Worker.
type Worker Service

// Worker returns s's worker entry points.
func (s *Service) Worker() *Worker { return (*Worker)(s) }

func (w *Worker) service() *Service { return (*Service)(w) }

// WithRunSuggestionLimit sets how many suggestions (saves, changes and forgets waiting for the user)
// one run may make; n < 1 means the default.
func WithRunSuggestionLimit(n int) Option {
	return func(s *Service) {
		if n >= 1 {
			s.runSuggestionLimit = n
		}
	}
}

// WithExportMaxBytes sets how much text (contents and keys, in bytes, with a fixed allowance for
// each row's other fields) one export may hold, its revisions' included when they are exported
// (MEMORY_EXPORT_MAX_BYTES); n < 1 means DefaultExportMaxBytes.
func WithExportMaxBytes(n int) Option {
	return func(s *Service) {
		if n >= 1 {
			s.exportMaxBytes = n
		}
	}
}

// WithRunIdleTimeout sets how long a run token may go unused before its run is interrupted; zero (the
// default) means never.
func WithRunIdleTimeout(d time.Duration) Option {
	return func(s *Service) { s.runIdle = d }
}

// WithEmbeddings turns embeddings on with model (MEMORY_EMBEDDING_MODEL) and dims
// (MEMORY_EMBEDDING_DIMENSIONS; 0 = the model's own size): every write of an active revision enqueues
// an embed job (I1). An empty model leaves them off.
func WithEmbeddings(model string, dims int) Option {
	return func(s *Service) { s.ai.embedding = embeddingConfig{model: model, dims: max(dims, 0)} }
}

// WithExtraction turns extraction on (MEMORY_EXTRACTION_URL with a daily limit above 0): a completed
// run the user started gets an extract job (I2).
func WithExtraction() Option { return func(s *Service) { s.ai.extraction = true } }

// WithSemanticRecall turns on vector search in recall (P3) with embedder e, keeping matches closer
// than maxDistance (MEMORY_SEMANTIC_MAX_DISTANCE, see DefaultSemanticMaxDistance). A nil e leaves it
// off. The configuration checks maxDistance first (CheckSemanticMaxDistance); an invalid one here is
// a programming error and panics, as a service must never quietly recall with another cut-off.
func WithSemanticRecall(e QueryEmbedder, maxDistance float64) Option {
	if err := CheckSemanticMaxDistance(maxDistance); e != nil && err != nil {
		panic(err)
	}
	return func(s *Service) {
		if e != nil {
			s.embedder = semanticRecall{QueryEmbedder: e, maxDistance: maxDistance}
		}
	}
}

// WithPurge tells the Service that it owns its database's cluster and purges after forgets, delay
// after the last one (PurgeDelay reports it to the web app); the caller runs Purge. Zero: no purge.
func WithPurge(delay time.Duration) Option { return func(s *Service) { s.purgeDelay = max(delay, 0) } }

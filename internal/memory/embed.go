package memory

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Embeddings of items (RULES I1, F2). Every active create, edit, restore, undo, pin and confirm
// enqueues an embed job for the revision it wrote, in the same transaction (enqueueEmbedTx). The job
// (EmbedJob) reads that revision's text, embeds it outside any transaction, then stores the vector
// only if — under the scope's and the item's locks — the item is still active, the revision still
// current and the model still the configured one: a result that arrives after a forget or an edit is
// dropped, so a late job can't bring forgotten text back in vector form.

// aiConfig is the optional AI a service uses; the zero value means none.
type aiConfig struct {
	embedding embeddingConfig
	// extraction: completed runs the user started get an extract job (I2).
	extraction bool
}

// embeddingConfig is the embedding model in use; the zero value means embeddings are off.
type embeddingConfig struct {
	model string
	// dims is the size asked of the endpoint; 0 takes the model's own.
	dims int
}

func (c embeddingConfig) enabled() bool { return c.model != "" }

// EmbeddingModel returns the configured embedding model and dimensions ("" when off).
func (s *Service) EmbeddingModel() (model string, dims int) {
	return s.ai.embedding.model, s.ai.embedding.dims
}

// enqueueEmbedTx enqueues, in tx (a transaction, or a batch that runs in one), an embed job for
// item's current revision when embeddings are on and the item is active; otherwise it does nothing.
// Call it with every write of an active revision.
func (s *Service) enqueueEmbedTx(ctx context.Context, tx jobs.DBTX, item Item) error {
	if !s.ai.embedding.enabled() || item.Status != StatusActive {
		return nil
	}
	return jobs.EnqueueTx(ctx, tx, jobs.Job{Kind: JobEmbed, ItemID: item.ID, Revision: item.Revision})
}

// EmbedText is how an item is embedded: the same "key: content" its packet entry shows.
func EmbedText(key *string, content string) string {
	if key == nil {
		return content
	}
	return *key + ": " + content
}

// Codes of EmbedJob's own failures (for the job's last_error; they never quote text).
const (
	codeUnusableVector = "embedding unusable"
	codeDimensions     = "embedding dimension mismatch"
)

// EmbedJob is the body of an embed job for revision of item itemID (I1, F2); see EmbedJobs.
func (s *Background) EmbedJob(ctx context.Context, itemID string, revision int, embed func(ctx context.Context, text string) ([]float32, error)) error {
	return s.EmbedJobs(ctx, []EmbedRef{{ItemID: itemID, Revision: revision}}, func(ctx context.Context, texts []string) ([][]float32, error) {
		v, err := embed(ctx, texts[0])
		if err != nil {
			return nil, err
		}
		return [][]float32{v}, nil
	})[0]
}

// EmbedRef names the revision of an item an embed job is for.
type EmbedRef struct {
	ItemID   string
	Revision int
}

// EmbedJobs is the body of a batch of embed jobs (I1, F2); it returns one outcome per ref. A ref
// whose revision is no longer the active item's current one, or that has its vector already, is done
// at once. One whose text an earlier revision had (a pin, a restore) gets that revision's vector
// copied. The texts of the rest go to one embed call, made outside any transaction; each vector is
// then stored only after re-checking, under the scope's and the item's locks, that the item is still
// active and the revision still current — so a result that arrives after a
// forget or an edit is dropped. Errors from embed are returned wrapped (a queue sees their codes);
// none carries memory text.
func (s *Background) EmbedJobs(ctx context.Context, refs []EmbedRef, embed func(ctx context.Context, texts []string) ([][]float32, error)) []error {
	errs := make([]error, len(refs))
	cfg := s.ai.embedding
	if !cfg.enabled() {
		return errs
	}
	var (
		need  []int
		texts []string
	)
	for i, ref := range refs {
		src, err := queries(s.pool).EmbeddingSource(ctx, memorydb.EmbeddingSourceParams{
			ItemID: ref.ItemID, Revision: ref.Revision, Model: cfg.model, Dimensions: cfg.dims,
		})
		switch {
		case errors.Is(err, ErrNotFound):
			// Deleted with its teammate.
		case err != nil:
			errs[i] = fmt.Errorf("embed job: read item: %w", err)
		case Status(src.Status) != StatusActive || src.Revision != ref.Revision || src.Embedded:
		case src.Reusable:
			errs[i] = s.storeEmbedding(ctx, ref.ItemID, ref.Revision, func(q *memorydb.Queries) error {
				return q.EmbeddingReuse(ctx, memorydb.EmbeddingReuseParams{
					ItemID: ref.ItemID, Revision: ref.Revision, Model: cfg.model, Dimensions: cfg.dims,
				})
			})
		default:
			need = append(need, i)
			texts = append(texts, EmbedText(src.Key, src.Content))
		}
	}
	if len(need) == 0 {
		return errs
	}
	vectors, err := embed(ctx, texts)
	if err == nil && len(vectors) != len(need) {
		err = jobs.Permanent(codeUnusableVector, nil)
	}
	for k, i := range need {
		if err != nil {
			errs[i] = fmt.Errorf("embed job: %w", err)
			continue
		}
		errs[i] = s.storeVector(ctx, refs[i], cfg, vectors[k])
	}
	return errs
}

// storeVector checks one vector and stores it for ref (see storeEmbedding).
func (s *Background) storeVector(ctx context.Context, ref EmbedRef, cfg embeddingConfig, vector []float32) error {
	if cfg.dims > 0 && len(vector) != cfg.dims {
		return jobs.Permanent(codeDimensions, nil)
	}
	unit, ok := unitVector(vector)
	if !ok {
		return jobs.Permanent(codeUnusableVector, nil)
	}
	return s.storeEmbedding(ctx, ref.ItemID, ref.Revision, func(q *memorydb.Queries) error {
		return q.EmbeddingStore(ctx, memorydb.EmbeddingStoreParams{
			ItemID: ref.ItemID, Revision: ref.Revision, Model: cfg.model, Dimensions: len(vector), Embedding: unit,
		})
	})
}

// storeEmbedding runs store in a transaction that holds the item's scope and the item locked
// (the same order as every writer, R1), only if the item is still active at revision (F2). The model
// can't change under it: a Service's configuration is fixed at construction, and a vector a process
// of an older configuration stores late is of a model recall no longer reads. A forget or an edit that committed meanwhile wins: nothing is
// stored and the job ends without error.
func (s *Background) storeEmbedding(ctx context.Context, itemID string, revision int, store func(*memorydb.Queries) error) error {
	err := s.service().inWriteTx(ctx, func(tx pgx.Tx) error {
		item, err := lockItemTx(ctx, tx, itemID)
		if err != nil {
			return err
		}
		if item.Status != StatusActive || item.Revision != revision {
			return nil
		}
		return store(queries(tx))
	})
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("embed job: store: %w", err)
	}
	return nil
}

// ReembedActive enqueues an embed job for every active item that has no vector of its current
// revision by the configured model and dimensions, unless one is already waiting or running. Run it at
// start: after a change of model or dimensions it re-embeds everything (vectors of other models stop
// counting in recall at once); otherwise it catches up with whatever was missed. It returns how many
// jobs it enqueued; it does nothing when embeddings are off.
func (s *Background) ReembedActive(ctx context.Context) (int, error) {
	cfg := s.ai.embedding
	if !cfg.enabled() {
		return 0, nil
	}
	var n int
	err := s.service().inWriteTx(ctx, func(tx pgx.Tx) error {
		q := queries(tx)
		if err := q.EmbeddingsReembedLock(ctx); err != nil {
			return err
		}
		missing, err := q.EmbeddingsMissing(ctx, memorydb.EmbeddingsMissingParams{Model: cfg.model, Dimensions: cfg.dims})
		if err != nil {
			return err
		}
		todo := mapRows(missing, func(r *memorydb.EmbeddingsMissingRow) jobs.Job {
			return jobs.Job{Kind: JobEmbed, ItemID: r.ID, Revision: r.Revision}
		})
		n, err = jobs.EnqueueUniqueTx(ctx, tx, todo)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("re-embed active memories: %w", err)
	}
	if n > 0 {
		s.log.InfoContext(ctx, "embedding active memories", "model", cfg.model, "jobs", n)
	}
	return n, nil
}

// EmbeddingProgress (user or worker) counts the active items and those with a vector of their current revision by the
// configured model (for aiStatus). With embeddings off, done is 0.
func (s *Service) EmbeddingProgress(ctx context.Context) (done, total int, err error) {
	if _, err := require(ctx, CredentialUser, CredentialWorker); err != nil {
		return 0, 0, err
	}
	cfg := s.ai.embedding
	progress, err := queries(s.pool).EmbeddingsProgress(ctx, memorydb.EmbeddingsProgressParams{Model: cfg.model, Dimensions: cfg.dims})
	if err != nil {
		return 0, 0, fmt.Errorf("embedding progress: %w", err)
	}
	done, total = progress.Embedded, progress.Total
	if !cfg.enabled() {
		done = 0
	}
	return done, total, nil
}

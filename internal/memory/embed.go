package memory

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/jobs"
)

// Embeddings of items (RULES I1, F2). Every active create, edit, restore, undo, pin and confirm
// enqueues an embed job for the revision it wrote, in the same transaction (EnqueueEmbedTx). The job
// (EmbedJob) reads that revision's text, embeds it outside any transaction, then stores the vector
// only if — under the scope's and the item's locks — the item is still active, the revision still
// current and the model still the configured one: a result that arrives after a forget or an edit is
// dropped, so a late job can't bring forgotten text back in vector form.

const (
	// qEmbedSource reads what an embed job needs: the item's state and text, whether the revision
	// has a vector by the configured model already ($3, $4: model, dimensions; 0 = any), and whether
	// an earlier revision with the same key and content has one to copy.
	qEmbedSource = `
		SELECT i.status, i.revision, i.key, i.content,
		       EXISTS (SELECT 1 FROM memory_embeddings e
		                WHERE e.item_id = i.id AND e.revision = $2 AND e.model = $3
		                  AND ($4::int = 0 OR e.dimensions = $4)),
		       EXISTS (SELECT 1 FROM memory_embeddings e
		                 JOIN memory_revisions r ON r.item_id = e.item_id AND r.revision = e.revision
		                WHERE e.item_id = i.id AND e.revision <> $2 AND e.model = $3
		                  AND ($4::int = 0 OR e.dimensions = $4)
		                  AND r.content = i.content AND r.key IS NOT DISTINCT FROM i.key)
		  FROM memory_items i WHERE i.id = $1`

	// qEmbeddingStore stores a vector; one of another size for the same model (the dimensions setting
	// changed) is replaced.
	qEmbeddingStore = `
		INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
		VALUES ($1, $2, $3, $4, $5::text::vector)
		ON CONFLICT (item_id, revision, model) DO UPDATE
		   SET dimensions = EXCLUDED.dimensions, embedding = EXCLUDED.embedding, created_at = now()
		 WHERE memory_embeddings.dimensions <> EXCLUDED.dimensions`

	// qEmbeddingReuse copies the vector of an earlier revision with the same key and content (a pin,
	// an expiry change, a restore): no AI request for text that was embedded already.
	qEmbeddingReuse = `
		INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
		SELECT e.item_id, $2, e.model, e.dimensions, e.embedding
		  FROM memory_embeddings e
		  JOIN memory_revisions r ON r.item_id = e.item_id AND r.revision = e.revision
		  JOIN memory_revisions cur ON cur.item_id = e.item_id AND cur.revision = $2
		 WHERE e.item_id = $1 AND e.revision <> $2 AND e.model = $3 AND ($4::int = 0 OR e.dimensions = $4)
		   AND r.content = cur.content AND r.key IS NOT DISTINCT FROM cur.key
		 ORDER BY e.revision DESC
		 LIMIT 1
		ON CONFLICT (item_id, revision, model) DO UPDATE
		   SET dimensions = EXCLUDED.dimensions, embedding = EXCLUDED.embedding, created_at = now()
		 WHERE memory_embeddings.dimensions <> EXCLUDED.dimensions`

	// qEmbeddingsMissing lists the active items without a vector of their current revision by the
	// configured model.
	qEmbeddingsMissing = `
		SELECT i.id::text, i.revision FROM memory_items i
		 WHERE i.status = 'active'
		   AND NOT EXISTS (SELECT 1 FROM memory_embeddings e
		                    WHERE e.item_id = i.id AND e.revision = i.revision AND e.model = $1
		                      AND ($2::int = 0 OR e.dimensions = $2))
		 ORDER BY i.pinned DESC, i.updated_at DESC, i.id`

	qEmbeddingProgress = `
		SELECT count(*) FILTER (WHERE EXISTS (
		           SELECT 1 FROM memory_embeddings e
		            WHERE e.item_id = i.id AND e.revision = i.revision AND e.model = $1
		              AND ($2::int = 0 OR e.dimensions = $2))),
		       count(*)
		  FROM memory_items i WHERE i.status = 'active'`

	// One re-embed pass at a time across processes (cmd/api and cmd/worker both run it at start).
	qReembedLock = `SELECT pg_advisory_xact_lock(hashtext('memory_reembed_active'))`
)

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

// WithEmbeddings turns embeddings on with model (MEMORY_EMBEDDING_MODEL) and dims
// (MEMORY_EMBEDDING_DIMENSIONS; 0 = the model's own size): every write of an active revision enqueues
// an embed job (I1). An empty model leaves them off.
func WithEmbeddings(model string, dims int) Option {
	return func(s *Service) { s.ai.embedding = embeddingConfig{model: model, dims: max(dims, 0)} }
}

// EmbeddingModel returns the configured embedding model and dimensions ("" when off).
func (s *Service) EmbeddingModel() (model string, dims int) {
	return s.ai.embedding.model, s.ai.embedding.dims
}

// EnqueueEmbedTx enqueues, in tx, an embed job for item's current revision when embeddings are on and
// the item is active; otherwise it does nothing. Call it after every write of an active revision.
func (s *Service) EnqueueEmbedTx(ctx context.Context, tx pgx.Tx, item Item) error {
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
func (s *Service) EmbedJob(ctx context.Context, itemID string, revision int, embed func(ctx context.Context, text string) ([]float32, error)) error {
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
func (s *Service) EmbedJobs(ctx context.Context, refs []EmbedRef, embed func(ctx context.Context, texts []string) ([][]float32, error)) []error {
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
		var (
			status             Status
			current            int
			key                *string
			content            string
			embedded, reusable bool
		)
		err := s.pool.QueryRow(ctx, qEmbedSource, ref.ItemID, ref.Revision, cfg.model, cfg.dims).
			Scan(&status, &current, &key, &content, &embedded, &reusable)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			// Deleted with its teammate.
		case err != nil:
			errs[i] = fmt.Errorf("embed job: read item: %w", err)
		case status != StatusActive || current != ref.Revision || embedded:
		case reusable:
			errs[i] = s.storeEmbedding(ctx, ref.ItemID, ref.Revision, func(tx pgx.Tx) error {
				_, err := tx.Exec(ctx, qEmbeddingReuse, ref.ItemID, ref.Revision, cfg.model, cfg.dims)
				return err
			})
		default:
			need = append(need, i)
			texts = append(texts, EmbedText(key, content))
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
func (s *Service) storeVector(ctx context.Context, ref EmbedRef, cfg embeddingConfig, vector []float32) error {
	if cfg.dims > 0 && len(vector) != cfg.dims {
		return jobs.Permanent(codeDimensions, nil)
	}
	literal, ok := vectorText(vector)
	if !ok {
		return jobs.Permanent(codeUnusableVector, nil)
	}
	return s.storeEmbedding(ctx, ref.ItemID, ref.Revision, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, qEmbeddingStore, ref.ItemID, ref.Revision, cfg.model, len(vector), literal)
		return err
	})
}

// storeEmbedding runs store in a transaction that holds the item's scope and the item locked
// (the same order as every writer, R1), only if the item is still active at revision (F2). The model
// can't change under it: a Service's configuration is fixed at construction, and a vector a process
// of an older configuration stores late is of a model recall no longer reads. A forget or an edit that committed meanwhile wins: nothing is
// stored and the job ends without error.
func (s *Service) storeEmbedding(ctx context.Context, itemID string, revision int, store func(pgx.Tx) error) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		item, err := lockItemTx(ctx, tx, itemID)
		if err != nil {
			return err
		}
		if item.Status != StatusActive || item.Revision != revision {
			return nil
		}
		return store(tx)
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
func (s *Service) ReembedActive(ctx context.Context) (int, error) {
	cfg := s.ai.embedding
	if !cfg.enabled() {
		return 0, nil
	}
	var n int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, qReembedLock); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, qEmbeddingsMissing, cfg.model, cfg.dims)
		if err != nil {
			return err
		}
		todo, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (jobs.Job, error) {
			j := jobs.Job{Kind: JobEmbed}
			return j, r.Scan(&j.ItemID, &j.Revision)
		})
		if err != nil {
			return err
		}
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

// EmbeddingProgress counts the active items and those with a vector of their current revision by the
// configured model (for aiStatus). With embeddings off, done is 0.
func (s *Service) EmbeddingProgress(ctx context.Context) (done, total int, err error) {
	cfg := s.ai.embedding
	if err := s.pool.QueryRow(ctx, qEmbeddingProgress, cfg.model, cfg.dims).Scan(&done, &total); err != nil {
		return 0, 0, fmt.Errorf("embedding progress: %w", err)
	}
	if !cfg.enabled() {
		done = 0
	}
	return done, total, nil
}

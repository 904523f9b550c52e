package memory_test

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
)

// embedAs returns an embed function that answers vector and records the texts it was given.
type recordingEmbed struct {
	mu     sync.Mutex
	texts  []string
	vector []float32
	err    error
}

func (r *recordingEmbed) embed(_ context.Context, text string) ([]float32, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.texts = append(r.texts, text)
	return r.vector, r.err
}

func (r *recordingEmbed) calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.texts)
}

func mustNotEmbed(t *testing.T) func(context.Context, string) ([]float32, error) {
	return func(context.Context, string) ([]float32, error) {
		t.Error("the endpoint was called although no request was needed")
		return nil, errors.New("unexpected")
	}
}

type embeddingRow struct {
	Revision   int
	Model      string
	Dimensions int
	Vector     string
}

func embeddingRows(t *testing.T, f fixture, itemID string) []embeddingRow {
	t.Helper()
	rows, err := f.pool.Query(context.Background(), `
		SELECT revision, model, dimensions, embedding::text FROM memory_embeddings WHERE item_id = $1 ORDER BY revision, model`, itemID)
	require.NoError(t, err)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[embeddingRow])
	require.NoError(t, err)
	return out
}

func TestEmbedJobStoresTheVector(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithEmbeddings("test-embed", 3))
	item, err := f.svc.CreateMemory(user, memory.CreateInput{Key: ptr("drink"), Content: "Prefers green tea"})
	require.NoError(t, err)

	rec := &recordingEmbed{vector: []float32{0.5, -1, 2}}
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), item.ID, 1, rec.embed))
	assert.Equal(t, []string{"drink: Prefers green tea"}, rec.texts, "the text is the packet's key: content")
	assert.Equal(t, []embeddingRow{{1, "test-embed", 3, unitVectorText(0.5, -1, 2)}}, embeddingRows(t, f, item.ID))

	// A second run of the same job (a retry after a crash) costs no request.
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), item.ID, 1, mustNotEmbed(t)))
	done, total, err := f.svc.EmbeddingProgress(memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser}))
	require.NoError(t, err)
	assert.Equal(t, [2]int{1, 1}, [2]int{done, total})
}

// TestEmbedJobForgetDuringTheCall (F2): the item is forgotten while its text is being embedded; the
// late vector is dropped and the job ends without error.
func TestEmbedJobForgetDuringTheCall(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithEmbeddings("test-embed", 3))
	item := f.create(t, nil, "My locker code is 7391")

	started, release := make(chan struct{}), make(chan struct{})
	result := make(chan error, 1)
	go func() {
		result <- f.svc.Background().EmbedJob(context.Background(), item.ID, 1, func(context.Context, string) ([]float32, error) {
			close(started)
			<-release
			return []float32{1, 2, 3}, nil
		})
	}()
	<-started
	_, err := f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err)
	close(release)
	require.NoError(t, <-result, "a late result is not an error")
	assert.Empty(t, embeddingRows(t, f, item.ID), "no vector of forgotten text")
}

// TestEmbedJobEditDuringTheCall (F2): an edit commits while the old text is being embedded; the
// stale revision's vector is not stored, and the new revision's own job stores its vector.
func TestEmbedJobEditDuringTheCall(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithEmbeddings("test-embed", 3))
	item := f.create(t, nil, "Lives in Lisbon")

	started, release := make(chan struct{}), make(chan struct{})
	result := make(chan error, 1)
	go func() {
		result <- f.svc.Background().EmbedJob(context.Background(), item.ID, 1, func(context.Context, string) ([]float32, error) {
			close(started)
			<-release
			return []float32{1, 1, 1}, nil
		})
	}()
	<-started
	_, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr("Lives in Porto")})
	require.NoError(t, err)
	close(release)
	require.NoError(t, <-result)
	assert.Empty(t, embeddingRows(t, f, item.ID), "the stale revision's vector is dropped")

	// A job for a revision that is no longer current doesn't even call the endpoint.
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), item.ID, 1, mustNotEmbed(t)))

	rec := &recordingEmbed{vector: []float32{2, 2, 2}}
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), item.ID, 2, rec.embed))
	assert.Equal(t, []string{"Lives in Porto"}, rec.texts)
	assert.Equal(t, []embeddingRow{{2, "test-embed", 3, unitVectorText(2, 2, 2)}}, embeddingRows(t, f, item.ID))
}

func TestEmbedJobSkipsWhatIsNotActive(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithEmbeddings("test-embed", 3))
	forgotten := f.create(t, nil, "Forget me")
	_, err := f.svc.ForgetMemory(user, forgotten.ID)
	require.NoError(t, err)
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), forgotten.ID, 1, mustNotEmbed(t)))
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), forgotten.ID, 2, mustNotEmbed(t)))
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), "00000000-0000-0000-0000-0000000000aa", 1, mustNotEmbed(t)),
		"an item deleted with its teammate")

	f.with()
	live := f.create(t, nil, "Embeddings are off")
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), live.ID, 1, mustNotEmbed(t)))
}

// TestEmbedJobReusesTheVectorOfTheSameText: a revision that changes neither key nor content (a pin, a
// restore of embedded text) copies the earlier vector instead of spending a request.
func TestEmbedJobReusesTheVectorOfTheSameText(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithEmbeddings("test-embed", 3))
	item := f.create(t, nil, "Allergic to peanuts")
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), item.ID, 1, (&recordingEmbed{vector: []float32{1, 0, 0}}).embed))

	_, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Pinned: ptr(true)})
	require.NoError(t, err)
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), item.ID, 2, mustNotEmbed(t)))

	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 2, Content: ptr("Allergic to cashews")})
	require.NoError(t, err)
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), item.ID, 3, (&recordingEmbed{vector: []float32{0, 1, 0}}).embed))
	_, err = f.svc.RestoreRevision(user, item.ID, 1, 3)
	require.NoError(t, err)
	require.NoError(t, f.svc.Background().EmbedJob(context.Background(), item.ID, 4, mustNotEmbed(t)))

	assert.Equal(t, []embeddingRow{
		{1, "test-embed", 3, unitVectorText(1, 0, 0)}, {2, "test-embed", 3, unitVectorText(1, 0, 0)},
		{3, "test-embed", 3, unitVectorText(0, 1, 0)}, {4, "test-embed", 3, unitVectorText(1, 0, 0)},
	}, embeddingRows(t, f, item.ID))
}

func TestEmbedJobErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.with(memory.WithEmbeddings("test-embed", 3))
	item := f.create(t, nil, "My passport number is X1234567")

	err := f.svc.Background().EmbedJob(context.Background(), item.ID, 1, (&recordingEmbed{vector: []float32{1, 2}}).embed)
	require.Error(t, err)
	assert.Equal(t, "embedding dimension mismatch", jobs.ErrorCode(err))

	nan := float32(0)
	err = f.svc.Background().EmbedJob(context.Background(), item.ID, 1, (&recordingEmbed{vector: []float32{1, 2, nan / nan}}).embed)
	require.Error(t, err)
	assert.Equal(t, "embedding unusable", jobs.ErrorCode(err))

	// The endpoint's own error passes through with its code (a queue retries or waits on it).
	endpointErr := &jobs.Error{Code: "ai embeddings HTTP 429"}
	err = f.svc.Background().EmbedJob(context.Background(), item.ID, 1, (&recordingEmbed{err: endpointErr}).embed)
	require.ErrorIs(t, err, endpointErr)
	assert.Equal(t, "ai embeddings HTTP 429", jobs.ErrorCode(err))
	assert.NotContains(t, err.Error(), "X1234567")
	assert.Empty(t, embeddingRows(t, f, item.ID))
}

func TestEnqueueEmbedTx(t *testing.T) {
	t.Parallel()
	f := setup(t)
	active := f.create(t, nil, "Active")
	candidate := active
	candidate.Status = memory.StatusCandidate

	enqueue := func(item memory.Item) {
		require.NoError(t, pgx.BeginFunc(context.Background(), f.pool, func(tx pgx.Tx) error {
			return memory.EnqueueEmbedTx(context.Background(), f.svc, tx, item)
		}))
	}
	count := func() (n int) {
		require.NoError(t, f.pool.QueryRow(context.Background(),
			`SELECT count(*) FROM memory_jobs WHERE kind = 'embed' AND item_id = $1 AND revision = 1 AND status = 'pending'`, active.ID).Scan(&n))
		return n
	}
	enqueue(active)
	assert.Zero(t, count(), "embeddings off: no job")
	f.with(memory.WithEmbeddings("test-embed", 0))
	enqueue(candidate)
	assert.Zero(t, count(), "candidates are not embedded")
	enqueue(active)
	assert.Equal(t, 1, count())
}

// TestReEmbedActiveAfterAModelChange: switching the model enqueues a job for exactly the active
// items without a vector of the new model, once; the jobs, run by a runner, complete the progress.
func TestReEmbedActiveAfterAModelChange(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	f.with(memory.WithEmbeddings("model-a", 3))
	a, b, c := f.create(t, nil, "Item A"), f.create(t, nil, "Item B"), f.create(t, nil, "Item C")
	gone := f.create(t, nil, "Item gone")
	_, err := f.svc.ForgetMemory(user, gone.ID)
	require.NoError(t, err)
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: c.ID, BaseRevision: 1, Content: ptr("Item C, edited")})
	require.NoError(t, err)
	vec := (&recordingEmbed{vector: []float32{1, 2, 3}}).embed
	require.NoError(t, f.svc.Background().EmbedJob(ctx, a.ID, 1, vec))
	require.NoError(t, f.svc.Background().EmbedJob(ctx, b.ID, 1, vec))
	require.NoError(t, f.svc.Background().EmbedJob(ctx, c.ID, 2, vec))
	// The writes above enqueued their own embed jobs (I1); they were run by hand just now.
	_, err = f.pool.Exec(ctx, `DELETE FROM memory_jobs`)
	require.NoError(t, err)

	n, err := f.svc.Background().ReembedActive(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "nothing is missing")

	f.with(memory.WithEmbeddings("model-b", 3))
	done, total, err := f.svc.EmbeddingProgress(memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser}))
	require.NoError(t, err)
	assert.Equal(t, [2]int{0, 3}, [2]int{done, total}, "the old model's vectors stop counting at once")

	n, err = f.svc.Background().ReembedActive(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	rows, err := f.pool.Query(ctx, `SELECT item_id::text, revision FROM memory_jobs WHERE kind = 'embed' AND status = 'pending' ORDER BY item_id`)
	require.NoError(t, err)
	type ref struct {
		ID  string
		Rev int
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ref])
	require.NoError(t, err)
	assert.ElementsMatch(t, []ref{{a.ID, 1}, {b.ID, 1}, {c.ID, 2}}, got, "the current revisions of the active items")

	n, err = f.svc.Background().ReembedActive(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "idempotent while the jobs wait")

	runner := jobs.NewRunner(f.pool, jobs.Options{Log: slog.New(slog.DiscardHandler)})
	newVec := &recordingEmbed{vector: []float32{3, 2, 1}}
	runner.Handle(memory.JobEmbed, func(ctx context.Context, j jobs.Job) error {
		return f.svc.Background().EmbedJob(ctx, j.ItemID, j.Revision, newVec.embed)
	})
	ran, err := runner.RunOnce(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, ran)
	assert.Equal(t, 3, newVec.calls())
	done, total, err = f.svc.EmbeddingProgress(memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser}))
	require.NoError(t, err)
	assert.Equal(t, [2]int{3, 3}, [2]int{done, total})

	// Same model, other dimensions: the vectors are re-made and replaced.
	f.with(memory.WithEmbeddings("model-b", 2))
	n, err = f.svc.Background().ReembedActive(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	newVec.vector = []float32{1, 1}
	ran, err = runner.RunOnce(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, ran)
	assert.Equal(t, []embeddingRow{{1, "model-a", 3, unitVectorText(1, 2, 3)}, {1, "model-b", 2, unitVectorText(1, 1)}}, embeddingRows(t, f, a.ID))
	done, total, err = f.svc.EmbeddingProgress(memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser}))
	require.NoError(t, err)
	assert.Equal(t, [2]int{3, 3}, [2]int{done, total})
}

// TestEmbedJobsSendsOneRequestPerBatch: of a batch of embed jobs, only the revisions that need a
// vector go to the endpoint, in one call; the others are done without it.
func TestEmbedJobsSendsOneRequestPerBatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	f.with(memory.WithEmbeddings("test-embed", 2))
	a, b := f.create(t, nil, "Item A"), f.create(t, nil, "Item B")
	stale := f.create(t, nil, "Item C")
	_, err := f.svc.EditMemory(user, memory.EditInput{ID: stale.ID, BaseRevision: 1, Content: ptr("Item C, edited")})
	require.NoError(t, err)
	pinned := f.create(t, nil, "Item D")
	require.NoError(t, f.svc.Background().EmbedJob(ctx, pinned.ID, 1, (&recordingEmbed{vector: []float32{4, 4}}).embed))
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: pinned.ID, BaseRevision: 1, Pinned: ptr(true)})
	require.NoError(t, err)
	gone := f.create(t, nil, "Item E")
	_, err = f.svc.ForgetMemory(user, gone.ID)
	require.NoError(t, err)

	refs := []memory.EmbedRef{{a.ID, 1}, {stale.ID, 1}, {pinned.ID, 2}, {gone.ID, 1}, {b.ID, 1}}
	var calls [][]string
	batch := func(_ context.Context, texts []string) ([][]float32, error) {
		calls = append(calls, texts)
		out := make([][]float32, len(texts))
		for i := range texts {
			out[i] = []float32{float32(i), 1}
		}
		return out, nil
	}
	errs := f.svc.Background().EmbedJobs(ctx, refs, batch)
	assert.Equal(t, make([]error, len(refs)), errs)
	assert.Equal(t, [][]string{{"Item A", "Item B"}}, calls)
	assert.Equal(t, []embeddingRow{{1, "test-embed", 2, unitVectorText(0, 1)}}, embeddingRows(t, f, a.ID))
	assert.Equal(t, []embeddingRow{{1, "test-embed", 2, unitVectorText(1, 1)}}, embeddingRows(t, f, b.ID))
	assert.Len(t, embeddingRows(t, f, pinned.ID), 2, "the pin revision reuses the vector")
	assert.Empty(t, embeddingRows(t, f, stale.ID))
	assert.Empty(t, embeddingRows(t, f, gone.ID))

	// A failed call fails only the jobs that needed it; a wrong number of vectors is unusable.
	c := f.create(t, nil, "Item F")
	endpointErr := &jobs.Error{Code: "ai embeddings HTTP 500"}
	errs = f.svc.Background().EmbedJobs(ctx, []memory.EmbedRef{{a.ID, 1}, {c.ID, 1}}, func(context.Context, []string) ([][]float32, error) {
		return nil, endpointErr
	})
	assert.NoError(t, errs[0])
	assert.ErrorIs(t, errs[1], endpointErr)
	errs = f.svc.Background().EmbedJobs(ctx, []memory.EmbedRef{{c.ID, 1}}, func(context.Context, []string) ([][]float32, error) {
		return nil, nil
	})
	assert.Equal(t, "embedding unusable", jobs.ErrorCode(errs[0]))
}

// unitVectorText is v scaled to unit length in pgvector's text form, as embeddings are stored.
func unitVectorText(v ...float64) string {
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(float64(float32(x))/math.Sqrt(norm), 'g', -1, 32)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

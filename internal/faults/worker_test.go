package faults_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

// jobLease is the lease the workers of TestWorkerKilledMidJob run with (MEMORY_JOB_LEASE): short,
// so the killed worker's job comes back within seconds, yet long enough that the job timeout (four
// fifths of it) can't fire before the test, told the request arrived, kills the worker.
const jobLease = 4 * time.Second

// process is a running cmd/worker with its log.
type process struct {
	cmd    *exec.Cmd
	log    *lineLog
	exited chan error
}

// lineLog collects a process's stderr.
type lineLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lineLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lineLog) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startWorker(t *testing.T, bin string, env []string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin), log: &lineLog{}, exited: make(chan error, 1)}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stderr = p.log
	require.NoError(t, p.cmd.Start())
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			t.Logf("worker %d log:\n%s", p.cmd.Process.Pid, p.log.String())
		}
	})
	require.True(t, apitest.WaitUntil(time.Minute, func() bool { return strings.Contains(p.log.String(), "worker starting") }),
		"the worker did not start; log:\n%s", p.log.String())
	return p
}

// TestWorkerKilledMidJob runs the compiled cmd/worker against a fake OpenAI-compatible embeddings
// endpoint that holds the first request open, SIGKILLs the worker while its embed job is running,
// and starts a second worker: the job's lease (MEMORY_JOB_LEASE) runs out, the second worker's
// rescuer puts the job back, and the second worker finishes it exactly once — attempts 2, done,
// one embedding, two requests received and one answered, two budget units spent (I3, I4).
func TestWorkerKilledMidJob(t *testing.T) {
	t.Parallel()
	began := time.Now()
	ctx := t.Context()
	bin := filepath.Join(t.TempDir(), "worker")
	build := exec.Command("go", "build", "-o", bin, "github.com/open-bot/memory/cmd/worker")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build cmd/worker: %s", out)
	built := time.Since(began)

	url := dbtest.URL(t)
	pool, err := pgxpool.New(ctx, url)
	require.NoError(t, err)
	t.Cleanup(pool.Close)

	var received, answered atomic.Int32
	firstArrived := make(chan struct{})
	firstGone := make(chan struct{})
	release := make(chan struct{})
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body struct{ Input []string }
		_ = json.Unmarshal(raw, &body)
		if received.Add(1) == 1 {
			// The first request hangs until its client is gone: the worker is killed mid-job.
			close(firstArrived)
			select {
			case <-r.Context().Done():
				close(firstGone)
			case <-release:
			}
			return
		}
		data := []map[string]any{}
		for i := range body.Input {
			data = append(data, map[string]any{"index": i, "embedding": []float32{1, 0, float32(i)}})
		}
		if json.NewEncoder(w).Encode(map[string]any{"data": data}) == nil {
			answered.Add(1)
		}
	}))
	t.Cleanup(func() {
		close(release)
		fake.Close()
	})

	env := []string{"DATABASE_URL=" + url, "MEMORY_EMBEDDING_URL=" + fake.URL + "/v1",
		"MEMORY_EMBEDDING_MODEL=fake", "MEMORY_EMBEDDING_DIMENSIONS=3", "MEMORY_AI_API_KEY=sk-faults",
		"MEMORY_AI_DAILY_REQUEST_LIMIT=10", "MEMORY_JOB_LEASE=" + jobLease.String(), "MEMORY_LOG_LEVEL=debug",
		"MEMORY_TOMBSTONE_KEY=mk_faults-tombstone-key-0123456789abcdef"}
	first := startWorker(t, bin, env)

	svc := memory.NewService(pool, slog.New(slog.DiscardHandler), memory.WithEmbeddings("fake", 3))
	user := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})
	created := time.Now()
	item, err := svc.CreateMemory(user, memory.CreateInput{Content: "Likes green tea"}) // enqueues its embed job (I1)
	require.NoError(t, err)

	type jobRow struct {
		ID        int64
		Status    string
		Attempts  int
		LockedBy  *string
		LastError *string
	}
	readJob := func() jobRow {
		var j jobRow
		require.NoError(t, pool.QueryRow(ctx, `SELECT id, status, attempts, locked_by, last_error FROM memory_jobs WHERE item_id = $1`,
			item.ID).Scan(&j.ID, &j.Status, &j.Attempts, &j.LockedBy, &j.LastError))
		return j
	}
	ownedBy := func(j jobRow, p *process) bool {
		return j.LockedBy != nil && strings.Contains(*j.LockedBy, ":"+strconv.Itoa(p.cmd.Process.Pid)+":")
	}

	select {
	case <-firstArrived:
	case <-time.After(time.Minute):
		t.Fatalf("the first worker sent no embeddings request; its log:\n%s", first.log.String())
	}
	killed := time.Now()
	require.NoError(t, first.cmd.Process.Signal(syscall.SIGKILL))
	select {
	case err := <-first.exited:
		var exitErr *exec.ExitError
		require.True(t, errors.As(err, &exitErr), "killed: %v", err)
		require.Equal(t, syscall.SIGKILL, exitErr.Sys().(syscall.WaitStatus).Signal())
	case <-time.After(30 * time.Second):
		t.Fatal("the first worker did not die")
	}
	select {
	case <-firstGone:
	case <-time.After(30 * time.Second):
		t.Fatal("the fake endpoint never saw the killed worker's request go away")
	}
	// The job is left as the killed worker claimed it, until its lease runs out.
	claimed := readJob()
	require.Equal(t, "running", claimed.Status, "job %+v", claimed)
	require.Equal(t, 1, claimed.Attempts)
	require.True(t, ownedBy(claimed, first), "locked by the first worker: %v", claimed.LockedBy)

	second := startWorker(t, bin, env)
	require.True(t, apitest.WaitUntil(time.Minute, func() bool { return readJob().Status == "done" }),
		"the second worker must finish the job; job %+v", readJob())
	finished := time.Since(killed)
	// The job was claimed after it was created, and could be taken back only once the lease ran out.
	require.GreaterOrEqual(t, time.Since(created), jobLease, "taken back before the lease ran out")

	done := readJob()
	assert.Equal(t, claimed.ID, done.ID, "the same job, not a new one")
	assert.Equal(t, 2, done.Attempts, "one attempt per claim: the killed one and the second worker's")
	assert.True(t, ownedBy(done, second), "finished by the second worker: %v", done.LockedBy)
	assert.Nil(t, done.LastError)
	assert.Contains(t, second.log.String(), "rescued jobs whose lease expired", "the lease ran out and the rescuer took the job back")

	var jobs, embeddings, requests int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_jobs WHERE item_id = $1`, item.ID).Scan(&jobs))
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_embeddings WHERE item_id = $1 AND revision = 1 AND model = 'fake'`,
		item.ID).Scan(&embeddings))
	require.NoError(t, pool.QueryRow(ctx, `SELECT coalesce(sum(requests), 0) FROM memory_ai_usage`).Scan(&requests))
	assert.Equal(t, 1, jobs, "one job for the item")
	assert.Equal(t, 1, embeddings, "one embedding")
	assert.Equal(t, 2, requests, "each request reserved one unit of the budget")
	progressDone, progressTotal, err := svc.EmbeddingProgress(memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser}))
	require.NoError(t, err)
	assert.Equal(t, [2]int{1, 1}, [2]int{progressDone, progressTotal})

	// A clean stop of the second worker sends nothing more.
	require.NoError(t, second.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-second.exited:
		require.NoError(t, err, "a clean exit; log:\n%s", second.log.String())
	case <-time.After(time.Minute):
		t.Fatal("the second worker did not exit on SIGTERM")
	}
	assert.Equal(t, int32(2), received.Load(), "requests received: the killed one and the second worker's")
	assert.Equal(t, int32(1), answered.Load(), "requests answered")
	for _, p := range []*process{first, second} {
		assert.NotContains(t, p.log.String(), "sk-faults")
		assert.NotContains(t, p.log.String(), "green tea")
	}
	t.Logf("worker built in %v; killed mid-job, the job was done by the second worker %v later (lease %v); attempts %d; total %v",
		built.Round(time.Millisecond), finished.Round(time.Millisecond), jobLease, done.Attempts, time.Since(began).Round(time.Millisecond))
}

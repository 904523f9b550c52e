package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// syncBuffer collects the worker's stderr and signals each line.
type syncBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	for _, l := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		select {
		case b.lines <- l:
		default:
		}
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor reads lines until one contains s.
func waitFor(t *testing.T, b *syncBuffer, s string) {
	t.Helper()
	lines := b.lines
	timeout := time.After(time.Minute)
	for {
		select {
		case l := <-lines:
			if strings.Contains(l, s) {
				return
			}
		case <-timeout:
			t.Fatalf("no log line with %q; log:\n%s", s, b.String())
		}
	}
}

// TestCompiledWorker builds cmd/worker, runs it against a test database and a fake embeddings
// endpoint, sees an embed job done, and sees it exit cleanly on SIGTERM.
func TestCompiledWorker(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "worker")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())

	url := dbtest.URL(t)
	pool, err := pgxpool.New(t.Context(), url)
	require.NoError(t, err)
	defer pool.Close()

	requests := make(chan struct{}, 10)
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body struct{ Input []string }
		_ = json.Unmarshal(raw, &body)
		data := []map[string]any{}
		for i := range body.Input {
			data = append(data, map[string]any{"index": i, "embedding": []float32{1, 0, float32(i)}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
		requests <- struct{}{}
	}))
	defer fake.Close()

	env := append(os.Environ(), "DATABASE_URL="+url, "MEMORY_EMBEDDING_URL="+fake.URL+"/v1",
		"MEMORY_EMBEDDING_MODEL=fake", "MEMORY_EMBEDDING_DIMENSIONS=3", "MEMORY_AI_API_KEY=sk-smoke",
		"MEMORY_AI_DAILY_REQUEST_LIMIT=10", "MEMORY_LOG_LEVEL=debug", "MEMORY_DATA_DIR="+t.TempDir())
	// Without the tombstone key (none given, none in MEMORY_DATA_DIR) the worker refuses to start:
	// its extraction would match no tombstone (F3).
	refused := exec.Command(bin)
	refused.Env = append(env, "MEMORY_TOMBSTONE_KEY=")
	out, err := refused.CombinedOutput()
	require.Error(t, err, "started without a tombstone key:\n%s", out)
	assert.Contains(t, string(out), "MEMORY_TOMBSTONE_KEY is required")

	stderr := &syncBuffer{lines: make(chan string, 100)}
	cmd := exec.Command(bin)
	cmd.Env = append(env, "MEMORY_TOMBSTONE_KEY=mk_worker-test-tombstone-key-0123456789")
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	}()
	waitFor(t, stderr, "worker starting")

	svc := memory.NewService(pool, slog.New(slog.DiscardHandler), memory.WithEmbeddings("fake", 3))
	user := memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser})
	item, err := svc.CreateMemory(user, memory.CreateInput{Content: "Likes tea"}) // enqueues its embed job (I1)
	require.NoError(t, err)
	select {
	case <-requests:
	case <-time.After(time.Minute):
		t.Fatalf("the worker sent no request; its log:\n%s", stderr.String())
	}
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		done, total, err := svc.EmbeddingProgress(memory.WithCredential(t.Context(), memory.Credential{Kind: memory.CredentialUser}))
		require.NoError(c, err)
		assert.Equal(c, [2]int{1, 1}, [2]int{done, total})
	}, time.Minute, 10*time.Millisecond)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		require.NoError(t, err, "a clean exit; log:\n%s", stderr.String())
	case <-time.After(time.Minute):
		t.Fatal("the worker did not exit on SIGTERM")
	}
	assert.Contains(t, stderr.String(), "worker stopped")
	assert.NotContains(t, stderr.String(), "sk-smoke")
	assert.NotContains(t, stderr.String(), "Likes tea")
	var status string
	require.NoError(t, pool.QueryRow(t.Context(), `SELECT status FROM memory_jobs WHERE item_id = $1`, item.ID).Scan(&status))
	assert.Equal(t, "done", status)

	// The database now knows the key: another one is refused.
	other := exec.Command(bin)
	other.Env = append(env, "MEMORY_TOMBSTONE_KEY=mk_another-tombstone-key-0123456789abcdef")
	out, err = other.CombinedOutput()
	require.Error(t, err, "started with another tombstone key:\n%s", out)
	assert.Contains(t, string(out), "is not the key this database's tombstones were written with")
}

// TestHelp: worker -h explains the commands and succeeds; an unknown command points at it.
func TestHelp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "worker")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, arg := range []string{"-h", "--help", "help"} {
		out, err := exec.Command(bin, arg).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "worker play") {
			t.Errorf("worker %s: %v\n%s", arg, err, out)
		}
	}
	for _, cmd := range []string{"play", "prepare", "mcp", "jobs"} {
		if out, err := exec.Command(bin, cmd, "-h").CombinedOutput(); err != nil || !strings.Contains(string(out), cmd) {
			t.Errorf("worker %s -h: %v\n%s", cmd, err, out)
		}
	}
	out, err := exec.Command(bin, "bogus").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "worker -h") {
		t.Errorf("worker bogus: %v\n%s", err, out)
	}
	// jobs takes nothing: a stray argument is refused before anything starts.
	out, err = exec.Command(bin, "jobs", "now").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "jobs takes no arguments") {
		t.Errorf("worker jobs now: %v\n%s", err, out)
	}
}

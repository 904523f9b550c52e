package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/pgcluster"
)

// startTimeout bounds a start of the binary: initdb on the first one, then starting PostgreSQL and
// migrating, on a loaded CI machine.
const startTimeout = 90 * time.Second

// The binary as a user runs it: no DATABASE_URL, so it starts its own cluster in MEMORY_DATA_DIR and
// generates its tokens there; SIGTERM stops both; a second start finds everything again.
func TestEmbeddedRunStopRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts PostgreSQL")
	}
	t.Parallel()
	bin := buildAPI(t)
	dataDir := dataDir(t)
	env := apiEnv(dataDir)

	first := startAPI(t, bin, env)
	userToken := readToken(t, dataDir, "user-token")
	workerToken := readToken(t, dataDir, "worker-token")
	require.True(t, strings.HasPrefix(userToken, "mu_"))
	require.True(t, strings.HasPrefix(workerToken, "mw_"))
	first.awaitOutput(t, first.baseURL+"/login?token="+userToken)

	res, err := http.Get(first.baseURL + "/healthz")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)

	var created struct {
		CreateTeammate struct{ Teammate struct{ ID string } }
	}
	first.graphql(t, userToken, `mutation { createTeammate(input: {name: "Persistent Ada"}) { teammate { id } } }`, &created)
	require.NotEmpty(t, created.CreateTeammate.Teammate.ID)

	first.stop(t)
	requireClusterStopped(t, dataDir)

	// The first run served no profiler; this one does, on MEMORY_DEBUG_ADDR only.
	debugAddr := freeAddr(t)
	second := startAPI(t, bin, slices.Concat(env, []string{"MEMORY_DEBUG_ADDR=" + debugAddr}))
	cmdline := func(base string) string {
		res, err := http.Get(base + "/debug/pprof/cmdline")
		require.NoError(t, err)
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return string(body)
	}
	require.Equal(t, bin, cmdline("http://"+debugAddr), "the profiler answers on MEMORY_DEBUG_ADDR")
	require.NotContains(t, cmdline(second.baseURL), bin, "and not on the API's own address (the web app answers there)")
	require.Equal(t, userToken, readToken(t, dataDir, "user-token"), "the tokens are reused")
	require.Equal(t, workerToken, readToken(t, dataDir, "worker-token"))
	var listed struct{ Teammates []struct{ ID, Name string } }
	second.graphql(t, workerToken, `{ teammates { id name } }`, &listed)
	require.Equal(t, []struct{ ID, Name string }{{created.CreateTeammate.Teammate.ID, "Persistent Ada"}}, listed.Teammates)
	second.stop(t)
	requireClusterStopped(t, dataDir)

	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "migrate", "version")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	latest, err := db.LatestVersion()
	require.NoError(t, err)
	require.Contains(t, string(out), fmt.Sprintf("version %d (latest %d, dirty false)", latest, latest))
	requireClusterStopped(t, dataDir)
}

// TestInterruptExitsCleanly: Ctrl-C (SIGINT) ends the server with status 0 — while it is still
// starting its database as well as once it serves — so `make run` ends without an error.
func TestInterruptExitsCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts PostgreSQL")
	}
	t.Parallel()
	bin := buildAPI(t)
	dataDir := dataDir(t)
	for _, when := range []string{"PostgreSQL started", "memory service ready"} {
		p := spawnAPI(t, bin, apiEnv(dataDir))
		p.awaitOutput(t, when)
		require.NoError(t, p.cmd.Process.Signal(os.Interrupt))
		select {
		case <-p.exited:
		case <-time.After(30 * time.Second):
			require.FailNow(t, "the process did not exit within 30 s of SIGINT")
		}
		require.NoError(t, p.exitErr, "exit status after SIGINT once %q:\n%s", when, p.text())
		requireClusterStopped(t, dataDir)
	}
}

// buildAPI builds this command into a temporary directory.
func buildAPI(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the binary with")
	}
	bin := filepath.Join(t.TempDir(), "api")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goTool, "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// dataDir returns a MEMORY_DATA_DIR that doesn't exist yet; as root, the cluster's account must be
// able to pass through the directory t.TempDir makes (mode 0700) above it.
func dataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		require.NoError(t, os.Chmod(filepath.Dir(dir), 0o711))
	}
	data := filepath.Join(dir, "data")
	t.Cleanup(func() {
		// Whatever happened, no PostgreSQL outlives the test.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := pgcluster.StopDir(ctx, data, nil); err != nil {
			t.Errorf("stop the cluster left in %s: %v", data, err)
		}
	})
	return data
}

// apiEnv is this process's environment without the variables the binary reads, plus dataDir.
func apiEnv(dataDir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "DATABASE_URL" || strings.HasPrefix(name, "MEMORY_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "MEMORY_DATA_DIR="+dataDir, "MEMORY_LOG_FORMAT=text", "MEMORY_DEMO=false")
}

func readToken(t *testing.T, dataDir, name string) string {
	t.Helper()
	path := filepath.Join(dataDir, name)
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "%s must be private", name)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.TrimSpace(string(b))
}

func requireClusterStopped(t *testing.T, dataDir string) {
	t.Helper()
	_, err := os.Stat(filepath.Join(dataDir, "pg", "postmaster.pid"))
	require.ErrorIs(t, err, os.ErrNotExist, "PostgreSQL still runs in %s", dataDir)
}

// apiProcess is one run of the binary.
type apiProcess struct {
	cmd     *exec.Cmd
	baseURL string
	exited  chan struct{}
	exitErr error // set before exited closes

	mu     sync.Mutex
	output bytes.Buffer
	grew   chan struct{} // signalled after output grows
}

// freeAddr returns a 127.0.0.1 address with a port nobody listens on right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// startAPI runs bin on a free port and waits until /readyz answers 200.
func startAPI(t *testing.T, bin string, env []string) *apiProcess {
	t.Helper()
	p := spawnAPI(t, bin, env)
	p.awaitReady(t)
	return p
}

// spawnAPI starts the binary and returns at once.
func spawnAPI(t *testing.T, bin string, env []string) *apiProcess {
	t.Helper()
	addr := freeAddr(t)
	p := &apiProcess{baseURL: "http://" + addr, exited: make(chan struct{}), grew: make(chan struct{}, 1)}
	p.cmd = exec.Command(bin)
	p.cmd.Env = slices.Concat(env, []string{"MEMORY_ADDR=" + addr})
	r, w, err := os.Pipe()
	require.NoError(t, err)
	p.cmd.Stdout, p.cmd.Stderr = w, w
	require.NoError(t, p.cmd.Start())
	w.Close()
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		p.collect(r)
	}()
	go func() {
		p.exitErr = p.cmd.Wait()
		<-copied
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			t.Logf("output of %s:\n%s", bin, p.text())
		}
	})
	return p
}

func (p *apiProcess) collect(r io.ReadCloser) {
	defer r.Close()
	lines := bufio.NewScanner(r)
	for lines.Scan() {
		p.mu.Lock()
		p.output.Write(lines.Bytes())
		p.output.WriteByte('\n')
		p.mu.Unlock()
		select {
		case p.grew <- struct{}{}:
		default:
		}
	}
}

func (p *apiProcess) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.output.String()
}

// awaitOutput waits until the process has printed want.
func (p *apiProcess) awaitOutput(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(startTimeout)
	for !strings.Contains(p.text(), want) {
		select {
		case <-p.grew:
		case <-p.exited:
			require.Contains(t, p.text(), want, "the process exited (%v)", p.exitErr)
			return
		case <-deadline:
			require.FailNow(t, "the process did not print "+want)
		}
	}
}

// awaitReady polls /readyz: a child process offers nothing better to wait on.
func (p *apiProcess) awaitReady(t *testing.T) {
	t.Helper()
	deadline := time.After(startTimeout)
	poll := time.NewTicker(100 * time.Millisecond)
	defer poll.Stop()
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		if res, err := client.Get(p.baseURL + "/readyz"); err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				require.JSONEq(t, `{"database":"ok","migrations":"ok","listener":"ok"}`, string(body))
				return
			}
		}
		select {
		case <-poll.C:
		case <-p.exited:
			require.FailNow(t, fmt.Sprintf("the process exited before it was ready: %v", p.exitErr))
		case <-deadline:
			require.FailNow(t, "/readyz did not answer 200 in time")
		}
	}
}

// graphql posts query with token and decodes the data into v, failing on any error.
func (p *apiProcess) graphql(t *testing.T, token, query string, v any) {
	t.Helper()
	body, err := json.Marshal(map[string]string{"query": query})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, p.baseURL+"/graphql", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var out struct {
		Data   json.RawMessage
		Errors []json.RawMessage
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	require.Empty(t, out.Errors)
	require.NoError(t, json.Unmarshal(out.Data, v))
}

// stop sends SIGTERM and requires a clean exit within 30 s.
func (p *apiProcess) stop(t *testing.T) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		require.FailNow(t, "the process did not exit within 30 s of SIGTERM")
	}
	require.NoError(t, p.exitErr, "exit status")
	require.Contains(t, p.text(), "shutting down")
}

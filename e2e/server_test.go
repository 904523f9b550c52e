package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/pgcluster"
)

// server is the real API binary, run on its own embedded database.
type server struct {
	base        string // http://127.0.0.1:<port>
	client      *apitest.Client
	userToken   string
	workerToken string
	cmd         *exec.Cmd
	exited      chan struct{}
	logPath     string
}

// buildServer compiles ./cmd/api into dir. The web app is embedded from frontend/dist, so that must
// hold a build (make e2e depends on make frontend).
func buildServer(ctx context.Context, repo, dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(repo, "frontend", "dist", "index.html")); err != nil {
		return "", errors.New("frontend/dist/index.html is missing: run `make frontend` (or `make e2e`) first")
	}
	bin := filepath.Join(dir, "api")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/api")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/api: %v\n%s", err, out)
	}
	return bin, nil
}

// startServer runs bin with MEMORY_DATA_DIR=dataDir on a free local port and waits until /readyz
// answers 200. env adds or overrides variables (the last value of a name wins): the suite's server
// runs without the demo, and env can turn it on.
func startServer(ctx context.Context, bin, dataDir, logPath string, env ...string) (*server, error) {
	port, err := pgcluster.FreePort()
	if err != nil {
		return nil, err
	}
	return startServerAt(ctx, bin, dataDir, logPath, fmt.Sprintf("127.0.0.1:%d", port), env...)
}

// startServerAt is startServer on a given address (a server started again where it was); the log
// is appended to.
func startServerAt(ctx context.Context, bin, dataDir, logPath, addr string, env ...string) (*server, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"MEMORY_DATA_DIR="+dataDir,
		"MEMORY_ADDR="+addr,
		"MEMORY_LOG_LEVEL=info",
		"DATABASE_URL=",
		"MEMORY_USER_TOKEN=",
		"MEMORY_WORKER_TOKEN=",
		// A brand-new embedded database gets the demo by default; the flows start from an empty one.
		"MEMORY_DEMO=false",
	)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{base: "http://" + addr, cmd: cmd, exited: make(chan struct{}), logPath: logPath}
	s.client = apitest.NewClient(s.base, 4)
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(s.exited)
	}()
	if err := s.waitReady(ctx); err != nil {
		s.stop()
		return nil, err
	}
	token, err := os.ReadFile(filepath.Join(dataDir, "user-token"))
	if err != nil {
		s.stop()
		return nil, fmt.Errorf("reading the generated user token: %w", err)
	}
	s.userToken = strings.TrimSpace(string(token))
	if token, err = os.ReadFile(filepath.Join(dataDir, "worker-token")); err != nil {
		s.stop()
		return nil, fmt.Errorf("reading the generated worker token: %w", err)
	}
	s.workerToken = strings.TrimSpace(string(token))
	return s, nil
}

// waitReady polls /readyz until it answers 200, the process exits, or ctx ends. Starting the
// embedded cluster (initdb, migrations) takes a few seconds; there is no event to wait on instead.
func (s *server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/readyz", nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.exited:
			return fmt.Errorf("the server exited before it was ready; log:\n%s", s.logTail())
		case <-ctx.Done():
			return fmt.Errorf("the server was not ready in time: %w; log:\n%s", ctx.Err(), s.logTail())
		case <-tick.C:
		}
	}
}

// stop sends SIGTERM (the server stops its embedded cluster on the way out) and waits for the exit.
func (s *server) stop() {
	s.client.CloseIdleConnections()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(45 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

func (s *server) logTail() string {
	b, _ := os.ReadFile(s.logPath)
	const max = 4000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return string(b)
}

// api talks to the server as a GraphQL client with one bearer token: the tests use it to set up data
// and to change it behind the browser's back.
type api struct {
	client *apitest.Client
	token  string
}

// as is an api of the server with token.
func (s *server) as(token string) api { return api{client: s.client, token: token} }

// do runs one operation and decodes data into out (nil: not at all); GraphQL errors are returned as
// an error.
func (a api) do(ctx context.Context, query string, vars map[string]any, out any) error {
	return a.client.Call(ctx, a.token, query, vars, out)
}

// memoryItem is what the tests read back of an item.
type memoryItem struct {
	ID       string  `json:"id"`
	Scope    string  `json:"scope"`
	Content  string  `json:"content"`
	Key      *string `json:"key"`
	Kind     string  `json:"kind"`
	Pinned   bool    `json:"pinned"`
	Revision int     `json:"revision"`
}

const itemFields = `id scope content key kind pinned revision`

func (a api) createTeammate(ctx context.Context, name string) (string, error) {
	var out struct {
		CreateTeammate struct{ Teammate struct{ ID string } }
	}
	err := a.do(ctx, `mutation($name: String!) { createTeammate(input: {name: $name}) { teammate { id } } }`,
		map[string]any{"name": name}, &out)
	return out.CreateTeammate.Teammate.ID, err
}

// newMemory is createMemory's input; TeammateID "" means the shared scope.
type newMemory struct {
	TeammateID string
	Content    string
	Key        string
	Kind       string // FACT when empty
	Pinned     bool
	ExpiresAt  time.Time // none when zero
}

func (a api) createMemory(ctx context.Context, m newMemory) (memoryItem, error) {
	input := map[string]any{"content": m.Content, "pinned": m.Pinned, "kind": "FACT", "scope": map[string]any{"teammateId": nil}}
	if m.TeammateID != "" {
		input["scope"] = map[string]any{"teammateId": m.TeammateID}
	}
	if m.Kind != "" {
		input["kind"] = m.Kind
	}
	if m.Key != "" {
		input["key"] = m.Key
	}
	if !m.ExpiresAt.IsZero() {
		input["expiresAt"] = m.ExpiresAt.UTC().Format(time.RFC3339Nano)
	}
	var out struct{ CreateMemory struct{ Item memoryItem } }
	err := a.do(ctx, `mutation($input: CreateMemoryInput!) { createMemory(input: $input) { item { `+itemFields+` } } }`,
		map[string]any{"input": input}, &out)
	return out.CreateMemory.Item, err
}

func (a api) editContent(ctx context.Context, id string, baseRevision int, content string) (memoryItem, error) {
	var out struct{ EditMemory struct{ Item memoryItem } }
	err := a.do(ctx, `mutation($input: EditMemoryInput!) { editMemory(input: $input) { item { `+itemFields+` } } }`,
		map[string]any{"input": map[string]any{"id": id, "baseRevision": baseRevision, "content": content}}, &out)
	return out.EditMemory.Item, err
}

func (a api) memoryItem(ctx context.Context, id string) (memoryItem, error) {
	var out struct{ MemoryItem *memoryItem }
	err := a.do(ctx, `query($id: ID!) { memoryItem(id: $id) { `+itemFields+` } }`, map[string]any{"id": id}, &out)
	if err == nil && out.MemoryItem == nil {
		err = fmt.Errorf("memoryItem(%s) is null", id)
	}
	if out.MemoryItem == nil {
		return memoryItem{}, err
	}
	return *out.MemoryItem, err
}

// revision is one entry of an item's history.
type revision struct {
	Revision int    `json:"revision"`
	Content  string `json:"content"`
	Action   string `json:"action"`
	BasedOn  *int   `json:"basedOn"`
}

func (a api) revisions(ctx context.Context, id string) ([]revision, error) {
	var out struct {
		MemoryItem struct {
			Revisions struct{ Edges []struct{ Node revision } }
		}
	}
	err := a.do(ctx, `query($id: ID!) { memoryItem(id: $id) { revisions(first: 50) { edges { node { revision content action basedOn } } } } }`,
		map[string]any{"id": id}, &out)
	revs := make([]revision, 0, len(out.MemoryItem.Revisions.Edges))
	for _, e := range out.MemoryItem.Revisions.Edges {
		revs = append(revs, e.Node)
	}
	return revs, err
}

package main

import (
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
	"strconv"
	"time"
)

// Tokens of the evaluation's API process.
const (
	userToken   = "mu_eval-user-token-0123456789abcdef"
	workerToken = "mw_eval-worker-token-0123456789abcdef"
)

// buildAPI compiles cmd/api into dir.
func buildAPI(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "api")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/api").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/api: %v\n%s", err, out)
	}
	return bin, nil
}

// apiProc is one running cmd/api process.
type apiProc struct {
	cmd   *exec.Cmd
	url   string
	logs  *bytes.Buffer
	httpc *http.Client
}

// startAPI runs the API binary on databaseURL, as cmd/bench does, and waits until /readyz says it is
// ready.
func startAPI(ctx context.Context, bin, databaseURL string) (*apiProc, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+databaseURL,
		"MEMORY_ADDR=127.0.0.1:"+strconv.Itoa(port),
		"MEMORY_USER_TOKEN="+userToken,
		"MEMORY_WORKER_TOKEN="+workerToken,
		"MEMORY_TOMBSTONE_KEY=mk_eval-tombstone-key-0123456789abcdef",
		"MEMORY_LOG_LEVEL=warn",
		"MEMORY_JOBS_IN_API=false",
	)
	a := &apiProc{cmd: cmd, url: "http://127.0.0.1:" + strconv.Itoa(port), logs: &bytes.Buffer{}, httpc: &http.Client{Timeout: time.Minute}}
	cmd.Stdout, cmd.Stderr = a.logs, a.logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(time.Minute)
	for {
		res, err := http.Get(a.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return a, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			a.stop()
			return nil, fmt.Errorf("the API did not become ready: %s", a.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (a *apiProc) stop() {
	if a == nil || a.cmd.Process == nil {
		return
	}
	_ = a.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = a.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = a.cmd.Process.Kill()
		<-done
	}
}

// do posts one GraphQL operation as the user and decodes data into out. An answer with errors fails
// with the first.
func (a *apiProc) do(ctx context.Context, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+userToken)
	res, err := a.httpc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	var r struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("HTTP %d: %s", res.StatusCode, raw)
	}
	if len(r.Errors) > 0 {
		return fmt.Errorf("GraphQL: %s", r.Errors[0].Message)
	}
	return json.Unmarshal(r.Data, out)
}

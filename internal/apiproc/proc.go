package apiproc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/open-bot/memory/internal/pgcluster"
)

// Options configures Start: one cmd/api process.
type Options struct {
	// Bin is the API binary (Workspace.Bin).
	Bin string
	// DatabaseURL is the process's DATABASE_URL.
	DatabaseURL string
	// UserToken, WorkerToken and TombstoneKey are MEMORY_USER_TOKEN, MEMORY_WORKER_TOKEN and
	// MEMORY_TOMBSTONE_KEY.
	UserToken, WorkerToken, TombstoneKey string
	// Env is more environment ("NAME=value"), after this process's own and the fixed part; where a
	// name repeats, the last entry wins.
	Env []string
	// Debug also serves the profiler (MEMORY_DEBUG_ADDR) on a free loopback port: Proc.DebugURL.
	Debug bool
	// HTTP sends Do's requests; nil means a client of its own with a one-minute timeout.
	HTTP *http.Client
}

// Proc is one running cmd/api process.
type Proc struct {
	// URL is the API's base URL, http://127.0.0.1:port.
	URL string
	// DebugURL is the profiler's base URL when Options.Debug is set, otherwise "".
	DebugURL string

	cmd   *exec.Cmd
	logs  *bytes.Buffer
	httpc *http.Client
}

// readyTimeout is how long Start waits for /readyz to answer 200; stopTimeout how long Stop waits
// for the process to exit after an interrupt before it kills it.
const (
	readyTimeout = time.Minute
	stopTimeout  = 10 * time.Second
)

// Start runs the API binary on a free loopback port with this process's environment, then
// DATABASE_URL, MEMORY_ADDR, the tokens, MEMORY_LOG_LEVEL=warn and o.Env, and waits until /readyz
// says it is ready (a minute at most). The process's output is kept for the error of a start that
// fails.
func Start(ctx context.Context, o Options) (*Proc, error) {
	port, err := pgcluster.FreePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.Bin)
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+o.DatabaseURL,
		"MEMORY_ADDR=127.0.0.1:"+strconv.Itoa(port),
		"MEMORY_USER_TOKEN="+o.UserToken,
		"MEMORY_WORKER_TOKEN="+o.WorkerToken,
		"MEMORY_TOMBSTONE_KEY="+o.TombstoneKey,
		"MEMORY_LOG_LEVEL=warn",
	)
	cmd.Env = append(cmd.Env, o.Env...)
	p := &Proc{URL: "http://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, logs: &bytes.Buffer{}, httpc: o.HTTP}
	if p.httpc == nil {
		p.httpc = &http.Client{Timeout: time.Minute}
	}
	if o.Debug {
		debugPort, err := pgcluster.FreePort()
		if err != nil {
			return nil, err
		}
		cmd.Env = append(cmd.Env, "MEMORY_DEBUG_ADDR=127.0.0.1:"+strconv.Itoa(debugPort))
		p.DebugURL = "http://127.0.0.1:" + strconv.Itoa(debugPort)
	}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(readyTimeout)
	for {
		res, err := http.Get(p.URL + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			p.Stop()
			return nil, fmt.Errorf("the API did not become ready: %s", p.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Pid is the process's id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Stop interrupts the process and waits for it to exit, killing it after ten seconds. A nil Proc
// does nothing.
func (p *Proc) Stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(stopTimeout):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// Error is a GraphQL answer's first error, with its extensions.
type Error struct {
	// Code is extensions.code.
	Code    string
	Message string
	// CurrentRevision is a CONFLICT's extensions.currentRevision.
	CurrentRevision int
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Do posts one GraphQL operation to /graphql with token as the bearer and decodes data into out
// (when not nil). An answer with errors returns the first as an *Error; a body that is not a
// GraphQL answer returns its HTTP status and text.
func (p *Proc) Do(ctx context.Context, token, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := p.httpc.Do(req)
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
			Message    string `json:"message"`
			Extensions struct {
				Code            string `json:"code"`
				CurrentRevision int    `json:"currentRevision"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("HTTP %d: %s", res.StatusCode, raw)
	}
	if len(r.Errors) > 0 {
		e := r.Errors[0]
		return &Error{Code: e.Extensions.Code, Message: e.Message, CurrentRevision: e.Extensions.CurrentRevision}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(r.Data, out)
}

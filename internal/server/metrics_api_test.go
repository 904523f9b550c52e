package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/ai/aifake"
	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/dbtest"
)

// The memory texts of the metrics session: distinctive, so that a label holding one (or a piece of
// one) is found.
const (
	metricsLockerText = "my locker code is Xq7-walrus-3310"
	metricsMessage    = "Please remember that " + metricsLockerText + "."
	metricsGuessText  = "the user secretly adores zebra-pineapple sandwiches"
	metricsUserText   = "Quokka-lighthouse 8812 is the wifi password"
	metricsQuery      = "what is my locker code"
)

// metricsSession is what a scripted session through the API did, and what it was answered.
type metricsSession struct {
	teammate, run, runToken, lockerItem, userItem string
	// reasons are the judge's reasons toolRemember answered, in call order.
	reasons []string
	// recalls is how many packets were recalled (startRun and recallPreview).
	recalls int
}

// runMetricsSession creates a teammate, a memory the user then forgets, starts a run whose message
// asks to remember a text, has the teammate remember it (confirmed) and a guess (a suggestion), calls
// an MCP tool, and previews recall twice.
func runMetricsSession(t *testing.T, s *apitest.API) metricsSession {
	t.Helper()
	var m metricsSession
	m.teammate = s.CreateTeammate(t, "Metrics Ada")
	var created struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	s.Must(t, userToken, createMemoryMutation, map[string]any{"tm": m.teammate, "content": metricsUserText}, &created)
	m.userItem = created.CreateMemory.Item.ID

	var started struct {
		StartRun struct {
			Run      struct{ ID string }
			RunToken string
		}
	}
	s.Must(t, workerToken, `mutation($tm: ID!, $m: String!) { startRun(input: {teammateId: $tm, message: $m}) { run { id } runToken } }`,
		map[string]any{"tm": m.teammate, "m": metricsMessage}, &started)
	m.run, m.runToken = started.StartRun.Run.ID, started.StartRun.RunToken
	m.recalls++

	remember := func(content, wantOutcome string) string {
		var res struct {
			ToolRemember struct {
				Outcome string
				Reason  *string
				Item    *struct{ ID string }
			}
		}
		s.Must(t, m.runToken, `mutation($c: String!) { toolRemember(input: {content: $c}) { outcome reason item { id } } }`,
			map[string]any{"c": content}, &res)
		require.Equal(t, wantOutcome, res.ToolRemember.Outcome)
		require.NotNil(t, res.ToolRemember.Reason, "the judge decided")
		m.reasons = append(m.reasons, *res.ToolRemember.Reason)
		if res.ToolRemember.Item != nil && wantOutcome == "SAVED" {
			m.lockerItem = res.ToolRemember.Item.ID
		}
		return *res.ToolRemember.Reason
	}
	require.Equal(t, "asked", remember(metricsLockerText, "SAVED"))
	require.NotEqual(t, "asked", remember(metricsGuessText, "SUGGESTED"))

	// One MCP call, by bare JSON-RPC (the server is stateless).
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_memory","arguments":{"query":%q}}}`, "walrus")
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/mcp", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+m.runToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	res, err := s.HTTP.Do(req)
	require.NoError(t, err)
	answer, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, string(answer))
	require.Contains(t, string(answer), m.lockerItem, "search_memory found the saved memory")

	for range 2 {
		var preview struct {
			RecallPreview struct {
				Entries []struct{ Item struct{ ID string } }
			}
		}
		s.Must(t, userToken, `query($tm: ID!, $q: String!) { recallPreview(teammateId: $tm, query: $q) { entries { item { id } } } }`,
			map[string]any{"tm": m.teammate, "q": metricsQuery}, &preview)
		require.NotEmpty(t, preview.RecallPreview.Entries)
		m.recalls++
	}

	var forgot struct {
		ForgetMemory struct{ Item struct{ Status string } }
	}
	s.Must(t, userToken, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { status } } }`,
		map[string]any{"id": m.userItem}, &forgot)
	require.Equal(t, "FORGOTTEN", forgot.ForgetMemory.Item.Status)
	return m
}

// onesEmbeddings answers every embeddings request with vectors of ones (a usable direction, so
// that recall's query embedding counts as an ordinary successful request).
func onesEmbeddings(dims int) aifake.Respond {
	return func(w http.ResponseWriter, _ *http.Request, body map[string]any) {
		inputs, _ := body["input"].([]any)
		data := []map[string]any{}
		for i := range inputs {
			v := make([]float32, dims)
			for d := range v {
				v[d] = 1
			}
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": body["model"]})
	}
}

// startMetricsAPI serves an API with embeddings configured but no job runner (the embed jobs its
// writes enqueue stay pending, for the queue's gauges), and its metrics at /metrics on a loopback
// listener of their own, as cmd/api serves them on MEMORY_METRICS_ADDR. It returns the API and the
// metrics' base URL.
func startMetricsAPI(t *testing.T) (*apitest.API, string) {
	t.Helper()
	fake := aifake.New(t, onesEmbeddings(4))
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) {
		o.AI = config.AI{EmbeddingURL: fake.URL + "/v1", EmbeddingModel: "fake-4", EmbeddingDimensions: 4,
			DailyRequestLimit: 100, SemanticMaxDistance: 0.9, JobsInAPI: false}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.App.Metrics().Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s, "http://" + ln.Addr().String()
}

// TestMetricsWithPrometheus: a real Prometheus (Debian's, unpacked by scripts/bootstrap-prometheus.sh)
// scrapes the API every second during a scripted session; its query API then holds what the
// session did: the recalls, the judge's decisions under the reasons the API answered, the embed
// jobs still queued, the AI requests and the budget left.
func TestMetricsWithPrometheus(t *testing.T) {
	t.Parallel()
	bin := prometheusBinary(t)
	s, metricsURL := startMetricsAPI(t)
	prom := startPrometheus(t, bin, strings.TrimPrefix(metricsURL, "http://"))

	m := runMetricsSession(t, s)

	// Each is a PromQL query and the value the session implies.
	want := []struct {
		query string
		value float64
	}{
		// startRun and two previews; nothing else recalls.
		{`sum(memory_recall_duration_seconds_count)`, float64(m.recalls)},
		{`sum(memory_recall_duration_seconds_count{caller="preview"})`, 2},
		// The judge's decisions, under the reasons toolRemember answered.
		{fmt.Sprintf(`sum(memory_judge_decisions_total{write="save",reason=%q})`, m.reasons[0]), 1},
		{fmt.Sprintf(`sum(memory_judge_decisions_total{write="save",reason=%q})`, m.reasons[1]), 1},
		{`sum(memory_judge_decisions_total)`, 2},
		// Two active memories were written, each with its embed job; the forget cancelled one (F2).
		{`sum(memory_jobs_queued{kind="embed",status="pending"})`, 1},
		// The three recalls embedded their request; nothing else reached the endpoint.
		{`sum(memory_ai_requests_total{kind="embeddings",outcome="ok"})`, 3},
		{`memory_ai_budget_remaining_requests`, 97},
		{`sum(memory_mcp_tool_calls_total{tool="search_memory",code="OK"})`, 1},
		{`sum(memory_graphql_request_duration_seconds_count{operation="toolRemember",code="OK"})`, 2},
	}
	for _, w := range want {
		var (
			got float64
			err error
		)
		// Prometheus scrapes once a second: the value is there after a scrape or two.
		apitest.WaitUntil(30*time.Second, func() bool {
			got, err = prom.query(t, w.query)
			return err == nil && got == w.value
		})
		require.NoError(t, err, w.query)
		require.Equal(t, w.value, got, "%s (judge reasons answered: %v)", w.query, m.reasons)
		t.Logf("%s = %v", w.query, got)
	}
	// The oldest queued job is as old as the session at most: a real age, not a timestamp.
	age, err := prom.query(t, `max(memory_jobs_oldest_age_seconds{kind="embed"})`)
	require.NoError(t, err)
	require.Greater(t, age, 0.0)
	require.Less(t, age, 120.0)
	t.Logf("oldest embed job age: %.2fs", age)
}

// TestMetricsLabelsCarryNoTextOrIDs: after a session with distinctive memory texts, no label of
// /metrics holds a memory text (or a word of one), the user's message, a token, or anything shaped
// like a uuid — and every label name and value is from the fixed sets.
func TestMetricsLabelsCarryNoTextOrIDs(t *testing.T) {
	t.Parallel()
	s, metricsURL := startMetricsAPI(t)
	m := runMetricsSession(t, s)
	// A client that makes up names and codes: an unknown field, a made-up operation name with memory
	// text in it, and an operation name that isn't there.
	s.Do(t, userToken, `query WalrusXq7Locker { teammates { id } }`, nil)
	s.Do(t, userToken, `query { zebraPineapple }`, nil)
	s.DoWith(t, apitest.Bearer(userToken), `query `+strings.ReplaceAll(metricsGuessText, " ", "_")+` { teammates { id } }`, nil)

	// A live subscription: the websocket gauges count it, and the event a change sends it is
	// counted as delivered.
	ctx, cancel := context.WithTimeout(t.Context(), apitest.Wait)
	defer cancel()
	ws, err := apitest.ConnectWS(ctx, s.URL, userToken)
	require.NoError(t, err)
	defer ws.Close()
	require.NoError(t, ws.Subscribe("1", generationSubscription, map[string]any{"id": m.teammate}))
	require.True(t, apitest.WaitUntil(apitest.Wait, func() bool {
		return sample(scrape(t, metricsURL), "memory_event_subscribers") == 1
	}), "the subscription reached the broker")
	createMemory(t, s, m.teammate, "Another memory about the quokka-lighthouse")
	var change generationChange
	ws.Next(t, "1", &change)
	// The broker counts a delivery once the event is in the subscriber's queue, which may be just
	// after the subscriber has passed it on.
	require.True(t, apitest.WaitUntil(apitest.Wait, func() bool {
		return sample(scrape(t, metricsURL), "memory_events_delivered_total") >= 1
	}), "the delivery is counted")
	text := scrape(t, metricsURL)
	require.Equal(t, 1.0, sample(text, "memory_websocket_connections"))
	require.Equal(t, 1.0, sample(text, "memory_websocket_subscriptions"))
	require.GreaterOrEqual(t, sample(text, "memory_events_delivered_total"), 1.0)
	require.Zero(t, sample(text, "memory_events_dropped_total"))
	require.Contains(t, text, "memory_judge_decisions_total", "the session's metrics are there")
	require.Contains(t, text, `operation="toolRemember"`)

	forbidden := []string{m.teammate, m.run, m.runToken, m.lockerItem, m.userItem, userToken, workerToken,
		apitest.TombstoneKey, metricsMessage, metricsQuery}
	for _, txt := range []string{metricsLockerText, metricsGuessText, metricsUserText} {
		forbidden = append(forbidden, strings.Fields(txt)...)
	}
	uuid := regexp.MustCompile(`[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}`)
	label := regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)
	// Words that may appear in a label value because the service itself names them so.
	common := map[string]bool{"is": true, "my": true, "the": true, "code": true, "user": true}
	values := 0
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, kv := range label.FindAllStringSubmatch(line, -1) {
			name, value := kv[1], kv[2]
			values++
			require.False(t, uuid.MatchString(value), "label %s=%q looks like an id: %s", name, value, line)
			for _, f := range forbidden {
				if common[strings.ToLower(f)] {
					continue
				}
				require.NotContains(t, strings.ToLower(value), strings.ToLower(f), "label %s of %s", name, line)
			}
			require.Regexp(t, `^[A-Za-z0-9_.+]{1,40}$`, value, "label %s of %s is no short identifier", name, line)
			require.NotEqual(t, "WalrusXq7Locker", value)
		}
	}
	require.Greater(t, values, 20, "labels were checked")
	require.Contains(t, text, `operation="other"`, "the made-up operations are counted as other")
}

// scrape is the text of metricsURL's /metrics.
func scrape(t *testing.T, metricsURL string) string {
	t.Helper()
	res, err := http.Get(metricsURL + "/metrics")
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	return string(body)
}

// sample is the value of the series (name and labels, as exposed) in a scrape's text, or -1.
func sample(text, series string) float64 {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f
			}
		}
	}
	return -1
}

// prometheusBinary is the prometheus binary: MEMORY_PROMETHEUS_BIN, or the one
// scripts/bootstrap-prometheus.sh unpacks into .tools/, or one on PATH. When there is none the test
// is skipped, unless MEMORY_REQUIRE_PROMETHEUS is set (make test sets it, so CI can't skip).
func prometheusBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("MEMORY_PROMETHEUS_BIN"); bin != "" {
		return bin
	}
	if root, err := repoRoot(); err == nil {
		if bin := filepath.Join(root, ".tools", "bin", "prometheus"); isExecutable(bin) {
			return bin
		}
	}
	if bin, err := exec.LookPath("prometheus"); err == nil {
		return bin
	}
	if os.Getenv("MEMORY_REQUIRE_PROMETHEUS") != "" {
		t.Fatal("no prometheus binary, and MEMORY_REQUIRE_PROMETHEUS is set: run scripts/bootstrap-prometheus.sh (make test does)")
	}
	t.Skip("no prometheus binary (scripts/bootstrap-prometheus.sh unpacks Debian's); set MEMORY_REQUIRE_PROMETHEUS to fail instead")
	return ""
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

// repoRoot is the directory of go.mod above the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// prometheus is a running Prometheus server.
type prometheus struct{ url string }

// startPrometheus runs bin on a free loopback port with its own storage, scraping target's /metrics
// every second, until the test ends; it returns once Prometheus is ready.
func startPrometheus(t *testing.T, bin, target string) prometheus {
	t.Helper()
	dir := t.TempDir()
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: memory\n    static_configs:\n      - targets: ['%s']\n", target)
	cfgFile := filepath.Join(dir, "prometheus.yml")
	require.NoError(t, os.WriteFile(cfgFile, []byte(cfg), 0o600))
	addr := freeLoopbackAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--config.file="+cfgFile, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	cmd.WaitDelay = 10 * time.Second
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus output:\n%s", logs.String())
		}
	})
	p := prometheus{url: "http://" + addr}
	ready := apitest.WaitUntil(30*time.Second, func() bool {
		res, err := http.Get(p.url + "/-/ready")
		if err != nil {
			return false
		}
		_ = res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	require.True(t, ready, "prometheus did not become ready")
	return p
}

// query evaluates a PromQL expression that yields one sample (a sum, a single series) now.
func (p prometheus) query(t *testing.T, expr string) (float64, error) {
	t.Helper()
	res, err := http.Get(p.url + "/api/v1/query?query=" + url.QueryEscape(expr))
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	var out struct {
		Status string
		Error  string
		Data   struct {
			Result []struct {
				Value [2]any
			}
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return 0, err
	}
	if out.Status != "success" {
		return 0, errors.New(out.Error)
	}
	if len(out.Data.Result) != 1 {
		return 0, fmt.Errorf("%d samples", len(out.Data.Result))
	}
	v, _ := out.Data.Result[0].Value[1].(string)
	return strconv.ParseFloat(v, 64)
}

// freeLoopbackAddr is a loopback address with a port free a moment ago.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

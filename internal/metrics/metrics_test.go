package metrics_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/metrics"
)

// A nil *Metrics is what a package gets when nobody measures it: every method does nothing.
func TestNilRecordsNothing(t *testing.T) {
	t.Parallel()
	var m *metrics.Metrics
	m.HTTPRequest("graphql", 200, time.Second)
	m.GraphQLRequest("teammates", "", time.Second)
	m.Recall("preview", time.Second, 1, 2)
	m.MCPToolCall("remember", "")
	m.JudgeDecision("save", "asked")
	m.EventDelivered()
	m.EventDropped()
	m.JobAttempt("embed", true, true)
	m.AIRequest("embeddings", "ok")
	m.PurgeCompleted(time.Second, nil)
	m.BackupCompleted(1, time.Second, nil)
	m.WatchPool("request", func() metrics.PoolStat { return metrics.PoolStat{} })
	m.WatchWebsockets(func() (int, int) { return 0, 0 })
	m.WatchBroker(func() int { return 0 })
	m.WatchJobQueue(nil)
	m.WatchAIBudget(nil)
}

// Label values outside their fixed sets are counted as "other" (or OTHER for codes): whatever a
// caller passes, no label holds text.
func TestLabelsStayInTheirSets(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	m.GraphQLRequest("my locker code is 3310", "not a code", time.Millisecond)
	m.GraphQLRequest("teammates", "BAD_USER_INPUT", time.Millisecond)
	m.MCPToolCall("Remember This Please", "")
	m.JudgeDecision("save", "the user said so")
	m.JudgeDecision("delete everything", "asked")
	m.Recall("0b7c1b1e-2f6a-4c0e-9d2a-3f1e2d3c4b5a", time.Millisecond, 2, 100)
	m.JobAttempt("embed; drop table", true, false)
	m.AIRequest("chat_completions", "HTTP 500 from https://x")
	m.HTTPRequest("graphql", 999, time.Millisecond)

	text := gather(t, m)
	require.Contains(t, text, `memory_judge_decisions_total{reason="other",write="save"} 1`)
	require.Contains(t, text, `memory_judge_decisions_total{reason="asked",write="other"} 1`)
	require.Contains(t, text, `memory_mcp_tool_calls_total{code="OK",tool="other"} 1`)
	require.Contains(t, text, `memory_job_failures_total{final="false",kind="other"} 1`)
	require.Contains(t, text, `memory_ai_requests_total{kind="chat_completions",outcome="other"} 1`)
	count, err := testutil.GatherAndCount(m.Registry(), "memory_graphql_request_duration_seconds")
	require.NoError(t, err)
	require.Equal(t, 2, count, "two series: other/OTHER and teammates/BAD_USER_INPUT")
	require.Contains(t, text, "memory_graphql_request_duration_seconds_count")

	families, err := m.Registry().Gather()
	require.NoError(t, err)
	allowed := regexp.MustCompile(`^[A-Za-z0-9_.+]{1,40}$`)
	for _, f := range families {
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				require.Regexp(t, allowed, l.GetValue(), "%s{%s}", f.GetName(), l.GetName())
				require.NotContains(t, l.GetValue(), "3310")
				require.NotContains(t, l.GetValue(), "0b7c1b1e")
			}
		}
	}
}

// BackupCompleted: a success sets the last success's time and size; a failure leaves them.
func TestBackupCompleted(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	before := float64(time.Now().Unix())
	m.BackupCompleted(4096, 2*time.Second, nil)
	m.BackupCompleted(1, time.Second, errors.New("disk full"))
	text := gather(t, m)
	require.Contains(t, text, `memory_backups_total{outcome="success"} 1`)
	require.Contains(t, text, `memory_backups_total{outcome="failure"} 1`)
	require.Contains(t, text, "memory_backup_last_size_bytes 4096")
	require.Contains(t, text, "memory_backup_duration_seconds_count 2")
	last := regexp.MustCompile(`memory_backup_last_success_timestamp_seconds (\S+)`).FindStringSubmatch(text)
	require.NotNil(t, last)
	var at float64
	require.NoError(t, json.Unmarshal([]byte(last[1]), &at))
	require.GreaterOrEqual(t, at, before)
}

// The database reads of a scrape are bounded by ScrapeTimeout, and one that fails is counted and
// left out rather than failing the scrape.
func TestScrapeReads(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	m.WatchJobQueue(func(ctx context.Context) ([]metrics.QueueDepth, error) {
		deadline, ok := ctx.Deadline()
		require.True(t, ok)
		require.LessOrEqual(t, time.Until(deadline), metrics.ScrapeTimeout)
		return []metrics.QueueDepth{{Kind: "embed", Status: "pending", Jobs: 3, OldestAge: 90 * time.Second}}, nil
	})
	m.WatchAIBudget(func(context.Context) (int, int, error) { return 0, 0, errors.New("database away") })
	m.WatchWebsockets(func() (int, int) { return 2, 5 })
	text := gather(t, m)
	require.Contains(t, text, `memory_jobs_queued{kind="embed",status="pending"} 3`)
	require.Contains(t, text, `memory_jobs_oldest_age_seconds{kind="embed",status="pending"} 90`)
	require.Contains(t, text, "memory_websocket_connections 2")
	require.Contains(t, text, "memory_websocket_subscriptions 5")
	require.Contains(t, text, `memory_metrics_scrape_errors_total{source="ai_budget"} 1`)
	require.NotContains(t, text, "memory_ai_budget_remaining_requests ")
}

// gather is the registry in the text exposition format.
func gather(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	families, err := m.Registry().Gather()
	require.NoError(t, err)
	var b strings.Builder
	for _, f := range families {
		for _, s := range f.GetMetric() {
			labels := []string{}
			for _, l := range s.GetLabel() {
				labels = append(labels, l.GetName()+`="`+l.GetValue()+`"`)
			}
			name := f.GetName()
			if len(labels) > 0 {
				name += "{" + strings.Join(labels, ",") + "}"
			}
			switch {
			case s.GetCounter() != nil:
				b.WriteString(name + " " + formatFloat(s.GetCounter().GetValue()) + "\n")
			case s.GetGauge() != nil:
				b.WriteString(name + " " + formatFloat(s.GetGauge().GetValue()) + "\n")
			case s.GetHistogram() != nil:
				b.WriteString(f.GetName() + "_count " + formatFloat(float64(s.GetHistogram().GetSampleCount())) + "\n")
			}
		}
	}
	return b.String()
}

func formatFloat(v float64) string {
	out, _ := json.Marshal(v)
	return string(out)
}

// The Grafana dashboard in docs/ is valid JSON, every metric its queries name exists, and every
// metric of the service has a panel.
func TestDashboard(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../docs/grafana-dashboard.json")
	require.NoError(t, err)
	var dashboard struct {
		Title  string
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	require.NoError(t, json.Unmarshal(raw, &dashboard))
	require.NotEmpty(t, dashboard.Title)

	m := metrics.New()
	known := map[string]bool{}
	for _, n := range m.Names() {
		known[n] = true
	}
	families, err := m.Registry().Gather()
	require.NoError(t, err)
	for _, f := range families {
		known[f.GetName()] = true
	}
	name := regexp.MustCompile(`\b(?:memory|go|process)_[a-z0-9_]+`)
	used := map[string]bool{}
	for _, p := range dashboard.Panels {
		for _, target := range p.Targets {
			require.NotEmpty(t, target.Expr, "panel %q", p.Title)
			for _, n := range name.FindAllString(target.Expr, -1) {
				base := n
				for _, suffix := range []string{"_bucket", "_sum", "_count"} {
					if trimmed, ok := strings.CutSuffix(n, suffix); ok && known[trimmed] {
						base = trimmed
					}
				}
				require.True(t, known[base], "panel %q names %s, which the registry doesn't have", p.Title, n)
				used[base] = true
			}
		}
	}
	for _, n := range m.Names() {
		require.True(t, used[n], "no panel shows %s", n)
	}
	require.True(t, slices.Contains(m.Names(), "memory_judge_decisions_total"))
}

package memory

import (
	"sync"
	"time"
	"unicode/utf8"

	"github.com/open-bot/memory/internal/memory/intent"
	"github.com/open-bot/memory/internal/metrics"
)

// WithMetrics records the domain's measurements in m: the judge's decisions on teammates' writes
// and the recalls (their time, and the size of their packets). Nothing else of the domain is
// measured here; no label carries memory text or an id.
func WithMetrics(m *metrics.Metrics) Option { return func(s *Service) { s.metrics = m } }

// judgeReasons are the reasons the judge gives; any other is counted as metrics.Other.
var judgeReasons = sync.OnceValue(func() map[intent.Reason]bool {
	known := map[intent.Reason]bool{}
	for _, r := range intent.Reasons() {
		known[r] = true
	}
	return known
})

// countJudged counts the judge's decision d on a write of kind write ("save", "update", "forget")
// once the write's transaction has committed (err nil): a transaction retried after a deadlock
// judges again, and is counted once. A zero d (the write was answered before the judge was asked:
// a duplicate, an idempotent replay) is not counted.
func (s *Service) countJudged(write string, d intent.Decision, err error) {
	if err != nil || d.Reason == "" {
		return
	}
	reason := string(d.Reason)
	if !judgeReasons()[d.Reason] {
		reason = metrics.Other
	}
	s.metrics.JudgeDecision(write, reason)
}

// countRecall counts one packet recalled for caller ("start_run", "preview") in d.
func (s *Service) countRecall(caller string, d time.Duration, p Packet) {
	s.metrics.Recall(caller, d, len(p.Entries), utf8.RuneCountInString(p.Text))
}

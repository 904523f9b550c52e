package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chromedp/chromedp"
)

// axe-core (a devDependency of the web app) checks each screen against the WCAG 2.0, 2.1 A and AA
// rules and its best practices. The suite reads axe.min.js from frontend/node_modules when a test
// first needs it and injects it into the page: nothing is downloaded at test time.

// axeScriptPath is axe-core's browser build, installed by `npm ci` in frontend/ (make test does it).
var axeScriptPath = filepath.Join("..", "frontend", "node_modules", "axe-core", "axe.min.js")

var axeScript = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile(axeScriptPath)
	if err != nil {
		return "", fmt.Errorf("axe-core is missing (%w): install the web app's dependencies with `cd frontend && npm ci` (make test does it)", err)
	}
	return string(b), nil
})

// axeTags are the rule sets axe runs: WCAG 2.0 and 2.1 at levels A and AA, and axe's best practices.
const axeTags = `['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']`

// axeViolation is one rule a screen breaks, with the elements that break it.
type axeViolation struct {
	ID      string `json:"id"`
	Impact  string `json:"impact"`
	Help    string `json:"help"`
	Targets []struct {
		Target  []any  `json:"target"`
		Summary string `json:"summary"`
	} `json:"nodes"`
}

// axeRun returns the serious and critical violations axe finds on the page as shown now. options is
// the JavaScript object of axe.run's options.
func (p *page) axeRun(options string) []axeViolation {
	p.t.Helper()
	script, err := axeScript()
	if err != nil {
		p.t.Fatal(err)
	}
	if !eval[bool](p, `typeof window.axe === 'object'`) {
		p.do("inject axe-core", chromedp.Evaluate[chromedp.Void](script))
	}
	ctx, cancel := context.WithTimeout(p.ctx, 2*stepTimeout)
	defer cancel()
	expr := `axe.run(document, ` + options + `).then((r) => r.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary || '' })) })))`
	violations, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("running axe-core: %v", err)
	}
	return violations
}

// assertAxe fails the test for every serious or critical violation axe-core finds on the screen as
// shown now: every rule in the light scheme, and the contrast rule again in the dark scheme.
func (p *page) assertAxe(screen string) {
	p.t.Helper()
	p.emulateColorScheme("light")
	p.reportAxe(screen+", light scheme", p.axeRun(`{ runOnly: { type: 'tag', values: `+axeTags+` }, resultTypes: ['violations'] }`))
	p.emulateColorScheme("dark")
	p.reportAxe(screen+", dark scheme", p.axeRun(`{ runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'] }`))
	p.emulateColorScheme("")
}

func (p *page) reportAxe(screen string, violations []axeViolation) {
	p.t.Helper()
	for _, v := range violations {
		var where []string
		for _, n := range v.Targets {
			sel := make([]string, len(n.Target))
			for i, s := range n.Target {
				sel[i] = fmt.Sprint(s)
			}
			where = append(where, strings.Join(sel, " → ")+": "+strings.ReplaceAll(strings.TrimSpace(n.Summary), "\n", " "))
		}
		p.t.Errorf("%s at %s: axe %s (%s): %s\n  %s", screen, p.vp.name, v.ID, v.Impact, v.Help, strings.Join(where, "\n  "))
	}
}

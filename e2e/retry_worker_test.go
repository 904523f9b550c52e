package e2e

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

var (
	workerBuild    sync.Once
	workerBin      string
	workerBuildErr error
)

// referenceWorker builds ./cmd/worker once for the suite.
func referenceWorker(t *testing.T) string {
	t.Helper()
	workerBuild.Do(func() {
		workerBin = filepath.Join(workDir, "worker")
		cmd := exec.Command("go", "build", "-o", workerBin, "./cmd/worker")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			workerBuildErr = err
			t.Logf("go build ./cmd/worker:\n%s", out)
		}
	})
	if workerBuildErr != nil {
		t.Fatalf("build the reference worker: %v", workerBuildErr)
	}
	return workerBin
}

var playedRun = regexp.MustCompile(`run ([0-9a-f-]{36}) in thread`)

// L3 with the reference worker: "Try again with this" in the web app, memory changes meanwhile (so
// the retry runs in a fresh thread), and `worker play -retry` picks the retry up with the original
// request and completes it. The page shows the new reply in place of the waiting retry, with the
// user's note as the user's words.
func TestTryAgainCompletesWithTheReferenceWorker(t *testing.T) {
	bin := referenceWorker(t)
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		teammate := mustTeammate(t, ctx)
		const request = "Draft a reply to the landlord about the heating"
		letter := startRun(t, ctx, teammate, request)
		letter.complete(t, ctx, "Hey, the heating is broken again, fix it pls")

		path := "/teammates/" + teammate + "/conversations"
		p := openPage(t, vp, path)
		p.waitVisible(runSel(letter.ID, tid("run-reply")))
		const note = "Make it polite and formal"
		p.click(runSel(letter.ID, tid("run-thumbs-down")))
		p.fill(runSel(letter.ID, tid("feedback-note")), note)
		p.click(runSel(letter.ID, tid("feedback-retry")))
		p.waitText(tid("retry-pending", " ", tid("retry-pending-note")), note)

		// Memory changes before the worker gets to it: the retry starts a fresh thread.
		if err := user.do(ctx, `mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, content: "The landlord is Ms Smith"}) { item { id } } }`,
			map[string]any{"t": teammate}, nil); err != nil {
			t.Fatal(err)
		}

		const politer = "Dear Ms Smith, the heating has failed again; could you arrange a repair this week?"
		cmd := exec.CommandContext(ctx, bin, "play", "-teammate", teammate, "-retry")
		cmd.Env = append(cmd.Environ(), "MEMORY_API_URL="+srv.base, "MEMORY_WORKER_TOKEN="+srv.workerToken)
		cmd.Stdin = strings.NewReader("search landlord\ncomplete " + politer + "\n")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("worker play -retry: %v\n%s", err, out)
		}
		for _, want := range []string{"(fresh: true)", "original request: " + request, "the user's note: " + note, "run completed"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("worker play -retry printed no %q:\n%s", want, out)
			}
		}
		m := playedRun.FindStringSubmatch(string(out))
		if m == nil {
			t.Fatalf("no run in the worker's output:\n%s", out)
		}
		redo := m[1]

		p.waitText(runSel(redo, tid("run-reply")), politer)
		p.waitGone(tid("retry-pending"))
		p.waitText(runSel(redo, tid("run-user-message")), note)
		p.waitVisible(runSel(redo, tid("run-retry")))
		p.waitVisible(runSel(redo, tid("run-retry-of")))
		p.waitVisible(runSel(redo, tid("run-new-thread")))
		p.assertNoHorizontalScroll()
		p.shot("retry-completed-by-worker")
	})
}

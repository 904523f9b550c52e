package intent

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusCase is one labelled message of the corpus (testdata/corpus.jsonl, written by earlier
// sessions with the judge's code at hand, and testdata/blind/*.jsonl, written blind from rules
// A1–A8 alone).
type corpusCase struct {
	// Class is the kind of case ("takeback", "paste", "pos-save" …); File is where it came from.
	Class string `json:"class"`
	File  string `json:"-"`
	Line  int    `json:"-"`
	// Genuine is the writer's label: a careful reader would say the user asked for exactly this.
	Genuine bool `json:"genuine"`
	// Want and Reason are what the judge must answer. A line the writer labelled not genuine
	// must want "suggested".
	Want          string `json:"want"`
	Reason        Reason `json:"reason"`
	Kind          string `json:"kind"`
	Msg           string `json:"msg"`
	Content       string `json:"content"`
	Key           string `json:"key"`
	Shared        bool   `json:"shared"`
	TargetKey     string `json:"target_key"`
	TargetContent string `json:"target_content"`
	TargetPinned  bool   `json:"target_pinned"`
	TargetKind    string `json:"target_kind"`
	Note          string `json:"note"`
	// SpecWait names the rule that makes a line its writer labelled genuine wait all the same,
	// and how: a question (A1 a), no save verb of the rules' list (A1 a), a clause after the text
	// (A1 b), a hedge or condition in another sentence (A1 c), an audience that doesn't name every
	// teammate (A3). Such a line is no clearly worded request; it counts in every figure but the
	// positive classes' "clearly worded" one, and must wait.
	SpecWait string `json:"spec_wait,omitempty"`
}

func (c corpusCase) write() Write {
	kinds := map[string]Kind{"save": Save, "update": Update, "forget": Forget}
	return Write{Kind: kinds[c.Kind], Content: c.Content, Key: c.Key, Shared: c.Shared,
		Target: Item{Key: c.TargetKey, Content: c.TargetContent, Pinned: c.TargetPinned, Lesson: c.TargetKind == "lesson"}}
}

func (c corpusCase) String() string {
	return fmt.Sprintf("%s:%d [%s %s] %q content=%q key=%q target=%q/%q", c.File, c.Line, c.Class, c.Kind, c.Msg,
		c.Content, c.Key, c.TargetKey, c.TargetContent)
}

func loadCorpus(t testing.TB) []corpusCase {
	files, err := filepath.Glob("testdata/blind/*.jsonl")
	require.NoError(t, err)
	files = append(files, "testdata/corpus.jsonl")
	var out []corpusCase
	for _, path := range files {
		f, err := os.Open(path)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			var c corpusCase
			require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "%s:%d", path, n)
			c.File, c.Line = filepath.Base(path), n
			require.Contains(t, []string{"confirmed", "suggested"}, c.Want, "%s:%d", path, n)
			require.Contains(t, []string{"save", "update", "forget"}, c.Kind, "%s:%d", path, n)
			require.NotEmpty(t, c.Class, "%s:%d", path, n)
			require.False(t, !c.Genuine && c.Want == "confirmed", "%s:%d: a line that isn't genuine can't want a confirmation", path, n)
			out = append(out, c)
		}
		require.NoError(t, sc.Err())
		require.NoError(t, f.Close())
	}
	return out
}

// TestCorpus runs the whole labelled corpus (A1–A8). Every line's verdict and reason are asserted:
// a confirmation of a line that isn't genuine is a false confirm, and a genuine line that the judge
// should confirm and doesn't fails just the same (no silent rate floor). The per-class figures
// are logged for docs/JUDGE.md; the blind-written genuine lines must be confirmed at least 85.5% of
// the time, the positive classes 88.5% and the clearly worded ones 90% (the floors may only rise).
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	require.GreaterOrEqual(t, len(cases), 1500)
	type figures struct{ lines, genuine, confirmed, falseConfirms int }
	perClass := map[string]*figures{}
	var blindGenuine, blindConfirmed, blind, positives, positivesConfirmed, clear, clearConfirmed int
	for _, c := range cases {
		d := Judge(c.Msg, c.write())
		require.Contains(t, Reasons(), d.Reason)
		key := c.File + " " + c.Class
		if perClass[key] == nil {
			perClass[key] = &figures{}
		}
		fg := perClass[key]
		fg.lines++
		if c.Genuine {
			fg.genuine++
		}
		if d.Verdict == Confirmed {
			fg.confirmed++
			if !c.Genuine {
				fg.falseConfirms++
				t.Errorf("false confirm (%s): %s — %s", d.Reason, c, c.Note)
				continue
			}
		}
		if c.Genuine && (strings.HasPrefix(c.Class, "pos-") || c.Class == "positive") {
			positives++
			if d.Verdict == Confirmed {
				positivesConfirmed++
			}
			if c.SpecWait == "" {
				clear++
				if d.Verdict == Confirmed {
					clearConfirmed++
				}
			}
		}
		if c.SpecWait != "" {
			assert.Equal(t, "suggested", c.Want, "%s: a line the rules make wait (%s) must want suggested", c, c.SpecWait)
		}
		if c.File != "corpus.jsonl" && !strings.HasSuffix(c.File, "-self.jsonl") {
			blind++
			if c.Genuine {
				blindGenuine++
				if d.Verdict == Confirmed {
					blindConfirmed++
				}
			}
		}
		if d.Verdict.String() != c.Want || d.Reason != c.Reason {
			t.Errorf("%s: got %s (%s), want %s (%s); trace %+v", c, d.Verdict, d.Reason, c.Want, c.Reason, d.Trace)
		}
	}
	keys := make([]string, 0, len(perClass))
	for k := range perClass {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fg := perClass[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", strings.Replace(k, " ", " | ", 1), fg.lines, fg.genuine, fg.confirmed, fg.falseConfirms)
	}
	t.Logf("corpus: %d lines (%d blind); per file and class — lines, genuine, confirmed, false confirms:\n%s", len(cases), blind, b.String())
	rate := float64(blindConfirmed) / float64(blindGenuine)
	t.Logf("blind genuine lines confirmed: %d of %d (%.1f%%)", blindConfirmed, blindGenuine, 100*rate)
	t.Logf("of them, the positive classes (plain requests written to be confirmed): %d of %d (%.1f%%)",
		positivesConfirmed, positives, 100*float64(positivesConfirmed)/float64(positives))
	t.Logf("of those, the clearly worded ones (no rule makes them wait, see SpecWait): %d of %d (%.1f%%)",
		clearConfirmed, clear, 100*float64(clearConfirmed)/float64(clear))
	require.GreaterOrEqual(t, blind, 600)
	require.GreaterOrEqual(t, blindGenuine, 300)
	// The clearly worded positive lines must be confirmed at least 90% of the time (docs/JUDGE.md,
	// How it is measured). The floors sit at or under the corpus as it stands and may only rise.
	require.GreaterOrEqual(t, rate, 0.855, "blind genuine requests confirmed")
	require.GreaterOrEqual(t, float64(positivesConfirmed)/float64(positives), 0.885, "positive classes confirmed")
	require.GreaterOrEqual(t, float64(clearConfirmed)/float64(clear), 0.90, "clearly worded positive lines confirmed")
}

// TestCorpusCoversTheLexicon: every multi-word phrase of the request frames and every marker word
// appears in some corpus message, so a new entry comes with its labelled cases.
func TestCorpusCoversTheLexicon(t *testing.T) {
	var words [][]string
	for _, c := range loadCorpus(t) {
		for _, s := range read(c.Msg).sentences {
			words = append(words, s.words)
		}
	}
	covered := func(p phrase) bool {
		for _, ws := range words {
			for i := range ws {
				if hasPrefix(ws[i:], p) {
					return true
				}
			}
		}
		return false
	}
	missing := 0
	for name, ps := range map[string][]phrase{"takeBackPhrases": takeBackPhrases, "sarcasmPhrases": sarcasmPhrases,
		"leadIns": leadIns, "forgetFrames": forgetFrames, "newOnes": newOnes} {
		for _, p := range ps {
			if !covered(p) {
				missing++
				t.Logf("%s entry %q appears in no corpus message", name, strings.Join(p, " "))
			}
		}
	}
	assert.Zero(t, missing)
}

func TestSourceSentence(t *testing.T) {
	msg := "Can you book the usual table? By the way, I moved to Lyon last spring! Thanks."
	assert.Equal(t, "By the way, I moved to Lyon last spring", SourceSentence(msg, "Lives in Lyon"))
	assert.Equal(t, "Can you book the usual table", SourceSentence(msg, "Prefers the usual table"))
	assert.Empty(t, SourceSentence(msg, "Has a cat"))
	assert.Empty(t, SourceSentence("", "Has a cat"))
}

// TestJudgeIsBoundedOnRepetitiveMessages: a 32,000-character message that repeats the verb and the
// text thousands of times fails closed, and its reading grows linearly with the message: ten times
// the repetitions take well under fifty times as long (a reading quadratic in the repeats would take
// about a hundred). What is compared is the CPU time of the test's own thread per reading, the best
// of five measurements of each message taken in turns, each at least 50 ms long (the thread's time
// is not exact over less). Time on the clock also counts the waits for a CPU that a busy machine's
// other processes hold: on a loaded machine its ratio reached 37× with the race detector, where the
// CPU time's stays at 19–23× (10–15× without it).
func TestJudgeIsBoundedOnRepetitiveMessages(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	perReading := func(repeats int) time.Duration {
		msg := strings.Repeat("remember a ", repeats)
		start := threadCPU()
		n := 0
		for threadCPU()-start < 50*time.Millisecond {
			v := Judge(msg, Write{Kind: Save, Content: "a"})
			require.Equal(t, Suggested, v.Verdict, "%d repeats", repeats)
			n++
		}
		return (threadCPU() - start) / time.Duration(n)
	}
	short, long := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for range 5 {
		short = min(short, perReading(290))
		long = min(long, perReading(2900))
	}
	t.Logf("290 repeats: %v; 2,900 repeats: %v of CPU a reading (%.1f×)", short, long, float64(long)/float64(short))
	assert.Less(t, long, 50*short)
}

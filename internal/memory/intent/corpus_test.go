package intent

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusCase is one labelled message of testdata/corpus.jsonl.
type corpusCase struct {
	Want          string `json:"want"` // confirmed or suggested
	Kind          string `json:"kind"`
	Msg           string `json:"msg"`
	Content       string `json:"content"`
	Key           string `json:"key"`
	Shared        bool   `json:"shared"`
	TargetKey     string `json:"target_key"`
	TargetContent string `json:"target_content"`
	Note          string `json:"note"`
}

func (c corpusCase) write() Write {
	kinds := map[string]Kind{"save": Save, "update": Update, "forget": Forget}
	return Write{Kind: kinds[c.Kind], Content: c.Content, Key: c.Key, Shared: c.Shared,
		Target: Item{Key: c.TargetKey, Content: c.TargetContent}}
}

func loadCorpus(t testing.TB) []corpusCase {
	f, err := os.Open("testdata/corpus.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c corpusCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "line %d", len(out)+1)
		require.Contains(t, []string{"confirmed", "suggested"}, c.Want, "line %d", len(out)+1)
		require.Contains(t, []string{"save", "update", "forget"}, c.Kind, "line %d", len(out)+1)
		out = append(out, c)
	}
	require.NoError(t, sc.Err())
	return out
}

// TestCorpus runs the labelled corpus (A1–A5): no message labelled "suggested" may be confirmed
// (fail closed), and the share of "confirmed" messages that are confirmed is reported — a miss there
// only costs the user a click on a suggestion. The README quotes the figure.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	require.GreaterOrEqual(t, len(cases), 300)
	var positives, confirmed, negatives int
	for i, c := range cases {
		d := Judge(c.Msg, c.write())
		require.Contains(t, Reasons, d.Reason)
		switch c.Want {
		case "suggested":
			negatives++
			if d.Verdict != Suggested {
				t.Errorf("line %d: false confirm (%s) of %s %q in %q (%s)", i+1, d.Reason, c.Kind, c.Content, c.Msg, c.Note)
			}
		case "confirmed":
			positives++
			if d.Verdict == Confirmed {
				confirmed++
			} else {
				t.Logf("line %d: missed confirm of %s %q in %q: %s", i+1, c.Kind, c.Content, c.Msg, d.Reason)
			}
		}
	}
	rate := float64(confirmed) / float64(positives)
	t.Logf("corpus: %d messages; negative half %d, 0 false confirms allowed; positive half %d, %d confirmed (%.1f%%)",
		len(cases), negatives, positives, confirmed, 100*rate)
	// The positive rate may only fall with a deliberate change of this floor.
	require.GreaterOrEqual(t, rate, 0.95, "the positive half's confirm rate fell")
}

// TestCorpusCoversEveryWord: every entry of the judgement's word lists appears in some corpus
// message, so a new entry comes with its labelled cases.
func TestCorpusCoversEveryWord(t *testing.T) {
	var msgs [][]string
	for _, c := range loadCorpus(t) {
		for _, s := range Sentences(c.Msg) {
			msgs = append(msgs, s.Tokens)
		}
	}
	covered := func(p []string) bool {
		for _, m := range msgs {
			if indexSeq(m, p, 0) >= 0 {
				return true
			}
		}
		return false
	}
	lists := map[string][][]string{
		"audiences": audiences, "leadIns": leadIns, "keepObjects": keepObjects, "revocations": revocations,
		"topicShifts": topicShifts, "objectFraming": objectFraming,
	}
	for name, words := range map[string]map[string]bool{"negators": negators, "questionStarts": questionStarts, "objectEnds": objectEnds} {
		for w := range words {
			lists[name] = append(lists[name], []string{w})
		}
	}
	for name, ps := range lists {
		for _, p := range ps {
			if p[0] == "n't" {
				continue // only ever a part of a token
			}
			assert.True(t, covered(p), "%s entry %q appears in no corpus message", name, p)
		}
	}
}

func TestSourceSentence(t *testing.T) {
	msg := "Can you book the usual table? By the way, I moved to Lyon last spring! Thanks."
	assert.Equal(t, "By the way, I moved to Lyon last spring", SourceSentence(msg, "Lives in Lyon"))
	assert.Equal(t, "Can you book the usual table", SourceSentence(msg, "Prefers the usual table"))
	assert.Empty(t, SourceSentence(msg, "Has a cat"))
	assert.Empty(t, SourceSentence("", "Has a cat"))
}

// TestJudgeIsBoundedOnRepetitiveMessages: a 32,000-character message that repeats the verb and the
// text thousands of times is judged quickly and fails closed.
func TestJudgeIsBoundedOnRepetitiveMessages(t *testing.T) {
	msg := strings.Repeat("remember a ", 2900)
	start := time.Now()
	d := Judge(msg, Write{Kind: Save, Content: "a"})
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Equal(t, Suggested, d.Verdict)
}

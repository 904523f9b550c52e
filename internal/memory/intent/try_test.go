package intent

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// TestTry runs the judge on the JSON Lines file named by JUDGE_TRY (the corpus's format) and prints
// one verdict per line: the black-box runner for red-teaming the judge without reading it. It is
// skipped when JUDGE_TRY is unset.
func TestTry(t *testing.T) {
	path := os.Getenv("JUDGE_TRY")
	if path == "" {
		t.Skip("JUDGE_TRY names a .jsonl file to judge")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			fmt.Printf("line %d: bad JSON: %v\n", n, err)
			continue
		}
		d := Judge(c.Msg, c.write())
		fmt.Printf("line %d: %s (%s) %q\n", n, d.Verdict, d.Reason, c.Msg)
		if os.Getenv("JUDGE_TRACE") != "" {
			fmt.Printf("    trace: sentence %d stage %v words %q\n", d.Trace.Sentence, d.Trace.Stage, d.Trace.Words)
		}
	}
}

package intent

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

type probeCase struct {
	Class         string `json:"class"`
	Genuine       *bool  `json:"genuine"`
	Want          string `json:"want"`
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
}

func TestProbe(t *testing.T) {
	files, _ := filepath.Glob("testdata/blind/*.jsonl")
	files = append(files, "testdata/corpus.jsonl")
	fc, mc := 0, 0
	stats := map[string][3]int{}
	for _, f := range files {
		fh, _ := os.Open(f)
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var c probeCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				continue
			}
			g := c.Want == "confirmed"
			if c.Genuine != nil {
				g = *c.Genuine
			}
			kinds := map[string]Kind{"save": Save, "update": Update, "forget": Forget}
			d := Judge(c.Msg, Write{Kind: kinds[c.Kind], Content: c.Content, Key: c.Key, Shared: c.Shared,
				Target: Item{Key: c.TargetKey, Content: c.TargetContent, Pinned: c.TargetPinned, Lesson: c.TargetKind == "lesson"}})
			cl := filepath.Base(f) + ":" + c.Class
			st := stats[cl]
			if g {
				st[0]++
				if d.Verdict == Confirmed {
					st[1]++
				} else if os.Getenv("MISS") != "" {
					mc++
					fmt.Printf("MISS %s [%s %s] %q content=%q key=%q tgt=%q/%q -> %s %q\n", cl, c.Kind, map[bool]string{true: "shared"}[c.Shared], c.Msg, c.Content, c.Key, c.TargetKey, c.TargetContent, d.Reason, d.Trace.Words)
				}
			} else if d.Verdict == Confirmed {
				st[2]++
				fc++
				fmt.Printf("FALSE %s [%s] %q content=%q key=%q tgt=%q/%q note=%s\n", cl, c.Kind, c.Msg, c.Content, c.Key, c.TargetKey, c.TargetContent, c.Note)
			}
			stats[cl] = st
		}
	}
	var keys []string
	for k := range stats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%-40s genuine %4d confirmed %4d  false %d\n", k, stats[k][0], stats[k][1], stats[k][2])
	}
	fmt.Println("false confirms", fc)
}

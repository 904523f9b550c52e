package main

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestGenerateIsDeterministic: the same options give the same data set, and the committed sample is
// what the generator makes of its options.
func TestGenerateIsDeterministic(t *testing.T) {
	o := genOptions{Seed: 1, Conversations: 1, Memories: 60, PerType: 1}
	a, err := json.MarshalIndent(generate(o), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(generate(o), "", "  ")
	if string(a) != string(b) {
		t.Fatal("two runs with the same options differ")
	}
	sample, err := os.ReadFile("testdata/sample.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(sample) != string(a)+"\n" {
		t.Error("testdata/sample.json is stale: go run ./cmd/eval -conversations 1 -memories 60 -per-type 1 -sample cmd/eval/testdata/sample.json")
	}
	o.Seed = 2
	c, _ := json.MarshalIndent(generate(o), "", "  ")
	if string(a) == string(c) {
		t.Error("another seed gives the same data set")
	}
}

// TestGenerateLabels: every conversation has its memories, unique texts, every question type, and
// evidence that names existing memories holding what the type promises.
func TestGenerateLabels(t *testing.T) {
	convs := generate(genOptions{Seed: 7, Conversations: 3, Memories: 300, PerType: 10})
	for _, c := range convs {
		if len(c.Memories) != 300 {
			t.Errorf("%s has %d memories, want 300", c.Name, len(c.Memories))
		}
		byLabel := map[string]Memory{}
		texts := map[string]bool{}
		persona := 0
		for _, m := range c.Memories {
			if texts[m.Content] {
				t.Errorf("%s repeats %q", c.Name, m.Content)
			}
			texts[m.Content] = true
			byLabel[m.Label] = m
			if strings.Contains(m.Content, c.Persona) {
				persona++
			}
		}
		if persona*2 < len(c.Memories) {
			t.Errorf("%s: the persona is in %d of %d memories, want at least every second", c.Name, persona, len(c.Memories))
		}
		types := map[string]int{}
		for _, q := range c.Questions {
			types[q.Type]++
			want := 1
			if q.Type == typeMultiHop {
				want = 2
			}
			if len(q.Evidence) != want {
				t.Errorf("%s %q: %d evidence memories, want %d", c.Name, q.Text, len(q.Evidence), want)
			}
			for _, e := range q.Evidence {
				m, ok := byLabel[e]
				if !ok {
					t.Errorf("%s %q: evidence %s is not a memory", c.Name, q.Text, e)
					continue
				}
				if q.Type == typePreference && m.Kind != "preference" {
					t.Errorf("%s %q: the evidence is a %s, want a preference", c.Name, q.Text, m.Kind)
				}
				if q.Type == typeTemporal {
					// The question ends "in <Month> <year>?": the evidence is dated in them.
					f := strings.Fields(strings.TrimSuffix(q.Text, "?"))
					if when := f[len(f)-2] + " " + f[len(f)-1]; !strings.Contains(m.Content, when) {
						t.Errorf("%s %q: the evidence %q is not of %s", c.Name, q.Text, m.Content, when)
					}
				}
			}
		}
		for _, typ := range questionTypes {
			if types[typ] != 10 {
				t.Errorf("%s has %d %s questions, want 10", c.Name, types[typ], typ)
			}
		}
		if !slices.Equal(slices.Sorted(maps.Keys(types)), slices.Sorted(slices.Values(questionTypes))) {
			t.Errorf("%s has question types %v", c.Name, types)
		}
	}
}

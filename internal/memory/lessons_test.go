package memory_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/packet"
)

// memoryFile is a MEMORY.md of sections about topics, just under limit bytes.
func memoryFile(limit int) string {
	topics := []string{"garden", "bicycle", "kitchen", "travel", "music", "finance", "health", "books"}
	var b strings.Builder
	for i := 0; ; i++ {
		topic := topics[i%len(topics)]
		section := fmt.Sprintf("## %s notes %d\n\nThe %s plan number %d: %s\n\n- remember the %s list\n- check the %s shelf\n\n",
			topic, i, topic, i, strings.Repeat("details about the "+topic+" routine and schedule. ", 12), topic, topic)
		if b.Len()+len(section) > limit {
			return b.String()
		}
		b.WriteString(section)
	}
}

// M1: a MEMORY.md becomes notes of a sensible size, cut at its headings and paragraphs, holding the
// whole file in order — not one pinned blob.
func TestImportSplitsAtHeadingsIntoSensibleNotes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Importer")
	file := memoryFile(memory.MaxMemoryFileBytes)
	res, err := f.svc.Worker().ImportMemoryFile(worker, tm, &file)
	require.NoError(t, err)
	require.Equal(t, memory.ImportImported, res.Outcome)
	sections := strings.Count(file, "## ")
	assert.GreaterOrEqual(t, len(res.Items), sections, "at least one note per section")
	var joined []string
	for _, it := range res.Items {
		assert.LessOrEqual(t, utf8.RuneCountInString(it.Content), memory.ImportNoteMaxCharacters)
		assert.True(t, strings.HasPrefix(it.Content, "## "), "each note starts at a heading here: %.40q", it.Content)
		assert.Equal(t, memory.KindNote, it.Kind)
		assert.True(t, it.Pinned)
		joined = append(joined, it.Content)
	}
	assert.Equal(t, strings.TrimSpace(file), strings.Join(joined, "\n\n"), "the notes hold the file, in order")
}

// L2: after a 16 KiB MEMORY.md import (pinned notes well over the packet's 6,000 characters), a kept
// lesson is in every packet — 20 of 20 requests, matching the notes or not — and first.
func TestLessonReachesEveryPacketAfterALargeImport(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Learner")
	file := memoryFile(memory.MaxMemoryFileBytes)
	require.Greater(t, len(file), 16000)
	_, err := f.svc.Worker().ImportMemoryFile(worker, tm, &file)
	require.NoError(t, err)
	first := f.startRun(t, tm, "Write my shopping list")
	_, err = f.svc.Tools().CompleteRun(asRun(t, f, first.Token), "Milk, eggs.")
	require.NoError(t, err)
	lesson, err := f.svc.KeepLesson(user, first.Run.ID, "Use bullet points")
	require.NoError(t, err)

	requests := []string{
		"What is in my garden plan?", "Plan a bicycle trip", "Tidy the kitchen", "Book travel to Porto",
		"Which music do I like?", "Check my finance routine", "A health schedule please", "Recommend books",
		"garden bicycle kitchen travel music finance health books", "details about the routine and schedule",
		"remember the list", "check the shelf", "plan number 3", "Hello", "What time is it?",
		"Write a poem about the sea", "Summarise my notes", "bullet points", "Use the usual format", "shelf 7",
	}
	require.Len(t, requests, 20)
	found := 0
	for _, r := range requests {
		run := f.startRun(t, tm, r)
		require.NotEmpty(t, run.Packet.Entries)
		if run.Packet.Entries[0].Item.ID == lesson.ID && !run.Packet.Entries[0].Truncated {
			found++
		} else {
			t.Errorf("request %q: the packet doesn't start with the whole lesson", r)
		}
		assert.LessOrEqual(t, utf8.RuneCountInString(run.Packet.Text), packet.MaxCharacters)
	}
	assert.Equal(t, 20, found, "the lesson in 20 of 20 packets")
}

// L2, P5: when the lessons alone exceed the packet, the packet holds lessons only — whole while they
// fit, the next cut with the marker — and no pinned note or ranked item gets ahead of them.
func TestLessonsAloneOverTheBudget(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Overloaded")
	_, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Kind: memory.KindNote, Pinned: true, Content: "A pinned note about lessons"})
	require.NoError(t, err)
	f.create(t, &tm, "A fact about lessons")
	first := f.startRun(t, tm, "Hi")
	_, err = f.svc.Tools().CompleteRun(asRun(t, f, first.Token), "Hello.")
	require.NoError(t, err)
	for i := range 3 {
		_, err := f.svc.KeepLesson(user, first.Run.ID, fmt.Sprintf("Lesson %d: %s", i, strings.Repeat("be brief ", 280)))
		require.NoError(t, err)
	}
	run := f.startRun(t, tm, "Tell me about lessons")
	require.Len(t, run.Packet.Entries, 3, "two whole lessons and the third cut; nothing after")
	for i, e := range run.Packet.Entries {
		assert.Equal(t, memory.KindLesson, e.Item.Kind)
		assert.Equal(t, i == 2, e.Truncated)
	}
	assert.True(t, strings.HasSuffix(run.Packet.Text, packet.TruncationMarker))
	assert.NotContains(t, run.Packet.Text, "A pinned note about lessons")
	assert.NotContains(t, run.Packet.Text, "A fact about lessons")
}

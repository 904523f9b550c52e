package memory_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// A preference is pinned when a teammate saves it as the user asked and when the user confirms it
// from a suggestion; other kinds are not. A pinned preference reaches the packet of a request that
// shares no word with it.
func TestPreferencePinnedOnRememberAndConfirm(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Pia")
	remember := func(message, content string, kind memory.Kind) memory.ToolResult {
		t.Helper()
		res, err := f.svc.Tools().Remember(asRun(t, f, f.startRun(t, tm, message).Token),
			memory.RememberInput{Content: content, Kind: kind})
		require.NoError(t, err)
		require.NotNil(t, res.Item)
		return res
	}

	pref := remember("Remember I prefer answers in bullet points.", "I prefer answers in bullet points", memory.KindPreference)
	require.Equal(t, memory.OutcomeSaved, pref.Outcome)
	assert.True(t, pref.Item.Pinned, "a confirmed preference is pinned")
	fact := remember("Remember my locker code is 3310.", "my locker code is 3310", memory.KindFact)
	require.Equal(t, memory.OutcomeSaved, fact.Outcome)
	assert.False(t, fact.Item.Pinned, "a fact is not")

	// Suggestions wait unpinned; confirming pins a preference only.
	suggestedPref := remember("Hi.", "Likes short replies", memory.KindPreference)
	suggestedFact := remember("Hi.", "Has a cat called Miso", memory.KindFact)
	suggestedNote := remember("Hi.", "Wants the tone kept formal", memory.KindNote)
	for _, s := range []memory.ToolResult{suggestedPref, suggestedFact, suggestedNote} {
		require.Equal(t, memory.OutcomeSuggested, s.Outcome)
		assert.False(t, s.Item.Pinned)
	}
	confirmed, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: suggestedPref.Item.ID})
	require.NoError(t, err)
	assert.True(t, confirmed.Pinned, "a confirmed preference suggestion is pinned")
	confirmed, err = f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: suggestedFact.Item.ID})
	require.NoError(t, err)
	assert.False(t, confirmed.Pinned, "a confirmed fact suggestion is not")
	kind := memory.KindPreference
	confirmed, err = f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: suggestedNote.Item.ID, Kind: &kind})
	require.NoError(t, err)
	assert.True(t, confirmed.Pinned, "a suggestion confirmed as a preference is pinned")

	// The user can still unpin: an explicit false stays false.
	unpinned, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Kind: memory.KindPreference, Content: "Prefers metric units"})
	require.NoError(t, err)
	assert.False(t, unpinned.Pinned, "the service keeps what the caller asked; the API sets the default")

	run := f.startRun(t, tm, "Give me a summary of this week's news")
	assert.Contains(t, run.Packet.Text, "I prefer answers in bullet points")
	assert.Contains(t, run.Packet.Text, "Likes short replies")
	assert.NotContains(t, run.Packet.Text, "locker code", "an unpinned fact that shares no word stays out")
	assert.NotContains(t, run.Packet.Text, "metric units")
}

// The recall preview says what the packet left out and why: items that share no word with the
// request, matches cut by the packet's limits, expired items and waiting suggestions — of the
// teammate's scope and the shared one, never another teammate's.
func TestRecallPreviewLeftOut(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Lou")
	other := f.teammate(t, "Other")
	n := 0
	add := func(it recallItem) memory.Item {
		n++
		it.id = itemID(n)
		return it.insert(t, f)
	}
	for _, c := range []string{"Has a cat called Miso", "Prefers answers in bullet points", "Lives in Lisbon"} {
		add(recallItem{teammate: &tm, content: c})
	}
	add(recallItem{content: "Works from home on Fridays"}) // shared, no shared word
	add(recallItem{teammate: &other, content: "Plays the cello"})
	add(recallItem{teammate: &tm, content: "Always wants bullet points", kind: memory.KindPreference, pinned: true})
	for i := range 13 {
		add(recallItem{teammate: &tm, content: "Ferry number " + strings.Repeat("x", i+1)})
	}
	add(recallItem{teammate: &tm, content: "Ferry pass ran out", expires: ptr(time.Now().Add(-time.Hour))})
	add(recallItem{teammate: &tm, content: "Ferry on Sunday?", status: memory.StatusCandidate})
	add(recallItem{teammate: &other, content: "Ferry for the other one", status: memory.StatusCandidate})

	p, err := f.svc.RecallPreviewWithLeftOut(user, tm, "which ferry?")
	require.NoError(t, err)
	require.Len(t, p.Entries, 12, "the pinned preference and 11 of the 13 ferry items")
	require.NotNil(t, p.LeftOut)
	assert.Equal(t, memory.LeftOut{NoSharedWord: 4, OverBudget: 2, Expired: 1, Waiting: 1}, *p.LeftOut)

	// A request with no word at all: only the pinned item is given; every unpinned one shares no word.
	p, err = f.svc.RecallPreviewWithLeftOut(user, tm, "?!")
	require.NoError(t, err)
	require.Len(t, p.Entries, 1)
	assert.Equal(t, memory.LeftOut{NoSharedWord: 17, Expired: 1, Waiting: 1}, *p.LeftOut)

	// Runs don't get the count, nor does the worker or a run's own preview: how many suggestions
	// wait would tell a run whether its suggestion was kept or dropped as forgotten text (F3).
	run := f.startRun(t, tm, "which ferry?")
	assert.Nil(t, run.Packet.LeftOut)
	p, err = f.svc.RecallPreview(user, tm, "which ferry?")
	require.NoError(t, err)
	assert.Nil(t, p.LeftOut, "counted only when asked for")
	for name, ctx := range map[string]context.Context{"worker": worker, "run": runOf(tm)} {
		p, err := f.svc.RecallPreviewWithLeftOut(ctx, tm, "which ferry?")
		require.NoError(t, err, name)
		assert.Len(t, p.Entries, 12, name)
		assert.Nil(t, p.LeftOut, name)
	}
}

// The left-out count is computed for the preview alone, and stays cheap: at 10,000 visible items
// every count is an index scan (no sequential scan of memory_items) and the statement takes a few
// milliseconds.
func TestRecallLeftOutCost(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 10,000 items")
	}
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Big")
	seedRecallItems(t, f, tm, 10_000)
	ctx := context.Background()
	p, err := f.svc.RecallPreviewWithLeftOut(user, tm, "tea garden morning")
	require.NoError(t, err)
	ids := packetIDs(p)
	words := memory.RequestWords("tea garden morning")

	var plan []string
	rows, err := f.pool.Query(ctx, "EXPLAIN "+memory.LeftOutStatement, tm, words, ids)
	require.NoError(t, err)
	for rows.Next() {
		var line string
		require.NoError(t, rows.Scan(&line))
		plan = append(plan, line)
	}
	require.NoError(t, rows.Err())
	assert.False(t, slices.ContainsFunc(plan, func(l string) bool { return strings.Contains(l, "Seq Scan on memory_items") }),
		"%s", strings.Join(plan, "\n"))

	const tries = 15
	times := make([]time.Duration, tries)
	for i := range tries {
		start := time.Now()
		var a, b, c, d, e, g int
		require.NoError(t, f.pool.QueryRow(ctx, memory.LeftOutStatement, tm, words, ids).Scan(&a, &b, &c, &d, &e, &g))
		times[i] = time.Since(start)
		require.Positive(t, a)
	}
	slices.Sort(times)
	t.Logf("left-out count at 10,000 items: median %v, max %v", times[tries/2], times[tries-1])
}

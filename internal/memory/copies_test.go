package memory_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

func itemIDs(items []memory.Item) []string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	return ids
}

// Forget finds copies: the same normalised text elsewhere — a duplicate in the
// same scope, items in other scopes, suggestions waiting or dismissed — is listed, forgotten with
// the item in one transaction, and a teammate's later save of the text is dropped in every scope it
// was forgotten from (F3).
func TestForgetFindsCopiesAndForgetsThemTogether(t *testing.T) {
	t.Parallel()
	f := keyedSetup(t)
	ada, bob := f.teammate(t, "Ada"), f.teammate(t, "Bob")
	item := f.create(t, &ada, "Gate code is 5521.")
	dup := f.create(t, &ada, "gate code is 5521")
	shared := f.create(t, nil, "GATE  CODE IS ５５２１")
	inBob := f.create(t, &bob, "Gate code is 5521!")
	other := f.create(t, &bob, "Gate code is 5522.") // not a copy
	runBob := f.startRun(t, bob, "Just chatting.")
	rcBob := asRun(t, f, runBob.Token)
	res, err := f.svc.Tools().Remember(rcBob, memory.RememberInput{Content: "Gate code is 5521"})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeUnchanged, res.Outcome, "Bob already has it")
	res, err = f.svc.Tools().Remember(rcBob, memory.RememberInput{Content: "Gate code is 5521", ForEveryone: true})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeUnchanged, res.Outcome, "shared already has it")
	// A suggestion in a third scope, dismissed.
	cyd := f.teammate(t, "Cyd")
	res, err = f.svc.Tools().Remember(asRun(t, f, f.startRun(t, cyd, "Hi.").Token), memory.RememberInput{Content: "gate code is 5521"})
	require.NoError(t, err)
	require.Equal(t, memory.OutcomeSuggested, res.Outcome)
	suggestion, err := f.svc.DismissCandidate(user, res.Item.ID)
	require.NoError(t, err)

	copies, err := f.svc.Copies(user, item.ID)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{dup.ID, shared.ID, inBob.ID, suggestion.ID}, itemIDs(copies))
	assert.NotContains(t, itemIDs(copies), other.ID)
	_, err = f.svc.Copies(worker, item.ID)
	assert.ErrorIs(t, err, memory.ErrForbidden)

	// An unknown id fails the whole forget: nothing is forgotten.
	_, _, err = f.svc.ForgetWithCopies(user, item.ID, []string{dup.ID, "00000000-0000-4000-8000-000000000000"})
	require.ErrorIs(t, err, memory.ErrNotFound)
	got, err := f.svc.Item(user, dup.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.StatusActive, got.Status)

	forgotten, others, err := f.svc.ForgetWithCopies(user, item.ID, itemIDs(copies))
	require.NoError(t, err)
	assert.Equal(t, memory.StatusForgotten, forgotten.Status)
	assert.ElementsMatch(t, itemIDs(copies), itemIDs(others))
	for _, id := range append(itemIDs(copies), item.ID) {
		got, err := f.svc.Item(user, id)
		require.NoError(t, err)
		assert.Equal(t, memory.StatusForgotten, got.Status)
	}
	got, err = f.svc.Item(user, other.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.StatusActive, got.Status, "a different text is not a copy")

	// Later, a teammate's save of the text is dropped wherever it was forgotten (without the run
	// being told, F3).
	for name, c := range map[string]struct {
		tm     string
		shared bool
	}{"Ada": {ada, false}, "Bob": {bob, false}, "shared": {bob, true}, "Cyd": {cyd, false}} {
		run := f.startRun(t, c.tm, "What is the gate code?")
		res, err := f.svc.Tools().Remember(asRun(t, f, run.Token), memory.RememberInput{Content: "Gate code is 5521", ForEveryone: c.shared})
		require.NoError(t, err)
		assert.Equal(t, memory.OutcomeSuggested, res.Outcome, "%s: answered as any suggestion (F3: no oracle)", name)
		var visible int
		require.NoError(t, f.pool.QueryRow(context.Background(),
			`SELECT count(*) FROM memory_items WHERE status = 'candidate' AND content ILIKE '%5521%'`).Scan(&visible))
		assert.Zero(t, visible, "%s: the user sees no suggestion of it", name)
		assert.NotContains(t, strings.ToLower(run.Packet.Text), "code is 5521", "%s: no copy reaches a packet", name)
	}
}

package memory_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// A teammate's save of a text already remembered is UNCHANGED only when it is the same text in the
// one text model (A1): case, width, spacing and the dash a keyboard typed don't matter; a sign, a
// decimal point, a trailing minus or a symbol does, so a different fact is never merged away.
func TestDedupKeepsSignsDecimalsAndSymbolsApart(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Dedup")
	for _, text := range []string{"Freezer at -18 C", "Dose 2.5 mg", "Blood type O-", "Writes C++", "Score 3-2"} {
		f.create(t, &tm, text)
	}
	ctx := asRun(t, f, f.startRun(t, tm, "Just chatting about my day.").Token)
	same := []string{"FREEZER AT −18 C", "Freezer at –18 C", "dose 2.5 MG", "Blood type O–", "writes c++", "Score 3–2"}
	for _, text := range same {
		res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: text})
		require.NoError(t, err)
		assert.Equal(t, memory.OutcomeUnchanged, res.Outcome, "%q is a text already remembered", text)
	}
	differ := []string{"Freezer at 18 C", "Dose 2 5 mg", "Blood type O", "Writes C", "Score 3 2"}
	for _, text := range differ {
		res, err := f.svc.Tools().Remember(ctx, memory.RememberInput{Content: text})
		require.NoError(t, err)
		assert.Equal(t, memory.OutcomeSuggested, res.Outcome, "%q is another fact", text)
	}
}

// RehashTexts brings the hash of every live item written under an older text model to the current
// one, once, and records the model: afterwards dedup finds the item by its current hash.
func TestRehashTextsBringsOldHashesToTheModel(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	tm := f.teammate(t, "Rehash")
	item := f.create(t, &tm, "Blood type O–")
	// As an item written before the model kept a trailing minus: its hash is that of "Blood type O".
	_, err := f.pool.Exec(ctx, `UPDATE memory_items SET content_hash = $1 WHERE id = $2`, memory.ContentHash("Blood type O"), item.ID)
	require.NoError(t, err)
	_, err = f.pool.Exec(ctx, `UPDATE memory_text_model SET version = 3`)
	require.NoError(t, err)

	require.NoError(t, f.svc.Background().RehashTexts(ctx))
	var hash []byte
	var version int
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT content_hash FROM memory_items WHERE id = $1`, item.ID).Scan(&hash))
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT version FROM memory_text_model`).Scan(&version))
	assert.Equal(t, memory.ContentHash("Blood type O-"), hash)
	assert.Equal(t, 4, version)

	// Once: a second start leaves hashes alone, even one that is (artificially) stale.
	_, err = f.pool.Exec(ctx, `UPDATE memory_items SET content_hash = $1 WHERE id = $2`, memory.ContentHash("Blood type O"), item.ID)
	require.NoError(t, err)
	require.NoError(t, f.svc.Background().RehashTexts(ctx))
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT content_hash FROM memory_items WHERE id = $1`, item.ID).Scan(&hash))
	assert.Equal(t, memory.ContentHash("Blood type O"), hash)
}

package memory_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/textmodel"
)

// Keyed tombstones and their text model (F3).

const testTombstoneKey = "mk_memory-test-tombstone-key-0123456789"

// keyedSetup is setup with the installation key a real process would use.
func keyedSetup(t *testing.T) fixture {
	t.Helper()
	f := setup(t)
	require.NoError(t, f.svc.Background().UseTombstoneKey(context.Background(), []byte(testTombstoneKey)))
	return f
}

// firstModelText is the first text model's comparison form (letters and digits, lower case), the
// one the oldest tombstones were hashed with.
func firstModelText(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
		} else {
			space = true
		}
	}
	return b.String()
}

// tombstoneValues is every hash in memory_tombstones.
func tombstoneValues(t *testing.T, f fixture) map[string]bool {
	t.Helper()
	rows, err := f.pool.Query(context.Background(), `SELECT content_hash FROM memory_tombstones`)
	require.NoError(t, err)
	hashes, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	require.NoError(t, err)
	out := map[string]bool{}
	for _, h := range hashes {
		out[string(h)] = true
	}
	return out
}

// bruteForcePIN tries all 10,000 PINs in pattern against the stored tombstones, hashed every way an
// attacker holding only the dump could: SHA-256 of the raw text, of the first model's and of the
// intent model's normal form (textmodel.Hash), and an HMAC with an empty key. It returns the PINs that matched.
func bruteForcePIN(t *testing.T, f fixture, pattern string) []string {
	t.Helper()
	stored := tombstoneValues(t, f)
	require.NotEmpty(t, stored, "the forget left a tombstone")
	var found []string
	for pin := range 10000 {
		text := fmt.Sprintf(pattern, pin)
		var tries [][]byte
		for _, form := range []string{text, firstModelText(text), textmodel.Canonical(text)} {
			h := sha256.Sum256([]byte(form))
			tries = append(tries, h[:])
			m := hmac.New(sha256.New, nil)
			m.Write([]byte(form))
			tries = append(tries, m.Sum(nil))
		}
		for _, h := range tries {
			if stored[string(h)] {
				found = append(found, fmt.Sprintf("%04d", pin))
				break
			}
		}
	}
	return found
}

// A forgotten PIN can't be recovered from the dump by trying every PIN (with a plain hash it takes
// 8 ms).
func TestTombstonePINBruteForceFindsNothing(t *testing.T) {
	t.Parallel()
	f := keyedSetup(t)
	item := f.create(t, nil, "My bank PIN is 4821.")
	_, err := f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err)

	assert.Empty(t, bruteForcePIN(t, f, "My bank PIN is %04d."), "a PIN was recovered from the tombstone")
	// The tombstone still does its job, for the process that holds the key.
	gone, err := f.svc.ForgottenBefore(user, memory.Scope{}, "my bank pin is 4821")
	require.NoError(t, err)
	assert.True(t, gone)
	other, err := f.svc.ForgottenBefore(user, memory.Scope{}, "My bank PIN is 4822.")
	require.NoError(t, err)
	assert.False(t, other)
}

// Tombstones written before keys (a plain SHA-256 of the first model's or the intent model's form)
// are wrapped with the key at start: the dump stops being brute-forceable, and the texts stay
// forgotten.
func TestLegacyTombstonesAreWrappedWithTheKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	f := fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}
	tm := f.teammate(t, "Legacy")
	v1 := sha256.Sum256([]byte(firstModelText("My bank PIN is 4821.")))
	_, err := pool.Exec(ctx, `INSERT INTO memory_tombstones (scope, content_hash) VALUES ('shared', $1), ($2, $3)`,
		v1[:], tm, textmodel.Hash("Door code 7730"))
	require.NoError(t, err)
	require.Equal(t, []string{"4821"}, bruteForcePIN(t, f, "My bank PIN is %04d."), "the plain hash is reversible (the test can find a PIN)")

	require.NoError(t, f.svc.Background().UseTombstoneKey(ctx, []byte(testTombstoneKey)))
	assert.Empty(t, bruteForcePIN(t, f, "My bank PIN is %04d."))
	assert.Empty(t, bruteForcePIN(t, f, "Door code %04d"))
	var plain int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM memory_tombstones WHERE NOT keyed`).Scan(&plain))
	assert.Zero(t, plain)

	for scope, text := range map[*string]string{nil: "my bank PIN is 4821", &tm: "DOOR CODE 7730."} {
		gone, err := f.svc.ForgottenBefore(user, memory.Scope{TeammateID: scope}, text)
		require.NoError(t, err)
		assert.True(t, gone, "a legacy tombstone still matches %q", text)
	}
	run := f.startRun(t, tm, "Hello.")
	res, err := f.svc.Tools().Remember(asRun(t, f, run.Token), memory.RememberInput{Content: "Door code 7730"})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome, "answered as any suggestion (F3: no oracle)")
	assert.Empty(t, extractCandidates(t, f, tm), "dropped: the user sees nothing")

	// Starting again with the same key changes nothing; with another key, the process refuses.
	require.NoError(t, f.svc.Background().UseTombstoneKey(ctx, []byte(testTombstoneKey)))
	other := memory.NewService(pool, slog.New(slog.DiscardHandler))
	err = other.Background().UseTombstoneKey(ctx, []byte(strings.Repeat("x", memory.MinTombstoneKeyLength)))
	require.ErrorIs(t, err, memory.ErrTombstoneKeyMismatch)
	assert.Contains(t, err.Error(), "MEMORY_TOMBSTONE_KEY")
	require.Error(t, other.Background().UseTombstoneKey(ctx, []byte("short")))
}

// After forgetting "My café PIN is 4321 straße", every spelling of the same text is that text: it is
// dropped as a teammate's suggestion and forgottenBefore says so (A1's normaliser, F3). A text that
// differs in a token is not.
func TestForgottenTextMatchesEveryUnicodeSpelling(t *testing.T) {
	t.Parallel()
	f := keyedSetup(t)
	tm := f.teammate(t, "Unicode")
	scope := memory.Scope{TeammateID: &tm}
	item := f.create(t, &tm, "My café PIN is 4321 straße")
	_, err := f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err)

	same := map[string]string{
		"NFD":                  "My cafe\u0301 PIN is 4321 straße",
		"upper case STRASSE":   "MY CAFÉ PIN IS 4321 STRASSE",
		"full-width":           "Ｍｙ ｃａｆé ＰＩＮ ｉｓ ４３２１ ｓｔｒａßｅ",
		"zero-width space":     "My ca\u200bfé PIN is 43\u200b21 straße",
		"soft hyphen":          "My café PIN is 4321 stra\u00adße",
		"Cyrillic а and е":     "My cаfé PIN is 4321 strаße",
		"Greek capital iota":   "My café PΙN is 4321 straße",
		"Cyrillic у and Р":     "Mу café РIN is 4321 straße",
		"punctuation, spacing": "  my café — PIN is: 4321, straße!  ",
		"hyphen":               "My café-PIN is 4321 straße",
	}
	differ := map[string]string{
		"another PIN": "My café PIN is 4322 straße",
		"a word more": "My café PIN is 4321 straße 2",
	}
	run := f.startRun(t, tm, "Just chatting about my day.")
	rc := asRun(t, f, run.Token)
	for name, text := range same {
		gone, err := f.svc.ForgottenBefore(user, scope, text)
		require.NoError(t, err)
		assert.True(t, gone, "forgottenBefore: %s", name)
		res, err := f.svc.Tools().Remember(rc, memory.RememberInput{Content: text})
		require.NoError(t, err)
		assert.Equal(t, memory.OutcomeSuggested, res.Outcome, "teammate's save, answered as any suggestion: %s", name)
	}
	assert.Empty(t, extractCandidates(t, f, tm), "every spelling was dropped: the user sees none")
	for name, text := range differ {
		gone, err := f.svc.ForgottenBefore(user, scope, text)
		require.NoError(t, err)
		assert.False(t, gone, "forgottenBefore: %s", name)
	}
}

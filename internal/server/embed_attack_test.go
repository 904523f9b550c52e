package server_test

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/ai/aifake"
	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/dbtest"
)

const attackDims = 16

func attackBits(bits ...uint32) string {
	v := make([]float32, len(bits))
	for i, b := range bits {
		v[i] = math.Float32frombits(b)
	}
	return aifake.Encode(v, "base64").(string)
}

// attackAnswer is the raw JSON "embedding" value the hostile endpoint answers for a text that holds
// word (lower case), or "" for a well-formed vector.
func attackAnswer(text string) string {
	ones := make([]uint32, attackDims)
	for i := range ones {
		ones[i] = math.Float32bits(1)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	with := func(i int, bits uint32) []uint32 {
		v := append([]uint32(nil), ones...)
		v[i] = bits
		return v
	}
	nulls := make([]string, attackDims)
	for i := range nulls {
		nulls[i] = "null"
	}
	halfNull := append([]string{"1"}, nulls[1:]...)
	switch t := strings.ToLower(text); {
	case strings.Contains(t, "zzqnan"):
		return q(attackBits(with(3, 0x7fc00000)...))
	case strings.Contains(t, "zzqinf"):
		return q(attackBits(with(0, 0xff800000)...))
	case strings.Contains(t, "zzqtorn"):
		return q(attackBits(ones...)[:80] + "=") // not whole values / not valid
	case strings.Contains(t, "zzqnegzeros"):
		z := make([]uint32, attackDims)
		for i := range z {
			z[i] = 0x80000000
		}
		return q(attackBits(z...))
	case strings.Contains(t, "zzqzeros"):
		return q(attackBits(make([]uint32, attackDims)...))
	case strings.Contains(t, "zzqhalfnull"):
		return "[" + strings.Join(halfNull, ",") + "]"
	case strings.Contains(t, "zzqnulls"):
		return "[" + strings.Join(nulls, ",") + "]"
	case strings.Contains(t, "zzqshort"):
		return q(attackBits(ones[:8]...))
	case strings.Contains(t, "zzqobject"):
		return `{}`
	case strings.Contains(t, "zzqurlsafe"):
		return q(strings.NewReplacer("+", "-", "/", "_").Replace(attackBits(with(0, 0x3ffbffbf)...)))
	}
	return q(attackBits(ones...))
}

// TestEmbedAttackEndToEnd: an endpoint that answers malformed or unusable vectors (NaN, infinity,
// torn base64, all zeros, nulls, the wrong size, the wrong type) never makes recallPreview or
// startRun fail: full text is used and vectorSearch says FAILED; the embed job stores no vector
// from such an answer.
func TestEmbedAttackEndToEnd(t *testing.T) {
	t.Parallel()
	fake := aifake.New(t, func(w http.ResponseWriter, _ *http.Request, body map[string]any) {
		inputs, _ := body["input"].([]any)
		var data []string
		for i, in := range inputs {
			s, _ := in.(string)
			if strings.Contains(strings.ToLower(s), "zzqgarbage") {
				_, _ = io.WriteString(w, "<html>oops")
				return
			}
			b, _ := json.Marshal(i)
			data = append(data, `{"object":"embedding","index":`+string(b)+`,"embedding":`+attackAnswer(s)+`}`)
		}
		_, _ = io.WriteString(w, `{"object":"list","data":[`+strings.Join(data, ",")+`]}`)
	})
	url := dbtest.URL(t)
	api := apitest.StartWith(t, url, func(o *app.Options) {
		o.AI = config.AI{
			EmbeddingURL: fake.URL + "/v1", EmbeddingModel: "fake-16", EmbeddingDimensions: attackDims, APIKey: "test-key",
			DailyRequestLimit: 1000, SemanticMaxDistance: 0.9, JobsInAPI: true,
		}
	})
	db, err := pgx.Connect(context.Background(), url)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close(context.Background()) })
	w := world{api: api, t: t}
	tm := w.teammate("Mo")
	good := w.createMemory(&tm, "Mo plays the violin in an orchestra")
	waitEmbedded := func(id string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			var n int
			require.NoError(t, db.QueryRow(context.Background(), `SELECT count(*) FROM memory_embeddings WHERE item_id = $1`, id).Scan(&n))
			if n == 1 {
				return
			}
			time.Sleep(50 * time.Millisecond) // polling the job runner inside the API
		}
		t.Fatalf("memory %s was never embedded", id)
	}
	waitEmbedded(good.ID)
	// Rule: vectors are scaled to unit length before they are stored (the endpoint sent all ones,
	// length 4).
	var norm float64
	require.NoError(t, db.QueryRow(context.Background(), `SELECT vector_norm(embedding) FROM memory_embeddings WHERE item_id = $1`, good.ID).Scan(&norm))
	assert.InDelta(t, 1, norm, 1e-6, "stored at unit length")

	// One hostile memory at a time, so that each embed request holds that memory alone and its job
	// fails because of its own answer, not a neighbour's in the batch.
	hostile := map[string]string{}
	for _, word := range []string{"zzqnan", "zzqinf", "zzqtorn", "zzqzeros", "zzqnegzeros", "zzqnulls", "zzqhalfnull", "zzqshort", "zzqobject", "zzqurlsafe", "zzqgarbage"} {
		id := w.createMemory(&tm, "Mo owns a cello called "+word).ID
		hostile[word] = id
		deadline := time.Now().Add(20 * time.Second)
		for {
			var settled, stored int
			require.NoError(t, db.QueryRow(context.Background(),
				`SELECT count(*) FROM memory_jobs WHERE kind = 'embed' AND item_id = $1 AND (last_error IS NOT NULL OR status IN ('failed', 'done'))`,
				id).Scan(&settled))
			require.NoError(t, db.QueryRow(context.Background(), `SELECT count(*) FROM memory_embeddings WHERE item_id = $1`, id).Scan(&stored))
			if settled > 0 || stored > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the embed job never ran", word)
			}
			time.Sleep(50 * time.Millisecond) // polling the job runner inside the API
		}
	}

	for word, id := range hostile {
		var n int
		require.NoError(t, db.QueryRow(context.Background(), `SELECT count(*) FROM memory_embeddings WHERE item_id = $1`, id).Scan(&n))
		assert.Zero(t, n, "%s: no vector stored from a malformed or unusable answer", word)
		var errs []string
		rows, err := db.Query(context.Background(), `SELECT status || ': ' || coalesce(last_error, '') FROM memory_jobs WHERE item_id = $1`, id)
		require.NoError(t, err)
		for rows.Next() {
			var e string
			require.NoError(t, rows.Scan(&e))
			errs = append(errs, e)
			assert.NotContains(t, e, "cello", "%s: the job's error holds no memory text", word)
			assert.NotContains(t, e, "done", "%s: the job did not succeed", word)
		}
		require.NoError(t, rows.Err())
		t.Logf("%s: jobs %q", word, errs)
	}

	type preview struct {
		RecallPreview struct {
			Text         string
			VectorSearch string
			VectorReason *string
			Entries      []struct {
				FullTextPosition *int
				VectorDistance   *float64
			}
		}
	}
	var p preview
	w.api.Must(t, user, `query($t: ID!) { recallPreview(teammateId: $t, query: "violin orchestra") { text vectorSearch vectorReason entries { fullTextPosition vectorDistance } } }`,
		map[string]any{"t": tm}, &p)
	assert.Equal(t, "USED", p.RecallPreview.VectorSearch, "the harness's well-formed path works")
	// The query's vector is all ones too: the same direction, cosine distance 0 whatever the scale.
	if assert.NotEmpty(t, p.RecallPreview.Entries) && assert.NotNil(t, p.RecallPreview.Entries[0].VectorDistance) {
		assert.InDelta(t, 0, *p.RecallPreview.Entries[0].VectorDistance, 1e-6)
	}

	for word := range hostile {
		var p preview
		res := api.Do(t, user, `query($t: ID!, $q: String!) { recallPreview(teammateId: $t, query: $q) { text vectorSearch vectorReason entries { fullTextPosition } } }`,
			map[string]any{"t": tm, "q": "violin orchestra " + word})
		if !assert.Empty(t, res.Errors, "%s: recallPreview must not fail", word) {
			continue
		}
		require.NoError(t, json.Unmarshal(res.Data, &p))
		assert.Equal(t, "FAILED", p.RecallPreview.VectorSearch, "%s: vector search reported failed", word)
		assert.NotEmpty(t, p.RecallPreview.Entries, "%s: full text still finds the memory", word)
		assert.Contains(t, p.RecallPreview.Text, "violin", word)
		reason := ""
		if p.RecallPreview.VectorReason != nil {
			reason = *p.RecallPreview.VectorReason
		}
		assert.NotContains(t, reason, word, "%s: the reason holds no query text", word)
		t.Logf("%s: vectorSearch %s, reason %q", word, p.RecallPreview.VectorSearch, reason)

		// A run's start recalls the same way and must not fail either.
		run := w.startRun(tm, "", "Which instrument do I play, violin? "+word)
		assert.Contains(t, run.Packet, "violin", "%s: the run's packet came from full text", word)
	}
}

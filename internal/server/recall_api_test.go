package server_test

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/dbtest"
)

func TestMemoryContextStates(t *testing.T) {
	t.Parallel()
	url := dbtest.URL(t)
	w := world{api: apitest.Start(t, url), t: t}
	db, err := pgx.Connect(context.Background(), url)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close(context.Background()) })
	tm := w.teammate("Ivy")
	same := w.createMemory(&tm, "Ivy's dog is called Rex")
	edited := w.createMemory(&tm, "Ivy's cat is called Tom")
	forgotten := w.createMemory(&tm, "Ivy's bird is called Kiwi")
	expired := w.createMemory(nil, "Ivy's fish is called Nemo")

	run := w.startRun(tm, "", "What are my dog, cat, bird and fish called?")
	w.api.Must(t, user, `mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 1, content: "Ivy's cat is called Tim"}) { item { id } } }`, map[string]any{"id": edited.ID}, &struct{}{})
	w.api.Must(t, user, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": forgotten.ID}, &struct{}{})
	_, err = db.Exec(context.Background(), `UPDATE memory_items SET expires_at = now() - interval '1 minute' WHERE id = $1`, expired.ID)
	require.NoError(t, err)

	var out struct {
		Run struct {
			MemoryContext []struct {
				ItemID                         string
				RevisionGiven, CurrentRevision int
				State                          string
				Item                           struct{ Content string }
			}
		}
	}
	w.api.Must(t, user, `query($id: ID!) { run(id: $id) { memoryContext { itemId revisionGiven currentRevision state item { content } } } }`,
		map[string]any{"id": run.Run.ID}, &out)
	states := map[string]string{}
	for _, e := range out.Run.MemoryContext {
		states[e.ItemID] = e.State
		if e.ItemID == forgotten.ID {
			assert.Empty(t, e.Item.Content, "a forgotten entry shows no text")
		}
		if e.ItemID == edited.ID {
			assert.Equal(t, []int{1, 2}, []int{e.RevisionGiven, e.CurrentRevision})
		}
	}
	assert.Equal(t, map[string]string{same.ID: "UNCHANGED", edited.ID: "CHANGED", forgotten.ID: "FORGOTTEN", expired.ID: "EXPIRED"}, states)

	var preview struct {
		RecallPreview struct {
			Text         string
			VectorSearch string
			Entries      []struct {
				Header           string
				FullTextPosition *int
				VectorDistance   *float64
				Score            float64
			}
		}
	}
	w.api.Must(t, user, `query($t: ID!) { recallPreview(teammateId: $t, query: "dog") { text vectorSearch entries { header fullTextPosition vectorDistance score } } }`,
		map[string]any{"t": tm}, &preview)
	require.Len(t, preview.RecallPreview.Entries, 1)
	e := preview.RecallPreview.Entries[0]
	assert.Equal(t, "[memory:"+same.ID+"@1; "+tm+"; fact]", e.Header)
	assert.Equal(t, 1, *e.FullTextPosition)
	assert.Nil(t, e.VectorDistance)
	assert.InDelta(t, 1.0/61, e.Score, 1e-12, "RRF: one list, first place")
	assert.Equal(t, "NOT_CONFIGURED", preview.RecallPreview.VectorSearch)
	assert.Equal(t, e.Header+"\nIvy's dog is called Rex", preview.RecallPreview.Text)
}

// fakeEmbeddings is an OpenAI-compatible /embeddings endpoint with deterministic vectors: each word
// adds 1 to a dimension chosen by its hash, so texts sharing words are close.
func fakeEmbeddings(t *testing.T, requests *atomic.Int64) *httptest.Server {
	t.Helper()
	return fakeEmbeddingsAfter(t, requests, 0)
}

// fakeEmbeddingsAfter is fakeEmbeddings answering each request after delay, like a distant endpoint.
func fakeEmbeddingsAfter(t *testing.T, requests *atomic.Int64, delay time.Duration) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer test-key" {
			http.Error(w, `{"error":{"code":"bad_request"}}`, http.StatusBadRequest)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		type datum struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Data []datum `json:"data"`
		}{}
		for i := len(req.Input) - 1; i >= 0; i-- { // out of order on purpose: clients sort by index
			v := make([]float32, 16)
			for _, word := range strings.Fields(strings.ToLower(req.Input[i])) {
				h := fnv.New32a()
				h.Write([]byte(strings.Trim(word, ".,:;!?'\"")))
				v[h.Sum32()%16]++
			}
			var norm float64
			for _, x := range v {
				norm += float64(x * x)
			}
			if norm == 0 {
				v[0], norm = 1, 1
			}
			for j := range v {
				v[j] = float32(float64(v[j]) / math.Sqrt(norm))
			}
			resp.Data = append(resp.Data, datum{Index: i, Embedding: v})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestEmbeddingsEndToEnd: with an embedding endpoint configured, a new memory is embedded by the
// API's own job runner, recall fuses the vector list in, and aiStatus shows progress and use.
func TestEmbeddingsEndToEnd(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	fake := fakeEmbeddings(t, &requests)
	api := apitest.StartWith(t, dbtest.URL(t), func(o *app.Options) {
		o.AI = config.AI{
			EmbeddingURL: fake.URL + "/v1", EmbeddingModel: "fake-16", EmbeddingDimensions: 16, APIKey: "test-key",
			DailyRequestLimit: 100, SemanticMaxDistance: 0.9, JobsInAPI: true,
		}
	})
	w := world{api: api, t: t}
	tm := w.teammate("Jo")
	w.createMemory(&tm, "Jo plays the violin in an orchestra")

	type status struct {
		AiStatus struct {
			Embeddings                       bool
			EmbeddingModel                   string
			EmbeddingHost                    string
			Embedded, Embeddable             int
			RequestsToday, DailyRequestLimit int
		}
	}
	var st status
	deadline := time.Now().Add(20 * time.Second)
	for {
		w.api.Must(t, user, `query { aiStatus { embeddings embeddingModel embeddingHost embedded embeddable requestsToday dailyRequestLimit } }`, nil, &st)
		if st.AiStatus.Embedded == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // polling the job's visible outcome; the job runs in the API process
	}
	require.Equal(t, 1, st.AiStatus.Embedded, "the embed job ran")
	assert.Equal(t, 1, st.AiStatus.Embeddable)
	assert.True(t, st.AiStatus.Embeddings)
	assert.Equal(t, "fake-16", st.AiStatus.EmbeddingModel)
	assert.Equal(t, strings.TrimPrefix(fake.URL, "http://"), st.AiStatus.EmbeddingHost)
	assert.Equal(t, 100, st.AiStatus.DailyRequestLimit)
	assert.GreaterOrEqual(t, st.AiStatus.RequestsToday, 1)

	var preview struct {
		RecallPreview struct {
			VectorSearch string
			Entries      []struct {
				VectorDistance   *float64
				FullTextPosition *int
			}
		}
	}
	// "orchestra violin" shares words with the memory: both lists find it.
	w.api.Must(t, user, `query($t: ID!) { recallPreview(teammateId: $t, query: "orchestra violin") { vectorSearch entries { vectorDistance fullTextPosition } } }`,
		map[string]any{"t": tm}, &preview)
	assert.Equal(t, "USED", preview.RecallPreview.VectorSearch)
	require.Len(t, preview.RecallPreview.Entries, 1)
	require.NotNil(t, preview.RecallPreview.Entries[0].VectorDistance)
	assert.NotNil(t, preview.RecallPreview.Entries[0].FullTextPosition)
}

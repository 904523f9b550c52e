package wire_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/ai/aifake"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

// TestRecallHoldsNoConnectionWhileEmbedding (P3, I4): recall embeds its request
// before its transaction opens, and the budget's reservation takes a connection only then, for one
// statement. On a pool of 2 connections, with the real budget and a slow loopback endpoint, 8
// recallPreview and 8 startRun at once all finish with their request embedded and counted; a recall
// that embedded while holding a connection would wait for a second one its peers hold, forever.
// The service is called directly: through the API (graph/resolvers'
// TestRecallNeverEmbedsWhileHoldingAConnection) the server lets recalls use only half the pool, which
// hides such a wait.
func TestRecallHoldsNoConnectionWhileEmbedding(t *testing.T) {
	t.Parallel()
	pool, err := db.OpenPool(t.Context(), dbtest.URL(t), db.PoolOptions{MaxConns: 2})
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	endpoint := aifake.New(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		select {
		case <-time.After(50 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		inputs, _ := body["input"].([]any)
		data := []map[string]any{}
		for i := range inputs {
			data = append(data, map[string]any{"index": i, "embedding": []float32{1, 0, 0, 0}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data, "model": body["model"]})
	})
	in, svc := install(t, pool, nil, config.AI{EmbeddingURL: endpoint.URL + "/v1", EmbeddingModel: "fake-embed",
		EmbeddingDimensions: 4, APIKey: apiKey, DailyRequestLimit: 100, SemanticMaxDistance: 0.9})
	tm, err := svc.CreateTeammate(user, "Quinn")
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second) // a wait fails instead of hanging
	defer cancel()
	asUser := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})
	asWorker := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialWorker})
	const each = 8
	errs := make(chan error, 2*each)
	var wg sync.WaitGroup
	for i := range each {
		wg.Go(func() {
			p, err := svc.RecallPreview(asUser, tm.ID, fmt.Sprintf("cello quartet %d", i))
			if err == nil && p.Vector.State != memory.VectorUsed {
				err = fmt.Errorf("recallPreview %d: vector search %v", i, p.Vector)
			}
			errs <- err
		})
		wg.Go(func() {
			r, err := svc.Worker().StartRun(asWorker, memory.StartRunInput{TeammateID: tm.ID, Message: fmt.Sprintf("which cello quartet, take %d?", i)})
			if err == nil && r.Packet.Vector.State != memory.VectorUsed {
				err = fmt.Errorf("startRun %d: vector search %v", i, r.Packet.Vector)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	used, err := in.Budget.Used(t.Context())
	require.NoError(t, err)
	require.Equal(t, 2*each, used, "every request reserved its unit of the budget")
	require.EqualValues(t, 2*each, endpoint.Requests.Load(), "and was embedded")
}

package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

// wait bounds the test's waits for the server (apitest.Wait; apitest imports this package).
const wait = 15 * time.Second

// GET /export takes one of the process's heavy slots, as the exportMemory query does. While every
// slot is taken a download waits; one whose client leaves meanwhile ends without running; once a
// slot is free the waiting one runs, and gives its slot back.
func TestExportTakesAHeavySlot(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.DiscardHandler)
	s := &server{Options: Options{Memory: memory.NewService(dbtest.Pool(t), log), Log: log}, budget: newOperationBudget(2)}
	require.Equal(t, 1, cap(s.budget.heavy), "a pool of 2 has one heavy slot")
	s.budget.heavy <- struct{}{} // a recall holds it

	download := func(ctx context.Context) (*httptest.ResponseRecorder, <-chan struct{}) {
		ctx = memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.export(rec, httptest.NewRequestWithContext(ctx, http.MethodGet, "/export?scope=shared", nil))
		}()
		return rec, done
	}
	leaving, cancel := context.WithCancel(t.Context())
	_, gone := download(leaving)
	rec, done := download(t.Context())
	select {
	case <-done:
		t.Fatalf("the export ran while every heavy slot was taken: HTTP %d", rec.Code)
	case <-gone:
		t.Fatal("the export ran while every heavy slot was taken")
	case <-time.After(300 * time.Millisecond):
	}
	cancel()
	select {
	case <-gone:
	case <-time.After(wait):
		t.Fatal("a download whose client left kept waiting")
	}

	<-s.budget.heavy // the recall ends
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("the waiting export did not run once the slot was free")
	}
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Contains(t, rec.Body.String(), `"format": "memory-export"`)
	require.Empty(t, s.budget.heavy, "the export gave its slot back")
}

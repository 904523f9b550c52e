package memory_test

import (
	"context"
	"log/slog"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

func benchSetup(b *testing.B) fixture {
	b.Helper()
	pool := dbtest.Pool(b)
	return fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}
}

// BenchmarkEditHotItem: one writer editing one item, each edit based on the last (R1, R2, G1 all
// paid: scope lock, revision row, item update, generation bump, NOTIFY).
func BenchmarkEditHotItem(b *testing.B) {
	f := benchSetup(b)
	item, err := f.svc.CreateMemory(user, memory.CreateInput{Content: "hot item"})
	require.NoError(b, err)
	base := item.Revision
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		out, err := f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: base, Content: ptr("edit " + strconv.Itoa(i))})
		if err != nil {
			b.Fatal(err)
		}
		base = out.Revision
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "edits/s")
}

// BenchmarkEdit64Scopes: 16 concurrent writers over 64 teammate scopes (no conflicts: each writer
// edits its own items), to show that scopes don't serialise each other.
func BenchmarkEdit64Scopes(b *testing.B) {
	f := benchSetup(b)
	type slot struct {
		id   string
		base atomic.Int64
	}
	slots := make([]*slot, 64)
	for i := range slots {
		tm, err := f.svc.CreateTeammate(user, "scope "+strconv.Itoa(i))
		require.NoError(b, err)
		item, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm.ID}, Content: "item"})
		require.NoError(b, err)
		slots[i] = &slot{id: item.ID}
		slots[i].base.Store(1)
	}
	var next atomic.Int64
	b.SetParallelism(8) // 8 × GOMAXPROCS(2) = 16 clients
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		// Each client owns the slots ≡ its number mod 16, so no two clients edit the same item.
		me := int(next.Add(1)-1) % 16
		for i := 0; pb.Next(); i++ {
			s := slots[me+16*(i%4)]
			out, err := f.svc.EditMemory(user, memory.EditInput{ID: s.id, BaseRevision: int(s.base.Load()), Content: ptr("edit " + strconv.Itoa(i))})
			if err != nil {
				b.Error(err)
				return
			}
			s.base.Store(int64(out.Revision))
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "edits/s")
}

// BenchmarkListFirstPage10k: memoryItems' first page (50) of a scope holding 10,000 active items.
func BenchmarkListFirstPage10k(b *testing.B) {
	f := benchSetup(b)
	tm, err := f.svc.CreateTeammate(user, "big")
	require.NoError(b, err)
	_, err = f.pool.Exec(context.Background(), `
		INSERT INTO memory_items (teammate_id, kind, content, status, source, pinned, content_hash)
		SELECT $1, 'fact', 'seeded fact number ' || g, 'active', 'user', g % 100 = 0, sha256(g::text::bytea)
		  FROM generate_series(1, 10000) g`, tm.ID)
	require.NoError(b, err)
	_, err = f.pool.Exec(context.Background(), `ANALYZE memory_items`)
	require.NoError(b, err)
	scope := memory.Scope{TeammateID: &tm.ID}
	b.ResetTimer()
	for b.Loop() {
		page, err := f.svc.ListItems(user, memory.ListFilter{Scope: scope})
		if err != nil || len(page.Items) != memory.DefaultPageSize {
			b.Fatal(err, len(page.Items))
		}
	}
}

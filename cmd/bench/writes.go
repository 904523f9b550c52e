package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

const writeClients = 16

const editMutation = `mutation($in: EditMemoryInput!) { editMemory(input: $in) { item { revision } } }`

// benchWrites is row 4: edits per second through the API by 16 clients, on one hot item and on 64
// items of 64 scopes, against the bare INSERT + NOTIFY transaction loop with the same clients. Edits
// of one item race by design (R2: an edit names the revision it is based on, and a stale one is a
// CONFLICT the client answers by editing on top of the current revision), so the hot item is also
// compared with the bare form of that race: the same loop doing a compare-and-set on one row first.
func (b *bench) benchWrites(ctx context.Context) ([]row, error) {
	if err := dropFloorIndex(ctx, b.pool); err != nil {
		return nil, err
	}
	if _, err := b.pool.Exec(ctx, `CREATE TABLE bench_floor (id bigserial PRIMARY KEY, scope int NOT NULL, content text NOT NULL);
		CREATE TABLE bench_lock (id int PRIMARY KEY, revision int NOT NULL); INSERT INTO bench_lock VALUES (1, 1)`); err != nil {
		return nil, err
	}
	// Each measurement runs in rounds, alternating with its floor, so that a change in the machine's
	// load during the phase falls on both alike.
	const rounds = 4
	slice := b.o.phase / rounds
	// The hot item is a teammate's: a change in the shared scope also re-renders About you from all
	// its items (the projection), which with this data's 2,000 shared items is its own cost.
	hotItem := func(int) []string { return b.hot[1:2] }
	spreadItems := func(c int) []string {
		var mine []string
		for i := c; i < len(b.hot); i += writeClients {
			mine = append(mine, b.hot[i])
		}
		return mine
	}
	var hot, spread, floor, serial throughput
	var hotConflicts int64
	for range rounds {
		n, conflicts, err := b.editLoop(ctx, slice, hotItem)
		if err != nil {
			return nil, err
		}
		hot.add(n, slice)
		hotConflicts += conflicts
		if n, err = b.floorWrites(ctx, slice, true); err != nil {
			return nil, err
		}
		serial.add(n, slice)
		if n, _, err = b.editLoop(ctx, slice, spreadItems); err != nil {
			return nil, err
		}
		spread.add(n, slice)
		if n, err = b.floorWrites(ctx, slice, false); err != nil {
			return nil, err
		}
		floor.add(n, slice)
	}
	if b.o.profile != "" {
		// The step's profiles cover its start, mostly the hot item and the floors; this one covers
		// the spread edits alone, after the measurement (writes-spread-*.pprof).
		const seconds = 30
		profiled := b.profileFor(ctx, "writes-spread", seconds)
		_, _, err := b.editLoop(ctx, seconds*time.Second+500*time.Millisecond, spreadItems)
		profiled()
		if err != nil {
			return nil, err
		}
	}
	return b.writeRows(hot.rate(), spread.rate(), floor.rate(), serial.rate(), hotConflicts), nil
}

// throughput sums operations over the rounds' durations.
type throughput struct {
	n int64
	d time.Duration
}

func (t *throughput) add(n int64, d time.Duration) { t.n, t.d = t.n+n, t.d+d }
func (t throughput) rate() float64                 { return float64(t.n) / t.d.Seconds() }

func (b *bench) writeRows(hot, spread, floor, serial float64, hotConflicts int64) []row {
	rate := func(x float64) string { return fmt.Sprintf("%.0f/s", x) }
	return []row{{
		name:     "Writes: edits of one hot item, 16 clients",
		measured: fmt.Sprintf("%s (%d conflicts retried)", rate(hot), hotConflicts),
		floor:    rate(floor) + "; with a compare-and-set on one row: " + rate(serial),
		ratio:    ratio(hot, floor) + "; " + ratio(hot, serial),
		target:   "≥ 50% of the floor",
		met:      yesNo(hot >= serial/2),
	}, {
		name:     "Writes: edits over 64 scopes, 16 clients",
		measured: rate(spread),
		floor:    rate(floor),
		ratio:    ratio(spread, floor),
		target:   "≥ 50% of the floor",
		met:      yesNo(spread >= floor/2),
	}}
}

// editLoop runs 16 clients editing their items (items(c) for client c) through the API for d; a
// CONFLICT is answered as a client would, by editing again on top of the current revision the error
// names. It returns the accepted edits and the conflicts met.
func (b *bench) editLoop(ctx context.Context, d time.Duration, items func(c int) []string) (int64, int64, error) {
	var done, conflicts atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, writeClients)
	start := time.Now()
	deadline := start.Add(d)
	// Each loop's texts differ from every other's: a client that edits the item it edited last in the
	// loop before, with the same words, would change nothing, and that edit is refused.
	loop := start.UnixNano()
	for c := range writeClients {
		wg.Go(func() {
			mine := items(c)
			revisions := map[string]int{}
			for n := 0; time.Now().Before(deadline); n++ {
				id := mine[n%len(mine)]
				if revisions[id] == 0 {
					var cur struct{ MemoryItem struct{ Revision int } }
					if err := b.do(ctx, b.apis[c%2], userToken, `query($id: ID!) { memoryItem(id: $id) { revision } }`, map[string]any{"id": id}, &cur); err != nil {
						errs <- err
						return
					}
					revisions[id] = cur.MemoryItem.Revision
				}
				var out struct {
					EditMemory struct{ Item struct{ Revision int } }
				}
				err := b.do(ctx, b.apis[c%2], userToken, editMutation, map[string]any{"in": map[string]any{
					"id": id, "baseRevision": revisions[id], "content": fmt.Sprintf("Edit %d by client %d in loop %d", n, c, loop),
				}}, &out)
				var ge *gqlError
				switch {
				case errors.As(err, &ge) && ge.Code == "CONFLICT":
					// The error names the current revision: edit again on top of it.
					conflicts.Add(1)
					revisions[id] = ge.CurrentRevision
				case err != nil:
					errs <- err
					return
				default:
					revisions[id] = out.EditMemory.Item.Revision
					done.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, 0, err
	}
	return done.Load(), conflicts.Load(), nil
}

// floorWrites runs the bare loop with 16 clients for one phase: a transaction of one INSERT and one
// NOTIFY. With race, each transaction first moves one shared row from the revision the client last
// saw to the next (UPDATE … WHERE revision = $seen); a client that lost the race reads the current
// revision from the failed UPDATE's answer and tries again, as API clients do on CONFLICT. It returns
// the committed edits.
func (b *bench) floorWrites(ctx context.Context, d time.Duration, race bool) (int64, error) {
	var done atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, writeClients)
	start := time.Now()
	deadline := start.Add(d)
	for c := range writeClients {
		wg.Go(func() {
			seen := 1
			for n := 0; time.Now().Before(deadline); n++ {
				won := true
				err := pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
					if race {
						var now int
						err := tx.QueryRow(ctx, `
							WITH moved AS (UPDATE bench_lock SET revision = revision + 1 WHERE id = 1 AND revision = $1 RETURNING revision)
							SELECT coalesce((SELECT revision FROM moved), (SELECT -revision FROM bench_lock WHERE id = 1))`, seen).Scan(&now)
						if err != nil {
							return err
						}
						if now < 0 {
							seen, won = -now, false
							return nil
						}
						seen = now
					}
					if _, err := tx.Exec(ctx, `INSERT INTO bench_floor (scope, content) VALUES ($1, $2)`, c, fmt.Sprintf("Edit %d by client %d", n, c)); err != nil {
						return err
					}
					_, err := tx.Exec(ctx, `SELECT pg_notify('bench_floor', $1)`, fmt.Sprint(c))
					return err
				})
				if err != nil {
					errs <- err
					return
				}
				if won {
					done.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	return done.Load(), nil
}

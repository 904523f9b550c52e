package memory_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// seedRecallItems inserts n active items visible to teammate tm — half shared, half its own — plus
// n/5 items of another teammate, and vacuums and analyses the tables, as autovacuum would. The
// contents are short sentences from a small vocabulary: every subject, verb, object and time of day
// is common (1 item in 10 to 30), and one item in 40 also names one of twenty rare words (1 in 800).
// One item in 5,000 is pinned.
func seedRecallItems(tb testing.TB, f fixture, tm string, n int) {
	tb.Helper()
	ctx := context.Background()
	var other string
	require.NoError(tb, f.pool.QueryRow(ctx, `INSERT INTO teammates (name) VALUES ('Bystander') RETURNING id::text`).Scan(&other))
	// The test cluster commits asynchronously, and a row's commit can't be marked on it (nor its
	// page all-visible, which index-only scans need) before the commit record is flushed: this
	// commit waits for it, and the VACUUM below runs before the ANALYZE (which commits
	// asynchronously), so that it marks the pages all-visible as autovacuum would.
	err := pgx.BeginFunc(ctx, f.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL synchronous_commit = on`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
		INSERT INTO memory_items (teammate_id, kind, content, status, source, pinned, content_hash)
		SELECT CASE WHEN g > $3 THEN $2::uuid WHEN g % 2 = 0 THEN NULL ELSE $1::uuid END,
		       (ARRAY['fact', 'preference', 'lesson', 'note'])[1 + g % 4],
		       v.subjects[1 + (hashint4(g) & 2147483647) % cardinality(v.subjects)] || ' ' ||
		       v.verbs[1 + (hashint4(g + 7919) & 2147483647) % cardinality(v.verbs)] || ' ' ||
		       v.objects[1 + (hashint4(g + 104729) & 2147483647) % cardinality(v.objects)] || ' ' ||
		       v.tails[1 + (hashint4(g + 1299709) & 2147483647) % cardinality(v.tails)] ||
		       CASE WHEN g % 40 = 0
		            THEN ', see ' || v.rare[1 + (hashint4(g + 15485863) & 2147483647) % cardinality(v.rare)]
		            ELSE '' END || '.',
		       'active', 'user', g % 5000 = 0, sha256(g::text::bytea)
		  FROM generate_series(1, $3 + $3 / 5) g,
		       (SELECT '{The user,Ada,My sister,Our team,The client,My manager,The landlord,Grandma,The dentist,Bob}'::text[] AS subjects,
		               '{prefers,likes,avoids,uses,needs,remembers,orders,recommends,dislikes,booked}'::text[] AS verbs,
		               '{green tea,black coffee,oat milk,the window seat,early meetings,long walks,spicy food,the blue notebook,jazz records,train tickets,a standing desk,dark mode,paper invoices,weekly reports,the old laptop,sparkling water,vegetarian meals,morning runs,quiet rooms,video calls,short emails,printed maps,red wine,hiking boots,the gym,bike rides,sushi,Italian food,board games,audiobooks}'::text[] AS objects,
		               '{in the morning,on weekends,for meetings,at work,when travelling,after lunch,before bed,on Mondays,during holidays,at home,with friends,in winter,in summer,for birthdays,on the train}'::text[] AS tails,
		               '{zeppelin,quokka,marzipan,tamarind,kumquat,origami,xylophone,yurt,fjord,harpsichord,saffron,obsidian,narwhal,bonsai,kombucha,theremin,ukulele,pangolin,axolotl,sourdough}'::text[] AS rare) AS v`,
			tm, other, n)
		return err
	})
	require.NoError(tb, err)
	_, err = f.pool.Exec(ctx, `VACUUM memory_items, memory_terms, memory_term_df`)
	require.NoError(tb, err)
	_, err = f.pool.Exec(ctx, `ANALYZE memory_items, memory_terms, memory_term_df`)
	require.NoError(tb, err)
}

// recallBenchRequests are turns a user might send: common words only, rare words, a mix, and
// one with no searchable word.
var recallBenchRequests = []string{
	"What does grandma like for breakfast on weekends?",
	"Remind me which kombucha and sourdough place we booked",
	"Can you book train tickets for the client after lunch?",
	"Draft a short email to my manager about the weekly reports",
	"Is the quokka or the narwhal on the origami list?",
	"Thanks!",
}

// recallFloorSQL is the bare full-text query — the same words' lexemes OR-ed (each quoted, as recall
// quotes them: a word may hold punctuation), the same visibility, ranked by ts_rank_cd, top 30 —
// without pinned items, vector search, fusion or rendering: the floor that packet building is
// compared with.
const recallFloorSQL = `
	SELECT id, ts_rank_cd(search, q) AS rank
	  FROM memory_items,
	       (SELECT array_to_string(array_agg('''' || replace(replace(w.lexeme, '\', '\\'), '''', '''''') || ''''), ' | ')::tsquery AS q
	          FROM unnest(to_tsvector('english', $2::text)) AS w) AS l
	 WHERE search @@ q AND scope IN ('shared', $1) AND status = 'active'
	   AND (expires_at IS NULL OR expires_at > now())
	 ORDER BY rank DESC
	 LIMIT 30`

// BenchmarkRecall builds packets (BuildPacketTx in a transaction, as StartRun does; full text only)
// at 10,000 and 100,000 visible items, and measures the bare full-text query on the same database in
// the same run. Each reports its p50 and p99 over the requests above, taken in turn.
func BenchmarkRecall(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"10k", 10_000}, {"100k", 100_000}} {
		b.Run(size.name, func(b *testing.B) {
			f := benchSetup(b)
			t, err := f.svc.CreateTeammate(user, "Bench")
			require.NoError(b, err)
			tm := t.ID
			seedRecallItems(b, f, tm, size.n)
			ctx := context.Background()
			b.Run("Packet", func(b *testing.B) {
				measure(b, func(i int) error {
					q, err := memory.PrepareRecall(ctx, f.svc, tm, recallBenchRequests[i%len(recallBenchRequests)])
					if err != nil {
						return err
					}
					return pgx.BeginFunc(ctx, f.pool, func(tx pgx.Tx) error {
						_, err := memory.BuildPacketTx(ctx, f.svc, tx, tm, q)
						return err
					})
				})
			})
			b.Run("Floor", func(b *testing.B) {
				words := make([]string, len(recallBenchRequests))
				for i, r := range recallBenchRequests {
					words[i] = memory.RequestWords(r)
				}
				measure(b, func(i int) error {
					rows, err := f.pool.Query(ctx, recallFloorSQL, tm, words[i%len(words)])
					if err != nil {
						return err
					}
					rows.Close()
					return rows.Err()
				})
			})
		})
	}
}

// measure runs op once per iteration and reports the p50 and p99 of its durations.
func measure(b *testing.B, op func(i int) error) {
	b.Helper()
	var durations []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
	}
	slices.Sort(durations)
	at := func(q float64) float64 {
		return float64(durations[int(q*float64(len(durations)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

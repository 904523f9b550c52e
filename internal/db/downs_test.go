package db_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/migrations"
)

// seedDir holds one SQL file per migration version (000001.sql …) that TestDownsStepByStep runs
// after migrating up to that version: rows for the tables and columns the migration adds, and the
// rows its down deletes. A version without a file adds nothing that holds data.
const seedDir = "testdata/seed"

// rowsLost are the rows that lossy downs delete from tables that stay, as a query per table run just
// before the down: the table must lose exactly that many rows (and the seed must have made it more
// than none). Every other table keeps its rows unchanged, in the columns it keeps.
var rowsLost = map[uint]map[string]string{
	4: {"lessons": `SELECT count(*) FROM lessons WHERE teammate_id IS NULL`},
	6: {
		"memory_items":     `SELECT count(*) FROM memory_items WHERE proposes_forget`,
		"memory_revisions": `SELECT count(*) FROM memory_revisions r JOIN memory_items i ON i.id = r.item_id WHERE i.proposes_forget`,
	},
	8: {"memory_revisions": `SELECT count(*) FROM memory_revisions WHERE action IN ('dismiss', 'resolve')`},
}

// notLossy are the downs that drop or delete data and yet lose nothing, each with the reason.
var notLossy = map[string]string{
	"000010_recall_terms.down.sql":       "memory_terms is derived from memory_items: 000010's up rebuilds it",
	"000012_lighter_writes.down.sql":     "its DELETEs are in the body of the trigger function it puts back; the migration runs none",
	"000022_recall_bm25.down.sql":        "memory_term_scopes is derived from memory_items: 000022's up rebuilds it",
	"000023_recall_df.down.sql":          "memory_term_df is derived from memory_terms: 000023's up rebuilds it",
	"000024_vector_sketch.down.sql":      "memory_sketches is derived from memory_embeddings: 000024's up rebuilds it",
	"000026_sketch_scan_key.down.sql":    "scan_key is generated from the row's other columns: 000026's up computes it again",
	"000027_recall_length.down.sql":      "the lengths are derived from the items' search vectors: 000027's up computes them again",
	"000028_sketch_hash_key.down.sql":    "scan_hash is generated from the row's other columns: 000028's up computes it again",
	"000029_sketch_hash_sha256.down.sql": "scan_hash is generated from the row's other columns: the UPDATE computes it again, as 000029's up does",
}

// dataStatement matches the statements of a down that can lose data: rows deleted or overwritten,
// tables or columns dropped, columns retyped.
var dataStatement = regexp.MustCompile(`(?i)\b(?:DELETE\s+FROM|TRUNCATE|UPDATE\s+\S+\s+SET|DROP\s+(?:TABLE|COLUMN|SCHEMA|MATERIALIZED\s+VIEW)|` +
	`ALTER\s+COLUMN\s+\S+\s+(?:SET\s+DATA\s+)?TYPE)\b`)

// sqlComment is a comment to the end of the line (the migrations quote no "--" in strings).
var sqlComment = regexp.MustCompile(`--[^\n]*`)

// TestDataLosingDownsAreMarked reads every down migration: one that deletes, overwrites or drops data
// must say what it loses on its first line (db.LossyMarker), or be listed in notLossy with the reason
// it loses nothing. db.LossyDowns must find exactly the marked ones, with the marker's whole text.
func TestDataLosingDownsAreMarked(t *testing.T) {
	t.Parallel()
	names, err := fs.Glob(migrations.FS, "*.down.sql")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for name := range notLossy {
		require.Contains(t, names, name, "notLossy lists a down that doesn't exist")
	}
	marked := map[string]string{} // file: its marker block, comment dashes removed
	for _, name := range names {
		text, err := fs.ReadFile(migrations.FS, name)
		require.NoError(t, err)
		sql := string(text)
		statements := dataStatement.FindAllString(sqlComment.ReplaceAllString(sql, ""), -1)
		lossy := strings.HasPrefix(sql, db.LossyMarker)
		reason, listed := notLossy[name]
		switch {
		case lossy && listed:
			t.Errorf("%s is marked lossy and listed in notLossy (%s): which is it?", name, reason)
		case listed && len(statements) == 0:
			t.Errorf("%s is listed in notLossy but drops or deletes nothing: take it off the list", name)
		case !lossy && !listed && len(statements) > 0:
			t.Errorf("%s runs %q: a down that drops, deletes or overwrites data must start with %q and say what "+
				"it loses, or be listed in notLossy with the reason it loses nothing", name, statements, db.LossyMarker+" …")
		}
		if lossy {
			block, _, _ := strings.Cut(sql, "\n--\n")
			var words []string
			for line := range strings.Lines(block) {
				if rest, ok := strings.CutPrefix(line, "--"); ok {
					words = append(words, strings.Fields(rest)...)
				} else {
					break
				}
			}
			marked[name] = strings.Join(words, " ")
		}
	}
	downs, err := db.LossyDowns()
	require.NoError(t, err)
	found := map[string]string{}
	for i, d := range downs {
		require.True(t, strings.HasPrefix(d.File, fmt.Sprintf("%06d_", d.Version)), "%+v", d)
		if i > 0 {
			require.Greater(t, d.Version, downs[i-1].Version, "oldest first")
		}
		require.NotEmpty(t, d.Loses, d.File)
		found[d.File] = "lossy: " + d.Loses
	}
	require.Equal(t, marked, found, "LossyDowns reads each marker block whole, up to the bare \"--\" line")
}

// TestDownsStepByStep migrates an empty database up one migration at a time, seeding the rows of
// testdata/seed at each version (every table then holds rows), then down one at a time to none. Each
// down must leave exactly the schema the up to that version built (pg_dump, normalised) and keep
// every row of the tables that stay, in the columns they keep, except the rows rowsLost lists. A
// lossy down must be refused without db.AllowLossy, changing nothing, and its marker must name each
// table and column it drops. After each down the up runs again over the data the down left: back to
// the same schema, and after a down that loses nothing, to the very same rows.
func TestDownsStepByStep(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	databaseURL := emptyDatabase(t)
	conn, err := pgx.Connect(ctx, databaseURL)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	// The extensions outlive the downs that don't create them (they are the owner's): created first,
	// they are in every version's schema alike.
	_, err = conn.Exec(ctx, `CREATE EXTENSION vector; CREATE EXTENSION btree_gin`)
	require.NoError(t, err)
	requireVersion(t, databaseURL, 0) // creates golang-migrate's table

	versions := migrationVersions(t)
	lossy := map[uint]db.LossyDown{}
	all, err := db.LossyDowns()
	require.NoError(t, err)
	for _, d := range all {
		lossy[d.Version] = d
	}
	for v := range rowsLost {
		require.Contains(t, lossy, v, "rowsLost lists migration %d, whose down isn't marked lossy", v)
	}

	schemas := map[uint]string{0: schemaDump(t, databaseURL)}
	columns := map[uint]map[string][]string{0: tableColumns(t, conn)}
	for _, v := range versions {
		require.NoError(t, db.MigrateTo(databaseURL, v, db.RefuseLossy), "up to %d", v)
		schemas[v] = schemaDump(t, databaseURL)
		seed, err := os.ReadFile(fmt.Sprintf("%s/%06d.sql", seedDir, v))
		if !errors.Is(err, fs.ErrNotExist) {
			require.NoError(t, err)
			_, err = conn.Exec(ctx, string(seed))
			require.NoError(t, err, "seed of %d", v)
		}
		columns[v] = tableColumns(t, conn)
		requireGeneratedCurrent(t, conn, fmt.Sprintf("up to %d", v))
		for table, s := range tableStates(t, conn, columns[v]) {
			require.NotZero(t, s.rows, "at version %d table %s is empty: add rows for it to %s/%06d.sql", v, table, seedDir, v)
		}
	}

	for i := len(versions) - 1; i >= 0; i-- {
		v, prev := versions[i], uint(0)
		if i > 0 {
			prev = versions[i-1]
		}
		// The tables that stay, in the columns they keep, and all of them whole.
		for table, cols := range columns[prev] {
			require.Contains(t, columns[v], table, "migration %d's down creates table %s", v, table)
			for _, c := range cols {
				require.Contains(t, columns[v][table], c, "migration %d's down creates column %s.%s", v, table, c)
			}
		}
		before := tableStates(t, conn, columns[prev])
		full := tableStates(t, conn, columns[v])
		lost := map[string]int{}
		for table, query := range rowsLost[v] {
			var n int
			require.NoError(t, conn.QueryRow(ctx, query).Scan(&n))
			require.Positive(t, n, "the seed has no rows that migration %d's down deletes from %s", v, table)
			lost[table] = n
		}

		d, isLossy := lossy[v]
		if isLossy {
			err := db.MigrateTo(databaseURL, prev, db.RefuseLossy)
			var loss *db.LossError
			require.ErrorAs(t, err, &loss, "down from %d", v)
			require.Equal(t, &db.LossError{From: v, To: prev, Downs: []db.LossyDown{d}}, loss)
			requireVersion(t, databaseURL, v)
			require.Equal(t, columns[v], tableColumns(t, conn), "a refused down changes nothing")
			require.Equal(t, full, tableStates(t, conn, columns[v]), "a refused down changes nothing")
			// The marker names each table and column the down drops (the first migration's: all of
			// them), and what it drops held data: the seed makes the loss real.
			for table, cols := range columns[v] {
				kept, stays := columns[prev][table]
				if !stays && prev != 0 {
					require.Contains(t, d.Loses, table, "%s drops table %s: its marker must name it", d.File, table)
				}
				for _, c := range cols {
					if stays && !slices.Contains(kept, c) {
						require.Contains(t, d.Loses, c, "%s drops column %s.%s: its marker must name it", d.File, table, c)
						require.True(t, hasValue(t, conn, table, c), "the seed leaves %s.%s, which migration %d's down drops, empty", table, c, v)
					}
				}
			}
		} else {
			require.Empty(t, rowsLost[v])
		}
		require.NoError(t, db.MigrateTo(databaseURL, prev, db.AllowLossy), "down from %d", v)
		requireVersion(t, databaseURL, prev)
		requireSchema(t, schemas[prev], schemaDump(t, databaseURL), "the down of %d leaves the schema the up to %d built", v, prev)
		requireGeneratedCurrent(t, conn, fmt.Sprintf("down from %d", v))
		after := tableStates(t, conn, columns[prev])
		for table := range columns[prev] {
			if n, ok := lost[table]; ok {
				require.Equal(t, before[table].rows-n, after[table].rows, "the down of %d deletes %d rows of %s", v, n, table)
			} else {
				require.Equal(t, before[table], after[table], "the down of %d keeps %s", v, table)
			}
		}

		// Up again over what the down left.
		require.NoError(t, db.MigrateTo(databaseURL, v, db.RefuseLossy), "up to %d again", v)
		requireSchema(t, schemas[v], schemaDump(t, databaseURL), "up to %d again", v)
		again := tableStates(t, conn, columns[v])
		for table := range columns[v] {
			if !isLossy {
				require.Equal(t, full[table], again[table], "down and up again through %d, which loses nothing, keeps %s", v, table)
			} else if _, stays := columns[prev][table]; stays {
				require.Equal(t, after[table].rows, again[table].rows, "up to %d again keeps the rows of %s", v, table)
			}
		}
		require.NoError(t, db.MigrateTo(databaseURL, prev, db.AllowLossy), "down from %d again", v)
		require.Equal(t, columns[prev], tableColumns(t, conn), "down from %d again", v)
	}

	require.NoError(t, db.MigrateUp(databaseURL))
	requireSchema(t, schemas[versions[len(versions)-1]], schemaDump(t, databaseURL), "up from none again")
}

// state is what a table holds in some of its columns: the number of rows and an md5 of them all.
type state struct {
	rows int
	md5  string
}

// tableStates reads what each table of columns holds in the columns listed for it, in one query.
// Stored generated columns are left out: the database computes them from the row's other columns,
// and a down may compute them again by another definition (000029's does); requireGeneratedCurrent
// checks them.
func tableStates(t *testing.T, conn *pgx.Conn, columns map[string][]string) map[string]state {
	t.Helper()
	out := map[string]state{}
	if len(columns) == 0 {
		return out
	}
	generated := generatedColumns(t, conn)
	var parts []string
	for table, cols := range columns {
		var quoted []string
		for _, c := range cols {
			if _, ok := generated[table+"."+c]; !ok {
				quoted = append(quoted, pgx.Identifier{c}.Sanitize())
			}
		}
		parts = append(parts, fmt.Sprintf(`SELECT %s::text, count(*), coalesce(md5(string_agg(r::text, E'\n' ORDER BY r::text)), '')
			FROM (SELECT %s FROM %s) r`, quoteLiteral(table), strings.Join(quoted, ", "), pgx.Identifier{table}.Sanitize()))
	}
	rows, err := conn.Query(t.Context(), strings.Join(parts, " UNION ALL "))
	require.NoError(t, err)
	for rows.Next() {
		var table string
		var s state
		require.NoError(t, rows.Scan(&table, &s.rows, &s.md5))
		out[table] = s
	}
	require.NoError(t, rows.Err())
	require.Len(t, out, len(columns))
	return out
}

// quoteLiteral quotes s as an SQL string literal.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// hasValue reports whether column of table holds anything but NULL.
func hasValue(t *testing.T, conn *pgx.Conn, table, column string) bool {
	t.Helper()
	var found bool
	err := conn.QueryRow(t.Context(), `SELECT EXISTS (SELECT FROM `+pgx.Identifier{table}.Sanitize()+
		` WHERE `+pgx.Identifier{column}.Sanitize()+` IS NOT NULL)`).Scan(&found)
	require.NoError(t, err)
	return found
}

// tableColumns lists the columns of every table of the public schema but golang-migrate's.
func tableColumns(t *testing.T, conn *pgx.Conn) map[string][]string {
	t.Helper()
	rows, err := conn.Query(t.Context(), `
		SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position)
		  FROM information_schema.columns c
		  JOIN information_schema.tables t USING (table_schema, table_name)
		 WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
		 GROUP BY c.table_name`)
	require.NoError(t, err)
	out := map[string][]string{}
	for rows.Next() {
		var table string
		var cols []string
		require.NoError(t, rows.Scan(&table, &cols))
		out[table] = cols
	}
	require.NoError(t, rows.Err())
	return out
}

// generatedColumns are the stored generated columns of the public tables ("table.column") with
// their expressions.
func generatedColumns(t *testing.T, conn *pgx.Conn) map[string]string {
	t.Helper()
	rows, err := conn.Query(t.Context(), `
		SELECT c.relname || '.' || a.attname, pg_get_expr(d.adbin, d.adrelid)
		  FROM pg_attribute a
		  JOIN pg_class c ON c.oid = a.attrelid
		  JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		 WHERE c.relnamespace = 'public'::regnamespace AND a.attgenerated = 's' AND NOT a.attisdropped`)
	require.NoError(t, err)
	out := map[string]string{}
	for rows.Next() {
		var column, expr string
		require.NoError(t, rows.Scan(&column, &expr))
		out[column] = expr
	}
	require.NoError(t, rows.Err())
	return out
}

// requireGeneratedCurrent fails when a stored generated column holds a value its expression doesn't
// give: a migration that redefined a function the expression calls without computing the column
// again.
func requireGeneratedCurrent(t *testing.T, conn *pgx.Conn, when string) {
	t.Helper()
	for column, expr := range generatedColumns(t, conn) {
		table, name, _ := strings.Cut(column, ".")
		var stale int
		require.NoError(t, conn.QueryRow(t.Context(), fmt.Sprintf(`SELECT count(*) FROM %s WHERE %s IS DISTINCT FROM (%s)`,
			pgx.Identifier{table}.Sanitize(), pgx.Identifier{name}.Sanitize(), expr)).Scan(&stale))
		require.Zero(t, stale, "%s: %s holds values its expression doesn't give", when, column)
	}
}

// migrationVersions lists the embedded migrations' versions, oldest first.
func migrationVersions(t *testing.T) []uint {
	t.Helper()
	names, err := fs.Glob(migrations.FS, "*.up.sql")
	require.NoError(t, err)
	var versions []uint
	for _, name := range names {
		n, err := strconv.ParseUint(strings.SplitN(name, "_", 2)[0], 10, 0)
		require.NoError(t, err)
		versions = append(versions, uint(n))
	}
	slices.Sort(versions)
	return versions
}

// MigrateTo and MigrateDown refuse to run a lossy down without db.AllowLossy, before running any
// down (a lossless one on the way included), name each lossy down and what it loses, and change
// nothing; downs that lose nothing and ups need no flag.
func TestMigrateToRefusesLossyDowns(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	databaseURL := dbtest.URL(t)
	latest, err := db.LatestVersion()
	require.NoError(t, err)
	require.NoError(t, db.MigrateTo(databaseURL, 17, db.AllowLossy))
	conn, err := pgx.Connect(ctx, databaseURL)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	for _, v := range []int{1, 16} {
		seed, err := os.ReadFile(fmt.Sprintf("%s/%06d.sql", seedDir, v))
		require.NoError(t, err)
		_, err = conn.Exec(ctx, string(seed))
		require.NoError(t, err)
	}
	suppressed := func() (n int) {
		t.Helper()
		require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM memory_suppressed`).Scan(&n))
		return n
	}
	schema := schemaDump(t, databaseURL)

	// 17 → 15 runs 000017's down, which loses nothing, then 000016's, which is lossy.
	err = db.MigrateTo(databaseURL, 15, db.RefuseLossy)
	var loss *db.LossError
	require.ErrorAs(t, err, &loss)
	require.Equal(t, uint(17), loss.From)
	require.Equal(t, uint(15), loss.To)
	require.Len(t, loss.Downs, 1)
	require.Equal(t, "000016_no_oracle.down.sql", loss.Downs[0].File)
	require.Contains(t, loss.Downs[0].Loses, "memory_suppressed")
	for _, want := range []string{"from 17 to 15", "nothing was changed", "000016_no_oracle.down.sql loses " + loss.Downs[0].Loses, "--allow-lossy", "api backup"} {
		require.Contains(t, err.Error(), want)
	}
	requireVersion(t, databaseURL, 17)
	requireSchema(t, schema, schemaDump(t, databaseURL), "not even 000017's down ran")
	require.Equal(t, 1, suppressed())

	require.NoError(t, db.MigrateTo(databaseURL, 16, db.RefuseLossy), "000017's down loses nothing: no flag needed")
	requireVersion(t, databaseURL, 16)
	require.Equal(t, 1, suppressed())
	require.ErrorAs(t, db.MigrateTo(databaseURL, 15, db.RefuseLossy), &loss)
	requireVersion(t, databaseURL, 16)
	require.NoError(t, db.MigrateTo(databaseURL, 15, db.AllowLossy))
	requireVersion(t, databaseURL, 15)
	require.NoError(t, db.MigrateTo(databaseURL, latest, db.RefuseLossy), "going up needs no flag")
	requireVersion(t, databaseURL, latest)
	require.Zero(t, suppressed(), "the lossy down lost them; going up doesn't bring them back")

	// Down to nothing: every lossy down is named, newest first.
	err = db.MigrateDown(databaseURL, db.RefuseLossy)
	require.ErrorAs(t, err, &loss)
	all, err := db.LossyDowns()
	require.NoError(t, err)
	slices.Reverse(all)
	require.Equal(t, &db.LossError{From: latest, To: 0, Downs: all}, loss)
	require.Equal(t, uint(1), all[len(all)-1].Version, "the first migration's down drops every table")
	require.ErrorAs(t, db.MigrateTo(databaseURL, 0, db.RefuseLossy), &loss)
	requireVersion(t, databaseURL, latest)
	var teammates int
	require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM teammates`).Scan(&teammates))
	require.Equal(t, 2, teammates)

	require.ErrorContains(t, db.MigrateTo(databaseURL, 3, db.AllowLossy), "not a migration of this binary")
	require.ErrorContains(t, db.MigrateTo(databaseURL, latest+1, db.AllowLossy), "not a migration of this binary")
	requireVersion(t, databaseURL, latest)
	require.NoError(t, db.MigrateTo(databaseURL, 0, db.AllowLossy))
	requireVersion(t, databaseURL, 0)
	require.Equal(t, []string{"schema_migrations"}, tables(t, databaseURL))
	require.NoError(t, db.MigrateDown(databaseURL, db.RefuseLossy), "nothing left to lose")
}

// A down that fails has changed nothing: the schema is left clean at the migration whose down failed,
// after the downs before it — not at the version golang-migrate marked dirty, which is the one the
// failed step went to.
func TestFailedDownStopsCleanAtItsMigration(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	databaseURL := dbtest.URL(t)
	conn, err := pgx.Connect(ctx, databaseURL)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	// 000013's down drops memory_items.wait_words, which this view needs.
	_, err = conn.Exec(ctx, `CREATE VIEW waiting_words AS SELECT wait_words FROM memory_items`)
	require.NoError(t, err)
	err = db.MigrateTo(databaseURL, 10, db.AllowLossy)
	require.ErrorContains(t, err, "the down of migration 13")
	require.ErrorContains(t, err, "nothing of it was applied")
	require.NotContains(t, err.Error(), "DROP COLUMN", "no migration SQL in the error")
	requireVersion(t, databaseURL, 13)
	_, err = conn.Exec(ctx, `DROP VIEW waiting_words`)
	require.NoError(t, err)
	require.NoError(t, db.MigrateTo(databaseURL, 1, db.AllowLossy))
	requireVersion(t, databaseURL, 1)

	// The first migration's down: golang-migrate marks "no version" dirty, and reports no version.
	_, err = conn.Exec(ctx, `CREATE VIEW names AS SELECT name FROM teammates`)
	require.NoError(t, err)
	err = db.MigrateDown(databaseURL, db.AllowLossy)
	require.ErrorContains(t, err, "the down of migration 1")
	requireVersion(t, databaseURL, 1)
	_, err = conn.Exec(ctx, `DROP VIEW names`)
	require.NoError(t, err)
	require.NoError(t, db.MigrateDown(databaseURL, db.AllowLossy))
	requireVersion(t, databaseURL, 0)

	// A schema marked dirty is refused, not guessed at.
	require.NoError(t, db.MigrateUp(databaseURL))
	_, err = conn.Exec(ctx, `UPDATE schema_migrations SET dirty = true`)
	require.NoError(t, err)
	latest, err := db.LatestVersion()
	require.NoError(t, err)
	require.ErrorContains(t, db.MigrateTo(databaseURL, 10, db.AllowLossy), "marked dirty at version")
	version, dirty, err := db.Version(databaseURL)
	require.NoError(t, err)
	require.True(t, dirty)
	require.Equal(t, latest, version)
}

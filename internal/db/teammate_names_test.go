package db_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
)

// TestTeammateNamesMigrationNumbersClashes: migration 000019 keeps the oldest of the teammates whose
// names clash (ignoring case and spaces around them) as it is and numbers the later ones with the
// first number no teammate has; after it, a clashing name can't be written.
func TestTeammateNamesMigrationNumbersClashes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	databaseURL := emptyDatabase(t)
	conn, err := pgx.Connect(ctx, databaseURL)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, `CREATE EXTENSION vector; CREATE EXTENSION btree_gin`)
	require.NoError(t, err)
	require.NoError(t, db.MigrateTo(databaseURL, 18, db.RefuseLossy))
	_, err = conn.Exec(ctx, `INSERT INTO teammates (id, name, created_at) VALUES
		('a0000000-0000-4000-8000-000000000001', 'Ada', now() - interval '4 days'),
		('a0000000-0000-4000-8000-000000000002', ' ada ', now() - interval '3 days'),
		('a0000000-0000-4000-8000-000000000003', 'Ada (2)', now() - interval '2 days'),
		('a0000000-0000-4000-8000-000000000004', 'ADA', now() - interval '1 day'),
		('a0000000-0000-4000-8000-000000000005', 'Bo', now())`)
	require.NoError(t, err)
	require.NoError(t, db.MigrateTo(databaseURL, 19, db.RefuseLossy))

	rows, err := conn.Query(ctx, `SELECT name FROM teammates ORDER BY created_at`)
	require.NoError(t, err)
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	assert.Equal(t, []string{"Ada", "ada (3)", "Ada (2)", "ADA (4)", "Bo"}, names)

	_, err = conn.Exec(ctx, `INSERT INTO teammates (name) VALUES ('bo ')`)
	require.ErrorContains(t, err, "teammates_name_key")
}

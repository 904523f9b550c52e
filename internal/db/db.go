package db

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/golang-migrate/migrate/v4"
	_ "github.com/golang-migrate/migrate/v4/database/pgx/v5" // registers the pgx5:// driver
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/migrations"
)

// Open connects a pool to databaseURL with pgx's defaults and checks that the server answers
// (cmd/worker, tests). The API opens its pools with OpenPool.
func Open(ctx context.Context, databaseURL string) (*pgxpool.Pool, error) {
	return OpenPool(ctx, databaseURL, PoolOptions{})
}

// PoolOptions shape a pool; the zero value keeps pgx's defaults and whatever the URL says.
type PoolOptions struct {
	// MaxConns is the pool's size (MEMORY_DB_MAX_CONNS); 0 keeps the URL's pool_max_conns or pgx's
	// default.
	MaxConns int
	// StatementTimeout is PostgreSQL's statement_timeout on every connection of the pool
	// (MEMORY_DB_STATEMENT_TIMEOUT), so that no statement can hold a connection longer; 0 keeps
	// the server's setting.
	StatementTimeout time.Duration
	// ApplicationName names the pool's sessions in pg_stat_activity, unless the URL names them.
	ApplicationName string
	// AfterConnect runs after each new connection is set up. The API uses it to tell the event
	// listener that the database is reachable again, so it reconnects at once instead of finishing
	// its backoff.
	AfterConnect func()
}

// cancelFallback is how long a cancelled statement may take to stop on the server before its
// connection is cut (CancelByRequest).
const cancelFallback = time.Second

// CancelByRequest makes a cancelled context stop the running statement on the server, by a cancel
// request, instead of cutting the connection at once (pgx's default). The connection then stays
// usable, so a transaction cut short by its request's cancellation still sends its ROLLBACK and
// releases its locks before the request returns (memory's oneTx); with the connection cut, the
// server kept them until it noticed, up to hundreds of milliseconds later (TestTxAttackCancel*).
// A server that hasn't answered within cancelFallback gets its connection cut as before.
func CancelByRequest(cfg *pgconn.Config) {
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: cancelFallback}
	}
}

// OpenPool connects a pool to databaseURL shaped by o and checks that the server answers.
func OpenPool(ctx context.Context, databaseURL string, o PoolOptions) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = int32(min(o.MaxConns, math.MaxInt32))
	}
	CancelByRequest(&cfg.ConnConfig.Config)
	params := cfg.ConnConfig.RuntimeParams
	if o.StatementTimeout > 0 {
		params["statement_timeout"] = strconv.FormatInt(max(o.StatementTimeout.Milliseconds(), 1), 10)
	}
	if _, named := params["application_name"]; !named && o.ApplicationName != "" {
		params["application_name"] = o.ApplicationName
	}
	if o.AfterConnect != nil {
		cfg.AfterConnect = func(context.Context, *pgx.Conn) error {
			o.AfterConnect()
			return nil
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ping database: %w", err)
	}
	return pool, nil
}

// HealthPoolConns is the size of the pool that answers /readyz: its own connections, so that a
// health check never queues behind requests for the last connection of the request pool.
const HealthPoolConns = 2

// OpenHealthPool opens the small pool /readyz uses (HealthPoolConns connections, with a short
// statement timeout: a health check that takes seconds has already failed).
func OpenHealthPool(ctx context.Context, databaseURL string, afterConnect func()) (*pgxpool.Pool, error) {
	return OpenPool(ctx, databaseURL, PoolOptions{
		MaxConns: HealthPoolConns, StatementTimeout: 2 * time.Second,
		ApplicationName: "memory-health", AfterConnect: afterConnect,
	})
}

// newMigrate builds a golang-migrate instance over the embedded files for databaseURL
// (a postgres:// or postgresql:// URL; the pgx5 scheme is substituted here).
func newMigrate(databaseURL string) (*migrate.Migrate, error) {
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		return nil, fmt.Errorf("read embedded migrations: %w", err)
	}
	u, err := url.Parse(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	if u.Scheme == "postgres" || u.Scheme == "postgresql" {
		u.Scheme = "pgx5"
	} else if !strings.HasPrefix(u.Scheme, "pgx") {
		return nil, fmt.Errorf("database URL scheme %q: want postgres://", u.Scheme)
	}
	m, err := migrate.NewWithSourceInstance("iofs", src, u.String())
	if err != nil {
		return nil, fmt.Errorf("open migrations: %w", err)
	}
	return m, nil
}

// MigrateUp applies every pending migration. It is a no-op when the schema is current. It first
// checks that the extensions the schema needs exist or can be created (CheckExtensions), and a
// migration that fails leaves the schema at the version before it, not dirty (migrationFailed).
func MigrateUp(databaseURL string) error {
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	if err := CheckExtensions(ctx, databaseURL); err != nil {
		return err
	}
	m, err := newMigrate(databaseURL)
	if err != nil {
		return err
	}
	defer m.Close()
	if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return migrationFailed(m, err, false)
	}
	return nil
}

// MigrateTo migrates up or down to version (`api migrate to N`: before running an older api, or to
// build the schema of an earlier release); 0 reverts every migration, as MigrateDown does. version
// must be 0 or a migration of this binary.
//
// Going down can lose data. A down migration that does says so in its file, on a first line
// "-- lossy: what is lost" (LossyMarker; LossyDowns lists them): it deletes rows the older schema
// can't hold, drops a table or a column with what it holds, or leaves data that the older code reads
// wrongly (such as tombstone hashes it no longer recognises). Before running anything, MigrateTo looks
// at every down between the database's version and version; when one of them is lossy and lossy is
// RefuseLossy, it returns a *LossError that names each such down and what it loses, and changes
// nothing. With AllowLossy (`api migrate to N --allow-lossy`) it runs them: back the database up
// first (`api backup`), because migrating up again doesn't bring the data back — the up recreates
// the tables and columns empty or with their defaults. The decision goes by the files, not by the
// data: a lossy down needs AllowLossy even when the rows it would lose don't exist, so the same
// command does the same on every database at a version (a rehearsal on an empty copy can't pass
// where the real database would be refused). Going up never needs it; neither do downs that only
// drop indexes, functions, constraints or tables that the up rebuilds from other data.
//
// A down that fails has changed nothing: the schema is left clean at the version whose down failed,
// and the downs before it stay done. A schema marked dirty (a failed migration that wasn't taken
// back) is refused: record the version it is really at with `api migrate force N` first.
func MigrateTo(databaseURL string, version uint, lossy Lossy) error {
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	if err := CheckExtensions(ctx, databaseURL); err != nil {
		return err
	}
	return migrateTo(databaseURL, version, lossy)
}

// MigrateDown reverts every migration, leaving an empty schema (`api migrate down`). The first
// migration's down drops every table, so it is lossy: it runs only with AllowLossy, like MigrateTo.
func MigrateDown(databaseURL string, lossy Lossy) error {
	return migrateTo(databaseURL, 0, lossy)
}

// migrateTo is MigrateTo after the extension check.
func migrateTo(databaseURL string, version uint, lossy Lossy) error {
	if version != 0 {
		if err := knownVersion(version); err != nil {
			return fmt.Errorf("migrate to %d: not a migration of this binary", version)
		}
	}
	m, err := newMigrate(databaseURL)
	if err != nil {
		return err
	}
	defer m.Close()
	from, dirty, err := m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		from, dirty, err = 0, false, nil
	}
	if err != nil {
		return fmt.Errorf("read the schema's version: %w", err)
	}
	if dirty {
		return fmt.Errorf("the schema is marked dirty at version %d (a migration failed there): nothing was changed; "+
			"find the version the schema is really at, record it with api migrate force N, then migrate again", from)
	}
	if err := refuseLoss(from, version, lossy); err != nil {
		return err
	}
	if version == 0 {
		err = m.Down()
	} else {
		err = m.Migrate(version)
	}
	if err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return migrationFailed(m, err, version < from)
	}
	return nil
}

// knownVersion returns an error unless version is an embedded migration.
func knownVersion(version uint) error {
	src, err := sourceFS()
	if err != nil {
		return err
	}
	defer src.Close()
	r, _, err := src.ReadUp(version)
	if err != nil {
		return err
	}
	return r.Close()
}

// Version reports the applied migration version and whether a failed migration left it dirty.
// Version 0 means no migration has been applied.
func Version(databaseURL string) (version uint, dirty bool, err error) {
	// golang-migrate's pgx5 driver leaks its database/sql pool (a goroutine for good) when its first
	// connection fails: a server that can't be reached is found here first. The scheduled backup
	// asks again every minute while the database is down.
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return 0, false, fmt.Errorf("connect: %w", err)
	}
	_ = conn.Close(ctx)
	m, err := newMigrate(databaseURL)
	if err != nil {
		return 0, false, err
	}
	defer m.Close()
	version, dirty, err = m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		return 0, false, nil
	}
	return version, dirty, err
}

// LatestVersion is the highest migration version embedded in this binary.
func LatestVersion() (uint, error) {
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		return 0, err
	}
	defer src.Close()
	v, err := src.First()
	if err != nil {
		return 0, err
	}
	for {
		next, err := src.Next(v)
		if err != nil {
			return v, nil
		}
		v = next
	}
}

// SchemaCurrent reports whether the database's schema is at LatestVersion and not dirty. It reads
// golang-migrate's own table through the pool, so /readyz costs one small query.
func SchemaCurrent(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	latest, err := LatestVersion()
	if err != nil {
		return false, err
	}
	var version int64
	var dirty bool
	err = pool.QueryRow(ctx, `SELECT version, dirty FROM schema_migrations LIMIT 1`).Scan(&version, &dirty)
	if err != nil {
		return false, err
	}
	return !dirty && version == int64(latest), nil
}

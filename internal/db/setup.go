package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	"github.com/golang-migrate/migrate/v4/source"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/open-bot/memory/migrations"
)

// Extensions are the PostgreSQL extensions the migrations create (000001: vector, 000005:
// btree_gin). vector is not a trusted extension, so only a superuser can create it; btree_gin is
// trusted, so a role with CREATE on the database (its owner, say) can. On a managed database the
// application's role is usually neither, so a superuser creates them once beforehand.
var Extensions = []string{"vector", "btree_gin"}

// ExtensionsError says which extensions are missing and what to run; nothing was migrated.
type ExtensionsError struct {
	// Role and Database are where the check ran.
	Role, Database string
	// Unavailable extensions are not installed on the server at all (packages to install).
	Unavailable []string
	// Forbidden extensions are installed on the server but Role may not create them.
	Forbidden []string
}

func (e *ExtensionsError) Error() string {
	var b strings.Builder
	missing := append(append([]string{}, e.Unavailable...), e.Forbidden...)
	fmt.Fprintf(&b, "database %q lacks the PostgreSQL extension %s, which role %q may not create; nothing was migrated.",
		e.Database, strings.Join(missing, " and "), e.Role)
	if len(e.Unavailable) > 0 {
		fmt.Fprintf(&b, " The server has no %s extension: install it on the database server first (pgvector: the postgresql-<major>-pgvector package, or make bootstrap, which builds it from Debian's source package).",
			strings.Join(e.Unavailable, " or "))
	}
	fmt.Fprintf(&b, " Have a superuser connect to database %q and run:", e.Database)
	for _, name := range missing {
		fmt.Fprintf(&b, "\n    CREATE EXTENSION IF NOT EXISTS %s;", name) // Extensions are plain identifiers
	}
	b.WriteString("\nthen start again.")
	return b.String()
}

// CheckExtensions makes sure every extension of Extensions exists in the database or can be created
// by the connecting role, before any migration starts: a migration that failed on CREATE EXTENSION
// would leave the schema marked dirty and print the whole migration's SQL. Whether the role may
// create one is found out by creating it in a transaction that is rolled back, so the check leaves
// nothing behind either way. It returns an *ExtensionsError naming what to run.
func CheckExtensions(ctx context.Context, databaseURL string) error {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return fmt.Errorf("connect to check extensions: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	e := &ExtensionsError{}
	if err := conn.QueryRow(ctx, `SELECT current_user, current_database()`).Scan(&e.Role, &e.Database); err != nil {
		return fmt.Errorf("check extensions: %w", err)
	}
	for _, name := range Extensions {
		var installed, available bool
		err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = $1),
			EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = $1)`, name).Scan(&installed, &available)
		if err != nil {
			return fmt.Errorf("check extension %s: %w", name, err)
		}
		switch {
		case installed:
		case !available:
			e.Unavailable = append(e.Unavailable, name)
		default:
			creatable, err := canCreate(ctx, conn, name)
			if err != nil {
				return err
			}
			if !creatable {
				e.Forbidden = append(e.Forbidden, name)
			}
		}
	}
	if len(e.Unavailable)+len(e.Forbidden) > 0 {
		return e
	}
	return nil
}

// canCreate creates extension name in a transaction it rolls back, and reports whether that was
// allowed.
func canCreate(ctx context.Context, conn *pgx.Conn, name string) (bool, error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("check extension %s: %w", name, err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	_, err = tx.Exec(ctx, "CREATE EXTENSION "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42501" { // insufficient_privilege
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check extension %s: %w", name, err)
	}
	return true, nil
}

// setupTimeout bounds the checks MigrateUp makes before migrating.
const setupTimeout = 30 * time.Second

// migrationFailed turns golang-migrate's failure into an error without the migration's SQL (which it
// appends whole) and, when the failed migration left the version dirty, takes that mark back: each
// migration file runs as one statement string over PostgreSQL's simple protocol, that is in one
// implicit transaction, so a failed one has changed nothing and the schema is still at the version
// the step started from. golang-migrate marks the version a step goes to dirty before running it:
// going up, the schema is at the migration before that one; going down (down is true), at the one
// after it, or at the first migration when its down failed (the dirty mark is then on "no version",
// which golang-migrate reports as no version at all). Migrations must stay free of transaction
// control (and of CREATE INDEX CONCURRENTLY) for this to hold.
func migrationFailed(m *migrate.Migrate, err error, down bool) error {
	direction := "up"
	if down {
		direction = "down"
	}
	var dbErr database.Error
	ran := errors.As(err, &dbErr) // a migration's own SQL failed
	if ran {
		// Err would add the server's DETAIL, which may quote a row's values.
		err = fmt.Errorf("failed at line %d: %w; nothing of it was applied", dbErr.Line, dbErr.OrigErr)
	}
	version, dirty, verr := m.Version()
	at := -1 // no migration applied
	switch {
	case down && ran && errors.Is(verr, migrate.ErrNilVersion):
		first, ferr := firstVersion()
		if ferr != nil {
			return fmt.Errorf("migrate down: %w", err)
		}
		version, at = first, int(first)
	case verr != nil || !dirty:
		return fmt.Errorf("migrate %s: %w", direction, err)
	case down:
		next, nerr := nextVersion(version)
		if nerr != nil {
			return fmt.Errorf("migrate down: %w; the schema is marked dirty at version %d", err, version)
		}
		at = int(next)
	default:
		if v, perr := previousVersion(version); perr == nil {
			at = int(v)
		}
	}
	if ferr := m.Force(at); ferr != nil {
		return fmt.Errorf("migrate %s: %w; the schema is marked dirty at version %d, and marking it clean failed: %w", direction, err, version, ferr)
	}
	if down {
		return fmt.Errorf("migrate down: the down of migration %d: %w", at, err)
	}
	return fmt.Errorf("migrate up: migration %d: %w", version, err)
}

// sourceFS is the embedded migrations as golang-migrate reads them.
func sourceFS() (source.Driver, error) {
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		return nil, fmt.Errorf("read embedded migrations: %w", err)
	}
	return src, nil
}

// previousVersion is the embedded migration before v; an error when v is the first.
func previousVersion(v uint) (uint, error) {
	src, err := sourceFS()
	if err != nil {
		return 0, err
	}
	defer src.Close()
	return src.Prev(v)
}

// nextVersion is the embedded migration after v; an error when v is the last.
func nextVersion(v uint) (uint, error) {
	src, err := sourceFS()
	if err != nil {
		return 0, err
	}
	defer src.Close()
	return src.Next(v)
}

// firstVersion is the first embedded migration.
func firstVersion() (uint, error) {
	src, err := sourceFS()
	if err != nil {
		return 0, err
	}
	defer src.Close()
	return src.First()
}

// Force records version as applied and clean without running anything (`api migrate force N`): the
// way out after a failed migration was fixed by hand. 0 records that no migration is applied.
// version must be 0 or one of the embedded migrations.
func Force(databaseURL string, version uint) error {
	if version != 0 {
		src, err := sourceFS()
		if err != nil {
			return err
		}
		defer src.Close()
		r, _, err := src.ReadUp(version)
		if err != nil {
			return fmt.Errorf("migrate force: %d is not a migration of this binary", version)
		}
		r.Close()
	}
	m, err := newMigrate(databaseURL)
	if err != nil {
		return err
	}
	defer m.Close()
	v := int(version)
	if version == 0 {
		v = -1 // golang-migrate's "no version"
	}
	if err := m.Force(v); err != nil {
		return fmt.Errorf("migrate force: %w", err)
	}
	return nil
}

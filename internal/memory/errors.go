package memory

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Sentinel errors. The GraphQL error presenter maps each to an extensions.code (RULES §5); none of them
// carries memory text.
var (
	// ErrNotFound: the id names nothing the caller may see.
	ErrNotFound = errors.New("not found")
	// ErrUnauthenticated: no credential, or one that is not (or no longer) valid.
	ErrUnauthenticated = errors.New("a valid credential is required")
	// ErrForbidden: the credential is valid but may not do this.
	ErrForbidden = errors.New("this credential may not do that")
	// ErrMemoryChanged: the generation moved while a run was starting (G4).
	ErrMemoryChanged = errors.New("Memory changed while this task was starting.")
)

// ConflictError is returned when a write was based on a revision that is no longer current (R2).
// Nothing was written; Current is the item's revision now.
type ConflictError struct {
	Current int
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("the item changed since it was read: current revision is %d", e.Current)
}

// ValidationError names the input field that is unacceptable and why, without echoing its value.
type ValidationError struct {
	Field  string
	Reason string
}

func (e *ValidationError) Error() string { return e.Field + ": " + e.Reason }

func invalid(field, reason string) error { return &ValidationError{Field: field, Reason: reason} }

// notFoundIfNoRows translates the driver's "no rows" into ErrNotFound, leaving other errors as they are.
func notFoundIfNoRows(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// isDomain reports whether err is one of this package's own errors (safe to show to the caller).
func isDomain(err error) bool {
	var conflict *ConflictError
	var bad *ValidationError
	return errors.As(err, &conflict) || errors.As(err, &bad) || errors.Is(err, ErrNotFound) ||
		errors.Is(err, ErrForbidden) || errors.Is(err, ErrUnauthenticated) || errors.Is(err, ErrMemoryChanged)
}

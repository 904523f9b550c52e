package memory

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
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
	//lint:ignore ST1005 G4 fixes this exact sentence: the worker shows it to the user as it is.
	ErrMemoryChanged = errors.New("Memory changed while this task was starting.") //nolint:staticcheck // G4 fixes this exact sentence
	// ErrMemoryChangedMidTurn: memory the run's teammate sees changed since the run adopted its
	// generation; the run has been interrupted and the operation did nothing (G5).
	//lint:ignore ST1005 the teammate tells the user this sentence as it is (G5, docs/MCP.md).
	ErrMemoryChangedMidTurn = errors.New("Memory changed during this task; it was interrupted. Start a new turn with the current memory.") //nolint:staticcheck // the teammate tells the user this sentence as it is (G5)
	// ErrRetryStarted: a run has picked the retry up already, so it can no longer be cancelled.
	ErrRetryStarted = errors.New("the retry has started already: its reply will appear in the conversation")
)

// ConflictError is returned when a write was based on a revision that is no longer current (R2).
// Nothing was written; Current is the item's revision now.
type ConflictError struct {
	Current int
	// ItemID names the item that changed when the write named several (bulk operations, or a
	// proposal whose target changed); empty otherwise.
	ItemID string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("the item changed since it was read: current revision is %d", e.Current)
}

// ValidationError names the input field that is unacceptable and why, without echoing its value.
type ValidationError struct {
	Field  string
	Reason string
	// Subject, when set, says in words what Field names, for a person to read ("Item 2: kind"); the
	// message is then Subject and Reason, and Field stays the path a program matches on.
	Subject string
}

func (e *ValidationError) Error() string {
	if e.Subject != "" {
		return e.Subject + " " + e.Reason
	}
	return e.Field + ": " + e.Reason
}

func invalid(field, reason string) error { return &ValidationError{Field: field, Reason: reason} }

// IsUnavailable reports whether err means the database could not serve the request now — it is
// unreachable, shutting down or starting up, out of connections, the statement ran out of its
// statement_timeout (MEMORY_DB_STATEMENT_TIMEOUT) or of the request's deadline, or the transaction
// lost to concurrent ones (a deadlock's victim or a serialization failure, more often than inTx
// starts it over, or where nothing does) — rather than that
// the request or the code is wrong. The API answers these with the retryable code UNAVAILABLE
// instead of INTERNAL, so a client can tell an outage it should wait out from a defect.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	if _, ok := errors.AsType[*pgconn.ConnectError](err); ok {
		// No connection, whatever the server said while refusing it (a database that doesn't
		// accept connections answers 55000, which mid-session would be a defect's code).
		return true
	}
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok {
		switch code := pgErr.Code; {
		case strings.HasPrefix(code, "08"): // connection exception
			return true
		case code == "57P01", code == "57P02", code == "57P03": // admin or crash shutdown; starting up
			return true
		case code == "53300": // too many connections
			return true
		case code == "57014": // query_canceled: the statement timeout (a client's own cancel is context.Canceled)
			return true
		case code == "40001", code == "40P01": // serialization failure, deadlock detected: nothing was done
			return true
		}
		return false
	}
	if _, ok := errors.AsType[net.Error](err); ok {
		return true
	}
	for _, target := range []error{
		puddle.ErrClosedPool, pgconn.ErrConnClosed, io.EOF, io.ErrUnexpectedEOF, context.DeadlineExceeded,
		syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EPIPE,
	} {
		if errors.Is(err, target) {
			return true
		}
	}
	return pgconn.Timeout(err)
}

// ErrAIBudgetSpent is what an AI client returns (wrapped or not) when the day's request budget
// (MEMORY_AI_DAILY_REQUEST_LIMIT, I4) is used up or AI is turned off by a limit of 0.
var ErrAIBudgetSpent = errors.New("daily AI budget spent")

// wrapUnlessDomain adds context to infrastructure errors and leaves domain errors (which the
// presenter maps to codes) untouched.
func wrapUnlessDomain(op string, err error) error {
	if isDomain(err) {
		return err
	}
	return fmt.Errorf("%s: %w", op, err)
}

package memory

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
)

// The error codes of RULES §5: what every surface (GraphQL's extensions.code, MCP's tool errors,
// /export's body, the metrics) names an error by.
const (
	CodeUnauthenticated = "UNAUTHENTICATED"
	CodeForbidden       = "FORBIDDEN"
	CodeNotFound        = "NOT_FOUND"
	CodeBadUserInput    = "BAD_USER_INPUT"
	CodeConflict        = "CONFLICT"
	CodeMemoryChanged   = "MEMORY_CHANGED"
	// CodeMemoryOff: the run's teammate has "Use memory" off, so its search did nothing (switch.go).
	CodeMemoryOff = "MEMORY_OFF"
	// CodeUnavailable: the database can't serve the request now (IsUnavailable); retrying later may
	// succeed, and nothing about the request is wrong.
	CodeUnavailable = "UNAVAILABLE"
	CodeInternal    = "INTERNAL"
)

// Class is how every surface answers and logs one error: the one classification behind GraphQL's
// error presenter, the MCP tools' errors and /export.
type Class struct {
	// Code is the RULES §5 code.
	Code string
	// Status is the HTTP status a plain HTTP endpoint answers with.
	Status int
	// Message is safe to show the caller: it never quotes memory text (F5). Surfaces may word it
	// for their reader (the MCP tools do), but never show more than it.
	Message string
	// Retryable: the same request may succeed later (an outage, or a transaction that lost to
	// concurrent ones more often than the service starts it over).
	Retryable bool
	// Level is how the caller logs the error, if at all: a domain error is the request's own doing
	// and isn't logged (Logged false); a cancelled request is Debug; an outage Warn; a defect Error.
	Level  slog.Level
	Logged bool
	// Field names the input field of a BAD_USER_INPUT from the domain.
	Field string
	// Conflict is the CONFLICT's detail (the current revision, and the item when several were named).
	Conflict *ConflictError
}

// unavailableMessage is UNAVAILABLE's message.
const unavailableMessage = "the database is unavailable right now; try again shortly"

// Classify is the one mapping from an error the service (or the database under it) returned to
// its code, HTTP status, safe message, retryability and log level. Anything it doesn't know is
// INTERNAL with a masked message: only this package's own errors are shown as they are.
func Classify(err error) Class {
	var (
		conflict *ConflictError
		bad      *ValidationError
	)
	domain := func(code string, status int, message string) Class {
		return Class{Code: code, Status: status, Message: message}
	}
	switch {
	case err == nil:
		return Class{}
	case errors.As(err, &conflict):
		c := domain(CodeConflict, http.StatusConflict, conflict.Error())
		c.Conflict = conflict
		return c
	case errors.As(err, &bad):
		c := domain(CodeBadUserInput, http.StatusBadRequest, bad.Error())
		c.Field = bad.Field
		return c
	case errors.Is(err, ErrUnauthenticated):
		return domain(CodeUnauthenticated, http.StatusUnauthorized, ErrUnauthenticated.Error())
	case errors.Is(err, ErrForbidden):
		return domain(CodeForbidden, http.StatusForbidden, ErrForbidden.Error())
	case errors.Is(err, ErrNotFound):
		return domain(CodeNotFound, http.StatusNotFound, ErrNotFound.Error())
	case errors.Is(err, ErrRetryStarted):
		return domain(CodeConflict, http.StatusConflict, ErrRetryStarted.Error())
	case errors.Is(err, ErrMemoryChangedMidTurn):
		return domain(CodeMemoryChanged, http.StatusConflict, ErrMemoryChangedMidTurn.Error())
	case errors.Is(err, ErrMemoryChanged):
		return domain(CodeMemoryChanged, http.StatusConflict, ErrMemoryChanged.Error())
	case errors.Is(err, ErrMemoryOff):
		return domain(CodeMemoryOff, http.StatusConflict, ErrMemoryOff.Error())
	case errors.Is(err, context.Canceled):
		// The client went away mid-request: nothing failed on our side, and no one reads the answer.
		return Class{Code: CodeInternal, Status: http.StatusInternalServerError, Message: "internal error",
			Level: slog.LevelDebug, Logged: true}
	case IsUnavailable(err):
		// An outage or overload, not a defect: connection errors quote no memory text.
		return Class{Code: CodeUnavailable, Status: http.StatusServiceUnavailable, Message: unavailableMessage,
			Retryable: true, Level: slog.LevelWarn, Logged: true}
	}
	return Class{Code: CodeInternal, Status: http.StatusInternalServerError, Message: "internal error",
		Level: slog.LevelError, Logged: true}
}

// Log writes err to log at the class's level, under msg, when the class is logged at all. Domain
// errors carry no memory text (F5), and neither do the infrastructure errors logged here.
func (c Class) Log(ctx context.Context, log *slog.Logger, msg string, err error, args ...any) {
	if !c.Logged || log == nil {
		return
	}
	log.Log(ctx, c.Level, msg, append([]any{"err", err, "code", c.Code}, args...)...)
}

// isDomain reports whether err is one of this package's own errors (safe to show to the caller).
func isDomain(err error) bool {
	return err != nil && !Classify(err).Logged
}

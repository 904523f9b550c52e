package memory

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
	"github.com/stretchr/testify/assert"
)

// Every error the package declares, and the database's failures, are classified once, here; the
// surfaces (GraphQL, MCP, /export) only word the class.
func TestClassify(t *testing.T) {
	t.Parallel()
	conflict := &ConflictError{Current: 4, ItemID: "it"}
	bad := &ValidationError{Field: "content", Reason: "must not be empty"}
	internal := Class{Code: CodeInternal, Status: http.StatusInternalServerError, Message: "internal error", Level: slog.LevelError, Logged: true}
	unavailable := Class{Code: CodeUnavailable, Status: http.StatusServiceUnavailable, Message: unavailableMessage,
		Retryable: true, Level: slog.LevelWarn, Logged: true}
	domain := func(code string, status int, err error) Class {
		return Class{Code: code, Status: status, Message: err.Error()}
	}
	cases := map[string]struct {
		err  error
		want Class
	}{
		"ErrNotFound":             {ErrNotFound, domain(CodeNotFound, 404, ErrNotFound)},
		"ErrRetryStarted":         {ErrRetryStarted, domain(CodeConflict, 409, ErrRetryStarted)},
		"ErrUnauthenticated":      {ErrUnauthenticated, domain(CodeUnauthenticated, 401, ErrUnauthenticated)},
		"ErrForbidden":            {ErrForbidden, domain(CodeForbidden, 403, ErrForbidden)},
		"ErrMemoryChanged":        {ErrMemoryChanged, domain(CodeMemoryChanged, 409, ErrMemoryChanged)},
		"ErrMemoryChangedMidTurn": {ErrMemoryChangedMidTurn, domain(CodeMemoryChanged, 409, ErrMemoryChangedMidTurn)},
		"ErrMemoryOff":            {ErrMemoryOff, domain(CodeMemoryOff, 409, ErrMemoryOff)},
		"ConflictError": {fmt.Errorf("edit: %w", conflict), Class{Code: CodeConflict, Status: 409, Message: conflict.Error(),
			Conflict: conflict}},
		"ValidationError": {fmt.Errorf("create: %w", bad), Class{Code: CodeBadUserInput, Status: 400,
			Message: "content: must not be empty", Field: "content"}},
		// Errors of start-up and of the AI client: never a request's answer, so a defect if one is.
		"ErrAIBudgetSpent":        {ErrAIBudgetSpent, internal},
		"ErrTombstoneKeyMismatch": {ErrTombstoneKeyMismatch, internal},
		"ErrLedgerKeyMismatch":    {ErrLedgerKeyMismatch, internal},
		"a defect":                {errors.New("syntax error at or near SELECT"), internal},
		"a constraint":            {&pgconn.PgError{Code: "23505"}, internal},
		"cancelled": {fmt.Errorf("read: %w", context.Canceled), Class{Code: CodeInternal, Status: 500, Message: "internal error",
			Level: slog.LevelDebug, Logged: true}},
		"deadlock":             {fmt.Errorf("tx: %w", &pgconn.PgError{Code: "40P01"}), unavailable},
		"serialization":        {&pgconn.PgError{Code: "40001"}, unavailable},
		"statement timeout":    {&pgconn.PgError{Code: "57014"}, unavailable},
		"shutting down":        {&pgconn.PgError{Code: "57P01"}, unavailable},
		"too many connections": {&pgconn.PgError{Code: "53300"}, unavailable},
		"connection exception": {&pgconn.PgError{Code: "08006"}, unavailable},
		"closed pool":          {puddle.ErrClosedPool, unavailable},
		"deadline":             {context.DeadlineExceeded, unavailable},
		"nil":                  {nil, Class{}},
	}
	for name, c := range cases {
		got := Classify(c.err)
		assert.Equal(t, c.want, got, name)
		if c.err != nil {
			assert.Equal(t, !got.Logged, isDomain(c.err), "%s: isDomain agrees with Classify", name)
		}
	}

	// Every exported error variable of the package is in the table above: a new one must be
	// classified on purpose.
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatal("no Go files", err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if strings.HasPrefix(id.Name, "Err") {
						assert.Contains(t, cases, id.Name, "%s (%s) is not classified in TestClassify", id.Name, name)
					}
				}
			}
		}
	}
}

// A logged class writes one record at its level; a domain error writes none.
func TestClassLog(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	log := slog.New(slog.NewTextHandler(&sb, &slog.HandlerOptions{Level: slog.LevelDebug}))
	Classify(ErrNotFound).Log(t.Context(), log, "x", ErrNotFound)
	assert.Empty(t, sb.String())
	err := &pgconn.PgError{Code: "40P01"}
	Classify(err).Log(t.Context(), log, "x", err, "path", "p")
	assert.Contains(t, sb.String(), "level=WARN msg=x")
	assert.Contains(t, sb.String(), "code=UNAVAILABLE path=p")
}

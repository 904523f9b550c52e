package resolvers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/open-bot/memory/internal/memory"
)

// ErrorPresenter maps domain errors to client-safe messages and codes. Errors gqlgen produced itself
// (parse, validation, argument coercion, limits) keep their message and code (BAD_USER_INPUT when they
// have none). Anything else is logged and masked as INTERNAL.
func ErrorPresenter(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := graphql.DefaultErrorPresenter(ctx, err)
		set := func(code, message string) {
			gerr.Message = message
			if gerr.Extensions == nil {
				gerr.Extensions = map[string]any{}
			}
			gerr.Extensions["code"] = code
		}
		class := memory.Classify(err)
		if !class.Logged {
			// The domain's own error: its message is safe and its code says what it is.
			set(class.Code, class.Message)
			if c := class.Conflict; c != nil {
				gerr.Extensions["currentRevision"] = c.Current
				if c.ItemID != "" {
					gerr.Extensions["itemId"] = c.ItemID
				}
			}
			if class.Field != "" {
				gerr.Extensions["field"] = class.Field
			}
			return gerr
		}
		var gq *gqlerror.Error
		if errors.As(err, &gq) && gq.Err == nil {
			// gqlgen's own error about the request: safe to show, but it may quote the request.
			if _, ok := gerr.Extensions["code"]; !ok {
				set(memory.CodeBadUserInput, gerr.Message)
			}
			gerr.Message = requestErrorMessage(gerr.Message)
			return gerr
		}
		if gq != nil && argumentsUndecodable(ctx) {
			// A value the argument's scalar refused (an expiresAt that is no RFC 3339 time): the
			// request's fault, and nothing ran.
			field := "input"
			for _, el := range gq.Path {
				if name, ok := el.(ast.PathName); ok {
					field = string(name)
				}
			}
			set(memory.CodeBadUserInput, field+": "+requestErrorMessage(gq.Err.Error()))
			gerr.Extensions["field"] = field
			return gerr
		}
		class.Log(ctx, log, "graphql error", err, "path", gerr.Path.String())
		gerr.Extensions = nil
		set(class.Code, class.Message)
		return gerr
	}
}

// maxRequestErrorMessage bounds the message of an error about the request, which may quote it.
const maxRequestErrorMessage = 300

// requestErrorMessage is a message about the request without the request body gqlgen appends to
// a JSON decoding error (it may hold memory text), cut to maxRequestErrorMessage characters.
func requestErrorMessage(m string) string {
	if strings.HasPrefix(m, "json request body could not be decoded:") {
		m, _, _ = strings.Cut(m, " body:")
	}
	if r := []rune(m); len(r) > maxRequestErrorMessage {
		m = string(r[:maxRequestErrorMessage]) + "…"
	}
	return m
}

// argumentsUndecodable reports whether the field being resolved has arguments that gqlgen could
// not decode: it leaves the field context's Args unset then, and the resolver never runs.
func argumentsUndecodable(ctx context.Context) bool {
	fc := graphql.GetFieldContext(ctx)
	return fc != nil && fc.Field.Field != nil && len(fc.Field.Arguments) > 0 && fc.Args == nil
}

// Recover logs a resolver panic with its stack and answers INTERNAL.
func Recover(log *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, p any) error {
		log.ErrorContext(ctx, "resolver panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		return errors.New("internal error: resolver panic")
	}
}

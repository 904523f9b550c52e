// Package resolvers maps the GraphQL schema onto internal/memory: it decodes arguments, calls one
// service method, and maps the result. Rules, validation and SQL live in internal/memory; this package
// never imports pgx.
package resolvers

import (
	"log/slog"

	"github.com/open-bot/memory/graph/generated"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
)

// Resolver is the root resolver.
type Resolver struct {
	Memory *memory.Service
	Events *events.Broker
	Log    *slog.Logger
}

// Config returns the gqlgen executable-schema config with the resolvers and the @auth directive.
func (r *Resolver) Config() generated.Config {
	return generated.Config{
		Resolvers:  r,
		Directives: generated.DirectiveRoot{Auth: authDirective},
	}
}

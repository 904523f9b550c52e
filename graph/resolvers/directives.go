package resolvers

import (
	"context"
	"slices"

	"github.com/99designs/gqlgen/graphql"

	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/memory"
)

var credentialKinds = map[memory.CredentialKind]model.Credential{
	memory.CredentialUser:   model.CredentialUser,
	memory.CredentialWorker: model.CredentialWorker,
	memory.CredentialRun:    model.CredentialRun,
}

// authDirective enforces @auth(accept:): no credential is UNAUTHENTICATED, another kind is FORBIDDEN.
// Scope checks (which teammate a run may touch) are the memory service's.
func authDirective(ctx context.Context, _ any, next graphql.Resolver, accept []model.Credential) (any, error) {
	c := memory.CredentialFrom(ctx)
	if c.Kind == memory.CredentialNone {
		return nil, memory.ErrUnauthenticated
	}
	if !slices.Contains(accept, credentialKinds[c.Kind]) {
		return nil, memory.ErrForbidden
	}
	return next(ctx)
}

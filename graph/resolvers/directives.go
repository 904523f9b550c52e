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

// authDirective enforces @auth(accept:): no credential, or a run credential whose run has ended since
// it was presented (a websocket keeps the credential of its connection_init), is UNAUTHENTICATED;
// another kind is FORBIDDEN. Scope checks (which teammate a run may touch) are the memory service's.
func (r *Resolver) authDirective(ctx context.Context, _ any, next graphql.Resolver, accept []model.Credential) (any, error) {
	c := memory.CredentialFrom(ctx)
	if c.Kind == memory.CredentialNone {
		return nil, memory.ErrUnauthenticated
	}
	if c.Kind == memory.CredentialRun {
		if err := r.Memory.CheckRunCredential(ctx); err != nil {
			return nil, err
		}
	}
	if !slices.Contains(accept, credentialKinds[c.Kind]) {
		return nil, memory.ErrForbidden
	}
	return next(ctx)
}

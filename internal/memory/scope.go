package memory

import (
	"context"
	"fmt"
)

// Scopes: where an item lives — the shared scope every teammate reads, or one teammate's own — and
// the checks every request makes on the scope it names. Who may read which scope is the
// credential's (Credential.CanReadScope).

// ScopeShared is the scope every teammate reads; the other scopes are teammate ids.
const ScopeShared = "shared"

// Scope names where an item lives: the shared scope (TeammateID nil) or one teammate's.
type Scope struct {
	TeammateID *string
}

// String is ScopeShared or the teammate id.
func (s Scope) String() string {
	if s.TeammateID == nil {
		return ScopeShared
	}
	return *s.TeammateID
}

// scopeOf validates a scope given by a caller and returns it with a canonical teammate id.
func scopeOf(sc Scope) (Scope, error) {
	if sc.TeammateID == nil {
		return sc, nil
	}
	id, err := parseID("scope.teammateId", *sc.TeammateID)
	if err != nil {
		return sc, err
	}
	return Scope{TeammateID: &id}, nil
}

// readScope checks that the caller may read scope and returns its credential.
func readScope(ctx context.Context, scope string) (Credential, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return c, err
	}
	if !c.CanReadScope(scope) {
		return c, ErrForbidden
	}
	return c, nil
}

// CheckScopeReadable validates scope, checks that it exists and that the caller may read it, and
// returns it in canonical form.
func (s *Service) CheckScopeReadable(ctx context.Context, scope Scope) (Scope, error) {
	sc, err := scopeOf(scope)
	if err != nil {
		return sc, err
	}
	if _, err := readScope(ctx, sc.String()); err != nil {
		return sc, err
	}
	exists, err := queries(s.pool).ScopeExists(ctx, sc.String())
	if err != nil {
		return sc, fmt.Errorf("check scope: %w", err)
	}
	if !exists {
		return sc, ErrNotFound
	}
	return sc, nil
}

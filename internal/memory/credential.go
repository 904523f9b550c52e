package memory

import "context"

// CredentialKind says who is calling (RULES §4).
type CredentialKind int

// The three credentials; CredentialNone is the zero value for a caller that presented nothing.
const (
	CredentialNone CredentialKind = iota
	// CredentialUser is the person the teammates work for (the web app, GraphiQL).
	CredentialUser
	// CredentialWorker is the process that runs teammates' turns.
	CredentialWorker
	// CredentialRun is one run of one teammate, issued by StartRun, valid until the run ends.
	CredentialRun
)

func (k CredentialKind) String() string {
	switch k {
	case CredentialUser:
		return "user"
	case CredentialWorker:
		return "worker"
	case CredentialRun:
		return "run"
	default:
		return "none"
	}
}

// Credential is the authenticated caller of an operation.
type Credential struct {
	Kind CredentialKind
	// RunID and TeammateID are set for CredentialRun only.
	RunID      string
	TeammateID string
	// Connection is set when the credential was presented once for a long-lived connection (a
	// websocket's connection_init or upgrade request) rather than with this very request: a run may
	// have ended since, so CheckRunCredential looks again.
	Connection bool
}

type credentialKey struct{}

// WithCredential returns a context carrying c.
func WithCredential(ctx context.Context, c Credential) context.Context {
	return context.WithValue(ctx, credentialKey{}, c)
}

// CredentialFrom returns the caller's credential (the zero Credential when there is none).
func CredentialFrom(ctx context.Context) Credential {
	c, _ := ctx.Value(credentialKey{}).(Credential)
	return c
}

// canReadTeammate reports whether c may read teammate id's scope (S1): the user and the worker read
// every scope; a run reads its own teammate's scope only.
func (c Credential) canReadTeammate(id string) bool { return c.readsAllOr(c.TeammateID == id) }

// canReadRun reports whether c may read run id: the user and the worker read every run, a run
// credential its own.
func (c Credential) canReadRun(id string) bool { return c.readsAllOr(c.RunID == id) }

// readsAllOr is the shape of both: true for the user and the worker, own for a run, false without
// a credential.
func (c Credential) readsAllOr(own bool) bool {
	switch c.Kind {
	case CredentialUser, CredentialWorker:
		return true
	case CredentialRun:
		return own
	default:
		return false
	}
}

// CanReadScope reports whether c may read scope (ScopeShared or a teammate id); used by subscriptions
// to filter events (RULES §4).
func (c Credential) CanReadScope(scope string) bool {
	if scope == ScopeShared {
		return c.Kind != CredentialNone
	}
	return c.canReadTeammate(scope)
}

// CanReadSuggestions reports whether c may see suggestions — candidate and dismissed items — at all
// (one rule everywhere). Only the user may: suggestions are the user's to confirm or
// dismiss, never memory (A2), so neither a run nor the worker reads them by any path (candidates,
// candidateArrived, memoryItems, memoryItem, memoryChanged). To the others they don't exist.
func (c Credential) CanReadSuggestions() bool { return c.Kind == CredentialUser }

// require returns ErrUnauthenticated for no credential and ErrForbidden for a kind not in kinds.
func require(ctx context.Context, kinds ...CredentialKind) (Credential, error) {
	c := CredentialFrom(ctx)
	if c.Kind == CredentialNone {
		return c, ErrUnauthenticated
	}
	for _, k := range kinds {
		if c.Kind == k {
			return c, nil
		}
	}
	return c, ErrForbidden
}

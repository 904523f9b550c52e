package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/open-bot/memory/internal/memory"
)

// CookieName is the web app's session cookie (HttpOnly, SameSite=Strict).
const CookieName = "memory_session"

// RunAuthenticator checks a run credential (issued by StartRun) and returns its Credential, or
// memory.ErrUnauthenticated when the token is unknown or its run has ended.
type RunAuthenticator interface {
	AuthenticateRun(ctx context.Context, token string) (memory.Credential, error)
}

// Authenticator knows the user's and the worker's tokens, asks runs for run tokens and sessions for
// the web app's session cookies.
type Authenticator struct {
	user, worker [32]byte
	// userToken keys the session table's HMACs (sessions.go).
	userToken []byte
	runs      RunAuthenticator
	sessions  *Sessions
}

// New returns an Authenticator. runs may be nil until run credentials exist; sessions may be nil
// when no web login is offered (a session cookie then authenticates nothing).
func New(userToken, workerToken string, runs RunAuthenticator, sessions *Sessions) *Authenticator {
	return &Authenticator{
		user:      sha256.Sum256([]byte(userToken)),
		worker:    sha256.Sum256([]byte(workerToken)),
		userToken: []byte(userToken),
		runs:      runs,
		sessions:  sessions,
	}
}

// Authenticate maps a bearer token to its credential.
func (a *Authenticator) Authenticate(ctx context.Context, token string) (memory.Credential, error) {
	h := sha256.Sum256([]byte(token))
	switch {
	case token == "":
		return memory.Credential{}, memory.ErrUnauthenticated
	case subtle.ConstantTimeCompare(h[:], a.user[:]) == 1:
		return memory.Credential{Kind: memory.CredentialUser}, nil
	case subtle.ConstantTimeCompare(h[:], a.worker[:]) == 1:
		return memory.Credential{Kind: memory.CredentialWorker}, nil
	case a.runs != nil:
		return a.runs.AuthenticateRun(ctx, token)
	default:
		return memory.Credential{}, memory.ErrUnauthenticated
	}
}

// IsUserToken reports whether token is the user's token (for the login URL).
func (a *Authenticator) IsUserToken(token string) bool {
	h := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(h[:], a.user[:]) == 1
}

type presentedKey struct{}

// Middleware puts the caller's credential on the request context: from "Authorization: Bearer", else
// from the session cookie. A request that presents an invalid token, or a session that is unknown,
// logged out or expired, carries no credential, so every operation answers UNAUTHENTICATED. When a
// run token or the session can't be looked up (the database is unreachable), the request is
// answered 503 UNAVAILABLE rather than treated as unauthenticated: a worker told UNAUTHENTICATED
// would take its run for ended, and the web app its user for logged out.
func (a *Authenticator) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if h := r.Header.Get("Authorization"); h != "" {
			ctx = context.WithValue(ctx, presentedKey{}, true)
			cred, err := a.Authenticate(ctx, bearer(h))
			switch {
			case err == nil:
				ctx = memory.WithCredential(ctx, cred)
			case !errors.Is(err, memory.ErrUnauthenticated):
				writeUnavailable(w, "the run token could not be checked: the database is unreachable")
				return
			}
		} else if session, err := a.session(ctx, r); err != nil {
			writeUnavailable(w, "the session could not be checked: the database is unreachable")
			return
		} else if session != "" {
			ctx = context.WithValue(ctx, sessionCtxKey{}, session)
			ctx = memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// writeUnavailable answers a request whose credential could not be checked with 503 and the
// retryable code UNAVAILABLE, in the shape of a GraphQL request error.
func writeUnavailable(w http.ResponseWriter, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusServiceUnavailable)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errors": []any{map[string]any{"message": message, "extensions": map[string]any{"code": "UNAVAILABLE"}}},
	})
}

func bearer(h string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// CloseForbidden is the graphql-transport-ws close code for a refused connection_init.
const CloseForbidden = 4403

// CloseTryAgainLater is the websocket close code (RFC 6455's registry: Try Again Later) for a
// connection_init whose run token could not be checked because the database is unreachable; clients
// such as graphql-ws reconnect after it, as they should after an outage.
const CloseTryAgainLater = 1013

// WebsocketInit authenticates a graphql-transport-ws connection_init: its payload's "authorization"
// ("Bearer <token>") wins; without one, the upgrade request's cookie (already on ctx) is used. No valid
// credential closes the socket with 4403; a run token that can't be checked now, with 1013.
func (a *Authenticator) WebsocketInit(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	if raw, ok := payload["authorization"]; ok {
		s, _ := raw.(string)
		cred, err := a.Authenticate(ctx, bearer(s))
		if err != nil && !errors.Is(err, memory.ErrUnauthenticated) {
			ctx = transport.WithWebsocketCloseCode(ctx, CloseTryAgainLater)
			return transport.AppendCloseReason(ctx, "Try again later: the database is unreachable"), nil,
				errors.New("the credential could not be checked: the database is unreachable")
		}
		if err != nil {
			return forbidden(ctx), nil, errors.New("forbidden: invalid credential")
		}
		cred.Connection = true
		return memory.WithCredential(ctx, cred), nil, nil
	}
	if cred := memory.CredentialFrom(ctx); cred.Kind != memory.CredentialNone {
		cred.Connection = true // the upgrade request's, kept for the connection's life
		return memory.WithCredential(ctx, cred), nil, nil
	}
	return forbidden(ctx), nil, errors.New("forbidden: a credential is required")
}

func forbidden(ctx context.Context) context.Context {
	ctx = transport.WithWebsocketCloseCode(ctx, CloseForbidden)
	return transport.AppendCloseReason(ctx, "Forbidden")
}

// NewToken returns a fresh random token with a readable prefix (like "mu_" for the user).
func NewToken(prefix string) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// LoadOrCreateToken returns the token in path, creating it (mode 0600) with NewToken(prefix) the
// first time; created reports that it did, so the caller shows a generated token once and otherwise
// names the file. Used for the embedded database's generated credentials.
func LoadOrCreateToken(path, prefix string) (token string, created bool, err error) {
	b, err := os.ReadFile(path)
	if err == nil {
		if tok := strings.TrimSpace(string(b)); tok != "" {
			return tok, false, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", false, fmt.Errorf("read token file %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", false, err
	}
	tok := NewToken(prefix)
	// O_TRUNC repairs a file left empty by an interrupted first start.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return "", false, fmt.Errorf("create token file %s: %w", path, err)
	}
	if _, err := f.WriteString(tok + "\n"); err != nil {
		f.Close()
		return "", false, err
	}
	return tok, true, f.Close()
}

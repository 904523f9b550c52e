package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/open-bot/memory/internal/memory"
)

// HTTPOptions configure Handler.
type HTTPOptions struct {
	// MaxBodyBytes bounds a request body (the API's MaxBodyBytes).
	MaxBodyBytes int64
	// CheckBody, when set, refuses a POST body (for example one that isn't valid UTF-8) with 400 and
	// the error's text, after the credential was checked and before the SDK decodes it.
	CheckBody func(body []byte) error
	// HostChecked says that the API checks Host itself (issue 17's hostGuard), so the SDK's own
	// localhost-only check, which would refuse a configured public name, is turned off.
	HostChecked bool
}

// Handler serves s as Streamable HTTP, statelessly: every request stands alone, authenticated by
// the run token it carries, so no session outlives a request, nothing is kept per client, and any
// API process answers any request. Responses are plain JSON (the tools send no notifications).
//
// The caller's middleware must already have put the request's credential on its context
// (auth.Authenticator.Middleware, the same code as /graphql's). A request with no valid credential —
// none, an unknown token, or the token of a run that has completed, failed, been interrupted or
// cancelled — is answered 401 with a Bearer challenge, the user's and the worker's credentials 403:
// only a run credential reaches the tools (RULES §4).
func Handler(s *mcp.Server, o HTTPOptions) http.Handler {
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		MaxRequestBodyBytes:        o.MaxBodyBytes,
		DisableLocalhostProtection: o.HostChecked,
	})
	// The SDK hands each handler the request's TokenInfo; this is how the credential the API's
	// middleware found gets there (the verifier only reads it back).
	withToken := auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		return TokenInfo(memory.CredentialFrom(r.Context())), nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(streamable)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch memory.CredentialFrom(r.Context()).Kind {
		case memory.CredentialRun:
			if r.Method == http.MethodPost && o.CheckBody != nil {
				body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, o.MaxBodyBytes))
				if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
					http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
					return
				} else if err != nil {
					http.Error(w, "could not read the request body", http.StatusBadRequest)
					return
				}
				if err := o.CheckBody(body); err != nil {
					http.Error(w, err.Error(), http.StatusBadRequest)
					return
				}
				r.Body = io.NopCloser(bytes.NewReader(body))
			}
			withToken.ServeHTTP(w, r)
		case memory.CredentialNone:
			w.Header().Set("WWW-Authenticate", `Bearer realm="memory", error="invalid_token", error_description="send the run token of a running run"`)
			http.Error(w, "Unauthorized: send the run token of a running run as Authorization: Bearer <token>; a run's token ends when the run does.", http.StatusUnauthorized)
		default:
			http.Error(w, "Forbidden: only a run's token reaches the memory tools; the user's and the worker's tokens don't.", http.StatusForbidden)
		}
	})
}

package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/open-bot/memory/internal/memory"
)

// HTTPOptions configure Handler.
type HTTPOptions struct {
	// MaxBodyBytes bounds a request body (the API's MaxBodyBytes).
	MaxBodyBytes int64
	// CheckBody, when set, refuses a POST body (for example one that isn't valid UTF-8) with 400 and
	// a JSON-RPC error holding the error's text (see refuse), after the credential was checked and
	// before the SDK decodes it. MaxBodyBytes is then enforced here too (413, likewise).
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
					refuse(w, http.StatusRequestEntityTooLarge, body, "request body too large")
					return
				} else if err != nil {
					refuse(w, http.StatusBadRequest, body, "could not read the request body")
					return
				}
				if err := o.CheckBody(body); err != nil {
					refuse(w, http.StatusBadRequest, body, err.Error())
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

// refuse answers a POST whose body the handler won't pass to the SDK with status and, as the SDK
// answers a request it rejects, a JSON-RPC error for the request's id: a client then fails that
// call alone. A plain-text answer would end the Go SDK client's whole connection — Relay's too, so
// one hostile argument would leave a stdio agent without its tools for the rest of the run. The
// message starts with BAD_USER_INPUT, like the tool errors of bad arguments.
func refuse(w http.ResponseWriter, status int, body []byte, reason string) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: requestID(body), Error: &jsonrpc.Error{
		Code: jsonrpc.CodeInvalidRequest, Message: "BAD_USER_INPUT: " + reason + "; nothing was done",
	}})
	if err != nil {
		http.Error(w, reason, status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// requestID is the id of the JSON-RPC request body starts with, read as far as body goes (a body
// cut at the size limit still names the id it began with), or no id when it names none that can
// be read. Invalid UTF-8 and lone surrogates elsewhere don't stop the decoder.
func requestID(body []byte) jsonrpc.ID {
	d := json.NewDecoder(bytes.NewReader(body))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return jsonrpc.ID{}
	}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			break
		}
		var value any
		if err := d.Decode(&value); err != nil {
			break
		}
		if key == "id" {
			id, err := jsonrpc.MakeID(value)
			if err != nil {
				break
			}
			return id
		}
	}
	return jsonrpc.ID{}
}

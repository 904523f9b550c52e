package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/open-bot/memory/internal/memory"
)

// HTTPOptions configure Handler.
type HTTPOptions struct {
	// MaxBodyBytes bounds a request body (the API's MaxBodyBytes); a larger one is refused with 413
	// and a JSON-RPC error. 0 means 1 MiB.
	MaxBodyBytes int64
	// CheckBody, when set, refuses a POST body (for example one that isn't valid UTF-8) with 400 and
	// a JSON-RPC error holding the error's text (see refuse), after the credential was checked and
	// before the SDK decodes it.
	CheckBody func(body []byte) error
	// HostChecked says that the API checks Host itself (the server's hostGuard), so the SDK's own
	// localhost-only check, which would refuse a configured public name, is turned off.
	HostChecked bool
	// Admit, when set, is asked before each tool call or resource read runs, with the GraphQL field
	// that does the same (GraphQLTwin): the API applies that field's limits to it — the process's
	// slots for searches, recalls and counts — in one place for both endpoints. It
	// returns once the call may run, and release ends its turn; an error (ctx ended while it
	// waited) is the call's answer.
	Admit func(ctx context.Context, object, field string) (release func(), err error)
	// MaxResponseBytes bounds the JSON answer to one request; a larger one is replaced by a JSON-RPC
	// error (RESPONSE_TOO_LARGE) for the request's id. 0 means DefaultMaxResponseBytes.
	MaxResponseBytes int
}

const defaultMaxBodyBytes = 1 << 20

// DefaultMaxResponseBytes is the largest answer /mcp sends: above the largest a tool can give —
// search_history's 20 messages of up to 32,000 characters, each in the text and the structured
// answer, every character escaped (\u00XX) at worst, is 7.7 MB — and small enough that a client
// that never reads holds at most this much of the API's memory, until the write timeout.
const DefaultMaxResponseBytes = 8 << 20

// CodeResponseTooLarge is the JSON-RPC error code of an answer over MaxResponseBytes (the range
// JSON-RPC 2.0 leaves to servers).
const CodeResponseTooLarge = -32000

// Handler serves s as Streamable HTTP, statelessly: every request stands alone, authenticated by
// the run token it carries, so no session outlives a request, nothing is kept per client, and any
// API process answers any request. Responses are plain JSON (the tools send no notifications).
//
// The caller's middleware must already have put the request's credential on its context
// (auth.Authenticator.Middleware, the same code as /graphql's). A request with no valid credential —
// none, an unknown token, or the token of a run that has completed, failed, been interrupted or
// cancelled — is answered 401 with a Bearer challenge, the user's and the worker's credentials 403:
// only a run credential reaches the tools (RULES §4).
//
// A POST holds one JSON-RPC message: a batch — whatever MCP-Protocol-Version says, or without it —
// and anything that isn't one message with a readable id, a request without an id (or id null) and
// a method the server doesn't take are refused with 400 and a JSON-RPC error (screen), so one request is one call, limited like its GraphQL twin (Admit), and its answer is
// at most MaxResponseBytes. Handler adds Admit to s as a receiving middleware.
func Handler(s *mcp.Server, o HTTPOptions) http.Handler {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = defaultMaxBodyBytes
	}
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if o.Admit != nil {
		s.AddReceivingMiddleware(admission(o.Admit))
	}
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
			var id jsonrpc.ID
			if r.Method == http.MethodPost {
				body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, o.MaxBodyBytes))
				if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
					refuse(w, http.StatusRequestEntityTooLarge, body, "request body too large")
					return
				} else if err != nil {
					refuse(w, http.StatusBadRequest, body, "could not read the request body")
					return
				}
				if o.CheckBody != nil {
					if err := o.CheckBody(body); err != nil {
						refuse(w, http.StatusBadRequest, body, err.Error())
						return
					}
				}
				msg, no := screen(body)
				if no != nil {
					writeRefusal(w, http.StatusBadRequest, no)
					return
				}
				if req, ok := msg.(*jsonrpc.Request); ok {
					id = req.ID
				}
				r.Body = io.NopCloser(bytes.NewReader(body))
			}
			capped := &cappedResponse{ResponseWriter: w, max: o.MaxResponseBytes}
			withToken.ServeHTTP(capped, r)
			capped.finish(id)
		case memory.CredentialNone:
			w.Header().Set("WWW-Authenticate", `Bearer realm="memory", error="invalid_token", error_description="send the run token of a running run"`)
			http.Error(w, "Unauthorized: send the run token of a running run as Authorization: Bearer <token>; a run's token ends when the run does.", http.StatusUnauthorized)
		default:
			http.Error(w, "Forbidden: only a run's token reaches the memory tools; the user's and the worker's tokens don't.", http.StatusForbidden)
		}
	})
}

// admission asks admit before each tool call and resource read, with its GraphQL twin; other
// methods (initialize, tools/list …) touch no data and pass.
func admission(admit func(ctx context.Context, object, field string) (func(), error)) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			var object, field string
			switch r := req.(type) {
			case *mcp.CallToolRequest:
				object, field = GraphQLTwin(r.Params.Name)
			case *mcp.ReadResourceRequest:
				object, field = GraphQLTwin(r.Params.URI)
			}
			if field != "" {
				release, err := admit(ctx, object, field)
				if err != nil {
					return nil, err
				}
				defer release()
			}
			return next(ctx, method, req)
		}
	}
}

// cappedResponse holds the SDK's JSON answer until the handler is done, up to max bytes: finish
// sends it, or a JSON-RPC error in its place when it was larger. An event stream (text/event-stream,
// which the SDK uses only for a long-lived subscriptions/listen) passes through as it is written:
// its events are small and the API's write timeout applies to each.
type cappedResponse struct {
	http.ResponseWriter
	max    int
	status int
	body   []byte
	over   bool
	stream bool
}

func (c *cappedResponse) WriteHeader(code int) {
	if c.stream || c.status != 0 {
		return
	}
	if code >= 100 && code < 200 {
		c.ResponseWriter.WriteHeader(code) // informational: nothing to hold
		return
	}
	if strings.HasPrefix(c.Header().Get("Content-Type"), "text/event-stream") {
		c.stream = true
		c.ResponseWriter.WriteHeader(code)
		return
	}
	c.status = code
}

func (c *cappedResponse) Write(p []byte) (int, error) {
	if c.status == 0 && !c.stream {
		c.WriteHeader(http.StatusOK)
	}
	switch {
	case c.stream:
		return c.ResponseWriter.Write(p)
	case c.over:
	case len(c.body)+len(p) > c.max:
		c.over, c.body = true, nil
	default:
		c.body = append(c.body, p...)
	}
	return len(p), nil
}

// Flush sends what a stream has written; a held answer is sent by finish.
func (c *cappedResponse) Flush() {
	if c.stream {
		_ = http.NewResponseController(c.ResponseWriter).Flush()
	}
}

func (c *cappedResponse) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// finish sends the held answer, or in its place the JSON-RPC error for id saying it was too large.
func (c *cappedResponse) finish(id jsonrpc.ID) {
	switch {
	case c.stream || c.status == 0:
		return
	case c.over:
		// 200: the exchange worked and the call failed, which the JSON-RPC error says; a client reads
		// it as that call's answer (the Go SDK's client takes a 5xx as a retryable fault and drops
		// the body).
		writeRefusal(c.ResponseWriter, http.StatusOK, &refusal{id: id, code: CodeResponseTooLarge, message: fmt.Sprintf(
			"RESPONSE_TOO_LARGE: the answer is larger than %d bytes, the most /mcp sends, so it was not sent", c.max)})
		return
	}
	c.ResponseWriter.WriteHeader(c.status)
	_, _ = c.ResponseWriter.Write(c.body)
}

// writeRefusal answers no with status.
func writeRefusal(w http.ResponseWriter, status int, no *refusal) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(no.encode())
}

// refuse answers a POST whose body the handler won't pass to the SDK with status and, as the SDK
// answers a request it rejects, a JSON-RPC error for the request's id: a client then fails that
// call alone. A plain-text answer would end the Go SDK client's whole connection — Relay's too, so
// one hostile argument would leave a stdio agent without its tools for the rest of the run. The
// message starts with BAD_USER_INPUT, like the tool errors of bad arguments.
func refuse(w http.ResponseWriter, status int, body []byte, reason string) {
	writeRefusal(w, status, &refusal{id: requestID(body), code: jsonrpc.CodeInvalidRequest,
		message: "BAD_USER_INPUT: " + reason + "; nothing was done"})
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

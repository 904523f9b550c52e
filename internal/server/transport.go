package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// GraphQL over HTTP, as the GraphQL-over-HTTP specification (RULES §5) says, for both response media
// types. gqlgen's own GET and POST transports answer every request error with 422 (or 400) and a
// "data": null, and a mutation over GET with 406; this transport replaces both:
//
//   - The response's media type follows Accept: application/graphql-response+json when the client
//     lists it before application/json; application/json when it lists that, */*, application/*, or
//     nothing (the specification's legacy default); 406 when it accepts neither. Always UTF-8.
//   - Invalid parameters — a body that isn't a JSON object of the right shape, no query, a POST
//     that isn't application/json — are 400, whatever the media type.
//   - A request error (the document doesn't parse or validate, variables don't coerce, a limit is
//     exceeded, a persisted query is unknown) has no "data" entry, and is 400 with
//     application/graphql-response+json but 200 with application/json.
//   - A mutation over GET is 405 with Allow: POST, and nothing runs; methods other than GET and POST
//     are 405 with Allow: GET, POST.
//   - Everything that executes is 200, with its data and field errors.

// Media types of GraphQL responses.
const (
	mediaJSON            = "application/json"
	mediaGraphQLResponse = "application/graphql-response+json"
)

// graphqlHTTP is the GET and POST transport of /graphql (websockets have their own).
type graphqlHTTP struct{}

var _ graphql.Transport = graphqlHTTP{}

// Supports takes every request but websocket upgrades, so that wrong methods and content types get
// this transport's answers rather than gqlgen's "transport not supported".
func (graphqlHTTP) Supports(r *http.Request) bool { return r.Header.Get("Upgrade") == "" }

// requestParams is the body of a POST, decoded strictly: a field of the wrong type is a 400, not a
// silent default. Null is the same as absent (the specification says so).
type requestParams struct {
	Query         *string        `json:"query"`
	OperationName *string        `json:"operationName"`
	Variables     map[string]any `json:"variables"`
	Extensions    map[string]any `json:"extensions"`
}

// Do answers one GraphQL request over HTTP.
func (graphqlHTTP) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	media, ok := responseMediaType(r.Header.Get("Accept"))
	if !ok {
		writeRequestError(w, mediaJSON, http.StatusNotAcceptable, "BAD_USER_INPUT",
			"the Accept header allows neither application/graphql-response+json nor application/json")
		return
	}
	start := graphql.Now()
	var params requestParams
	switch r.Method {
	case http.MethodPost:
		contentType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || contentType != mediaJSON {
			// Also what keeps cross-site form posts out: a browser can't send application/json
			// cross-site without a preflight.
			writeRequestError(w, media, http.StatusBadRequest, "BAD_USER_INPUT", "a POST must have Content-Type: application/json")
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeRequestError(w, media, http.StatusBadRequest, "BAD_USER_INPUT", "could not read the request body")
			return
		}
		if msg := decodeParams(body, &params); msg != "" {
			writeRequestError(w, media, http.StatusBadRequest, "BAD_USER_INPUT", msg)
			return
		}
	case http.MethodGet:
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			writeRequestError(w, media, http.StatusBadRequest, "BAD_USER_INPUT", "the query string is malformed")
			return
		}
		if v, ok := q["query"]; ok {
			params.Query = &v[0]
		}
		if v, ok := q["operationName"]; ok {
			params.OperationName = &v[0]
		}
		for name, target := range map[string]*map[string]any{"variables": &params.Variables, "extensions": &params.Extensions} {
			if v := q.Get(name); v != "" {
				if err := decodeJSON([]byte(v), target); err != nil {
					writeRequestError(w, media, http.StatusBadRequest, "BAD_USER_INPUT", name+" must be a JSON object")
					return
				}
			}
		}
	default:
		w.Header().Set("Allow", "GET, POST")
		writeRequestError(w, media, http.StatusMethodNotAllowed, "BAD_USER_INPUT", "GraphQL is served over GET (queries) and POST")
		return
	}
	if (params.Query == nil || *params.Query == "") && params.Extensions["persistedQuery"] == nil {
		writeRequestError(w, media, http.StatusBadRequest, "BAD_USER_INPUT", "the request has no query")
		return
	}
	raw := &graphql.RawParams{Variables: params.Variables, Extensions: params.Extensions, Headers: r.Header}
	if params.Query != nil {
		raw.Query = *params.Query
	}
	if params.OperationName != nil {
		raw.OperationName = *params.OperationName
	}
	raw.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}

	ctx := r.Context()
	rc, errs := exec.CreateOperationContext(ctx, raw)
	if errs != nil {
		resp := exec.DispatchError(graphql.WithOperationContext(ctx, rc), errs)
		status := http.StatusOK
		if media == mediaGraphQLResponse {
			status = http.StatusBadRequest
		}
		writeErrors(w, media, status, resp.Errors, resp.Extensions)
		return
	}
	if r.Method == http.MethodGet {
		if op := rc.Doc.Operations.ForName(rc.OperationName); op == nil || op.Operation != ast.Query {
			// A GET never changes anything (RULES §4): the mutation doesn't run.
			w.Header().Set("Allow", "POST")
			writeRequestError(w, media, http.StatusMethodNotAllowed, "BAD_USER_INPUT", "only queries can be sent over GET; send mutations with POST")
			return
		}
	}
	responses, ctx := exec.DispatchOperation(ctx, rc)
	writeResponse(w, media, http.StatusOK, responses(ctx))
}

// decodeParams decodes a POST body into p, returning what is wrong with it ("" when nothing is).
// The messages never quote the body: it may hold memory text.
func decodeParams(body []byte, p *requestParams) string {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return "the request body is empty"
	}
	if trimmed[0] != '{' {
		return "the request body must be a JSON object (one operation; batches are not supported)"
	}
	if err := decodeJSON(trimmed, p); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field != "" {
			return "json request body could not be decoded: " + typ.Field + " has the wrong type (" + typ.Value + ")"
		}
		return "json request body could not be decoded: " + jsonSyntaxProblem(err)
	}
	return ""
}

// decodeJSON decodes one JSON value, keeping numbers exact as gqlgen's own transports do.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// jsonSyntaxProblem describes a decoding error by its position only.
func jsonSyntaxProblem(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return "invalid JSON at byte " + strconv.FormatInt(syntax.Offset, 10)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "the JSON ends too early"
	}
	return "invalid JSON"
}

// responseMediaType picks the response's media type from Accept, in the client's order of
// preference (q), and reports false when it allows neither.
func responseMediaType(accept string) (string, bool) {
	if strings.TrimSpace(accept) == "" {
		return mediaJSON, true
	}
	best, bestQ := "", -1.0
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if q, err = strconv.ParseFloat(v, 64); err != nil {
				continue
			}
		}
		var media string
		switch mt {
		case mediaGraphQLResponse:
			media = mediaGraphQLResponse
		case mediaJSON, "application/*", "*/*":
			media = mediaJSON
		default:
			continue
		}
		if q > 0 && q > bestQ {
			best, bestQ = media, q
		}
	}
	return best, best != ""
}

// errorResponse is a response without a "data" entry: a request error's (GraphQL spec §7.1.2).
type errorResponse struct {
	Errors     gqlerror.List  `json:"errors"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

// writeRequestError answers a request that never reached execution.
func writeRequestError(w http.ResponseWriter, media string, status int, code, message string) {
	writeErrors(w, media, status, gqlerror.List{{Message: message, Extensions: map[string]any{"code": code}}}, nil)
}

func writeErrors(w http.ResponseWriter, media string, status int, errs gqlerror.List, extensions map[string]any) {
	writeResponse(w, media, status, errorResponse{Errors: errs, Extensions: extensions})
}

func writeResponse(w http.ResponseWriter, media string, status int, v any) {
	w.Header().Set("Content-Type", media+"; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

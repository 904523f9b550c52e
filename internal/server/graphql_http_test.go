package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
)

// GraphQL over HTTP (RULES §5), for both response media types: the status of each kind of answer,
// the Content-Type, and that a request error has no "data" entry while an executed request always
// has one.
func TestGraphQLOverHTTP(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	s.CreateTeammate(t, "Ada")

	send := func(t *testing.T, method, accept, contentType, body, query string) apitest.Result {
		t.Helper()
		target := s.URL + "/graphql"
		if query != "" {
			target += "?" + query
		}
		req, err := http.NewRequestWithContext(t.Context(), method, target, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+userToken)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		return s.DoRequest(t, req)
	}
	post := func(t *testing.T, accept, body string) apitest.Result {
		return send(t, http.MethodPost, accept, "application/json", body, "")
	}
	const (
		jsonMedia     = "application/json; charset=utf-8"
		responseMedia = "application/graphql-response+json; charset=utf-8"
	)

	for _, media := range []struct {
		accept, contentType string
		requestErrorStatus  int
	}{
		{"", jsonMedia, http.StatusOK}, // no Accept: application/json, the legacy default
		{"application/json", jsonMedia, http.StatusOK},
		{"*/*", jsonMedia, http.StatusOK},
		{"application/graphql-response+json", responseMedia, http.StatusBadRequest},
		{"application/graphql-response+json, application/json;q=0.9", responseMedia, http.StatusBadRequest},
		{"application/json;q=0.5, application/graphql-response+json", responseMedia, http.StatusBadRequest},
		{"application/graphql-response+json;q=0.5, application/json", jsonMedia, http.StatusOK},
	} {
		t.Run("Accept "+media.accept, func(t *testing.T) {
			executed := func(a apitest.Result, what string) {
				t.Helper()
				require.Equal(t, http.StatusOK, a.Status, what)
				require.Equal(t, media.contentType, a.Header.Get("Content-Type"), what)
				require.NotNil(t, a.Data, "%s: an executed request has data", what)
			}
			requestError := func(a apitest.Result, status int, code, what string) {
				t.Helper()
				require.Equal(t, status, a.Status, what)
				require.Equal(t, media.contentType, a.Header.Get("Content-Type"), what)
				require.Nil(t, a.Data, "%s: a request error has no data entry", what)
				require.NotEmpty(t, a.Errors, what)
				require.Equal(t, code, a.Code(), what)
			}

			executed(post(t, media.accept, `{"query": "{ teammates { name } }"}`), "a query")
			executed(post(t, media.accept, `{"query": "{ teammates { name } }", "operationName": null, "variables": null, "extensions": null}`), "null parameters")
			// A field error during execution is no request error: data is there (null here).
			fieldError := post(t, media.accept, `{"query": "mutation { editMemory(input: {id: \"5b0f3a4e-8f1c-4c1e-9d7a-000000000000\", baseRevision: 1, content: \"x\"}) { item { id } } }"}`)
			executed(fieldError, "a field error")
			require.JSONEq(t, `null`, string(fieldError.Data))

			// Request errors: parse, validation, variable coercion, limits.
			requestError(post(t, media.accept, `{"query": "{ teammates { name "}`), media.requestErrorStatus, "GRAPHQL_PARSE_FAILED", "a syntax error")
			requestError(post(t, media.accept, `{"query": "{ teammates { salary } }"}`), media.requestErrorStatus, "GRAPHQL_VALIDATION_FAILED", "an unknown field")
			requestError(post(t, media.accept, `{"query": "query($id: ID!) { teammate(id: $id) { name } }", "variables": {"id": {"not": "an id"}}}`),
				media.requestErrorStatus, "GRAPHQL_VALIDATION_FAILED", "a variable that doesn't coerce")
			requestError(post(t, media.accept, `{"query": "query { a: teammates { name } b: teammates { name } }", "operationName": "Missing"}`),
				media.requestErrorStatus, "GRAPHQL_VALIDATION_FAILED", "an operation name not in the document")

			// Invalid parameters are 400 whatever the media type.
			requestError(post(t, media.accept, `{}`), http.StatusBadRequest, "BAD_USER_INPUT", "no query")
			requestError(post(t, media.accept, `{"query": ""}`), http.StatusBadRequest, "BAD_USER_INPUT", "an empty query")
			requestError(post(t, media.accept, `{"query": `), http.StatusBadRequest, "BAD_USER_INPUT", "JSON that ends early")
			requestError(post(t, media.accept, `not json`), http.StatusBadRequest, "BAD_USER_INPUT", "no JSON")
			requestError(post(t, media.accept, `{"query": 5}`), http.StatusBadRequest, "BAD_USER_INPUT", "a query that is no string")
			requestError(post(t, media.accept, `{"query": "{ teammates { name } }", "variables": "x"}`), http.StatusBadRequest, "BAD_USER_INPUT", "variables that are no object")
			requestError(post(t, media.accept, `[{"query": "{ teammates { name } }"}]`), http.StatusBadRequest, "BAD_USER_INPUT", "a batch")
			requestError(send(t, http.MethodPost, media.accept, "text/plain", `{"query": "{ teammates { name } }"}`, ""),
				http.StatusBadRequest, "BAD_USER_INPUT", "a POST that isn't application/json")
			requestError(send(t, http.MethodGet, media.accept, "", "", url.Values{"query": {"{ teammates { name } }"}, "variables": {"[1]"}}.Encode()),
				http.StatusBadRequest, "BAD_USER_INPUT", "GET variables that are no object")

			// Methods: GET runs queries only; nothing but GET and POST is served.
			executed(send(t, http.MethodGet, media.accept, "", "", url.Values{"query": {"{ teammates { name } }"}}.Encode()), "a query over GET")
			requestError(send(t, http.MethodGet, media.accept, "", "", url.Values{"query": {"{ teammates { name "}}.Encode()),
				media.requestErrorStatus, "GRAPHQL_PARSE_FAILED", "a syntax error over GET")
			viaGET := send(t, http.MethodGet, media.accept, "", "", url.Values{"query": {`mutation { createTeammate(input: {name: "Mallory"}) { teammate { id } } }`}}.Encode())
			requestError(viaGET, http.StatusMethodNotAllowed, "BAD_USER_INPUT", "a mutation over GET")
			require.Equal(t, "POST", viaGET.Header.Get("Allow"))
			for _, method := range []string{http.MethodPut, http.MethodDelete, http.MethodPatch} {
				a := send(t, method, media.accept, "application/json", `{"query": "{ teammates { name } }"}`, "")
				requestError(a, http.StatusMethodNotAllowed, "BAD_USER_INPUT", method)
				require.Equal(t, "GET, POST", a.Header.Get("Allow"))
			}
		})
	}
	require.Equal(t, []string{"Ada"}, teammateNames(t, s), "no refused request ran")

	// An Accept that allows neither media type.
	a := send(t, http.MethodPost, "text/html", "application/json", `{"query": "{ teammates { name } }"}`, "")
	require.Equal(t, http.StatusNotAcceptable, a.Status)
	require.Nil(t, a.Data)
	// The transport's own refusals (before GraphQL) have no data either.
	a = send(t, http.MethodPost, "application/graphql-response+json", "application/json", "{\"query\": \"{ teammates { name(x: \\\"\xff\\\") } }\"}", "")
	require.Equal(t, http.StatusBadRequest, a.Status)
	require.Equal(t, responseMedia, a.Header.Get("Content-Type"))
	require.Nil(t, a.Data)
}

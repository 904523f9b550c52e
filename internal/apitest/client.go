package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Error is one GraphQL error.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Result is a GraphQL response: an HTTP one with its status and headers, or the payload of a
// websocket "next" message (Status 0, no Header). Data is nil when the response has no "data" entry,
// the JSON null when it has a null one.
type Result struct {
	Status int         `json:"-"`
	Header http.Header `json:"-"`

	Data   json.RawMessage `json:"data"`
	Errors []Error         `json:"errors"`
}

// Code is the first error's extensions.code, or "" when there is no error.
func (r Result) Code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	code, _ := r.Errors[0].Extensions["code"].(string)
	return code
}

// Codes lists every error's extensions.code, in order.
func (r Result) Codes() []string {
	out := make([]string, len(r.Errors))
	for i, e := range r.Errors {
		out[i], _ = e.Extensions["code"].(string)
	}
	return out
}

// CurrentRevision is a CONFLICT's extensions.currentRevision, 0 when absent.
func (r Result) CurrentRevision() int {
	if len(r.Errors) == 0 {
		return 0
	}
	n, _ := r.Errors[0].Extensions["currentRevision"].(float64)
	return int(n)
}

// Decode unmarshals data into v, failing the test if the response has errors or, over HTTP, a status
// other than 200.
func (r Result) Decode(t testing.TB, v any) {
	t.Helper()
	require.Empty(t, r.Errors, "GraphQL errors")
	if r.Status != 0 {
		require.Equal(t, http.StatusOK, r.Status)
	}
	require.NoError(t, json.Unmarshal(r.Data, v), "data: %s", r.Data)
}

// Bearer is the Authorization header for token; "" is a header without any credential.
func Bearer(token string) http.Header {
	if token == "" {
		return http.Header{}
	}
	return http.Header{"Authorization": {"Bearer " + token}}
}

// Client speaks GraphQL over HTTP to the API at URL. Its methods that take a testing.TB fail the
// test on a transport error; the others return it, for goroutines other than the test's and for
// clients that go on while the API is down (internal/faults) or count every error by its code
// (internal/soak).
type Client struct {
	// URL is the API's base URL, http://host:port.
	URL string
	// HTTP sends the requests.
	HTTP *http.Client
}

// NewClient is a Client of the API at baseURL keeping up to idle connections open. A request that
// takes longer than 10 s fails instead of hanging, and a connection idle for a minute is closed
// before the server's idle timeout (2 min by default) could race a request sent on it.
func NewClient(baseURL string, idle int) *Client {
	return &Client{URL: baseURL, HTTP: &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: idle, IdleConnTimeout: time.Minute},
	}}
}

// CloseIdleConnections closes the client's idle keep-alive connections.
func (c *Client) CloseIdleConnections() { c.HTTP.CloseIdleConnections() }

// Post posts one operation to /graphql as application/json with header (a bearer token, a cookie,
// an Origin …) and returns the answer: its status, headers and decoded body. The error is a
// transport error or a body that is not a GraphQL response.
func (c *Client) Post(ctx context.Context, header http.Header, query string, vars map[string]any) (Result, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return Result{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		return Result{}, err
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	return c.Send(req)
}

// Send sends req, a request the caller built (a malformed body, another method or content type), and
// decodes the answer as Post does.
func (c *Client) Send(req *http.Request) (Result, error) {
	res, err := c.HTTP.Do(req)
	if err != nil {
		return Result{}, err
	}
	defer res.Body.Close()
	out := Result{Status: res.StatusCode, Header: res.Header}
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("HTTP %d, not a GraphQL response: %.200s", res.StatusCode, raw)
	}
	return out, nil
}

// Call runs an operation that must succeed with token as the bearer and decodes data into v (nil:
// not at all). A transport error, a body that is not a GraphQL response, a status other than 200 or
// any GraphQL error is returned.
func (c *Client) Call(ctx context.Context, token, query string, vars map[string]any, v any) error {
	res, err := c.Post(ctx, Bearer(token), query, vars)
	switch {
	case err != nil:
		return err
	case len(res.Errors) > 0:
		return fmt.Errorf("GraphQL errors: %+v", res.Errors)
	case res.Status != http.StatusOK:
		return fmt.Errorf("HTTP %d", res.Status)
	case v == nil:
		return nil
	}
	return json.Unmarshal(res.Data, v)
}

// Do posts one operation with token as the bearer ("" sends no credential).
func (c *Client) Do(t testing.TB, token, query string, vars map[string]any) Result {
	t.Helper()
	return c.DoWith(t, Bearer(token), query, vars)
}

// DoWith is Do with header as given: a session cookie, an Origin, a malformed credential.
func (c *Client) DoWith(t testing.TB, header http.Header, query string, vars map[string]any) Result {
	t.Helper()
	res, err := c.Post(t.Context(), header, query, vars)
	require.NoError(t, err)
	return res
}

// Must is Do for an operation that must succeed; it decodes data into v.
func (c *Client) Must(t testing.TB, token, query string, vars map[string]any, v any) {
	t.Helper()
	c.Do(t, token, query, vars).Decode(t, v)
}

// Get sends a query in the query string of a GET, with header.
func (c *Client) Get(t testing.TB, header http.Header, query string) Result {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet,
		c.URL+"/graphql?"+url.Values{"query": {query}}.Encode(), nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	return c.DoRequest(t, req)
}

// DoRequest is Send for the test's goroutine.
func (c *Client) DoRequest(t testing.TB, req *http.Request) Result {
	t.Helper()
	res, err := c.Send(req)
	require.NoError(t, err)
	return res
}

// Fetch GETs path, a route other than /graphql (/healthz, /export?…, a page), with header — a Host
// entry sets the request's Host — and returns the response with its body read.
func (c *Client) Fetch(t testing.TB, path string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, c.URL+path, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	if host := header.Get("Host"); host != "" {
		req.Host = host // net/http sends req.Host, not a Host header
	}
	res, err := c.HTTP.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(body)
}

// CreateTeammate creates a teammate as the user and returns its id.
func (c *Client) CreateTeammate(t testing.TB, name string) string {
	t.Helper()
	var data struct {
		CreateTeammate struct{ Teammate struct{ ID string } }
	}
	c.Must(t, UserToken, `mutation($name: String!) { createTeammate(input: {name: $name}) { teammate { id } } }`,
		map[string]any{"name": name}, &data)
	require.NotEmpty(t, data.CreateTeammate.Teammate.ID)
	return data.CreateTeammate.Teammate.ID
}

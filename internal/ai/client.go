package ai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/open-bot/memory/internal/metrics"
)

// DefaultTimeout bounds one request when Options.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// Response size caps: a body larger than this is a bad response, not something to buffer.
const (
	maxResponseBytes = 64 << 20
	maxErrorBytes    = 64 << 10
)

// Options configure a Client for one OpenAI-compatible endpoint.
type Options struct {
	// BaseURL is like https://api.openai.com/v1; the client appends /embeddings or /chat/completions.
	BaseURL string
	// APIKey is sent as a bearer token when not empty (a local server may need none).
	APIKey string
	// Budget is reserved before every request; required.
	Budget *Budget
	// Timeout bounds each request (DefaultTimeout).
	Timeout time.Duration
	// HTTPClient replaces the default client (its Timeout is then the caller's business).
	HTTPClient *http.Client
	// Metrics counts the requests by endpoint and outcome; nil counts nothing.
	Metrics *metrics.Metrics
}

// Client sends requests to one OpenAI-compatible endpoint. It is safe for concurrent use.
type Client struct {
	base    string
	shown   string // base without credentials, for logs
	key     string
	budget  *Budget
	http    *http.Client
	metrics *metrics.Metrics
}

// NewClient checks o and returns a client. Errors never repeat the key.
func NewClient(o Options) (*Client, error) {
	if o.Budget == nil {
		return nil, errors.New("ai: a client needs a budget")
	}
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("ai: the base URL must be an http(s) URL like https://api.openai.com/v1")
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: cmp.Or(o.Timeout, DefaultTimeout)}
	}
	return &Client{base: strings.TrimRight(o.BaseURL, "/"), shown: strings.TrimRight(u.Redacted(), "/"),
		key: o.APIKey, budget: o.Budget, http: hc, metrics: o.Metrics}, nil
}

// Budget is the budget the client reserves from.
func (c *Client) Budget() *Budget { return c.budget }

// Error is a failed request. Its message names the endpoint, the HTTP status and at most the
// provider's short error code — never a body, which may quote memory text.
type Error struct {
	// Endpoint is "embeddings" or "chat/completions".
	Endpoint string
	// Status is the HTTP status, 0 when no response arrived.
	Status int
	// Code is the provider's error code (like "rate_limit_exceeded") or one of ours ("unreachable",
	// "timeout", "bad response", "dimension mismatch", "refused", "truncated").
	Code string
	// Temporary is true when a later retry may succeed: 408, 429, 5xx, the network, a timeout.
	Temporary bool
	cause     error
}

func (e *Error) Error() string {
	msg := "ai " + e.Endpoint + ":"
	if e.Status != 0 {
		msg += " HTTP " + strconv.Itoa(e.Status)
	}
	if e.Code != "" {
		msg += " " + e.Code
	}
	return msg
}

// Unwrap gives the transport error (for errors.Is(err, context.DeadlineExceeded) and the like).
func (e *Error) Unwrap() error { return e.cause }

// Retryable tells internal/jobs whether another attempt may help (429 and 5xx: yes; other 4xx: no).
func (e *Error) Retryable() bool { return e.Temporary }

// ErrorCode is the text-free code a job records, like "ai embeddings HTTP 429 rate_limit_exceeded".
func (e *Error) ErrorCode() string { return e.Error() }

// Embed returns one vector per input, in input order. model is required; dims > 0 asks for that
// many dimensions and checks every vector has them (0 takes the model's own size, the same for all).
// An empty input list costs nothing.
//
// The vectors are asked for base64-encoded (encoding_format, OpenAI's own clients do the same): a
// 1,536-dimension vector is then 8 KB of response instead of about 18 KB of decimal numbers, and
// decoding it is a copy rather than parsing 1,536 numbers, which measured a quarter of a millisecond
// of the API's CPU for each recall (docs/PERFORMANCE.md). An endpoint that ignores the option and
// answers with arrays of numbers is read as well (embedding).
func (c *Client) Embed(ctx context.Context, model string, dims int, inputs []string) ([][]float32, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	req := struct {
		Model          string   `json:"model"`
		Input          []string `json:"input"`
		Dimensions     int      `json:"dimensions,omitempty"`
		EncodingFormat string   `json:"encoding_format"`
	}{model, inputs, dims, "base64"}
	var resp struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding embedding `json:"embedding"`
		} `json:"data"`
	}
	const endpoint = "embeddings"
	if err := c.post(ctx, endpoint, req, &resp); err != nil {
		return nil, err
	}
	if len(resp.Data) != len(inputs) {
		return nil, &Error{Endpoint: endpoint, Code: "bad response"}
	}
	out := make([][]float32, len(inputs))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(out) || out[d.Index] != nil || len(d.Embedding) == 0 {
			return nil, &Error{Endpoint: endpoint, Code: "bad response"}
		}
		out[d.Index] = d.Embedding
	}
	want := dims
	if want == 0 {
		want = len(out[0])
	}
	for _, v := range out {
		if len(v) != want {
			// The endpoint doesn't honour the configured dimensions: retrying can't help.
			return nil, &Error{Endpoint: endpoint, Code: "dimension mismatch"}
		}
	}
	return out, nil
}

// embedding is one vector of an embeddings response: a base64 string of little-endian float32
// values (encoding_format "base64"), or an array of numbers from an endpoint that doesn't know
// that option. A string that is not standard base64 (padded, without line breaks), whose length is
// not a whole number of values, or that holds NaN or an infinity (which no JSON number can be, and
// no vector may hold), makes the response a bad one, as does an array with a null in it.
type embedding []float32

func (e *embedding) UnmarshalJSON(data []byte) error {
	if len(data) == 0 || data[0] != '"' {
		// Each number through a pointer: encoding/json reads a null in an array of float32 as 0,
		// which would make a hole in the vector a coordinate.
		var ptrs []*float32
		if err := json.Unmarshal(data, &ptrs); err != nil {
			return err
		}
		v := make([]float32, len(ptrs))
		for i, p := range ptrs {
			if p == nil {
				return errors.New("ai: an embedding holds null")
			}
			v[i] = *p
		}
		*e = v
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if strings.ContainsAny(s, "\r\n") { // which Go's decoder would skip: standard base64 has none
		return errors.New("ai: a base64 embedding holds a line break")
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	if len(raw)%4 != 0 {
		return errors.New("ai: a base64 embedding is not a whole number of float32 values")
	}
	v := make([]float32, len(raw)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		if f := float64(v[i]); math.IsNaN(f) || math.IsInf(f, 0) {
			return errors.New("ai: a base64 embedding holds NaN or an infinity")
		}
	}
	*e = v
	return nil
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatJSON asks model for an answer that follows schema (a JSON Schema object; strict mode, so every
// property must be required and additionalProperties false) and decodes the answer into out.
func (c *Client) ChatJSON(ctx context.Context, model string, messages []Message, schemaName string, schema json.RawMessage, out any) error {
	type jsonSchema struct {
		Name   string          `json:"name"`
		Strict bool            `json:"strict"`
		Schema json.RawMessage `json:"schema"`
	}
	type responseFormat struct {
		Type       string     `json:"type"`
		JSONSchema jsonSchema `json:"json_schema"`
	}
	req := struct {
		Model          string         `json:"model"`
		Messages       []Message      `json:"messages"`
		ResponseFormat responseFormat `json:"response_format"`
	}{model, messages, responseFormat{Type: "json_schema", JSONSchema: jsonSchema{Name: schemaName, Strict: true, Schema: schema}}}
	var resp struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
				Refusal *string `json:"refusal"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	const endpoint = "chat/completions"
	if err := c.post(ctx, endpoint, req, &resp); err != nil {
		return err
	}
	if len(resp.Choices) == 0 {
		return &Error{Endpoint: endpoint, Code: "bad response", Temporary: true}
	}
	choice := resp.Choices[0]
	switch {
	case choice.Message.Refusal != nil && *choice.Message.Refusal != "":
		return &Error{Endpoint: endpoint, Code: "refused"}
	case choice.FinishReason == "length":
		return &Error{Endpoint: endpoint, Code: "truncated"}
	case choice.Message.Content == nil:
		return &Error{Endpoint: endpoint, Code: "bad response", Temporary: true}
	}
	if err := json.Unmarshal([]byte(*choice.Message.Content), out); err != nil {
		// json's errors describe types and offsets, but the answer is the model's rendering of
		// the user's words: nothing of it goes into the error.
		return &Error{Endpoint: endpoint, Code: "bad response", Temporary: true}
	}
	return nil
}

// providerCode is what of a provider's error code may be repeated: a short identifier.
var providerCode = regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,64}$`)

// post reserves the budget, sends body as JSON to endpoint and decodes a 2xx answer into out, and
// counts the request by its outcome.
func (c *Client) post(ctx context.Context, endpoint string, body, out any) error {
	err := c.send(ctx, endpoint, body, out)
	c.metrics.AIRequest(strings.ReplaceAll(endpoint, "/", "_"), outcomeOf(err))
	return err
}

// outcomeOf is the outcome label of a request that ended with err (memory_ai_requests_total).
func outcomeOf(err error) string {
	var e *Error
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrBudgetSpent):
		return "budget_spent"
	case !errors.As(err, &e):
		return "error"
	case e.Code == "timeout" || e.Code == "unreachable":
		return e.Code
	case e.Code == "bad response":
		return "bad_response"
	case e.Status >= 500:
		return "http_5xx"
	case e.Status >= 400:
		return "http_4xx"
	}
	return "error"
}

// send is post without the counting.
func (c *Client) send(ctx context.Context, endpoint string, body, out any) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return &Error{Endpoint: endpoint, Code: "bad request"}
	}
	if err := c.budget.Reserve(ctx); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/"+endpoint, bytes.NewReader(payload))
	if err != nil {
		return &Error{Endpoint: endpoint, Code: "bad request"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		code := "unreachable"
		if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
			code = "timeout"
		}
		// The transport error is kept for errors.Is only; its text names the URL, not the body.
		return &Error{Endpoint: endpoint, Code: code, Temporary: true, cause: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &Error{Endpoint: endpoint, Status: resp.StatusCode, Temporary: resp.StatusCode == http.StatusRequestTimeout ||
			resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500}
		e.Code = errorCodeOf(io.LimitReader(resp.Body, maxErrorBytes))
		return e
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return &Error{Endpoint: endpoint, Status: resp.StatusCode, Code: "unreachable", Temporary: true, cause: err}
	}
	if len(raw) > maxResponseBytes || json.Unmarshal(raw, out) != nil {
		return &Error{Endpoint: endpoint, Status: resp.StatusCode, Code: "bad response", Temporary: true}
	}
	return nil
}

// errorCodeOf reads an OpenAI-style error body and returns its code (or type) if it is a short
// identifier, never its message.
func errorCodeOf(body io.Reader) string {
	var e struct {
		Error struct {
			Code json.RawMessage `json:"code"`
			Type string          `json:"type"`
		} `json:"error"`
	}
	if json.NewDecoder(body).Decode(&e) != nil {
		return ""
	}
	var code string
	if json.Unmarshal(e.Error.Code, &code) != nil || code == "" {
		code = e.Error.Type
	}
	if !providerCode.MatchString(code) {
		return ""
	}
	return code
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// String describes the client for start-up logs: the endpoint, never the key.
func (c *Client) String() string { return fmt.Sprintf("OpenAI-compatible endpoint %s", c.shown) }

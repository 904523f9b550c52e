package ai_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/ai"
	"github.com/open-bot/memory/internal/ai/aifake"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

const (
	apiKey = "sk-test-0123456789abcdef"
	// secret stands for memory text: it must never appear in an error.
	secret = "my bank PIN is 4711"
)

func newBudget(t *testing.T, limit int) (*ai.Budget, *pgxpool.Pool) {
	t.Helper()
	pool := dbtest.Pool(t)
	return ai.NewBudget(pool, limit), pool
}

func newClient(t *testing.T, f *aifake.Server, b *ai.Budget) *ai.Client {
	t.Helper()
	c, err := ai.NewClient(ai.Options{BaseURL: f.URL + "/v1/", APIKey: apiKey, Budget: b})
	require.NoError(t, err)
	return c
}

func TestEmbedRequestShapeAndOrder(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	f := aifake.New(t, aifake.Embeddings(4))
	c := newClient(t, f, b)

	vecs, err := c.Embed(t.Context(), "text-embedding-3-small", 4, []string{"zero", "one", "two"})
	require.NoError(t, err)
	require.Len(t, vecs, 3)
	for i, v := range vecs {
		assert.Equal(t, []float32{float32(i + 1), float32(i + 1), float32(i + 1), float32(i + 1)}, v, "sorted by index")
	}
	require.Len(t, f.Bodies, 1)
	assert.Equal(t, "POST /v1/embeddings", f.Paths[0], "the base URL's trailing slash is not doubled")
	assert.Equal(t, "Bearer "+apiKey, f.Auth[0])
	assert.Equal(t, map[string]any{"model": "text-embedding-3-small", "input": []any{"zero", "one", "two"}, "dimensions": float64(4),
		"encoding_format": "base64"}, f.Bodies[0])

	// Dimensions 0: not sent, and the model's own size is taken.
	vecs, err = c.Embed(t.Context(), "m", 0, []string{"a"})
	require.NoError(t, err)
	assert.Len(t, vecs[0], 4)
	assert.NotContains(t, f.Bodies[1], "dimensions")

	// Nothing to embed costs nothing.
	vecs, err = c.Embed(t.Context(), "m", 4, nil)
	require.NoError(t, err)
	assert.Nil(t, vecs)
	assert.Equal(t, int32(2), f.Requests.Load())
	used, err := b.Used(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, used, "every request reserved one unit")
}

// TestEmbedBase64AndArrays reads the vectors an endpoint sends base64-encoded (asked for) bit for
// bit, and those of an endpoint that ignores encoding_format and sends arrays of numbers alike.
func TestEmbedBase64AndArrays(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	want := []float32{-0.5, 1e-40, math.MaxFloat32, -math.SmallestNonzeroFloat32, 0.123456789, 0, 3}
	for _, format := range []any{"base64", nil} {
		f := aifake.New(t, func(w http.ResponseWriter, _ *http.Request, body map[string]any) {
			assert.Equal(t, "base64", body["encoding_format"])
			_ = json.NewEncoder(w).Encode(map[string]any{"data": []any{map[string]any{"index": 0, "embedding": aifake.Encode(want, format)}}})
		})
		vecs, err := newClient(t, f, b).Embed(t.Context(), "m", len(want), []string{"a"})
		require.NoError(t, err, format)
		assert.Equal(t, [][]float32{want}, vecs, format)
	}
}

func TestEmbedNoKeyNoAuthorization(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	f := aifake.New(t, aifake.Embeddings(2))
	c, err := ai.NewClient(ai.Options{BaseURL: f.URL, Budget: b})
	require.NoError(t, err)
	_, err = c.Embed(t.Context(), "m", 2, []string{"a"})
	require.NoError(t, err)
	assert.Empty(t, f.Auth[0])
}

func TestEmbedRejectsBadAnswers(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	for name, tc := range map[string]struct {
		respond   func(http.ResponseWriter, *http.Request, map[string]any)
		dims      int
		code      string
		retryable bool
	}{
		"dimension mismatch":      {aifake.Embeddings(3), 4, "dimension mismatch", false},
		"too few vectors":         {aifake.Status(200, `{"data":[{"index":0,"embedding":[1,2]}]}`), 2, "bad response", false},
		"duplicate index":         {aifake.Status(200, `{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`), 2, "bad response", false},
		"mixed sizes":             {aifake.Status(200, `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]}`), 0, "dimension mismatch", false},
		"not json":                {aifake.Status(200, "<html>"+secret), 2, "bad response", true},
		"base64 not whole values": {aifake.Status(200, `{"data":[{"index":0,"embedding":"AACAPwAAgD8A"},{"index":1,"embedding":"AACAPwAAgD8="}]}`), 2, "bad response", true},
		"base64 not base64":       {aifake.Status(200, `{"data":[{"index":0,"embedding":"AACAP!AAgD8="},{"index":1,"embedding":"AACAPwAAgD8="}]}`), 2, "bad response", true},
		"base64 NaN":              {aifake.Status(200, `{"data":[{"index":0,"embedding":"AADAfwAAgD8="},{"index":1,"embedding":"AACAPwAAgD8="}]}`), 2, "bad response", true},
		"base64 infinity":         {aifake.Status(200, `{"data":[{"index":0,"embedding":"AACAfwAAgD8="},{"index":1,"embedding":"AACAPwAAgD8="}]}`), 2, "bad response", true},
	} {
		c := newClient(t, aifake.New(t, tc.respond), b)
		_, err := c.Embed(t.Context(), "m", tc.dims, []string{secret, "b"})
		var e *ai.Error
		require.ErrorAs(t, err, &e, name)
		assert.Equal(t, tc.code, e.Code, name)
		assert.Equal(t, tc.retryable, e.Retryable(), name)
		assert.NotContains(t, err.Error(), "4711", name)
	}
}

func TestErrorClassification(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	for _, tc := range []struct {
		status    int
		body      string
		retryable bool
		message   string
	}{
		{429, `{"error":{"message":"Rate limit reached for input ` + secret + `","type":"requests","code":"rate_limit_exceeded"}}`, true, "ai embeddings: HTTP 429 rate_limit_exceeded"},
		{500, `{"error":{"message":"` + secret + `","type":"server_error","code":null}}`, true, "ai embeddings: HTTP 500 server_error"},
		{503, `upstream ` + secret, true, "ai embeddings: HTTP 503"},
		{408, ``, true, "ai embeddings: HTTP 408"},
		{400, `{"error":{"message":"Invalid input: '` + secret + `'","type":"invalid_request_error","code":"` + secret + `"}}`, false, "ai embeddings: HTTP 400"},
		{401, `{"error":{"message":"Incorrect API key provided: ` + apiKey + `","code":"invalid_api_key"}}`, false, "ai embeddings: HTTP 401 invalid_api_key"},
		{404, `{"error":{"message":"The model does not exist","code":"model_not_found"}}`, false, "ai embeddings: HTTP 404 model_not_found"},
	} {
		c := newClient(t, aifake.New(t, aifake.Status(tc.status, tc.body)), b)
		_, err := c.Embed(t.Context(), "m", 2, []string{secret})
		var e *ai.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, tc.status, e.Status)
		assert.Equal(t, tc.retryable, e.Retryable(), "HTTP %d", tc.status)
		assert.Equal(t, tc.message, err.Error())
		assert.NotContains(t, err.Error(), "4711")
		assert.NotContains(t, err.Error(), apiKey)
	}
}

func TestTimeoutIsRetryable(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	f := aifake.New(t, func(_ http.ResponseWriter, r *http.Request, _ map[string]any) { <-r.Context().Done() })
	c, err := ai.NewClient(ai.Options{BaseURL: f.URL, Budget: b, Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	_, err = c.Embed(t.Context(), "m", 2, []string{secret})
	var e *ai.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "timeout", e.Code)
	assert.True(t, e.Retryable())
	assert.NotContains(t, err.Error(), "4711")

	// The caller's deadline too.
	c, err = ai.NewClient(ai.Options{BaseURL: f.URL, Budget: b})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = c.Embed(ctx, "m", 2, []string{secret})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorAs(t, err, &e)
	assert.True(t, e.Retryable())
}

func TestUnreachableIsRetryable(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	f := aifake.New(t, aifake.Embeddings(2))
	f.Close()
	c := newClient(t, f, b)
	_, err := c.Embed(t.Context(), "m", 2, []string{secret})
	var e *ai.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "ai embeddings: unreachable", err.Error())
	assert.True(t, e.Retryable())
}

type extraction struct {
	Candidates []struct {
		Content  string `json:"content"`
		Evidence string `json:"evidence"`
	} `json:"candidates"`
}

var extractionSchema = json.RawMessage(`{"type":"object","properties":{"candidates":{"type":"array","items":{"type":"object","properties":{"content":{"type":"string"},"evidence":{"type":"string"}},"required":["content","evidence"],"additionalProperties":false}}},"required":["candidates"],"additionalProperties":false}`)

func TestChatJSON(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	f := aifake.New(t, aifake.ChatAnswer(`{"candidates":[{"content":"Likes tea","evidence":"I like tea"}]}`))
	c := newClient(t, f, b)
	messages := []ai.Message{{Role: "system", Content: "Extract."}, {Role: "user", Content: "I like tea"}}
	var out extraction
	require.NoError(t, c.ChatJSON(t.Context(), "gpt-4o-mini", messages, "memory_candidates", extractionSchema, &out))
	require.Len(t, out.Candidates, 1)
	assert.Equal(t, "Likes tea", out.Candidates[0].Content)

	assert.Equal(t, "POST /v1/chat/completions", f.Paths[0])
	assert.Equal(t, "Bearer "+apiKey, f.Auth[0])
	var schema any
	require.NoError(t, json.Unmarshal(extractionSchema, &schema))
	assert.Equal(t, map[string]any{
		"model": "gpt-4o-mini",
		"messages": []any{
			map[string]any{"role": "system", "content": "Extract."},
			map[string]any{"role": "user", "content": "I like tea"},
		},
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{
			"name": "memory_candidates", "strict": true, "schema": schema,
		}},
	}, f.Bodies[0])
}

func TestChatJSONBadAnswers(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 100)
	refusal := func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		_, _ = io.WriteString(w, `{"choices":[{"message":{"content":null,"refusal":"I can't help with `+secret+`"},"finish_reason":"stop"}]}`)
	}
	truncated := func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		_, _ = io.WriteString(w, `{"choices":[{"message":{"content":"{\"candidates\":[{\"content\":\"`+secret+`"},"finish_reason":"length"}]}`)
	}
	for name, tc := range map[string]struct {
		respond   func(http.ResponseWriter, *http.Request, map[string]any)
		code      string
		retryable bool
	}{
		"not json":  {aifake.ChatAnswer(`Sure! ` + secret), "bad response", true},
		"refusal":   {refusal, "refused", false},
		"truncated": {truncated, "truncated", false},
		"no choice": {aifake.Status(200, `{"choices":[]}`), "bad response", true},
	} {
		c := newClient(t, aifake.New(t, tc.respond), b)
		var out extraction
		err := c.ChatJSON(t.Context(), "m", []ai.Message{{Role: "user", Content: secret}}, "x", extractionSchema, &out)
		var e *ai.Error
		require.ErrorAs(t, err, &e, name)
		assert.Equal(t, tc.code, e.Code, name)
		assert.Equal(t, tc.retryable, e.Retryable(), name)
		assert.NotContains(t, err.Error(), "4711", name)
	}
}

func TestNewClientValidates(t *testing.T) {
	t.Parallel()
	b := ai.NewBudget(nil, 1)
	for _, o := range []ai.Options{
		{BaseURL: "https://api.openai.com/v1"},
		{BaseURL: "ftp://example.com", Budget: b},
		{BaseURL: "api.openai.com/v1", Budget: b},
		{BaseURL: "https://", Budget: b},
	} {
		_, err := ai.NewClient(o)
		assert.Error(t, err, "%+v", o.BaseURL)
	}
	c, err := ai.NewClient(ai.Options{BaseURL: "https://user:" + apiKey + "@example.com/v1", Budget: b, APIKey: apiKey})
	require.NoError(t, err)
	assert.NotContains(t, c.String(), apiKey)
}

// TestBudgetExactlyAtTheLimitUnderConcurrency: 20 concurrent requests against a limit of 7: exactly 7
// reach the server; the other 13 are told the budget is spent until tomorrow.
func TestBudgetExactlyAtTheLimitUnderConcurrency(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 7)
	f := aifake.New(t, aifake.Embeddings(2))
	c := newClient(t, f, b)
	var (
		wg    sync.WaitGroup
		spent atomic.Int32
		ok    atomic.Int32
		start = make(chan struct{})
	)
	tomorrow := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	for range 20 {
		wg.Go(func() {
			<-start
			_, err := c.Embed(context.Background(), "m", 2, []string{"x"})
			var s *ai.BudgetSpentError
			switch {
			case err == nil:
				ok.Add(1)
			case errors.As(err, &s):
				assert.ErrorIs(t, err, ai.ErrBudgetSpent)
				// The test may straddle midnight; either midnight is fine then.
				assert.WithinDuration(t, tomorrow, s.Until, 24*time.Hour)
				assert.True(t, s.Until.Equal(s.Until.Truncate(24*time.Hour)), "midnight UTC")
				spent.Add(1)
			default:
				t.Errorf("unexpected error: %v", err)
			}
		})
	}
	close(start)
	wg.Wait()
	assert.Equal(t, int32(7), f.Requests.Load(), "exactly the limit reached the server")
	assert.Equal(t, int32(7), ok.Load())
	assert.Equal(t, int32(13), spent.Load())
	used, err := b.Used(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 7, used)
}

func TestBudgetZeroTurnsAIOff(t *testing.T) {
	t.Parallel()
	b, pool := newBudget(t, 0)
	f := aifake.New(t, aifake.Embeddings(2))
	c := newClient(t, f, b)
	for range 3 {
		_, err := c.Embed(t.Context(), "m", 2, []string{"x"})
		require.ErrorIs(t, err, ai.ErrBudgetSpent)
		// What internal/jobs looks for: the job waits until then, without spending an attempt.
		var snooze interface{ RetryAt() time.Time }
		require.ErrorAs(t, err, &snooze)
		assert.True(t, snooze.RetryAt().After(time.Now()))
		err = c.ChatJSON(t.Context(), "m", nil, "x", extractionSchema, &extraction{})
		require.ErrorIs(t, err, ai.ErrBudgetSpent)
	}
	assert.Zero(t, f.Requests.Load())
	var rows int
	require.NoError(t, pool.QueryRow(t.Context(), `SELECT count(*) FROM memory_ai_usage`).Scan(&rows))
	assert.Zero(t, rows, "nothing is counted when AI is off")
}

func TestBudgetResetsAtMidnightUTC(t *testing.T) {
	t.Parallel()
	b0, _ := newBudget(t, 2)
	now := time.Date(2031, 3, 4, 23, 59, 0, 0, time.UTC)
	b := b0.WithClock(func() time.Time { return now })
	ctx := t.Context()
	require.NoError(t, b.Reserve(ctx))
	require.NoError(t, b.Reserve(ctx))
	err := b.Reserve(ctx)
	var s *ai.BudgetSpentError
	require.ErrorAs(t, err, &s)
	assert.Equal(t, time.Date(2031, 3, 5, 0, 0, 0, 0, time.UTC), s.Until)
	assert.Equal(t, time.Date(2031, 3, 5, 0, 0, 0, 0, time.UTC), s.RetryAt())
	assert.Equal(t, "ai budget spent", s.ErrorCode())
	used, err := b.Used(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, used)

	// In another time zone it is already the 5th; the budget's day is UTC's.
	now = time.Date(2031, 3, 5, 0, 30, 0, 0, time.FixedZone("CET", 3600))
	require.ErrorIs(t, b.Reserve(ctx), ai.ErrBudgetSpent)
	now = time.Date(2031, 3, 5, 0, 0, 0, 0, time.UTC)
	require.NoError(t, b.Reserve(ctx), "a new day, a new budget")
	used, err = b.Used(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, used)
}

// TestBudgetRelaxesOnlyItsOwnCommit: a reservation commits without waiting for the WAL flush
// (UsageReserve), and that setting ends with its transaction: the next statement on the same
// connection, a user's edit say, commits synchronously again.
func TestBudgetRelaxesOnlyItsOwnCommit(t *testing.T) {
	t.Parallel()
	cfg, err := pgxpool.ParseConfig(dbtest.URL(t))
	require.NoError(t, err)
	cfg.MaxConns = 1 // one connection: the reservation's and the check's
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	// The test cluster runs without synchronous commits; this connection's session asks for them,
	// as a production server's default does.
	_, err = pool.Exec(t.Context(), "SET synchronous_commit = on") // sqlcheck:allow
	require.NoError(t, err)
	b := ai.NewBudget(pool, 5)
	for range 3 {
		require.NoError(t, b.Reserve(t.Context()))
		var mode string
		require.NoError(t, pool.QueryRow(t.Context(), "SHOW synchronous_commit").Scan(&mode)) // sqlcheck:allow
		assert.Equal(t, "on", mode)
	}
	used, err := b.Used(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 3, used)
}

func TestEmbedderQuery(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1)
	f := aifake.New(t, aifake.Embeddings(3))
	e := ai.Embedder{Client: newClient(t, f, b), Model: "m", Dimensions: 3}
	v, model, err := e.EmbedQuery(t.Context(), "what do I drink")
	require.NoError(t, err)
	assert.Equal(t, "m", model)
	assert.Len(t, v, 3)

	_, _, err = e.EmbedQuery(t.Context(), "again")
	require.ErrorIs(t, err, memory.ErrAIBudgetSpent, "recall can tell a spent budget from a failure")
	require.ErrorIs(t, err, ai.ErrBudgetSpent)
}

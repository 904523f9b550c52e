// Package aifake is the OpenAI-compatible endpoint of the tests: a loopback HTTP server that answers
// as a test says and keeps every request it was sent. No model endpoint is reachable where the tests
// run, and this is the only fake they use (the database and everything else are real).
package aifake

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// Respond writes the answer to one request whose JSON body is body.
type Respond func(w http.ResponseWriter, r *http.Request, body map[string]any)

// Server counts every request that reaches it and keeps its body, method and path, and
// Authorization header. Read Bodies, Paths and Auth once the requests are done.
type Server struct {
	*httptest.Server
	Requests atomic.Int32
	mu       sync.Mutex
	Bodies   []map[string]any
	Paths    []string
	Auth     []string
}

// New starts a Server answering with respond; it stops when the test ends.
func New(t testing.TB, respond Respond) *Server {
	t.Helper()
	f := &Server{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.Requests.Add(1)
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		f.mu.Lock()
		f.Bodies = append(f.Bodies, body)
		f.Paths = append(f.Paths, r.Method+" "+r.URL.Path)
		f.Auth = append(f.Auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		respond(w, r, body)
	}))
	t.Cleanup(f.Close)
	return f
}

// Embeddings answers an embeddings request with vectors [i+1, i+1, …] of n dimensions for the
// input at index i (never all zeros, which the service refuses as unusable), in reverse order of
// index (the API may answer in any order); base64-encoded when the request asks for it
// (encoding_format, as OpenAI does), as arrays of numbers otherwise.
func Embeddings(n int) Respond {
	return func(w http.ResponseWriter, _ *http.Request, body map[string]any) {
		inputs, _ := body["input"].([]any)
		data := []map[string]any{}
		for i := len(inputs) - 1; i >= 0; i-- {
			v := make([]float32, n)
			for d := range v {
				v[d] = float32(i + 1)
			}
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": Encode(v, body["encoding_format"])})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": body["model"]})
	}
}

// Encode is v as an embeddings response holds it for a request whose encoding_format is format:
// a base64 string of its little-endian float32 values for "base64", the numbers otherwise.
func Encode(v []float32, format any) any {
	if format != "base64" {
		return v
	}
	raw := make([]byte, 0, 4*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(raw)
}

// ChatAnswer answers a chat completion with content as the assistant's message.
func ChatAnswer(content string) Respond {
	return func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content, "refusal": nil}}},
		})
	}
}

// Status answers with HTTP status code and body as it is.
func Status(code int, body string) Respond {
	return func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

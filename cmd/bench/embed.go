package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

const dimensions = 1536

// embed is the fake model: a deterministic unit vector per text, the sum of one pseudo-random
// direction per distinct word (stop words left out) plus a smaller one for the whole text, so texts
// that share words are near each other — enough for approximate search to have something to get
// right or wrong.
func embed(text string) []float32 {
	sum := make([]float64, dimensions)
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) < 3 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		for i, x := range direction(w) {
			sum[i] += x
		}
	}
	for i, x := range direction("\x00" + text) {
		sum[i] += 0.35 * x
	}
	var norm float64
	for _, x := range sum {
		norm += x * x
	}
	norm = math.Sqrt(norm)
	out := make([]float32, dimensions)
	for i, x := range sum {
		out[i] = float32(x / norm)
	}
	return out
}

var stopWords = map[string]bool{"the": true, "and": true, "for": true, "with": true, "what": true, "does": true,
	"can": true, "you": true, "about": true, "which": true, "our": true, "see": true, "when": true}

var directions sync.Map // word → []float64

// direction is a fixed pseudo-random unit direction for a word (cached: words repeat).
func direction(word string) []float64 {
	if v, ok := directions.Load(word); ok {
		return v.([]float64)
	}
	h := fnv.New64a()
	h.Write([]byte(word))
	r := rand.New(rand.NewPCG(h.Sum64(), 0x6d656d6f7279))
	v := make([]float64, dimensions)
	var norm float64
	for i := range v {
		v[i] = r.NormFloat64()
		norm += v[i] * v[i]
	}
	norm = math.Sqrt(norm)
	for i := range v {
		v[i] /= norm
	}
	if strings.HasPrefix(word, "\x00") {
		return v // whole texts don't repeat: not worth keeping
	}
	directions.Store(word, v)
	return v
}

// vectorText is pgvector's text form of v.
func vectorText(v []float32) string {
	var sb strings.Builder
	sb.Grow(len(v) * 10)
	sb.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatFloat(float64(x), 'g', 7, 32))
	}
	sb.WriteByte(']')
	return sb.String()
}

// serveEmbeddings answers OpenAI's POST /v1/embeddings with embed's vectors, base64-encoded when
// the request asks for it (encoding_format, as the API does), as arrays of numbers otherwise.
func serveEmbeddings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input          []string `json:"input"`
		EncodingFormat string   `json:"encoding_format"`
	}
	if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	type datum struct {
		Index     int `json:"index"`
		Embedding any `json:"embedding"`
	}
	data := make([]datum, len(req.Input))
	for i, in := range req.Input {
		v := embed(in)
		data[i] = datum{i, v}
		if req.EncodingFormat == "base64" { // little-endian float32 values, as OpenAI sends them
			var raw bytes.Buffer
			_ = binary.Write(&raw, binary.LittleEndian, v)
			data[i].Embedding = base64.StdEncoding.EncodeToString(raw.Bytes())
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}

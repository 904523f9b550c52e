package config

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// AI is the optional AI configuration (RULES I1–I5). With no URL set, memory works without AI.
type AI struct {
	// EmbeddingURL is MEMORY_EMBEDDING_URL: an OpenAI-compatible base URL (like
	// https://api.openai.com/v1, no trailing slash kept); empty means no embeddings (I1).
	EmbeddingURL string
	// EmbeddingModel is MEMORY_EMBEDDING_MODEL, required with EmbeddingURL.
	EmbeddingModel string
	// EmbeddingDimensions is MEMORY_EMBEDDING_DIMENSIONS: the vector size asked of the endpoint.
	// 0, the default, sends no "dimensions" and takes the model's own size (not every compatible
	// server accepts the parameter). Set it to pin the size, e.g. 1536 for text-embedding-3-small,
	// which is what a pgvector index and the benchmark assume. Changing it re-embeds.
	EmbeddingDimensions int
	// ExtractionURL is MEMORY_EXTRACTION_URL, the base URL for candidate extraction (I2); empty means off.
	ExtractionURL string
	// ExtractionModel is MEMORY_EXTRACTION_MODEL, required with ExtractionURL; it must support
	// response_format json_schema (strict).
	ExtractionModel string
	// APIKey is MEMORY_AI_API_KEY, sent as a bearer token to both endpoints (I5). Optional: a local
	// server may need none. Never logged.
	APIKey string
	// DailyRequestLimit is MEMORY_AI_DAILY_REQUEST_LIMIT (default 100): all memory AI requests a day
	// (UTC) together; 0 turns memory AI off (I4).
	DailyRequestLimit int
	// SemanticMaxDistance is MEMORY_SEMANTIC_MAX_DISTANCE (default 0.4): the largest cosine distance
	// vector recall accepts (P3), in (0, 2].
	SemanticMaxDistance float64
	// JobsInAPI is MEMORY_JOBS_IN_API (default true): whether cmd/api also runs the background-job
	// runner. Set it to false when dedicated cmd/worker processes run the jobs.
	JobsInAPI bool
	// JobLease is MEMORY_JOB_LEASE, a Go duration (1s to 24h): how long a claimed background job
	// stays its runner's before another runner may take it back, in cmd/api and cmd/worker alike. 0,
	// the default, means jobs.DefaultLease (5m). A short lease brings the jobs of a killed worker back
	// sooner, but a job that runs longer than four fifths of it is cut off.
	JobLease time.Duration
}

// Defaults of the AI variables.
const (
	DefaultAIDailyRequestLimit = 100
	DefaultSemanticMaxDistance = 0.4
	MaxEmbeddingDimensions     = 16000 // memory_embeddings' CHECK
	maxModelNameLength         = 200   // memory_embeddings' CHECK
	minJobLease                = time.Second
	maxJobLease                = 24 * time.Hour
)

// Embeddings reports whether embeddings are configured and allowed to spend (I1, I4).
func (a AI) Embeddings() bool { return a.EmbeddingURL != "" && a.DailyRequestLimit > 0 }

// Extraction reports whether extraction is configured and allowed to spend (I2, I4).
func (a AI) Extraction() bool { return a.ExtractionURL != "" && a.DailyRequestLimit > 0 }

// String describes the configuration for the start-up log: endpoints, models and limits, never the
// key (only whether one is set) nor credentials in a URL.
func (a AI) String() string {
	part := func(name, u, model string, extra string) string {
		if u == "" {
			return name + " off"
		}
		return fmt.Sprintf("%s %s%s at %s", name, model, extra, redact(u))
	}
	dims := " (model's dimensions)"
	if a.EmbeddingDimensions > 0 {
		dims = fmt.Sprintf(" (%d dimensions)", a.EmbeddingDimensions)
	}
	s := part("embeddings", a.EmbeddingURL, a.EmbeddingModel, dims) + "; " +
		part("extraction", a.ExtractionURL, a.ExtractionModel, "")
	if a.EmbeddingURL == "" && a.ExtractionURL == "" {
		return s
	}
	if a.DailyRequestLimit == 0 {
		return s + "; daily request limit 0: memory AI is off"
	}
	key := "no API key"
	if a.APIKey != "" {
		key = "API key set"
	}
	return fmt.Sprintf("%s; daily request limit %d; %s", s, a.DailyRequestLimit, key)
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	return u.Redacted()
}

// LoadAI reads the AI variables through getenv (os.Getenv when nil). Errors name the variable and
// never repeat the key or a URL (which may hold credentials).
func LoadAI(getenv func(string) string) (AI, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	a := AI{
		EmbeddingModel:  get("MEMORY_EMBEDDING_MODEL"),
		ExtractionModel: get("MEMORY_EXTRACTION_MODEL"),
		APIKey:          get("MEMORY_AI_API_KEY"),
	}
	var err error
	if a.EmbeddingURL, err = baseURL("MEMORY_EMBEDDING_URL", get("MEMORY_EMBEDDING_URL")); err != nil {
		return a, err
	}
	if a.ExtractionURL, err = baseURL("MEMORY_EXTRACTION_URL", get("MEMORY_EXTRACTION_URL")); err != nil {
		return a, err
	}
	for _, m := range []struct{ urlVar, modelVar, u, model string }{
		{"MEMORY_EMBEDDING_URL", "MEMORY_EMBEDDING_MODEL", a.EmbeddingURL, a.EmbeddingModel},
		{"MEMORY_EXTRACTION_URL", "MEMORY_EXTRACTION_MODEL", a.ExtractionURL, a.ExtractionModel},
	} {
		switch {
		case m.u != "" && m.model == "":
			return a, fmt.Errorf("%s: required when %s is set", m.modelVar, m.urlVar)
		case m.u == "" && m.model != "":
			return a, fmt.Errorf("%s is set but %s is not: set the endpoint's base URL too (like https://api.openai.com/v1)", m.modelVar, m.urlVar)
		case len(m.model) > maxModelNameLength || strings.ContainsFunc(m.model, unicode.IsControl):
			return a, fmt.Errorf("%s: want a model name of at most %d characters", m.modelVar, maxModelNameLength)
		}
	}
	if strings.ContainsFunc(a.APIKey, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return a, fmt.Errorf("MEMORY_AI_API_KEY: must not contain spaces or control characters")
	}
	if a.APIKey == "" {
		for name, u := range map[string]string{"MEMORY_EMBEDDING_URL": a.EmbeddingURL, "MEMORY_EXTRACTION_URL": a.ExtractionURL} {
			if pu, err := url.Parse(u); err == nil && strings.EqualFold(pu.Hostname(), "api.openai.com") {
				return a, fmt.Errorf("MEMORY_AI_API_KEY: required for api.openai.com (%s)", name)
			}
		}
	}
	if a.EmbeddingDimensions, err = intVar(get, "MEMORY_EMBEDDING_DIMENSIONS", 0, 0, MaxEmbeddingDimensions); err != nil {
		return a, err
	}
	if a.DailyRequestLimit, err = intVar(get, "MEMORY_AI_DAILY_REQUEST_LIMIT", DefaultAIDailyRequestLimit, 0, math.MaxInt32); err != nil {
		return a, err
	}
	a.SemanticMaxDistance = DefaultSemanticMaxDistance
	if v := get("MEMORY_SEMANTIC_MAX_DISTANCE"); v != "" {
		d, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(d) || d <= 0 || d > 2 {
			return a, fmt.Errorf("MEMORY_SEMANTIC_MAX_DISTANCE: want a cosine distance greater than 0 and at most 2 (default %g)", DefaultSemanticMaxDistance)
		}
		a.SemanticMaxDistance = d
	}
	switch v := strings.ToLower(get("MEMORY_JOBS_IN_API")); v {
	case "", "true", "1", "yes":
		a.JobsInAPI = true
	case "false", "0", "no":
	default:
		return a, fmt.Errorf("MEMORY_JOBS_IN_API: want true or false")
	}
	if v := get("MEMORY_JOB_LEASE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < minJobLease || d > maxJobLease {
			return a, fmt.Errorf("MEMORY_JOB_LEASE: want a duration from %v to %v, like 30s or 5m (default 5m)", minJobLease, maxJobLease)
		}
		a.JobLease = d
	}
	return a, nil
}

// baseURL checks an OpenAI-compatible base URL and drops a trailing slash.
func baseURL(name, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%s: want an http(s) base URL like https://api.openai.com/v1 (the client appends /embeddings or /chat/completions)", name)
	}
	return strings.TrimRight(v, "/"), nil
}

func intVar(get func(string) string, name string, def, lo, hi int) (int, error) {
	v := get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: want a whole number from %d to %d (default %d)", name, lo, hi, def)
	}
	return n, nil
}

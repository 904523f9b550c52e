package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/config"
)

const aiKey = "sk-config-test-key-0123456789"

func aiEnv(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

func TestLoadAIGood(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want config.AI
	}{
		{
			name: "defaults: no AI",
			want: config.AI{DailyRequestLimit: 100, SemanticMaxDistance: 0.4, JobsInAPI: true},
		},
		{
			name: "everything set",
			env: map[string]string{
				"MEMORY_EMBEDDING_URL": "https://api.openai.com/v1/", "MEMORY_EMBEDDING_MODEL": "text-embedding-3-small",
				"MEMORY_EMBEDDING_DIMENSIONS": "1536", "MEMORY_EXTRACTION_URL": " http://localhost:11434/v1 ",
				"MEMORY_EXTRACTION_MODEL": "llama3.1", "MEMORY_AI_API_KEY": aiKey, "MEMORY_AI_DAILY_REQUEST_LIMIT": "500",
				"MEMORY_SEMANTIC_MAX_DISTANCE": "0.25", "MEMORY_JOBS_IN_API": "false",
			},
			want: config.AI{
				EmbeddingURL: "https://api.openai.com/v1", EmbeddingModel: "text-embedding-3-small", EmbeddingDimensions: 1536,
				ExtractionURL: "http://localhost:11434/v1", ExtractionModel: "llama3.1", APIKey: aiKey,
				DailyRequestLimit: 500, SemanticMaxDistance: 0.25,
			},
		},
		{
			name: "limit 0 and a local server without key",
			env: map[string]string{
				"MEMORY_EMBEDDING_URL": "http://127.0.0.1:8000/v1", "MEMORY_EMBEDDING_MODEL": "nomic-embed-text",
				"MEMORY_AI_DAILY_REQUEST_LIMIT": "0", "MEMORY_JOBS_IN_API": "YES", "MEMORY_JOB_LEASE": "90s",
			},
			want: config.AI{
				EmbeddingURL: "http://127.0.0.1:8000/v1", EmbeddingModel: "nomic-embed-text",
				SemanticMaxDistance: 0.4, JobsInAPI: true, JobLease: 90 * time.Second,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := config.LoadAI(aiEnv(tc.env))
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestLoadAIBad(t *testing.T) {
	t.Parallel()
	embed := func(extra map[string]string) map[string]string {
		vars := map[string]string{"MEMORY_EMBEDDING_URL": "https://api.example/v1", "MEMORY_EMBEDDING_MODEL": "m", "MEMORY_AI_API_KEY": aiKey}
		for k, v := range extra {
			vars[k] = v
		}
		return vars
	}
	for _, tc := range []struct {
		name  string
		env   map[string]string
		names []string
	}{
		{"url without scheme", map[string]string{"MEMORY_EMBEDDING_URL": "api.openai.com/v1", "MEMORY_EMBEDDING_MODEL": "m"}, []string{"MEMORY_EMBEDDING_URL"}},
		{"url not http", map[string]string{"MEMORY_EXTRACTION_URL": "ftp://x/v1", "MEMORY_EXTRACTION_MODEL": "m"}, []string{"MEMORY_EXTRACTION_URL"}},
		{"url with query", embed(map[string]string{"MEMORY_EMBEDDING_URL": "https://x/v1?key=" + aiKey}), []string{"MEMORY_EMBEDDING_URL"}},
		{"url with credentials in a bad url", map[string]string{"MEMORY_EMBEDDING_URL": "https://user:" + aiKey + "@[bad", "MEMORY_EMBEDDING_MODEL": "m"}, []string{"MEMORY_EMBEDDING_URL"}},
		{"embedding url without model", map[string]string{"MEMORY_EMBEDDING_URL": "https://x/v1"}, []string{"MEMORY_EMBEDDING_MODEL", "MEMORY_EMBEDDING_URL"}},
		{"extraction url without model", map[string]string{"MEMORY_EXTRACTION_URL": "https://x/v1"}, []string{"MEMORY_EXTRACTION_MODEL"}},
		{"model without url", map[string]string{"MEMORY_EMBEDDING_MODEL": "m"}, []string{"MEMORY_EMBEDDING_MODEL", "MEMORY_EMBEDDING_URL"}},
		{"openai without key", map[string]string{"MEMORY_EMBEDDING_URL": "https://api.openai.com/v1", "MEMORY_EMBEDDING_MODEL": "m"}, []string{"MEMORY_AI_API_KEY"}},
		{"key with a newline", embed(map[string]string{"MEMORY_AI_API_KEY": aiKey + "\nx"}), []string{"MEMORY_AI_API_KEY"}},
		{"dimensions not a number", embed(map[string]string{"MEMORY_EMBEDDING_DIMENSIONS": "many"}), []string{"MEMORY_EMBEDDING_DIMENSIONS"}},
		{"dimensions too large", embed(map[string]string{"MEMORY_EMBEDDING_DIMENSIONS": "16001"}), []string{"MEMORY_EMBEDDING_DIMENSIONS"}},
		{"dimensions negative", embed(map[string]string{"MEMORY_EMBEDDING_DIMENSIONS": "-1"}), []string{"MEMORY_EMBEDDING_DIMENSIONS"}},
		{"limit negative", embed(map[string]string{"MEMORY_AI_DAILY_REQUEST_LIMIT": "-5"}), []string{"MEMORY_AI_DAILY_REQUEST_LIMIT"}},
		{"limit not a number", embed(map[string]string{"MEMORY_AI_DAILY_REQUEST_LIMIT": "lots"}), []string{"MEMORY_AI_DAILY_REQUEST_LIMIT"}},
		{"distance zero", embed(map[string]string{"MEMORY_SEMANTIC_MAX_DISTANCE": "0"}), []string{"MEMORY_SEMANTIC_MAX_DISTANCE"}},
		{"distance too large", embed(map[string]string{"MEMORY_SEMANTIC_MAX_DISTANCE": "2.5"}), []string{"MEMORY_SEMANTIC_MAX_DISTANCE"}},
		{"distance NaN", embed(map[string]string{"MEMORY_SEMANTIC_MAX_DISTANCE": "NaN"}), []string{"MEMORY_SEMANTIC_MAX_DISTANCE"}},
		{"jobs in api", map[string]string{"MEMORY_JOBS_IN_API": "sometimes"}, []string{"MEMORY_JOBS_IN_API"}},
		{"job lease not a duration", map[string]string{"MEMORY_JOB_LEASE": "300"}, []string{"MEMORY_JOB_LEASE"}},
		{"job lease too short", map[string]string{"MEMORY_JOB_LEASE": "500ms"}, []string{"MEMORY_JOB_LEASE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.LoadAI(aiEnv(tc.env))
			require.Error(t, err)
			for _, name := range tc.names {
				assert.Contains(t, err.Error(), name)
			}
			assert.NotContains(t, err.Error(), aiKey, "the error repeats the key")
		})
	}
}

func TestAIDescription(t *testing.T) {
	t.Parallel()
	a, err := config.LoadAI(aiEnv(map[string]string{
		"MEMORY_EMBEDDING_URL": "https://user:" + aiKey + "@api.example/v1", "MEMORY_EMBEDDING_MODEL": "text-embedding-3-small",
		"MEMORY_EMBEDDING_DIMENSIONS": "1536", "MEMORY_AI_API_KEY": aiKey,
	}))
	require.NoError(t, err)
	assert.True(t, a.Embeddings())
	assert.False(t, a.Extraction())
	s := a.String()
	assert.NotContains(t, s, aiKey)
	assert.Contains(t, s, "embeddings text-embedding-3-small (1536 dimensions) at https://user:xxxxx@api.example/v1")
	assert.Contains(t, s, "extraction off")
	assert.Contains(t, s, "daily request limit 100; API key set")

	a.DailyRequestLimit = 0
	assert.False(t, a.Embeddings(), "limit 0 turns AI off")
	assert.Contains(t, a.String(), "memory AI is off")

	none, err := config.LoadAI(aiEnv(nil))
	require.NoError(t, err)
	assert.Equal(t, "embeddings off; extraction off", none.String())
}

// LoadAI(nil) reads the process environment.
func TestLoadAIFromEnvironment(t *testing.T) {
	for _, name := range []string{"MEMORY_EMBEDDING_URL", "MEMORY_EMBEDDING_MODEL", "MEMORY_EMBEDDING_DIMENSIONS",
		"MEMORY_EXTRACTION_URL", "MEMORY_EXTRACTION_MODEL", "MEMORY_AI_API_KEY", "MEMORY_SEMANTIC_MAX_DISTANCE", "MEMORY_JOBS_IN_API", "MEMORY_JOB_LEASE"} {
		t.Setenv(name, "")
	}
	t.Setenv("MEMORY_AI_DAILY_REQUEST_LIMIT", "3")
	got, err := config.LoadAI(nil)
	require.NoError(t, err)
	assert.Equal(t, 3, got.DailyRequestLimit)
}

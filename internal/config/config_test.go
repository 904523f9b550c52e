package config_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/config"
)

// Token-looking values: an error must never repeat them.
const (
	userToken    = "mu_config-test-user-token-0123456789"
	workerToken  = "mw_config-test-worker-token-0123456789"
	tombstoneKey = "mk_config-test-tombstone-key-0123456789"
	dbPassword   = "hunter2-db-password"
	databaseURL  = "postgres://memory:" + dbPassword + "@db.example:5432/memory"
)

// env turns a map into a getenv function.
func env(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

func TestLoadGood(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want config.Config
	}{
		{
			name: "defaults",
			env:  nil,
			want: config.Config{Shared: config.Shared{DataDir: ".data", LogLevel: "info", LogFormat: "text"}, Addr: "127.0.0.1:8080", Demo: true},
		},
		{
			name: "everything set",
			env: map[string]string{
				"DATABASE_URL": databaseURL, "MEMORY_ADDR": "0.0.0.0:9000", "MEMORY_DATA_DIR": "/var/lib/memory",
				"MEMORY_PG_PORT": "5433", "MEMORY_USER_TOKEN": userToken, "MEMORY_WORKER_TOKEN": workerToken,
				"MEMORY_SKIP_MIGRATIONS": "true", "MEMORY_ALLOWED_ORIGINS": " https://app.example/ , http://localhost:5173,,",
				"MEMORY_LOG_LEVEL": "DEBUG", "MEMORY_LOG_FORMAT": "JSON", "MEMORY_DEBUG_ADDR": "127.0.0.1:6060",
				"MEMORY_METRICS_ADDR": "[::1]:9464",
				"MEMORY_DB_MAX_CONNS": "4", "MEMORY_DB_STATEMENT_TIMEOUT": "1500ms", "MEMORY_RUN_SUGGESTION_LIMIT": "5",
				"MEMORY_TOMBSTONE_KEY": tombstoneKey, "MEMORY_BACKUP_DIR": "/var/backups/memory", "MEMORY_BACKUP_INTERVAL": "24h",
				"MEMORY_BACKUP_KEEP": "3",
			},
			want: config.Config{Shared: config.Shared{DatabaseURL: databaseURL, DataDir: "/var/lib/memory", TombstoneKey: tombstoneKey, LogLevel: "debug", LogFormat: "json"}, Addr: "0.0.0.0:9000", PGPort: 5433,
				UserToken: userToken, WorkerToken: workerToken, SkipMigrations: true,
				AllowedOrigins: []string{"https://app.example", "http://localhost:5173"},
				DebugAddr:      "127.0.0.1:6060", MetricsAddr: "[::1]:9464",
				DBMaxConns: 4, DBStatementTimeout: 1500 * time.Millisecond, RunSuggestionLimit: 5,
				BackupDir: "/var/backups/memory", BackupInterval: 24 * time.Hour, BackupKeep: 3},
		},
		{
			name: "blank values mean the default",
			env:  map[string]string{"MEMORY_ADDR": "  ", "MEMORY_PG_PORT": "", "MEMORY_SKIP_MIGRATIONS": " "},
			want: config.Config{Shared: config.Shared{DataDir: ".data", LogLevel: "info", LogFormat: "text"}, Addr: "127.0.0.1:8080", Demo: true},
		},
		{
			name: "skip migrations spelled otherwise",
			env:  map[string]string{"MEMORY_SKIP_MIGRATIONS": "Yes", "MEMORY_ADDR": "[::1]:0"},
			want: config.Config{Shared: config.Shared{DataDir: ".data", LogLevel: "info", LogFormat: "text"}, Addr: "[::1]:0", SkipMigrations: true, Demo: true},
		},
		{
			name: "tokens without DATABASE_URL",
			env:  map[string]string{"MEMORY_USER_TOKEN": userToken, "MEMORY_SKIP_MIGRATIONS": "0"},
			want: config.Config{Shared: config.Shared{DataDir: ".data", LogLevel: "info", LogFormat: "text"}, Addr: "127.0.0.1:8080", UserToken: userToken, Demo: true},
		},
		{
			name: "no statement timeout",
			env:  map[string]string{"MEMORY_DB_STATEMENT_TIMEOUT": "0", "MEMORY_DB_MAX_CONNS": "1"},
			want: config.Config{Shared: config.Shared{DataDir: ".data", LogLevel: "info", LogFormat: "text"}, Addr: "127.0.0.1:8080", Demo: true,
				DBMaxConns: 1, DBStatementTimeout: -1},
		},
		{
			name: "demo off",
			env:  map[string]string{"MEMORY_DEMO": "false"},
			want: config.Config{Shared: config.Shared{DataDir: ".data", LogLevel: "info", LogFormat: "text"}, Addr: "127.0.0.1:8080"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The defaults unless the case sets them (-1 stands for an explicit 0).
			if tc.want.RunSuggestionLimit == 0 {
				tc.want.RunSuggestionLimit = 20
			}
			if tc.want.DBMaxConns == 0 {
				tc.want.DBMaxConns = config.DefaultDBMaxConns()
			}
			if tc.want.BackupKeep == 0 {
				tc.want.BackupKeep = 7
			}
			if tc.want.BackupDir == "" && tc.want.DatabaseURL == "" {
				tc.want.BackupDir = filepath.Join(tc.want.DataDir, "backups")
			}
			switch tc.want.DBStatementTimeout {
			case 0:
				tc.want.DBStatementTimeout = config.DefaultDBStatementTimeout
			case -1:
				tc.want.DBStatementTimeout = 0
			}
			got, err := config.Load(env(tc.env))
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestLoadBad(t *testing.T) {
	t.Parallel()
	withTokens := func(vars map[string]string) map[string]string {
		vars["MEMORY_USER_TOKEN"], vars["MEMORY_WORKER_TOKEN"] = userToken, workerToken
		if vars["DATABASE_URL"] != "" {
			vars["MEMORY_TOMBSTONE_KEY"] = tombstoneKey
		}
		return vars
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		// names are the variables the error must name.
		names []string
	}{
		{"address without port", map[string]string{"MEMORY_ADDR": "8080"}, []string{"MEMORY_ADDR"}},
		{"address with scheme", map[string]string{"MEMORY_ADDR": "http://127.0.0.1:8080"}, []string{"MEMORY_ADDR"}},
		{"port not a number", map[string]string{"MEMORY_PG_PORT": "five"}, []string{"MEMORY_PG_PORT"}},
		{"port too large", map[string]string{"MEMORY_PG_PORT": "70000"}, []string{"MEMORY_PG_PORT"}},
		{"port negative", map[string]string{"MEMORY_PG_PORT": "-1"}, []string{"MEMORY_PG_PORT"}},
		{"suggestion limit zero", map[string]string{"MEMORY_RUN_SUGGESTION_LIMIT": "0"}, []string{"MEMORY_RUN_SUGGESTION_LIMIT"}},
		{"suggestion limit not a number", map[string]string{"MEMORY_RUN_SUGGESTION_LIMIT": "lots"}, []string{"MEMORY_RUN_SUGGESTION_LIMIT"}},
		{"skip migrations not a boolean", map[string]string{"MEMORY_SKIP_MIGRATIONS": "maybe"}, []string{"MEMORY_SKIP_MIGRATIONS"}},
		{"origin without scheme", map[string]string{"MEMORY_ALLOWED_ORIGINS": "https://ok.example,evil.example"}, []string{"MEMORY_ALLOWED_ORIGINS"}},
		{"short user token", map[string]string{"MEMORY_USER_TOKEN": "short-secret"}, []string{"MEMORY_USER_TOKEN"}},
		{"short worker token", map[string]string{"MEMORY_WORKER_TOKEN": "short-secret"}, []string{"MEMORY_WORKER_TOKEN"}},
		{"same tokens", map[string]string{"MEMORY_USER_TOKEN": userToken, "MEMORY_WORKER_TOKEN": userToken}, []string{"MEMORY_USER_TOKEN", "MEMORY_WORKER_TOKEN"}},
		{"database without tokens", map[string]string{"DATABASE_URL": databaseURL}, []string{"MEMORY_USER_TOKEN", "MEMORY_WORKER_TOKEN", "DATABASE_URL"}},
		{"database without worker token", map[string]string{"DATABASE_URL": databaseURL, "MEMORY_USER_TOKEN": userToken}, []string{"MEMORY_WORKER_TOKEN"}},
		// The tombstone key (F3): required with a database the service doesn't own, and long enough.
		{"database without tombstone key", map[string]string{"DATABASE_URL": databaseURL, "MEMORY_USER_TOKEN": userToken, "MEMORY_WORKER_TOKEN": workerToken}, []string{"MEMORY_TOMBSTONE_KEY", "DATABASE_URL"}},
		{"short tombstone key", map[string]string{"MEMORY_TOMBSTONE_KEY": "short-secret"}, []string{"MEMORY_TOMBSTONE_KEY"}},
		{"log level", withTokens(map[string]string{"MEMORY_LOG_LEVEL": "loud"}), []string{"MEMORY_LOG_LEVEL"}},
		{"log format", withTokens(map[string]string{"MEMORY_LOG_FORMAT": "xml"}), []string{"MEMORY_LOG_FORMAT"}},
		{"backup interval too short", withTokens(map[string]string{"MEMORY_BACKUP_INTERVAL": "5s"}), []string{"MEMORY_BACKUP_INTERVAL"}},
		{"backup interval not a duration", withTokens(map[string]string{"MEMORY_BACKUP_INTERVAL": "daily"}), []string{"MEMORY_BACKUP_INTERVAL"}},
		{"backup interval without a directory", withTokens(map[string]string{"DATABASE_URL": databaseURL, "MEMORY_BACKUP_INTERVAL": "24h"}), []string{"MEMORY_BACKUP_INTERVAL", "MEMORY_BACKUP_DIR"}},
		{"keep no backups", withTokens(map[string]string{"MEMORY_BACKUP_KEEP": "0"}), []string{"MEMORY_BACKUP_KEEP"}},
		{"profiler on every interface", withTokens(map[string]string{"MEMORY_DEBUG_ADDR": "0.0.0.0:6060"}), []string{"MEMORY_DEBUG_ADDR"}},
		{"profiler on a named host", withTokens(map[string]string{"MEMORY_DEBUG_ADDR": "example.com:6060"}), []string{"MEMORY_DEBUG_ADDR"}},
		{"pool size not a number", withTokens(map[string]string{"MEMORY_DB_MAX_CONNS": "many"}), []string{"MEMORY_DB_MAX_CONNS"}},
		{"pool size zero", withTokens(map[string]string{"MEMORY_DB_MAX_CONNS": "0"}), []string{"MEMORY_DB_MAX_CONNS"}},
		{"pool size too large", withTokens(map[string]string{"MEMORY_DB_MAX_CONNS": "100000"}), []string{"MEMORY_DB_MAX_CONNS"}},
		{"statement timeout without unit", withTokens(map[string]string{"MEMORY_DB_STATEMENT_TIMEOUT": "30"}), []string{"MEMORY_DB_STATEMENT_TIMEOUT"}},
		{"statement timeout negative", withTokens(map[string]string{"MEMORY_DB_STATEMENT_TIMEOUT": "-1s"}), []string{"MEMORY_DB_STATEMENT_TIMEOUT"}},
		{"statement timeout under a millisecond", withTokens(map[string]string{"MEMORY_DB_STATEMENT_TIMEOUT": "10us"}), []string{"MEMORY_DB_STATEMENT_TIMEOUT"}},
		{"profiler without port", withTokens(map[string]string{"MEMORY_DEBUG_ADDR": "127.0.0.1"}), []string{"MEMORY_DEBUG_ADDR"}},
		{"metrics on every interface", withTokens(map[string]string{"MEMORY_METRICS_ADDR": "0.0.0.0:9464"}), []string{"MEMORY_METRICS_ADDR"}},
		{"metrics on a named host", withTokens(map[string]string{"MEMORY_METRICS_ADDR": "example.com:9464"}), []string{"MEMORY_METRICS_ADDR"}},
		{"metrics without port", withTokens(map[string]string{"MEMORY_METRICS_ADDR": "localhost"}), []string{"MEMORY_METRICS_ADDR"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.Load(env(tc.env))
			require.Error(t, err)
			for _, name := range tc.names {
				require.Contains(t, err.Error(), name)
			}
			for _, secret := range []string{userToken, workerToken, dbPassword, "short-secret", tombstoneKey} {
				require.NotContains(t, err.Error(), secret, "the error repeats a secret")
			}
		})
	}
}

// Load(nil) reads the process environment.
func TestLoadFromEnvironment(t *testing.T) {
	for _, name := range []string{"DATABASE_URL", "MEMORY_DATA_DIR", "MEMORY_PG_PORT", "MEMORY_USER_TOKEN",
		"MEMORY_WORKER_TOKEN", "MEMORY_SKIP_MIGRATIONS", "MEMORY_ALLOWED_ORIGINS", "MEMORY_LOG_LEVEL", "MEMORY_LOG_FORMAT"} {
		t.Setenv(name, "")
	}
	t.Setenv("MEMORY_ADDR", "127.0.0.1:1234")
	got, err := config.Load(nil)
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:1234", got.Addr)
	require.True(t, strings.HasSuffix(got.DataDir, ".data"))
}

// TestLoadWorker: the worker reads the shared part and the AI, needs DATABASE_URL, and needs no
// user or worker token (the API's rule for DATABASE_URL is not the worker's).
func TestLoadWorker(t *testing.T) {
	t.Parallel()
	_, err := config.LoadWorker(env(nil))
	require.ErrorContains(t, err, "DATABASE_URL is required")

	got, err := config.LoadWorker(env(map[string]string{"DATABASE_URL": databaseURL, "MEMORY_LOG_FORMAT": "json",
		"MEMORY_EMBEDDING_URL": "http://127.0.0.1:9/v1", "MEMORY_EMBEDDING_MODEL": "m"}))
	require.NoError(t, err)
	assert.Equal(t, config.Shared{DatabaseURL: databaseURL, DataDir: ".data", LogLevel: "info", LogFormat: "json"}, got.Shared)
	assert.True(t, got.AI.Embeddings())

	_, err = config.LoadWorker(env(map[string]string{"DATABASE_URL": databaseURL, "MEMORY_TOMBSTONE_KEY": "short"}))
	require.ErrorContains(t, err, "MEMORY_TOMBSTONE_KEY")
	_, err = config.LoadWorker(env(map[string]string{"DATABASE_URL": databaseURL, "MEMORY_AI_DAILY_REQUEST_LIMIT": "-1"}))
	require.Error(t, err, "the AI's own checks apply")
}

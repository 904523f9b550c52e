package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/config"
)

func TestLoadLimits(t *testing.T) {
	t.Parallel()
	defaults := config.Limits{
		WSMaxConnections: 2000, WSMaxSubscriptionsPerConnection: 100, WSMaxSubscriptionsPerCredential: 2000,
		WSMaxUnauthenticated: 64, WSMaxSubscriptionsPerRun: 20, ExportMaxBytes: 32 << 20,
		BodyTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, WriteTimeout: time.Minute, RunIdleTimeout: time.Hour,
		SessionTTL: 30 * 24 * time.Hour,
	}
	got, err := config.LoadLimits(env(nil))
	require.NoError(t, err)
	require.Equal(t, defaults, got)
	require.Equal(t, defaults, config.Limits{}.WithDefaults())

	got, err = config.LoadLimits(env(map[string]string{
		"MEMORY_WS_MAX_CONNECTIONS": "10", "MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CONNECTION": " 3 ",
		"MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL": "7", "MEMORY_HTTP_BODY_TIMEOUT": "5s",
		"MEMORY_HTTP_IDLE_TIMEOUT": "1m", "MEMORY_HTTP_WRITE_TIMEOUT": "90s", "MEMORY_RUN_IDLE_TIMEOUT": "15m",
		"MEMORY_SESSION_TTL":            "168h",
		"MEMORY_WS_MAX_UNAUTHENTICATED": "8", "MEMORY_WS_MAX_SUBSCRIPTIONS_PER_RUN": "4", "MEMORY_EXPORT_MAX_BYTES": "2097152",
	}))
	require.NoError(t, err)
	require.Equal(t, config.Limits{
		WSMaxConnections: 10, WSMaxSubscriptionsPerConnection: 3, WSMaxSubscriptionsPerCredential: 7,
		WSMaxUnauthenticated: 8, WSMaxSubscriptionsPerRun: 4, ExportMaxBytes: 2 << 20,
		BodyTimeout: 5 * time.Second, IdleTimeout: time.Minute, WriteTimeout: 90 * time.Second,
		RunIdleTimeout: 15 * time.Minute, SessionTTL: 7 * 24 * time.Hour,
	}, got)

	for name, value := range map[string]string{
		"MEMORY_WS_MAX_CONNECTIONS":                  "0",
		"MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CONNECTION": "many",
		"MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL": "-1",
		"MEMORY_HTTP_BODY_TIMEOUT":                   "10ms",
		"MEMORY_HTTP_IDLE_TIMEOUT":                   "30",
		"MEMORY_HTTP_WRITE_TIMEOUT":                  "500ms",
		"MEMORY_RUN_IDLE_TIMEOUT":                    "1s",
		"MEMORY_SESSION_TTL":                         "10000h",
		"MEMORY_WS_MAX_UNAUTHENTICATED":              "0",
		"MEMORY_WS_MAX_SUBSCRIPTIONS_PER_RUN":        "lots",
		"MEMORY_EXPORT_MAX_BYTES":                    "1000",
	} {
		_, err := config.LoadLimits(env(map[string]string{name: value}))
		require.ErrorContains(t, err, name+":", "%s=%s", name, value)
	}
}

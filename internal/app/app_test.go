package app_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/open-bot/memory/internal/app"
)

// App on a real database — start, serve, Close without leaks — is tested in internal/server, whose
// tests all run through it; a package of its own here would start one more throwaway cluster.

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestNewFails(t *testing.T) {
	t.Parallel()
	for name, url := range map[string]string{
		"no URL":      "",
		"bad URL":     "postgres://memory@127.0.0.1:5432/memory?sslmode=bogus",
		"unreachable": "postgres://memory@127.0.0.1:1/memory?connect_timeout=2",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, err := app.New(t.Context(), app.Options{DatabaseURL: url, TombstoneKey: []byte("mk_app-test-tombstone-key-0123456789abc")})
			require.Error(t, err)
			require.Nil(t, a)
		})
	}
}

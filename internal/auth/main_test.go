package auth_test

import (
	"os"
	"testing"

	"github.com/open-bot/memory/internal/dbtest"
)

// TestMain gives the session tests their throwaway PostgreSQL (started only if a test asks for it).
func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

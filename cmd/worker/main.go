// Command worker is the reference worker: it prepares teammates' runs and runs the background jobs
// (embeddings, extraction) against the same database as cmd/api.
//
// Status: the job queue and run preparation arrive with their issues (background jobs, MEMORY.md
// import). Until then this command only checks its configuration and the database, and says so.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/db"
)

func main() {
	cfg, err := config.Load(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
	if cfg.DatabaseURL == "" {
		fmt.Fprintln(os.Stderr, "worker: DATABASE_URL is required (the worker never starts a database of its own)")
		os.Exit(1)
	}
	pool, err := db.Open(context.Background(), cfg.DatabaseURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
	pool.Close()
	fmt.Fprintln(os.Stderr, "worker: database reachable; background jobs are not implemented yet")
	os.Exit(2)
}

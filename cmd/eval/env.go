package main

import (
	"context"

	"github.com/open-bot/memory/internal/apiproc"
)

// Tokens of the evaluation's API process.
const (
	userToken   = "mu_eval-user-token-0123456789abcdef"
	workerToken = "mw_eval-worker-token-0123456789abcdef"
)

// startAPI runs the API binary on databaseURL with the evaluation's tokens and no job runner, and
// waits until it is ready.
func startAPI(ctx context.Context, bin, databaseURL string) (*apiproc.Proc, error) {
	return apiproc.Start(ctx, apiproc.Options{
		Bin:          bin,
		DatabaseURL:  databaseURL,
		UserToken:    userToken,
		WorkerToken:  workerToken,
		TombstoneKey: "mk_eval-tombstone-key-0123456789abcdef",
		Env:          []string{"MEMORY_JOBS_IN_API=false"},
	})
}

// Package jobs owns the background-job queue over the memory_jobs table (RULES I3): enqueueing in the
// caller's transaction (EnqueueTx, EnqueueUniqueTx), claiming batches with leases and FOR UPDATE
// SKIP LOCKED, retrying failures after attempt⁴ seconds (±10%) up to MaxAttempts before marking them
// failed, postponing without counting an attempt (an error with a RetryAt method: the AI budget is spent until tomorrow),
// rescuing expired leases, waking runners through LISTEN/NOTIFY with polling as the fallback, and
// shutting down gracefully. Any number of runners, in any number of processes, may work one
// database. A job is handled until it is done, failed or cancelled; its handler may run more than
// once (after a crash, or when a lease expires under a handler that is still running), so handlers
// must be idempotent. Outcomes are fenced on the claim: a late one never overwrites a newer claim's.
// Its SQL is in queries/jobs.sql, compiled by sqlc into package jobsdb.
//
// A job row references an item and revision, or a run — never memory text (F5). The queue keeps that
// promise for errors too: last_error and log lines hold a text-free code (see ErrorCode), never a
// handler error's message, which might quote memory.
//
// It must not know what a job does: handlers (embedding, extraction) live with the domain and are
// registered with Runner.Handle or Runner.HandleBatch. It must not import internal/memory.
package jobs

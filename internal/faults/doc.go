// Package faults holds the fault tests of the service: PostgreSQL restarted under the
// running API while subscribers are connected and writers are writing, and a worker killed in the
// middle of a job; PostgreSQL killed right after it committed a write whose answer a proxy held
// back, and the client's retry with its idempotency key. They run in the normal go test ./... and
// take seconds each.
//
// The restart and crash tests own their cluster (internal/pgcluster, on a fixed port, with a
// watchdog process that stops it should the test binary die) because they must stop and start the
// server — the crash test's durable, so that a commit answered survives the kill; the worker test
// uses a database of internal/dbtest and the compiled cmd/worker. The only fake is an
// OpenAI-compatible endpoint served by httptest.
//
// The package has no code outside its tests and must not be imported.
package faults

// Package faults holds the fault tests of the service (issue #10): PostgreSQL restarted under the
// running API while subscribers are connected and writers are writing, and a worker killed in the
// middle of a job. They run in the normal go test ./... and take seconds each.
//
// The restart test owns its cluster (internal/pgcluster, on a fixed port, with a watchdog process
// that stops it should the test binary die) because it must stop and start the server; the worker
// test uses a database of internal/dbtest and the compiled cmd/worker. The only fake is an
// OpenAI-compatible endpoint served by httptest.
//
// The package has no code outside its tests and must not be imported.
package faults

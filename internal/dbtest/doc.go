// Package dbtest gives tests real PostgreSQL databases. A package opts in from its TestMain with
// dbtest.Main; each test then asks for a fresh database with URL or Pool, cloned from a template
// migrated once per test binary, and dropped when the test ends, so tests can run in parallel
// without seeing each other's rows.
//
// The server is TEST_DATABASE_URL when set (the URL's database is only used to connect; the
// harness creates and drops its own next to it), otherwise a throwaway cluster that Main starts
// through internal/pgcluster on the first request and removes at the end, with a watchdog process
// that removes it should the test binary die first.
//
// It owns no schema (it applies internal/db's migrations) and must not be imported outside tests.
package dbtest

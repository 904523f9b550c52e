// Package app wires one API process together: the database pool, the memory service, the event
// broker with its LISTEN connection, the expiry sweeper and the HTTP handler. cmd/api runs it behind
// its http.Server; tests run it behind httptest servers, so what they exercise is what ships.
//
// It owns the lifetime of what it starts — New starts the goroutines, Close stops them and closes the
// pool — and nothing else: it doesn't read configuration, start a PostgreSQL cluster, apply
// migrations or listen on a port. Those belong to cmd/api.
package app

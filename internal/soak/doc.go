// Package soak holds the soak test of the service: many concurrent clients — writers
// that create, edit with base revisions and forget, readers, a worker starting runs whose teammate
// calls its memory tools, and websocket subscribers, long-lived and short-lived — against the real
// API (internal/app) over loopback on a real database (internal/dbtest), for
// MEMORY_SOAK_DURATION (a Go duration; 10s by default, so a short version runs in every
// go test ./...; make soak runs it for minutes).
//
// It records every acknowledged write and checks at the end that the database equals their serial
// replay, that no revision was skipped or duplicated, that forgotten items are erased everywhere
// (F1), that the only errors were the expected CONFLICT and MEMORY_CHANGED, that the long-lived
// subscribers received every event, and that the process's memory and goroutines did not grow
// without bound.
//
// The package has no code outside its tests and must not be imported.
package soak

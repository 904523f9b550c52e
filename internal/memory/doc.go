// Package memory owns the domain of the memory service: teammates and their scopes, memory items and
// their revisions, generations, credentials' reach, validation and all the rules of RULES §3. It runs the
// transactions that change memory and emits id-only NOTIFY events from inside them. Its SQL is in
// queries/*.sql, one file per entity, compiled by sqlc into package memorydb (sql.go says how it
// runs); only recall's statements, assembled from fragments (recall_queries.go), and the purge's
// maintenance commands are written in Go.
//
// It must not know about GraphQL or HTTP, and it must never put memory text into an error, a log line,
// a NOTIFY payload or a job row (RULES F5).
package memory

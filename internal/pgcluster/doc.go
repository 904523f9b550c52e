// Package pgcluster owns a private PostgreSQL cluster kept in a directory of the project: it finds
// the server binaries, initializes the cluster once (superuser "memory", scram-sha-256, a random
// password kept beside it), starts it on 127.0.0.1 only, adopts a server that a killed process left
// running, creates databases with pgvector, and stops it. The API uses it when no DATABASE_URL is
// set; internal/dbtest uses it for throwaway test clusters.
//
// It must not install anything (that is make bootstrap's job), hold any schema or query of the
// application (migrations belong to internal/db), listen beyond the loopback interface, or print
// the password: logs and errors name the directory and port, never the URL.
package pgcluster

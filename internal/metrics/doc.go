// Package metrics owns the Prometheus metrics of one API process: a registry of its own (never
// the global default one, so that several processes in one test binary don't collide), the Go and
// process collectors, and every metric vector, recorded through methods named after what happened
// (GraphQLRequest, JudgeDecision, PurgeCompleted …). A nil *Metrics records nothing, so packages
// whose options leave it unset (tests, cmd/worker) need no checks.
//
// Labels only ever hold values of small fixed sets: route classes, status codes, schema field
// names, error codes, reason codes, job kinds. Never memory text, never an id (item, teammate, run,
// scope), never a string a client chose: a value outside its set is counted as "other" (see
// Bounded). What the process state is made of at a scrape — the job queue, the AI budget, the
// pools, the websockets — is read then by collectors the owner registers with the Watch methods,
// the database ones with a short timeout.
//
// It must not import the packages it measures (memory, jobs, server …): they import it.
package metrics

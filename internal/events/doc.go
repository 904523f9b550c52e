// Package events delivers memory events to subscribers in this process. One listener connection per
// process LISTENs on memory.EventChannel (reconnecting with backoff) and a Broker fans each event out
// to subscribers over buffered channels with non-blocking sends: a subscriber that falls behind is
// closed, never waited for, so a slow websocket can't stall the database listener or a writer.
//
// After every (re)connect the broker tells all subscribers to re-synchronise (re-read the current
// values), because notifications sent while the connection was down are lost by PostgreSQL.
//
// It must not decide who may see what: subscribers pass their own filters, which ask
// memory.EventVisible.
package events

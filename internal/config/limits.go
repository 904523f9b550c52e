package config

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// Limits are the caps and lifetimes that keep one client from starving the service: how many
// websockets and subscriptions one API process holds, how long it waits for a request body or an
// idle keep-alive connection, and how long run tokens and web sessions live. The zero value of a
// field means its default.
type Limits struct {
	// WSMaxConnections is MEMORY_WS_MAX_CONNECTIONS: authenticated websocket connections one API
	// process holds at once; an upgrade with a credential beyond it is refused with 503, and a
	// connection_init beyond it closes its socket with 1013.
	WSMaxConnections int
	// WSMaxUnauthenticated is MEMORY_WS_MAX_UNAUTHENTICATED: websockets one API process holds at
	// once that have not authenticated yet — opened without a credential on the upgrade request and
	// still waiting for their connection_init (at most the init timeout, 10 s). They don't count
	// toward WSMaxConnections, so clients that never authenticate can't keep the user's app out; an
	// upgrade beyond it is refused with 503.
	WSMaxUnauthenticated int
	// WSMaxSubscriptionsPerConnection is MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: subscriptions
	// running at once on one websocket.
	WSMaxSubscriptionsPerConnection int
	// WSMaxSubscriptionsPerCredential is MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: subscriptions
	// the user, or the worker and every run together (the worker starts runs at will), hold at once
	// in one API process, over all their websockets.
	WSMaxSubscriptionsPerCredential int
	// WSMaxSubscriptionsPerRun is MEMORY_WS_MAX_SUBSCRIPTIONS_PER_RUN: subscriptions one run's
	// credential holds at once in one API process, inside the worker's WSMaxSubscriptionsPerCredential,
	// so one run can't take every subscription the worker and its runs share.
	WSMaxSubscriptionsPerRun int
	// ExportMaxBytes is MEMORY_EXPORT_MAX_BYTES: the most text (contents and keys, in bytes) one
	// export may hold, its items' and — when asked for — their revisions'. An export is built whole in
	// memory; a larger one is refused before it is read.
	ExportMaxBytes int
	// BodyTimeout is MEMORY_HTTP_BODY_TIMEOUT: how long a request's headers and body may take to
	// arrive before the request is answered 408 and its connection closed.
	BodyTimeout time.Duration
	// IdleTimeout is MEMORY_HTTP_IDLE_TIMEOUT: how long a keep-alive HTTP connection may wait for its
	// next request.
	IdleTimeout time.Duration
	// WriteTimeout is MEMORY_HTTP_WRITE_TIMEOUT: how long the client may take to receive a response,
	// counted from when it starts (and for each write of a streamed one) — not while the request is
	// worked on; a client that takes longer, or never reads, has its connection closed and the
	// response's memory is released. Websockets are exempt.
	WriteTimeout time.Duration
	// RunIdleTimeout is MEMORY_RUN_IDLE_TIMEOUT: a run whose token has not been used for this long is
	// interrupted and its token stops working.
	RunIdleTimeout time.Duration
	// SessionTTL is MEMORY_SESSION_TTL: how long a web session (one login) lasts.
	SessionTTL time.Duration
}

// The defaults of Limits. The subscription and connection caps leave room for make bench's 1,000
// subscribers on one process; at about 25 kB per subscription, 2,000 of them stay near 50 MB.
const (
	DefaultWSMaxConnections                = 2000
	DefaultWSMaxSubscriptionsPerConnection = 100
	DefaultWSMaxSubscriptionsPerCredential = 2000
	// DefaultWSMaxUnauthenticated is plenty for clients that authenticate in connection_init, each
	// waiting milliseconds for its init.
	DefaultWSMaxUnauthenticated = 64
	// DefaultWSMaxSubscriptionsPerRun is well above what one turn follows (its generation and its
	// scopes' changes).
	DefaultWSMaxSubscriptionsPerRun = 20
	// DefaultExportMaxBytes is 32 MiB of text: a full scope of short memories with their history;
	// building it takes a few times that in memory, and the heavy slots bound how many are built at
	// once.
	DefaultExportMaxBytes = 32 << 20
	// DefaultBodyTimeout lets the largest body (1 MiB) arrive at about 35 kB/s.
	DefaultBodyTimeout = 30 * time.Second
	DefaultIdleTimeout = 2 * time.Minute
	// DefaultWriteTimeout lets the largest /mcp answer (8 MiB) reach a client at about 140 kB/s.
	DefaultWriteTimeout = time.Minute
	// DefaultRunIdleTimeout is long enough for a slow model between two tool calls.
	DefaultRunIdleTimeout = time.Hour
	DefaultSessionTTL     = 30 * 24 * time.Hour
)

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	defDuration := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.WSMaxConnections, DefaultWSMaxConnections)
	def(&l.WSMaxSubscriptionsPerConnection, DefaultWSMaxSubscriptionsPerConnection)
	def(&l.WSMaxSubscriptionsPerCredential, DefaultWSMaxSubscriptionsPerCredential)
	def(&l.WSMaxUnauthenticated, DefaultWSMaxUnauthenticated)
	def(&l.WSMaxSubscriptionsPerRun, DefaultWSMaxSubscriptionsPerRun)
	def(&l.ExportMaxBytes, DefaultExportMaxBytes)
	defDuration(&l.BodyTimeout, DefaultBodyTimeout)
	defDuration(&l.IdleTimeout, DefaultIdleTimeout)
	defDuration(&l.WriteTimeout, DefaultWriteTimeout)
	defDuration(&l.RunIdleTimeout, DefaultRunIdleTimeout)
	defDuration(&l.SessionTTL, DefaultSessionTTL)
	return l
}

// LoadLimits reads the MEMORY_WS_*, MEMORY_HTTP_*, MEMORY_EXPORT_MAX_BYTES, MEMORY_RUN_IDLE_TIMEOUT
// and MEMORY_SESSION_TTL variables through getenv (os.Getenv when nil); unset ones take their defaults.
func LoadLimits(getenv func(string) string) (Limits, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	var l Limits
	var err error
	for _, v := range []struct {
		name        string
		dst         *int
		def, lo, hi int
	}{
		{"MEMORY_WS_MAX_CONNECTIONS", &l.WSMaxConnections, DefaultWSMaxConnections, 1, 1_000_000},
		{"MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CONNECTION", &l.WSMaxSubscriptionsPerConnection, DefaultWSMaxSubscriptionsPerConnection, 1, 100_000},
		{"MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL", &l.WSMaxSubscriptionsPerCredential, DefaultWSMaxSubscriptionsPerCredential, 1, 1_000_000},
		{"MEMORY_WS_MAX_UNAUTHENTICATED", &l.WSMaxUnauthenticated, DefaultWSMaxUnauthenticated, 1, 100_000},
		{"MEMORY_WS_MAX_SUBSCRIPTIONS_PER_RUN", &l.WSMaxSubscriptionsPerRun, DefaultWSMaxSubscriptionsPerRun, 1, 100_000},
		{"MEMORY_EXPORT_MAX_BYTES", &l.ExportMaxBytes, DefaultExportMaxBytes, 1 << 20, 1 << 30},
	} {
		if *v.dst, err = intVar(get, v.name, v.def, v.lo, v.hi); err != nil {
			return l, err
		}
	}
	for _, v := range []struct {
		name        string
		dst         *time.Duration
		def, lo, hi time.Duration
	}{
		{"MEMORY_HTTP_BODY_TIMEOUT", &l.BodyTimeout, DefaultBodyTimeout, time.Second, time.Hour},
		{"MEMORY_HTTP_IDLE_TIMEOUT", &l.IdleTimeout, DefaultIdleTimeout, time.Second, 24 * time.Hour},
		{"MEMORY_HTTP_WRITE_TIMEOUT", &l.WriteTimeout, DefaultWriteTimeout, time.Second, time.Hour},
		{"MEMORY_RUN_IDLE_TIMEOUT", &l.RunIdleTimeout, DefaultRunIdleTimeout, time.Minute, 7 * 24 * time.Hour},
		{"MEMORY_SESSION_TTL", &l.SessionTTL, DefaultSessionTTL, time.Minute, 400 * 24 * time.Hour},
	} {
		if *v.dst, err = durationVar(get, v.name, v.def, v.lo, v.hi); err != nil {
			return l, err
		}
	}
	return l, nil
}

func durationVar(get func(string) string, name string, def, lo, hi time.Duration) (time.Duration, error) {
	v := get(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < lo || d > hi {
		return 0, fmt.Errorf("%s: want a duration from %v to %v, like 30s, 10m or 2h (default %v)", name, lo, hi, def)
	}
	return d, nil
}

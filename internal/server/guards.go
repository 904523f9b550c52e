package server

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// originAllowed accepts requests without an Origin (non-browser clients, which must still present a
// token), the server's own origin, and configured ones.
func (s *server) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if u.Host != "" && strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return slices.Contains(s.AllowedOrigins, strings.TrimRight(origin, "/"))
}

// sameOrigin reports whether a request that changes something comes from the server's own pages (or
// a configured origin) or from no page at all. Browsers send Origin on every POST and websocket
// upgrade; Sec-Fetch-Site stands in where a browser left Origin out. A request with neither comes
// from a client that is not a browser, which must present a token anyway.
func (s *server) sameOrigin(r *http.Request) bool {
	if r.Header.Get("Origin") != "" {
		return s.originAllowed(r)
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return true
	default: // cross-site, same-site (another port or subdomain)
		return false
	}
}

// crossOriginGuard refuses, with 403 FORBIDDEN, a POST (or any other method that may change
// something) or a websocket upgrade sent by a page of another origin, before it runs. SameSite=Strict
// already keeps the session cookie off cross-site requests; this also covers same-site pages on
// another port and browsers that ignore SameSite (defence in depth).
func (s *server) crossOriginGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upgrade := r.Header.Get("Upgrade") != ""
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			if !upgrade {
				next.ServeHTTP(w, r)
				return
			}
		}
		if !s.sameOrigin(r) {
			what := "cross-origin request refused"
			if upgrade {
				what = "websocket origin not allowed"
			}
			writeGuardError(w, r, http.StatusForbidden, "FORBIDDEN", what)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostGuard answers 421 to a request whose Host is not a name this server is known by, so that a
// page on a rebinding domain (evil.example resolving to 127.0.0.1) can't talk to it as its own
// origin. Known are: the address the connection arrived on, loopback names and addresses (no
// foreign page can have those as its origin), and the hosts of the configured origins (a reverse
// proxy's public name).
func (s *server) hostGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.hostAllowed(r) {
			next.ServeHTTP(w, r)
			return
		}
		const msg = "This server does not answer to that host name. If it is this server's public name, add its origin to MEMORY_ALLOWED_ORIGINS."
		if r.URL.Path == "/graphql" {
			writeGuardError(w, r, http.StatusMisdirectedRequest, "FORBIDDEN", msg)
			return
		}
		http.Error(w, msg, http.StatusMisdirectedRequest)
	})
}

func (s *server) hostAllowed(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return false
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		if ip.IsLoopback() {
			return true
		}
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr); ok && ip.Equal(local.IP) {
			return true
		}
	}
	return slices.Contains(s.allowedHosts, host)
}

// bodyDeadline gives a request's body Limits.BodyTimeout to arrive: a client that sends headers and
// then nothing (or a trickle) is answered 408 and its connection closed, instead of holding a
// goroutine and its buffers for minutes. net/http clears the deadline by itself once the body has
// been read to its end, so a long-running request is not cut off; a websocket's deadline is cleared
// by the upgrade.
func (s *server) bodyDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody && r.Header.Get("Upgrade") == "" {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.Limits.BodyTimeout))
		}
		next.ServeHTTP(w, r)
	})
}

// writeDeadline gives a response Limits.WriteTimeout to reach the client, so that a client that
// never reads (or reads too slowly) is cut off and the response's memory released, instead of
// holding a goroutine and its buffers for as long as it keeps the connection open. The deadline is
// armed when the response starts — and again at each later write or flush, so a stream lives as
// long as it keeps delivering — not while the request is worked on: a request waiting for a heavy
// slot is not cut off. It is cleared as the handler starts, which also lifts the http.Server's own
// WriteTimeout (app.HTTPServer), a backstop for what net/http writes outside a handler. A websocket
// upgrade is not wrapped (gorilla needs the http.Hijacker, and clears every deadline as it takes
// the connection over), so subscriptions live on; nor is its server deadline cleared, so a request
// that carries an Upgrade header but isn't upgraded (any path but /graphql, or a refused upgrade)
// still ends within the http.Server's WriteTimeout.
func (s *server) writeDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			next.ServeHTTP(w, r)
			return
		}
		_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		dw := &deadlineWriter{ResponseWriter: w, timeout: s.Limits.WriteTimeout}
		next.ServeHTTP(dw, r)
		// net/http sends what is still buffered after the handler returns.
		dw.arm()
	})
}

// deadlineWriter arms the connection's write deadline before each write.
type deadlineWriter struct {
	http.ResponseWriter
	timeout time.Duration
}

func (d *deadlineWriter) arm() {
	_ = http.NewResponseController(d.ResponseWriter).SetWriteDeadline(time.Now().Add(d.timeout))
}

func (d *deadlineWriter) WriteHeader(code int) {
	d.arm()
	d.ResponseWriter.WriteHeader(code)
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	d.arm()
	return d.ResponseWriter.Write(p)
}

func (d *deadlineWriter) Flush() {
	d.arm()
	_ = http.NewResponseController(d.ResponseWriter).Flush()
}

func (d *deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }

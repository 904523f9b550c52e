package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/open-bot/memory/frontend"
	"github.com/open-bot/memory/graph/generated"
	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/graph/resolvers"
	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/escapes"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/metrics"
)

// Options are what the HTTP surface needs from the process.
type Options struct {
	// Pool answers /readyz. It should be a small pool of its own (db.OpenHealthPool): a health check
	// that waits behind requests for the last connection of the request pool would report the
	// database unreachable while it is merely busy.
	Pool     *pgxpool.Pool
	Memory   *memory.Service
	Broker   *events.Broker
	Listener *events.Listener
	Auth     *auth.Authenticator
	// AIStatus answers the aiStatus query; nil reports the AI off.
	AIStatus func(ctx context.Context) (model.AIStatus, error)
	// BackupStatus answers the backups query; nil reports backups off (no backup directory).
	BackupStatus func(ctx context.Context) (model.BackupStatus, error)
	// AllowedOrigins (scheme://host[:port]) may open websockets and send cookie-authenticated POSTs
	// besides the server's own origin, and their host names are accepted in Host.
	AllowedOrigins []string
	// PingPongInterval is the graphql-transport-ws keep-alive (default 20 s); a client that doesn't
	// answer a ping within twice this is disconnected.
	PingPongInterval time.Duration
	// InitTimeout closes a websocket that sends no connection_init within it with 4408 (default
	// 10 s).
	InitTimeout time.Duration
	// Limits are the websocket caps and the body deadline; zero fields mean the defaults.
	Limits config.Limits
	Log    *slog.Logger
	// DBMaxConns is the size of the pool Memory uses; at most half of it serves recalls, searches
	// and counts at once (see operations.go). 0 means no such limit.
	DBMaxConns int
	// Metrics times HTTP requests, GraphQL operations and MCP calls, and watches the websockets
	// (metrics.go); nil measures nothing.
	Metrics *metrics.Metrics
}

// New returns the whole HTTP handler of the API.
func New(o Options) http.Handler {
	if o.PingPongInterval == 0 {
		o.PingPongInterval = 20 * time.Second
	}
	if o.InitTimeout == 0 {
		o.InitTimeout = 10 * time.Second
	}
	o.Limits = o.Limits.WithDefaults()
	s := &server{
		Options: o,
		app:     frontend.Handler(),
		ws:      newWSTracker(o.Limits),
		budget:  newOperationBudget(o.DBMaxConns),
	}
	for _, origin := range o.AllowedOrigins {
		if u, err := url.Parse(origin); err == nil && u.Hostname() != "" {
			s.allowedHosts = append(s.allowedHosts, strings.ToLower(u.Hostname()))
			if u.Scheme == "https" {
				s.httpsHosts = append(s.httpsHosts, strings.ToLower(u.Host))
			}
		}
	}
	o.Metrics.WatchWebsockets(s.ws.counts)
	mux := http.NewServeMux()
	mux.Handle("/graphql", o.Auth.Middleware(s.graphqlGuard(s.graphql())))
	mux.Handle("/mcp", s.mcp())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, map[string]string{"status": "ok"}) })
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /export", o.Auth.Middleware(http.HandlerFunc(s.export)))
	mux.HandleFunc("/export", exportMethodNotAllowed)
	mux.HandleFunc("GET /login", s.login)
	mux.HandleFunc("POST /logout", s.logout)
	mux.Handle("/", s.app)
	return s.writeDeadline(s.bodyDeadline(s.logRequests(s.hostGuard(s.crossOriginGuard(securityHeaders(mux))))))
}

type server struct {
	Options
	// app serves the web app (frontend.Handler, built once: it hashes every file).
	app http.Handler
	ws  *wsTracker
	// budget limits what operations ask of the database at once; /graphql, /mcp and GET /export
	// share its heavy slots.
	budget operationBudget
	// allowedHosts are the host names of AllowedOrigins, lower-cased, for hostGuard.
	allowedHosts []string
	// httpsHosts are the hosts (host[:port], lower-cased) of the https origins of AllowedOrigins: a
	// login whose Host is one of them came through a TLS proxy, and gets a Secure cookie.
	httpsHosts []string
}

func (s *server) graphql() http.Handler {
	root := &resolvers.Resolver{Memory: s.Memory, Events: s.Broker, Log: s.Log, AIStatus: s.AIStatus, BackupStatus: s.BackupStatus,
		MaxRequestBytes: MaxBodyBytes}
	schema := generated.NewExecutableSchema(root.Config())
	srv := handler.New(schema)
	srv.AddTransport(transport.Websocket{
		Implementation: gorillaWebsocket{
			upgrader: websocket.Upgrader{
				// crossOriginGuard has checked Origin already; this keeps the upgrader's own check
				// in step with it.
				CheckOrigin:       s.originAllowed,
				EnableCompression: false,
			},
			initTimeout: s.InitTimeout,
		},
		InitFunc: s.websocketInit,
		// gorillaWebsocket keeps the connection_init deadline, to close with 4408 rather than
		// gqlgen's 1002.
		InitTimeout:      0,
		PingPongInterval: s.PingPongInterval,
		PayloadReadLimit: ptr(int64(MaxBodyBytes)),
		ErrorFunc: func(ctx context.Context, err error) {
			s.Log.DebugContext(ctx, "websocket", "err", err)
		},
	})
	// GET and POST as the GraphQL-over-HTTP specification says (transport.go), not gqlgen's.
	srv.AddTransport(graphqlHTTP{})
	docs := lru.New[*ast.QueryDocument](1000)
	srv.SetQueryCache(docs)
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](1000)})
	// After the persisted-query extension, which fills in the query it checks against.
	srv.Use(strictVariables{schema: schema.Schema(), docs: docs})
	srv.Use(selectionLimit{max: MaxSelections, docs: docs})
	srv.Use(extension.FixedComplexityLimit(MaxComplexity))
	srv.Use(depthLimit{max: MaxDepth})
	srv.Use(s.budget)
	srv.Use(subscriptionCaps{})
	srv.AroundOperations(root.WithLoaders)
	// Last: the execution it shares is set up with the context every interceptor above has made.
	srv.Use(newSharedSubscriptions())
	srv.Use(newGraphQLMetrics(s.Metrics, schema.Schema()))
	srv.SetErrorPresenter(resolvers.ErrorPresenter(s.Log))
	srv.SetRecoverFunc(resolvers.Recover(s.Log))
	return srv
}

// graphqlGuard applies the transport rules gqlgen doesn't: the caps on websocket connections (an
// upgrade beyond the connection cap, or beyond the unauthenticated budget when the upgrade request
// carries no credential, is refused with 503 before any protocol starts; see wsTracker), a body size limit, and a body
// that must arrive within the body deadline (bodyDeadline).
func (s *server) graphqlGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			authenticated := memory.CredentialFrom(r.Context()).Kind != memory.CredentialNone
			conn, limit := s.ws.open(auth.SessionFrom(r.Context()), authenticated)
			if conn == nil {
				what := "websocket connections"
				if !authenticated {
					what = "websocket connections waiting for their connection_init"
				}
				w.Header().Set("Retry-After", "5")
				writeGuardError(w, r, http.StatusServiceUnavailable, codeConnectionLimit,
					fmt.Sprintf("too many %s (at most %d); try again later", what, limit))
				return
			}
			// gqlgen serves the websocket within this call, so the connection counts until it ends.
			defer conn.close()
			r = r.WithContext(withTrackedConn(r.Context(), conn))
		}
		if r.ContentLength > MaxBodyBytes {
			writeGuardError(w, r, http.StatusRequestEntityTooLarge, "BAD_USER_INPUT", "request body too large")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		if r.Method == http.MethodPost {
			// The body is read here: gqlgen would answer a chunked one that is too long with status
			// 200, and its JSON decoder silently turns invalid UTF-8 into U+FFFD, which would then
			// pass every text check as valid.
			body, err := io.ReadAll(r.Body)
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				writeGuardError(w, r, http.StatusRequestEntityTooLarge, "BAD_USER_INPUT", "request body too large")
				return
			} else if errors.Is(err, os.ErrDeadlineExceeded) {
				w.Header().Set("Connection", "close")
				writeGuardError(w, r, http.StatusRequestTimeout, "BAD_USER_INPUT",
					fmt.Sprintf("the request body did not arrive within %v", s.Limits.BodyTimeout))
				return
			} else if err != nil {
				writeGuardError(w, r, http.StatusBadRequest, "BAD_USER_INPUT", "could not read the request body")
				return
			}
			if !utf8.Valid(body) {
				writeGuardError(w, r, http.StatusBadRequest, "BAD_USER_INPUT", "the request body is not valid UTF-8")
				return
			}
			if err := checkSurrogates(body); err != nil {
				writeGuardError(w, r, http.StatusBadRequest, "BAD_USER_INPUT", err.Error())
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		for _, values := range r.URL.Query() {
			for _, v := range values {
				if !utf8.ValidString(v) {
					writeGuardError(w, r, http.StatusBadRequest, "BAD_USER_INPUT", "the query string is not valid UTF-8")
					return
				}
				if escapes.LoneSurrogate(v) {
					writeGuardError(w, r, http.StatusBadRequest, "BAD_USER_INPUT", errLoneSurrogate.Error())
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// websocketInit authenticates a connection_init (auth.Authenticator.WebsocketInit), then moves the
// socket from the unauthenticated budget to the connection cap; when the cap is full the socket is
// closed with 1013 (try again later).
func (s *server) websocketInit(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	ctx, ack, err := s.Auth.WebsocketInit(ctx, payload)
	if err != nil {
		return ctx, ack, err
	}
	if conn := trackedConnFrom(ctx); conn != nil && !conn.authenticate() {
		ctx = transport.WithWebsocketCloseCode(ctx, auth.CloseTryAgainLater)
		ctx = transport.AppendCloseReason(ctx, "Try again later: too many websocket connections")
		return ctx, nil, fmt.Errorf("too many websocket connections (at most %d); try again later", s.Limits.WSMaxConnections)
	}
	return ctx, ack, nil
}

func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	checks := map[string]string{"database": "ok", "migrations": "ok", "listener": "ok"}
	ready := true
	fail := func(name, why string) { checks[name] = why; ready = false }
	if err := s.Pool.Ping(ctx); err != nil {
		fail("database", "unreachable")
		fail("migrations", "unknown")
	} else if current, err := db.SchemaCurrent(ctx, s.Pool); err != nil {
		fail("migrations", "unknown")
	} else if !current {
		fail("migrations", "pending")
	}
	if s.Listener != nil && !s.Listener.Connected() {
		fail("listener", "disconnected")
	}
	status := http.StatusOK
	if !ready {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, checks)
}

// login starts a web session when ?token= is the user's token, sets its cookie and opens the app.
func (s *server) login(w http.ResponseWriter, r *http.Request) {
	if !s.Auth.IsUserToken(r.URL.Query().Get("token")) {
		// The web app's own sign-in page says the link is wrong, styled like the rest; the status
		// stays 401 for scripts. The page is fetched afresh, never answered 304, so that status holds.
		page := r.Clone(r.Context())
		page.URL.Path, page.URL.RawQuery = "/", ""
		page.Header.Del("If-None-Match")
		page.Header.Del("If-Modified-Since")
		s.app.ServeHTTP(&unauthorizedPage{ResponseWriter: w}, page)
		return
	}
	// Secure when the browser reached us over TLS: directly, or through a proxy whose https origin
	// is listed in MEMORY_ALLOWED_ORIGINS (the Host it forwards names it; hostGuard has checked it).
	secure := r.TLS != nil || slices.Contains(s.httpsHosts, strings.ToLower(r.Host))
	cookie, err := s.Auth.Login(r.Context(), secure)
	if err != nil {
		s.Log.ErrorContext(r.Context(), "login", "err", err)
		http.Error(w, "The session could not be started; try again in a moment.", http.StatusServiceUnavailable)
		return
	}
	http.SetCookie(w, cookie)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// unauthorizedPage answers a page with 401 instead of 200.
type unauthorizedPage struct {
	http.ResponseWriter
	wrote bool
}

func (u *unauthorizedPage) WriteHeader(code int) {
	if code == http.StatusOK {
		code = http.StatusUnauthorized
	}
	u.wrote = true
	u.ResponseWriter.WriteHeader(code)
}

func (u *unauthorizedPage) Write(b []byte) (int, error) {
	if !u.wrote {
		u.WriteHeader(http.StatusOK) // an implicit 200 becomes the 401
	}
	return u.ResponseWriter.Write(b)
}

// logout ends the request's session — its cookie stops working and its websockets are closed with
// 4403 — and clears the cookie.
func (s *server) logout(w http.ResponseWriter, r *http.Request) {
	clear, session, err := s.Auth.Logout(r.Context(), r)
	if err != nil {
		s.Log.ErrorContext(r.Context(), "logout", "err", err)
		writeGraphQLError(w, http.StatusServiceUnavailable, "UNAVAILABLE", "the session could not be ended; try again in a moment")
		return
	}
	s.ws.closeSession(session, auth.CloseForbidden, "Forbidden: logged out")
	http.SetCookie(w, clear)
	w.WriteHeader(http.StatusNoContent)
}

// ContentSecurityPolicy is sent with every response: the web app and GraphiQL load only their own
// scripts, styles and fonts and talk only to their own origin ('self' covers the same-origin
// websocket), so injected markup can neither run a script nor send data elsewhere. data: images
// and fonts are the inline icons of the built CSS and the pages' empty favicon.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
	"frame-ancestors 'none'"

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the response status for the request log; it passes Hijack through for
// websocket upgrades.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequests logs method, path (never the query string: the login URL carries a token), status and
// duration, and times the request by its route class (routeClass) and status.
func (s *server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			next.ServeHTTP(w, r) // websockets log through gqlgen's hooks, and are counted as connections
			return
		}
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		s.Metrics.HTTPRequest(routeClass(r.URL.Path), rec.status, time.Since(start))
		if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
			return // probes are noise in the log
		}
		s.Log.DebugContext(r.Context(), "http", "method", r.Method, "path", r.URL.Path, "status", rec.status,
			"ms", float64(time.Since(start).Microseconds())/1000)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeGraphQLError answers a request refused before GraphQL saw it: a request error, so there is no
// "data" entry (GraphQL-over-HTTP; see transport.go).
func writeGraphQLError(w http.ResponseWriter, status int, code, message string) {
	writeRequestError(w, mediaJSON, status, code, message)
}

func ptr[T any](v T) *T { return &v }

// writeGuardError is writeGraphQLError in the media type the request asked for (application/json when
// it asked for neither of GraphQL's).
func writeGuardError(w http.ResponseWriter, r *http.Request, status int, code, message string) {
	media, ok := responseMediaType(r.Header.Get("Accept"))
	if !ok {
		media = mediaJSON
	}
	writeRequestError(w, media, status, code, message)
}

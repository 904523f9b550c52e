package auth_test

import (
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

// asCookie is what the middleware makes of a request carrying cookie: the credential and the
// session's identity, or the response status when it answered itself.
func asCookie(t *testing.T, a *auth.Authenticator, cookie *http.Cookie) (memory.CredentialKind, string, int) {
	t.Helper()
	var kind memory.CredentialKind
	var session string
	h := a.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		kind, session = memory.CredentialFrom(r.Context()).Kind, auth.SessionFrom(r.Context())
	}))
	req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
	req.AddCookie(cookie)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return kind, session, rec.Code
}

// Each login is its own session, stored only as an HMAC, ended by logout or by its expiry; a new user
// token ends them all.
func TestSessions(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	a := auth.New(userToken, workerToken, nil, auth.NewSessions(pool, 2*time.Hour))

	first, err := a.Login(t.Context(), false)
	require.NoError(t, err)
	second, err := a.Login(t.Context(), true)
	require.NoError(t, err)
	require.NotEqual(t, first.Value, second.Value, "every login is a session of its own")
	require.Equal(t, auth.CookieName, first.Name)
	require.True(t, first.HttpOnly)
	require.Equal(t, http.SameSiteStrictMode, first.SameSite)
	require.False(t, first.Secure)
	require.True(t, second.Secure)
	require.Equal(t, 2*3600, first.MaxAge, "the cookie lives as long as the session")
	require.NotContains(t, first.Value, userToken)

	var stored [][]byte
	rows, err := pool.Query(t.Context(), `SELECT key FROM web_sessions`)
	require.NoError(t, err)
	for rows.Next() {
		var key []byte
		require.NoError(t, rows.Scan(&key))
		stored = append(stored, key)
	}
	require.NoError(t, rows.Err())
	require.Len(t, stored, 2)
	for _, c := range []*http.Cookie{first, second} {
		plain := sha256.Sum256([]byte(c.Value))
		for _, key := range stored {
			require.NotEqual(t, []byte(c.Value), key, "the table holds no cookie")
			require.NotEqual(t, plain[:], key, "nor a plain hash of one")
		}
	}

	kind, firstSession, status := asCookie(t, a, first)
	require.Equal(t, memory.CredentialUser, kind)
	require.Equal(t, http.StatusOK, status)
	require.NotEmpty(t, firstSession)
	require.NotContains(t, firstSession, first.Value)

	other := auth.New("mu_another-user-token-0123456789", workerToken, nil, auth.NewSessions(pool, time.Hour))
	kind, _, _ = asCookie(t, other, first)
	require.Equal(t, memory.CredentialNone, kind, "a new user token ends every session")

	req := httptest.NewRequest(http.MethodPost, "/logout", nil)
	req.AddCookie(first)
	clear, ended, err := a.Logout(t.Context(), req)
	require.NoError(t, err)
	require.Equal(t, firstSession, ended)
	require.Equal(t, auth.CookieName, clear.Name)
	require.Empty(t, clear.Value)
	require.Negative(t, clear.MaxAge)
	kind, session, _ := asCookie(t, a, first)
	require.Equal(t, memory.CredentialNone, kind, "a logged-out session is refused")
	require.Empty(t, session)
	kind, _, _ = asCookie(t, a, second)
	require.Equal(t, memory.CredentialUser, kind, "logout ends its own session only")

	_, err = pool.Exec(t.Context(), `UPDATE web_sessions SET expires_at = now() - interval '1 second'`)
	require.NoError(t, err)
	kind, _, _ = asCookie(t, a, second)
	require.Equal(t, memory.CredentialNone, kind, "an expired session is refused")
	purged, err := a.PurgeSessions(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, purged)

	// Without a session store a cookie authenticates nothing.
	kind, _, _ = asCookie(t, auth.New(userToken, workerToken, nil, nil), second)
	require.Equal(t, memory.CredentialNone, kind)
	_, err = auth.New(userToken, workerToken, nil, nil).Login(t.Context(), false)
	require.Error(t, err)
}

// A session that can't be looked up is not a logout: the request is answered UNAVAILABLE (503), so
// the web app retries instead of showing its login page.
func TestSessionLookupFails(t *testing.T) {
	t.Parallel()
	pool, err := pgxpool.New(t.Context(), dbtest.URL(t))
	require.NoError(t, err)
	a := auth.New(userToken, workerToken, nil, auth.NewSessions(pool, time.Hour))
	cookie, err := a.Login(t.Context(), false)
	require.NoError(t, err)
	pool.Close()

	h := a.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		t.Error("the request went on without its session")
	}))
	req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
	req.AddCookie(cookie)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	require.Contains(t, rec.Body.String(), `"code":"UNAVAILABLE"`)
	require.False(t, strings.Contains(rec.Body.String(), cookie.Value))
}

package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/auth/authdb"
)

// Sessions keep the web app's logins in the web_sessions table: each login gets its own random id,
// which only the cookie holds; the table holds HMAC-SHA256(user token, id) and an expiry. Logout
// deletes the row, so a copied cookie stops working with it, and a new user token ends every
// session because no key matches any more.
type Sessions struct {
	q   *authdb.Queries
	ttl time.Duration
}

// NewSessions returns the session store on pool; a login lasts ttl.
func NewSessions(pool *pgxpool.Pool, ttl time.Duration) *Sessions {
	return &Sessions{q: authdb.New(pool), ttl: ttl}
}

// sessionKey is what the table stores for the session id in a cookie.
func (a *Authenticator) sessionKey(id string) []byte {
	mac := hmac.New(sha256.New, a.userToken)
	mac.Write([]byte("memory web session v2\x00"))
	mac.Write([]byte(id))
	return mac.Sum(nil)
}

// Login starts a new web session and returns its cookie (HttpOnly, SameSite=Strict, Secure over
// TLS). It fails without a session store.
func (a *Authenticator) Login(ctx context.Context, secure bool) (*http.Cookie, error) {
	if a.sessions == nil {
		return nil, fmt.Errorf("login: no session store")
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	id := base64.RawURLEncoding.EncodeToString(b)
	if err := a.sessions.q.SessionInsert(ctx, authdb.SessionInsertParams{Key: a.sessionKey(id), Ttl: a.sessions.ttl}); err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	c := sessionCookie(secure)
	c.Value, c.MaxAge = id, int(a.sessions.ttl/time.Second)
	return c, nil
}

// Logout ends the request's web session, if it has one, and returns the cookie that clears it in the
// browser, with the ended session's identity for SessionFrom ("" when there was none).
func (a *Authenticator) Logout(ctx context.Context, r *http.Request) (clear *http.Cookie, session string, err error) {
	clear = sessionCookie(r.TLS != nil)
	clear.MaxAge = -1
	c, cookieErr := r.Cookie(CookieName)
	if cookieErr != nil || c.Value == "" || a.sessions == nil {
		return clear, "", nil
	}
	key := a.sessionKey(c.Value)
	if err := a.sessions.q.SessionDelete(ctx, key); err != nil {
		return clear, "", fmt.Errorf("logout: %w", err)
	}
	return clear, hex.EncodeToString(key), nil
}

// session returns the identity of the request's valid web session, or "" when its cookie is
// missing, unknown, logged out or expired.
func (a *Authenticator) session(ctx context.Context, r *http.Request) (string, error) {
	c, err := r.Cookie(CookieName)
	if err != nil || c.Value == "" || a.sessions == nil {
		return "", nil
	}
	key := a.sessionKey(c.Value)
	valid, err := a.sessions.q.SessionValid(ctx, key)
	if err != nil {
		return "", fmt.Errorf("session: %w", err)
	}
	if !valid {
		return "", nil
	}
	return hex.EncodeToString(key), nil
}

// PurgeSessions deletes expired sessions (they already stopped working) and returns how many; the
// API's sweeper calls it.
func (a *Authenticator) PurgeSessions(ctx context.Context) (int, error) {
	if a.sessions == nil {
		return 0, nil
	}
	n, err := a.sessions.q.SessionsPurgeExpired(ctx)
	if err != nil {
		return 0, fmt.Errorf("purge sessions: %w", err)
	}
	return int(n), nil
}

type sessionCtxKey struct{}

// SessionFrom is the identity of the web session whose cookie authenticated the request ("" when
// none did): the server closes that session's websockets when it logs out.
func SessionFrom(ctx context.Context) string {
	s, _ := ctx.Value(sessionCtxKey{}).(string)
	return s
}

func sessionCookie(secure bool) *http.Cookie {
	return &http.Cookie{
		Name: CookieName, Path: "/", HttpOnly: true, Secure: secure, SameSite: http.SameSiteStrictMode,
	}
}

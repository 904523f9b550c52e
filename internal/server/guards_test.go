package server_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/frontend"
	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/server"
)

// A cookie-authenticated JSON POST from a page of another origin is refused before it runs. Origin
// decides when present; Sec-Fetch-Site when a browser left Origin out. The server's own pages,
// configured origins and clients that are not browsers (neither header) are served.
func TestCrossOriginCookiePostsAreRefused(t *testing.T) {
	t.Parallel()
	const configured = "http://app.example:5173"
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings, func(o *app.Options) { o.AllowedOrigins = []string{configured} })
	cookie := loginCookie(t, s)
	db := newSnapshots(t, databaseURL)
	const mutation = `mutation($n: String!) { createTeammate(input: {name: $n}) { teammate { id } } }`

	for name, header := range map[string]http.Header{
		"foreign Origin":            {"Origin": {"http://evil.example"}},
		"null Origin":               {"Origin": {"null"}},
		"another port":              {"Origin": {strings.Replace(s.URL, "127.0.0.1", "localhost", 1)}},
		"cross-site fetch metadata": {"Sec-Fetch-Site": {"cross-site"}},
		"same-site fetch metadata":  {"Sec-Fetch-Site": {"same-site"}},
		"foreign Origin, same-origin metadata": {
			"Origin": {"http://evil.example"}, "Sec-Fetch-Site": {"same-origin"},
		},
	} {
		t.Run("refused: "+name, func(t *testing.T) {
			before := db.take(t)
			header = header.Clone()
			header.Set("Cookie", cookie.String())
			res := s.DoWith(t, header, mutation, map[string]any{"n": "Mallory"})
			require.Equal(t, http.StatusForbidden, res.Status)
			require.Equal(t, "FORBIDDEN", res.Code(), "errors %+v", res.Errors)
			require.Equal(t, before, db.take(t), "a refused POST changed the database")
		})
	}
	for name, header := range map[string]http.Header{
		"own Origin":                {"Origin": {s.URL}, "Sec-Fetch-Site": {"same-origin"}},
		"configured Origin":         {"Origin": {configured}, "Sec-Fetch-Site": {"cross-site"}},
		"same-origin metadata":      {"Sec-Fetch-Site": {"same-origin"}},
		"neither (not a browser)":   {},
		"user-initiated (metadata)": {"Sec-Fetch-Site": {"none"}},
	} {
		t.Run("served: "+name, func(t *testing.T) {
			header = header.Clone()
			header.Set("Cookie", cookie.String())
			var data struct {
				CreateTeammate struct{ Teammate struct{ ID string } }
			}
			s.DoWith(t, header, mutation, map[string]any{"n": "Ada " + name}).Decode(t, &data)
			require.NotEmpty(t, data.CreateTeammate.Teammate.ID)
		})
	}

	t.Run("logout from another origin", func(t *testing.T) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/logout", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", "http://evil.example")
		req.AddCookie(cookie)
		res := s.DoRequest(t, req)
		require.Equal(t, http.StatusForbidden, res.Status)
		var data struct{ Teammates []struct{ ID string } }
		s.DoWith(t, http.Header{"Cookie": {cookie.String()}}, `{ teammates { id } }`, nil).Decode(t, &data)
	})

	t.Run("websocket upgrade with cross-site metadata", func(t *testing.T) {
		c, res, err := apitest.DialWS(t.Context(), s.URL, http.Header{"Cookie": {cookie.String()}, "Sec-Fetch-Site": {"cross-site"}})
		require.ErrorIs(t, err, websocket.ErrBadHandshake)
		require.Nil(t, c)
		require.Equal(t, http.StatusForbidden, res.Status)
	})
}

// A request whose Host is not a name of this server is answered 421 (DNS rebinding: a page on
// evil.example resolving to 127.0.0.1 would talk to the API as its own origin). Loopback names,
// the address the connection arrived on and configured origins' hosts are served.
func TestHostIsChecked(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.AllowedOrigins = []string{"https://memory.example"} })
	port := s.Addr[strings.LastIndex(s.Addr, ":"):]
	get := func(t *testing.T, host, path string, header http.Header) (*http.Response, string) {
		t.Helper()
		header = header.Clone()
		if header == nil {
			header = http.Header{}
		}
		header.Set("Host", host)
		return s.Fetch(t, path, header)
	}
	for _, host := range []string{"evil.example" + port, "evil.example", "127.0.0.1.evil.example" + port, "localhost.evil.example", "10.1.2.3" + port} {
		t.Run("refused "+host, func(t *testing.T) {
			t.Parallel()
			for _, path := range []string{"/", "/graphiql", "/healthz", "/login?token=" + userToken} {
				res, body := get(t, host, path, nil)
				require.Equal(t, http.StatusMisdirectedRequest, res.StatusCode, "%s: %s", path, body)
				require.Contains(t, body, "MEMORY_ALLOWED_ORIGINS")
				require.Empty(t, res.Cookies(), "a refused login set a cookie")
			}
			res, body := get(t, host, "/graphql?query=%7Bteammates%7Bid%7D%7D", apitest.Bearer(userToken))
			require.Equal(t, http.StatusMisdirectedRequest, res.StatusCode)
			var out apitest.Result
			require.NoError(t, json.Unmarshal([]byte(body), &out), body)
			require.Equal(t, "FORBIDDEN", out.Code())
			// A websocket upgrade too.
			res, _ = get(t, host, "/graphql", http.Header{
				"Connection": {"Upgrade"}, "Upgrade": {"websocket"}, "Sec-Websocket-Version": {"13"},
				"Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}, "Sec-Websocket-Protocol": {"graphql-transport-ws"},
			})
			require.Equal(t, http.StatusMisdirectedRequest, res.StatusCode)
		})
	}
	for _, host := range []string{"127.0.0.1" + port, "localhost" + port, "LOCALHOST" + port, "[::1]" + port, "app.localhost" + port, "memory.example", "memory.example:443"} {
		t.Run("served "+host, func(t *testing.T) {
			t.Parallel()
			res, body := get(t, host, "/healthz", nil)
			require.Equal(t, http.StatusOK, res.StatusCode, body)
		})
	}
}

// Every page, the app's and GraphiQL's above all, carries a Content-Security-Policy that allows only
// the server's own scripts, styles and connections, and the built pages need nothing more:
// no inline script or style that the policy would block.
func TestContentSecurityPolicy(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	csp := server.ContentSecurityPolicy
	for _, directive := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"} {
		require.Contains(t, strings.Split(csp, "; "), directive)
	}
	require.NotContains(t, csp, "unsafe")
	for _, path := range []string{"/", "/graphiql", "/memory", "/healthz", "/graphql"} {
		res, body := s.Fetch(t, path, nil)
		require.Equal(t, csp, res.Header.Get("Content-Security-Policy"), path)
		if !frontend.Built() || (path != "/" && path != "/graphiql") {
			continue
		}
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		scripts := regexp.MustCompile(`<script[^>]*>`).FindAllString(body, -1)
		require.NotEmpty(t, scripts, path)
		for _, tag := range scripts {
			require.Regexp(t, `\ssrc="/assets/[^"]+"`, tag, "%s: an inline script, which the policy blocks", path)
		}
		require.NotContains(t, body, "<style", "%s: an inline style element, which the policy blocks", path)
		require.NotRegexp(t, `\sstyle="`, body, "%s: an inline style attribute, which the policy blocks", path)
		require.NotRegexp(t, `\son[a-z]+="`, body, "%s: an inline event handler, which the policy blocks", path)
	}
}

// The session cookie is Secure when the browser reached the server over TLS: through a proxy whose
// https origin is in MEMORY_ALLOWED_ORIGINS (the Host it forwards names it), not over plain http
// (docs/API.md says what a plain-http cookie reaches).
func TestLoginCookieIsSecureBehindATLSProxy(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) {
		o.AllowedOrigins = []string{"https://memory.example", "http://plain.example"}
	})
	cookieFor := func(host string) *http.Cookie {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/login?token="+userToken, nil)
		require.NoError(t, err)
		req.Host = host
		res, err := noRedirects(s).Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusSeeOther, res.StatusCode, host)
		require.Len(t, res.Cookies(), 1, host)
		return res.Cookies()[0]
	}
	assert.True(t, cookieFor("memory.example").Secure, "through the TLS proxy")
	assert.True(t, cookieFor("MEMORY.example").Secure, "host names are case-insensitive")
	assert.False(t, cookieFor("plain.example").Secure, "an http origin")
	assert.False(t, cookieFor(s.Addr).Secure, "plain http on loopback: a Secure cookie would never come back")
}

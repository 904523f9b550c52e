package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/dbtest"
)

func TestQueryOverPOST(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	id := s.CreateTeammate(t, "Ada")

	for name, token := range map[string]string{"user": userToken, "worker": workerToken} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var data struct {
				Teammates []struct{ ID, Name, Generation string }
			}
			s.Must(t, token, `{ teammates { id name generation } }`, nil, &data)
			require.Len(t, data.Teammates, 1)
			require.Equal(t, id, data.Teammates[0].ID)
			require.Equal(t, "Ada", data.Teammates[0].Name)
			require.NotEmpty(t, data.Teammates[0].Generation)
		})
	}
}

func TestQueryOverGET(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	s.CreateTeammate(t, "Grace")

	res := s.Get(t, apitest.Bearer(workerToken), `{ teammates { name } }`)
	var data struct{ Teammates []struct{ Name string } }
	res.Decode(t, &data)
	require.Equal(t, []struct{ Name string }{{"Grace"}}, data.Teammates)
}

func TestMutationOverGETIsRefused(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)

	res := s.Get(t, apitest.Bearer(userToken), `mutation { createTeammate(input: {name: "Mallory"}) { teammate { id } } }`)
	require.Equal(t, http.StatusMethodNotAllowed, res.Status, "GraphQL over HTTP: a mutation over GET is 405")
	require.NotEmpty(t, res.Errors)
	require.Empty(t, teammateNames(t, s), "a GET ran a mutation")
}

func TestCredentials(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)

	for _, tc := range []struct {
		name   string
		header http.Header
	}{
		{"missing", nil},
		{"wrong token", apitest.Bearer("mu_not-the-user-token-0123456789abcdef")},
		{"empty bearer", http.Header{"Authorization": {"Bearer "}}},
		{"scheme only", http.Header{"Authorization": {"Bearer"}}},
		{"no scheme", http.Header{"Authorization": {userToken}}},
		{"basic scheme", http.Header{"Authorization": {"Basic " + userToken}}},
		{"token glued to scheme", http.Header{"Authorization": {"Bearer" + userToken}}},
		// A bad token is not rescued by a good cookie: what the client presents is what it gets.
		{"wrong token with session cookie", http.Header{
			"Authorization": {"Bearer wrong"},
			"Cookie":        {(&http.Cookie{Name: auth.CookieName, Value: sessionValue(t, s)}).String()},
		}},
		{"forged session cookie", http.Header{"Cookie": {auth.CookieName + "=" + userToken}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := s.DoWith(t, tc.header, `{ teammates { id } }`, nil)
			require.Equal(t, "UNAUTHENTICATED", res.Code(), "errors %+v", res.Errors)
			require.JSONEq(t, "null", string(res.Data))
		})
	}

	t.Run("worker creating a teammate", func(t *testing.T) {
		t.Parallel()
		res := s.Do(t, workerToken, `mutation { createTeammate(input: {name: "Eve"}) { teammate { id } } }`, nil)
		require.Equal(t, "FORBIDDEN", res.Code(), "errors %+v", res.Errors)
		require.NotContains(t, teammateNames(t, s), "Eve")
	})
}

// noRedirects is s's client, stopping at the first response.
func noRedirects(s *apitest.API) *http.Client {
	c := *s.HTTP
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// login opens the login URL with token and returns the response.
func login(t *testing.T, s *apitest.API, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/login?"+url.Values{"token": {token}}.Encode(), nil)
	require.NoError(t, err)
	res, err := noRedirects(s).Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// loginCookie returns the session cookie the login URL sets for the user's token.
func loginCookie(t *testing.T, s *apitest.API) *http.Cookie {
	t.Helper()
	res := login(t, s, userToken)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	for _, c := range res.Cookies() {
		if c.Name == auth.CookieName {
			return c
		}
	}
	require.FailNow(t, "the login URL set no session cookie")
	return nil
}

func sessionValue(t *testing.T, s *apitest.API) string { return loginCookie(t, s).Value }

// logout posts /logout with cookie, as the web app does, and returns the response.
func logout(t *testing.T, s *apitest.API, cookie *http.Cookie) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/logout", nil)
	require.NoError(t, err)
	req.Header.Set("Origin", s.URL)
	req.AddCookie(cookie)
	res, err := s.HTTP.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	return res
}

func TestLogin(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)

	res := login(t, s, userToken)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/", res.Header.Get("Location"))
	cookie := loginCookie(t, s)
	require.True(t, cookie.HttpOnly, "HttpOnly")
	require.Equal(t, http.SameSiteStrictMode, cookie.SameSite)
	require.Equal(t, "/", cookie.Path)
	require.NotContains(t, cookie.Value, userToken, "the cookie must not be the API token")
	require.Equal(t, int((30 * 24 * time.Hour).Seconds()), cookie.MaxAge, "the session lasts MEMORY_SESSION_TTL (30 days by default)")
	require.Contains(t, res.Header.Get("Set-Cookie"), "SameSite=Strict")

	t.Run("cookie acts as the user", func(t *testing.T) {
		// createTeammate accepts only the user.
		var data struct {
			CreateTeammate struct{ Teammate struct{ Name string } }
		}
		s.DoWith(t, http.Header{"Cookie": {cookie.String()}},
			`mutation { createTeammate(input: {name: "Linus"}) { teammate { name } } }`, nil).Decode(t, &data)
		require.Equal(t, "Linus", data.CreateTeammate.Teammate.Name)
	})

	for name, token := range map[string]string{
		"wrong token":  "mu_not-the-user-token-0123456789abcdef",
		"worker token": workerToken,
		"no token":     "",
	} {
		t.Run(name, func(t *testing.T) {
			res := login(t, s, token)
			require.Empty(t, res.Cookies(), "a refused login set a cookie")
			// The refusal is the web app's sign-in page, answered with 401; without a build the
			// app's handler answers 503.
			apitest.RequireWebApp(t)
			require.Equal(t, http.StatusUnauthorized, res.StatusCode)
		})
	}

	t.Run("logout ends the session", func(t *testing.T) {
		other := loginCookie(t, s)
		require.NotEqual(t, cookie.Value, other.Value, "each login is a session of its own")
		res := logout(t, s, cookie)
		require.Equal(t, http.StatusNoContent, res.StatusCode)
		require.Len(t, res.Cookies(), 1)
		require.Equal(t, auth.CookieName, res.Cookies()[0].Name)
		require.Empty(t, res.Cookies()[0].Value)
		require.Negative(t, res.Cookies()[0].MaxAge)

		// The cookie no longer acts, though a copy of it was kept; another login's does.
		res2 := s.DoWith(t, http.Header{"Cookie": {cookie.String()}}, `{ teammates { id } }`, nil)
		require.Equal(t, "UNAUTHENTICATED", res2.Code(), "errors %+v", res2.Errors)
		var data struct{ Teammates []struct{ ID string } }
		s.DoWith(t, http.Header{"Cookie": {other.String()}}, `{ teammates { id } }`, nil).Decode(t, &data)
	})
}

// Automatic persisted queries: a hash alone is refused until the query was sent with it once; a
// mutation registered that way still doesn't run over GET.
func TestPersistedQueries(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	persisted := func(query string) map[string]any {
		sum := sha256.Sum256([]byte(query))
		return map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(sum[:])}}
	}
	send := func(t *testing.T, body map[string]any) apitest.Result {
		t.Helper()
		b, err := json.Marshal(body)
		require.NoError(t, err)
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/graphql", bytes.NewReader(b))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+userToken)
		return s.DoRequest(t, req)
	}

	const query = `{ teammates { name } }`
	res := send(t, map[string]any{"extensions": persisted(query)})
	require.Equal(t, "PERSISTED_QUERY_NOT_FOUND", res.Code(), "errors %+v", res.Errors)
	send(t, map[string]any{"query": query, "extensions": persisted(query)}).Decode(t, &struct{}{})
	var data struct{ Teammates []struct{ Name string } }
	send(t, map[string]any{"extensions": persisted(query)}).Decode(t, &data)
	require.Empty(t, data.Teammates)

	mutation := `mutation { createTeammate(input: {name: "Once"}) { teammate { id } } }`
	send(t, map[string]any{"query": mutation, "extensions": persisted(mutation)}).Decode(t, &struct{}{})
	ext, err := json.Marshal(persisted(mutation))
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet,
		s.URL+"/graphql?"+url.Values{"extensions": {string(ext)}}.Encode(), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+userToken)
	require.Equal(t, http.StatusMethodNotAllowed, s.DoRequest(t, req).Status)
	require.Equal(t, []string{"Once"}, teammateNames(t, s), "the persisted mutation ran again over GET")
}

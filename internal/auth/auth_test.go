package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

const (
	userToken   = "mu_auth-test-user-token-0123456789"
	workerToken = "mw_auth-test-worker-token-0123456789"
	runToken    = "mr_auth-test-run-token-0123456789"
)

// runs knows one run token.
type runs struct{}

func (runs) AuthenticateRun(_ context.Context, token string) (memory.Credential, error) {
	if token == runToken {
		return memory.Credential{Kind: memory.CredentialRun}, nil
	}
	return memory.Credential{}, memory.ErrUnauthenticated
}

func TestLoadOrCreateToken(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "data", "user-token") // the directory doesn't exist yet

	first, created, err := auth.LoadOrCreateToken(path, "mu_")
	require.NoError(t, err)
	require.True(t, created)
	require.True(t, strings.HasPrefix(first, "mu_"), first)
	require.Greater(t, len(first), 40)
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	dir, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), dir.Mode().Perm())

	second, created, err := auth.LoadOrCreateToken(path, "mu_")
	require.NoError(t, err)
	require.Equal(t, first, second, "the second start must reuse the token")
	require.False(t, created, "a reused token was not generated")

	other, _, err := auth.LoadOrCreateToken(filepath.Join(filepath.Dir(path), "worker-token"), "mw_")
	require.NoError(t, err)
	require.NotEqual(t, first, other)
}

func TestLoadOrCreateTokenReadsAnEditedFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "user-token")
	require.NoError(t, os.WriteFile(path, []byte("  "+userToken+"\n\n"), 0o600))
	got, created, err := auth.LoadOrCreateToken(path, "mu_")
	require.NoError(t, err)
	require.Equal(t, userToken, got)
	require.False(t, created)
}

func TestLoadOrCreateTokenUnreadable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "user-token")
	require.NoError(t, os.Mkdir(path, 0o700)) // a directory where the file should be
	_, _, err := auth.LoadOrCreateToken(path, "mu_")
	require.ErrorContains(t, err, path)
}

func TestNewToken(t *testing.T) {
	t.Parallel()
	a, b := auth.NewToken("mw_"), auth.NewToken("mw_")
	require.NotEqual(t, a, b)
	require.True(t, strings.HasPrefix(a, "mw_"))
	require.Len(t, a, len("mw_")+43) // 32 random bytes, base64url without padding
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	a := auth.New(userToken, workerToken, runs{}, nil)
	without := auth.New(userToken, workerToken, nil, nil)
	for _, tc := range []struct {
		name  string
		a     *auth.Authenticator
		token string
		want  memory.CredentialKind
	}{
		{"user", a, userToken, memory.CredentialUser},
		{"worker", a, workerToken, memory.CredentialWorker},
		{"run", a, runToken, memory.CredentialRun},
		{"empty", a, "", memory.CredentialNone},
		{"wrong", a, "mu_wrong-token-0123456789abcdef", memory.CredentialNone},
		{"user token with a space", a, userToken + " ", memory.CredentialNone},
		{"user token prefix", a, userToken[:len(userToken)-1], memory.CredentialNone},
		{"run token without runs", without, runToken, memory.CredentialNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cred, err := tc.a.Authenticate(t.Context(), tc.token)
			if tc.want == memory.CredentialNone {
				require.ErrorIs(t, err, memory.ErrUnauthenticated)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, cred.Kind)
		})
	}
}

func TestIsUserToken(t *testing.T) {
	t.Parallel()
	a := auth.New(userToken, workerToken, nil, nil)
	require.True(t, a.IsUserToken(userToken))
	require.False(t, a.IsUserToken(workerToken))
	require.False(t, a.IsUserToken(""))
}

func TestMiddleware(t *testing.T) {
	t.Parallel()
	a := auth.New(userToken, workerToken, runs{}, auth.NewSessions(dbtest.Pool(t), time.Hour))
	cookie, err := a.Login(t.Context(), false)
	require.NoError(t, err)
	session := cookie.String()
	for _, tc := range []struct {
		name   string
		header http.Header
		want   memory.CredentialKind
	}{
		{"nothing", nil, memory.CredentialNone},
		{"user bearer", http.Header{"Authorization": {"Bearer " + userToken}}, memory.CredentialUser},
		{"lower-case scheme and spaces", http.Header{"Authorization": {"  bearer   " + workerToken + " "}}, memory.CredentialWorker},
		{"run bearer", http.Header{"Authorization": {"Bearer " + runToken}}, memory.CredentialRun},
		{"session cookie", http.Header{"Cookie": {session}}, memory.CredentialUser},
		{"forged cookie", http.Header{"Cookie": {auth.CookieName + "=" + userToken}}, memory.CredentialNone},
		{"wrong bearer beats cookie", http.Header{"Authorization": {"Bearer nope"}, "Cookie": {session}}, memory.CredentialNone},
		{"malformed header beats cookie", http.Header{"Authorization": {userToken}, "Cookie": {session}}, memory.CredentialNone},
		{"basic scheme", http.Header{"Authorization": {"Basic " + userToken}}, memory.CredentialNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got memory.Credential
			h := a.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
				got = memory.CredentialFrom(r.Context())
			}))
			req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
			for k, v := range tc.header {
				req.Header[k] = v
			}
			h.ServeHTTP(httptest.NewRecorder(), req)
			require.Equal(t, tc.want, got.Kind)
		})
	}
}

func TestWebsocketInit(t *testing.T) {
	t.Parallel()
	a := auth.New(userToken, workerToken, runs{}, nil)
	withCookie := memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialUser})
	for _, tc := range []struct {
		name    string
		ctx     context.Context // the upgrade request's, with the cookie's credential if any
		payload transport.InitPayload
		want    memory.CredentialKind // CredentialNone: refused
	}{
		{"worker token", context.Background(), transport.InitPayload{"authorization": "Bearer " + workerToken}, memory.CredentialWorker},
		{"run token", context.Background(), transport.InitPayload{"authorization": "Bearer " + runToken}, memory.CredentialRun},
		{"cookie", withCookie, transport.InitPayload{}, memory.CredentialUser},
		{"token wins over cookie", withCookie, transport.InitPayload{"authorization": "Bearer " + workerToken}, memory.CredentialWorker},
		{"bad token with cookie", withCookie, transport.InitPayload{"authorization": "Bearer nope"}, memory.CredentialNone},
		{"nothing", context.Background(), nil, memory.CredentialNone},
		{"not a string", context.Background(), transport.InitPayload{"authorization": 42}, memory.CredentialNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, ack, err := a.WebsocketInit(tc.ctx, tc.payload)
			require.Nil(t, ack)
			if tc.want == memory.CredentialNone {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, memory.CredentialFrom(ctx).Kind)
		})
	}
}

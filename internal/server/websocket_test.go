package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/server"
)

const generationSubscription = `subscription($id: ID!) { generationChanged(teammateId: $id) { teammateId generation } }`

type generationChange struct {
	GenerationChanged struct{ TeammateID, Generation string }
}

// nextGeneration reads the next generationChanged value of subscription id.
func (c *wsClient) nextGeneration(id, teammateID string) string {
	c.t.Helper()
	var data generationChange
	c.next(id, &data)
	require.Equal(c.t, teammateID, data.GenerationChanged.TeammateID)
	require.NotEmpty(c.t, data.GenerationChanged.Generation)
	return data.GenerationChanged.Generation
}

// subscribeGeneration subscribes to the teammate's generation and checks that the first value is the
// current one.
func (c *wsClient) subscribeGeneration(s *apiServer, id, teammateID string) string {
	c.t.Helper()
	c.subscribe(id, generationSubscription, map[string]any{"id": teammateID})
	first := c.nextGeneration(id, teammateID)
	require.Equal(c.t, s.generation(c.t, teammateID), first, "the first value is the current generation")
	return first
}

func TestGenerationChangedOverWebsocket(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	s.awaitListener(t)

	for name, token := range map[string]string{"worker": workerToken, "user": userToken} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			teammate := s.createTeammate(t, "Ada "+name)
			c := mustDialWS(t, s, nil)
			c.init(map[string]any{"authorization": "Bearer " + token})
			first := c.subscribeGeneration(s, "1", teammate)

			s.createMemory(t, teammate, "Prefers short answers")
			bumped := c.nextGeneration("1", teammate)
			require.NotEqual(t, first, bumped)
			require.Equal(t, s.generation(t, teammate), bumped)

			// The client ends the subscription (gqlgen confirms with a complete of its own), and the
			// connection stays usable.
			c.send(wsMessage{ID: "1", Type: "complete"})
			c.expectComplete("1")
			c.subscribe("2", generationSubscription, map[string]any{"id": teammate})
			require.Equal(t, bumped, c.nextGeneration("2", teammate))
		})
	}
}

func TestSubscriptionErrors(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	c := mustDialWS(t, s, nil)
	c.init(map[string]any{"authorization": "Bearer " + workerToken})

	c.subscribe("bad-id", generationSubscription, map[string]any{"id": "not-a-uuid"})
	require.Equal(t, []string{"BAD_USER_INPUT"}, c.expectFailedNext("bad-id"))
	c.subscribe("unknown", generationSubscription, map[string]any{"id": "00000000-0000-4000-8000-000000000000"})
	require.Equal(t, []string{"NOT_FOUND"}, c.expectFailedNext("unknown"))
	c.subscribe("invalid", `subscription { generationChanged(teammateId: "x") { salary } }`, nil)
	require.Equal(t, []string{"GRAPHQL_VALIDATION_FAILED"}, c.expectError("invalid"))
}

func TestWebsocketInitRefused(t *testing.T) {
	t.Parallel()
	s := newServer(t)

	for name, payload := range map[string]map[string]any{
		"wrong token":        {"authorization": "Bearer mw_not-the-worker-token-0123456789abcdef"},
		"empty token":        {"authorization": ""},
		"not a string":       {"authorization": 42},
		"no credential":      {},
		"token without type": {"authorization": workerToken},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := mustDialWS(t, s, nil)
			c.sendInit(payload)
			c.expectClose(auth.CloseForbidden)
		})
	}
}

// The web app's websocket carries no token: the session cookie on the upgrade request is the
// credential, and the browser sends the page's own origin.
func TestWebsocketSessionCookie(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	teammate := s.createTeammate(t, "Ada")
	cookie := loginCookie(t, s)

	c := mustDialWS(t, s, http.Header{"Cookie": {cookie.String()}, "Origin": {s.URL}})
	c.init(map[string]any{})
	c.subscribeGeneration(s, "1", teammate)
}

func TestWebsocketOrigin(t *testing.T) {
	t.Parallel()
	const allowed = "http://app.example:5173"
	s := newServer(t, func(o *app.Options) { o.AllowedOrigins = []string{allowed} })
	cookie := loginCookie(t, s)

	for _, origin := range []string{"http://evil.example", "null", allowed + ".evil.example", "https://app.example:5173"} {
		t.Run("refused "+origin, func(t *testing.T) {
			t.Parallel()
			c, res, body, err := dialWS(t, s, http.Header{"Cookie": {cookie.String()}, "Origin": {origin}})
			require.ErrorIs(t, err, websocket.ErrBadHandshake)
			require.Nil(t, c)
			require.Equal(t, http.StatusForbidden, res.StatusCode)
			require.Empty(t, res.Header.Get("Upgrade"), "no upgrade")
			var out gqlResponse
			require.NoError(t, json.Unmarshal([]byte(body), &out), body)
			require.Equal(t, "FORBIDDEN", out.code())
		})
	}
	for _, origin := range []string{allowed, allowed + "/", s.URL} {
		t.Run("allowed "+origin, func(t *testing.T) {
			t.Parallel()
			c := mustDialWS(t, s, http.Header{"Cookie": {cookie.String()}, "Origin": {origin}})
			c.init(map[string]any{})
		})
	}
}

// Every API process LISTENs on the same channel, so a change made through one reaches the
// subscribers of another.
func TestTwoServersOnOneDatabase(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	a := startServer(t, databaseURL)
	b := startServer(t, databaseURL)
	a.awaitListener(t)
	b.awaitListener(t)
	teammate := a.createTeammate(t, "Ada")

	onA := mustDialWS(t, a, nil)
	onA.init(map[string]any{"authorization": "Bearer " + workerToken})
	first := onA.subscribeGeneration(a, "a", teammate)
	onB := mustDialWS(t, b, nil)
	onB.init(map[string]any{"authorization": "Bearer " + userToken})
	require.Equal(t, first, onB.subscribeGeneration(b, "b", teammate))

	a.createMemory(t, teammate, "Works in UTC")
	bumped := onB.nextGeneration("b", teammate)
	require.NotEqual(t, first, bumped)
	require.Equal(t, bumped, onA.nextGeneration("a", teammate))

	b.createMemory(t, teammate, "Likes tables")
	again := onA.nextGeneration("a", teammate)
	require.NotEqual(t, bumped, again)
	require.Equal(t, again, onB.nextGeneration("b", teammate))
}

// With a short keep-alive the server pings; a client that answers keeps its subscription. The test
// reads — and so answers — all along, HTTP calls included, so that a slow machine can't make it miss
// the deadline of two intervals.
func TestWebsocketKeepAlive(t *testing.T) {
	t.Parallel()
	s := newServer(t, func(o *app.Options) { o.PingPongInterval = 500 * time.Millisecond })
	s.awaitListener(t)
	teammate := s.createTeammate(t, "Ada")
	c := mustDialWS(t, s, nil)
	c.init(map[string]any{"authorization": "Bearer " + workerToken})
	c.subscribe("1", generationSubscription, map[string]any{"id": teammate})
	first := c.nextGeneration("1", teammate)

	c.awaitPings(2)
	created := s.createMemoryAsync(t.Context(), teammate, "Answers pings")
	require.NotEqual(t, first, c.nextGeneration("1", teammate))
	require.NoError(t, <-created)
}

// Closing the App ends the websockets it serves (http.Server.Shutdown doesn't wait for them).
func TestAppCloseEndsWebsockets(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	teammate := s.createTeammate(t, "Ada")
	c := mustDialWS(t, s, nil)
	c.init(map[string]any{"authorization": "Bearer " + workerToken})
	c.subscribeGeneration(s, "1", teammate)

	s.App.Close()
	c.expectClose(websocket.CloseNormalClosure)
}

// New starts the listener and the sweeper; Close stops them (TestMain checks that nothing is left
// running) and may be called again.
func TestAppLifecycle(t *testing.T) {
	t.Parallel()
	s := newServer(t, func(o *app.Options) { o.ExpirySweepInterval = 10 * time.Millisecond })
	s.awaitListener(t)
	require.True(t, s.App.Listener().Connected())
	res, body := s.fetch(t, "/readyz")
	require.Equal(t, http.StatusOK, res.StatusCode, body)

	s.App.Close()
	require.False(t, s.App.Listener().Connected())
	s.App.Close()
}

// A websocket message larger than MaxBodyBytes closes that connection (1009) and nothing else.
func TestWebsocketOversizedMessage(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	c := mustDialWS(t, s, nil)
	c.init(map[string]any{"authorization": "Bearer " + workerToken})
	c.subscribe("big", "subscription { generationChanged(teammateId: \"x\") { generation } }\n#"+
		strings.Repeat("x", server.MaxBodyBytes), nil)
	c.expectClose(websocket.CloseMessageTooBig)
	s.requireHealthy(t)
}

// TestWebsocketInvalidUTF8: a text message that is not valid UTF-8, or that escapes a lone surrogate
// (in its JSON or in the GraphQL text it carries), closes the connection with 1007 instead of
// reaching the decoders, which would replace it with U+FFFD; nothing is written.
func TestWebsocketInvalidUTF8(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const create = `{"id":"1","type":"subscribe","payload":{"query":"mutation($n: String!) { createTeammate(input: {name: $n}) { teammate { id } } }","variables":{"n":"%s"}}}`
	for _, msg := range []string{
		`{"id":"1","type":"subscribe","payload":{"query":"mutation { createTeammate(input: {name: \"Ann` + "\xff" + `\"}) { teammate { id } } }"}}`,
		fmt.Sprintf(create, `Ann \ud800`),
		`{"id":"1","type":"subscribe","payload":{"query":"mutation { createTeammate(input: {name: \"Ann \\udc00\"}) { teammate { id } } }"}}`,
		`{"id":"1","type":"subscribe","payload":{"query":"mutation { createTeammate(input: {name: \"Ann \\u{D800}\"}) { teammate { id } } }"}}`,
	} {
		c := mustDialWS(t, s, nil)
		c.init(map[string]any{"authorization": "Bearer " + userToken})
		require.NoError(t, c.conn.WriteMessage(websocket.TextMessage, []byte(msg)))
		c.expectClose(websocket.CloseInvalidFramePayloadData)
	}
	s.requireHealthy(t)
	res := s.post(t, bearer(userToken), `{ teammates { name } }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"teammates": []}`, string(res.Data), "nothing was created")
}

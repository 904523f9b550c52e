package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
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
func nextGeneration(t *testing.T, c *apitest.WS, id, teammateID string) string {
	t.Helper()
	var data generationChange
	c.Next(t, id, &data)
	require.Equal(t, teammateID, data.GenerationChanged.TeammateID)
	require.NotEmpty(t, data.GenerationChanged.Generation)
	return data.GenerationChanged.Generation
}

// subscribeGeneration subscribes to the teammate's generation and checks that the first value is the
// current one.
func subscribeGeneration(t *testing.T, s *apitest.API, c *apitest.WS, id, teammateID string) string {
	t.Helper()
	require.NoError(t, c.Subscribe(id, generationSubscription, map[string]any{"id": teammateID}))
	first := nextGeneration(t, c, id, teammateID)
	require.Equal(t, generation(t, s, teammateID), first, "the first value is the current generation")
	return first
}

func TestGenerationChangedOverWebsocket(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)

	for name, token := range map[string]string{"worker": workerToken, "user": userToken} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			teammate := s.CreateTeammate(t, "Ada "+name)
			c := s.MustDialWS(t, nil)
			require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + token}))
			first := subscribeGeneration(t, s, c, "1", teammate)

			createMemory(t, s, teammate, "Prefers short answers")
			bumped := nextGeneration(t, c, "1", teammate)
			require.NotEqual(t, first, bumped)
			require.Equal(t, generation(t, s, teammate), bumped)

			// The client ends the subscription (gqlgen confirms with a complete of its own), and the
			// connection stays usable.
			require.NoError(t, c.Send(apitest.WSMessage{ID: "1", Type: "complete"}))
			c.ExpectComplete(t, "1")
			require.NoError(t, c.Subscribe("2", generationSubscription, map[string]any{"id": teammate}))
			require.Equal(t, bumped, nextGeneration(t, c, "2", teammate))
		})
	}
}

func TestSubscriptionErrors(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	c := s.MustDialWS(t, nil)
	require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + workerToken}))

	require.NoError(t, c.Subscribe("bad-id", generationSubscription, map[string]any{"id": "not-a-uuid"}))
	require.Equal(t, []string{"BAD_USER_INPUT"}, c.ExpectFailedNext(t, "bad-id"))
	require.NoError(t, c.Subscribe("unknown", generationSubscription, map[string]any{"id": "00000000-0000-4000-8000-000000000000"}))
	require.Equal(t, []string{"NOT_FOUND"}, c.ExpectFailedNext(t, "unknown"))
	require.NoError(t, c.Subscribe("invalid", `subscription { generationChanged(teammateId: "x") { salary } }`, nil))
	require.Equal(t, []string{"GRAPHQL_VALIDATION_FAILED"}, c.ExpectError(t, "invalid"))
}

func TestWebsocketInitRefused(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)

	for name, payload := range map[string]map[string]any{
		"wrong token":        {"authorization": "Bearer mw_not-the-worker-token-0123456789abcdef"},
		"empty token":        {"authorization": ""},
		"not a string":       {"authorization": 42},
		"no credential":      {},
		"token without type": {"authorization": workerToken},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := s.MustDialWS(t, nil)
			require.NoError(t, c.SendInit(payload))
			c.ExpectClose(t, auth.CloseForbidden)
		})
	}
}

// The web app's websocket carries no token: the session cookie on the upgrade request is the
// credential, and the browser sends the page's own origin.
func TestWebsocketSessionCookie(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	teammate := s.CreateTeammate(t, "Ada")
	cookie := loginCookie(t, s)

	c := s.MustDialWS(t, http.Header{"Cookie": {cookie.String()}, "Origin": {s.URL}})
	require.NoError(t, c.Init(map[string]any{}))
	subscribeGeneration(t, s, c, "1", teammate)
}

func TestWebsocketOrigin(t *testing.T) {
	t.Parallel()
	const allowed = "http://app.example:5173"
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.AllowedOrigins = []string{allowed} })
	cookie := loginCookie(t, s)

	for _, origin := range []string{"http://evil.example", "null", allowed + ".evil.example", "https://app.example:5173"} {
		t.Run("refused "+origin, func(t *testing.T) {
			t.Parallel()
			c, res, err := apitest.DialWS(t.Context(), s.URL, http.Header{"Cookie": {cookie.String()}, "Origin": {origin}})
			require.ErrorIs(t, err, websocket.ErrBadHandshake)
			require.Nil(t, c)
			require.Equal(t, http.StatusForbidden, res.Status)
			require.Empty(t, res.Header.Get("Upgrade"), "no upgrade")
			require.Equal(t, "FORBIDDEN", res.Code(), "errors %+v", res.Errors)
		})
	}
	for _, origin := range []string{allowed, allowed + "/", s.URL} {
		t.Run("allowed "+origin, func(t *testing.T) {
			t.Parallel()
			c := s.MustDialWS(t, http.Header{"Cookie": {cookie.String()}, "Origin": {origin}})
			require.NoError(t, c.Init(map[string]any{}))
		})
	}
}

// Every API process LISTENs on the same channel, so a change made through one reaches the
// subscribers of another.
func TestTwoServersOnOneDatabase(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	a := apitest.StartWith(t, databaseURL, settings)
	b := apitest.StartWith(t, databaseURL, settings)
	teammate := a.CreateTeammate(t, "Ada")

	onA := a.MustDialWS(t, nil)
	require.NoError(t, onA.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	first := subscribeGeneration(t, a, onA, "a", teammate)
	onB := b.MustDialWS(t, nil)
	require.NoError(t, onB.Init(map[string]any{"authorization": "Bearer " + userToken}))
	require.Equal(t, first, subscribeGeneration(t, b, onB, "b", teammate))

	createMemory(t, a, teammate, "Works in UTC")
	bumped := nextGeneration(t, onB, "b", teammate)
	require.NotEqual(t, first, bumped)
	require.Equal(t, bumped, nextGeneration(t, onA, "a", teammate))

	createMemory(t, b, teammate, "Likes tables")
	again := nextGeneration(t, onA, "a", teammate)
	require.NotEqual(t, bumped, again)
	require.Equal(t, again, nextGeneration(t, onB, "b", teammate))
}

// With a short keep-alive the server pings; a client that answers keeps its subscription. The test
// reads — and so answers — all along, HTTP calls included, so that a slow machine can't make it miss
// the deadline of two intervals.
func TestWebsocketKeepAlive(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.PingPongInterval = 500 * time.Millisecond })
	teammate := s.CreateTeammate(t, "Ada")
	c := s.MustDialWS(t, nil)
	require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	require.NoError(t, c.Subscribe("1", generationSubscription, map[string]any{"id": teammate}))
	first := nextGeneration(t, c, "1", teammate)

	c.AwaitPings(t, 2)
	created := createMemoryAsync(t.Context(), s, teammate, "Answers pings")
	require.NotEqual(t, first, nextGeneration(t, c, "1", teammate))
	require.NoError(t, <-created)
}

// Closing the App ends the websockets it serves (http.Server.Shutdown doesn't wait for them).
func TestAppCloseEndsWebsockets(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	teammate := s.CreateTeammate(t, "Ada")
	c := s.MustDialWS(t, nil)
	require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	subscribeGeneration(t, s, c, "1", teammate)

	s.App.Close()
	c.ExpectClose(t, websocket.CloseNormalClosure)
}

// New starts the listener and the sweeper; Close stops them (TestMain checks that nothing is left
// running) and may be called again.
func TestAppLifecycle(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.ExpirySweepInterval = 10 * time.Millisecond })
	require.True(t, s.App.Listener().Connected())
	res, body := s.Fetch(t, "/readyz", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, body)

	s.App.Close()
	require.False(t, s.App.Listener().Connected())
	s.App.Close()
}

// A websocket message larger than MaxBodyBytes closes that connection (1009) and nothing else.
func TestWebsocketOversizedMessage(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	c := s.MustDialWS(t, nil)
	require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	require.NoError(t, c.Subscribe("big", "subscription { generationChanged(teammateId: \"x\") { generation } }\n#"+
		strings.Repeat("x", server.MaxBodyBytes), nil))
	c.ExpectClose(t, websocket.CloseMessageTooBig)
	requireHealthy(t, s)
}

// TestWebsocketInvalidUTF8: a text message that is not valid UTF-8, or that escapes a lone surrogate
// (in its JSON or in the GraphQL text it carries), closes the connection with 1007 instead of
// reaching the decoders, which would replace it with U+FFFD; nothing is written.
func TestWebsocketInvalidUTF8(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	const create = `{"id":"1","type":"subscribe","payload":{"query":"mutation($n: String!) { createTeammate(input: {name: $n}) { teammate { id } } }","variables":{"n":"%s"}}}`
	for _, msg := range []string{
		`{"id":"1","type":"subscribe","payload":{"query":"mutation { createTeammate(input: {name: \"Ann` + "\xff" + `\"}) { teammate { id } } }"}}`,
		fmt.Sprintf(create, `Ann \ud800`),
		`{"id":"1","type":"subscribe","payload":{"query":"mutation { createTeammate(input: {name: \"Ann \\udc00\"}) { teammate { id } } }"}}`,
		`{"id":"1","type":"subscribe","payload":{"query":"mutation { createTeammate(input: {name: \"Ann \\u{D800}\"}) { teammate { id } } }"}}`,
	} {
		c := s.MustDialWS(t, nil)
		require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + userToken}))
		require.NoError(t, c.SendText([]byte(msg)))
		c.ExpectClose(t, websocket.CloseInvalidFramePayloadData)
	}
	requireHealthy(t, s)
	res := s.Do(t, userToken, `{ teammates { name } }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"teammates": []}`, string(res.Data), "nothing was created")
}

// TestWebsocketDuplicateSubscriptionID: a subscribe whose id is in use closes the connection with
// 4409, as graphql-transport-ws says; an id is free again once the client or the server has completed
// it, and the new subscription under it is the only one (one value per change, stoppable by id).
func TestWebsocketDuplicateSubscriptionID(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	teammate := s.CreateTeammate(t, "Ada")
	c := s.MustDialWS(t, nil)
	require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + workerToken}))

	// Ended by the server: a failed resolver (next with errors, then complete) and a refused operation
	// (error).
	require.NoError(t, c.Subscribe("1", generationSubscription, map[string]any{"id": "00000000-0000-4000-8000-000000000000"}))
	require.Equal(t, []string{"NOT_FOUND"}, c.ExpectFailedNext(t, "1"))
	require.NoError(t, c.Subscribe("2", `subscription { generationChanged(teammateId: "x") { salary } }`, nil))
	require.Equal(t, []string{"GRAPHQL_VALIDATION_FAILED"}, c.ExpectError(t, "2"))
	c.ExpectComplete(t, "2") // gqlgen follows the error with a complete
	first := subscribeGeneration(t, s, c, "1", teammate)
	subscribeGeneration(t, s, c, "2", teammate)

	// Ended by the client, and reused at once: the server confirms the end before the new one starts.
	require.NoError(t, c.Send(apitest.WSMessage{ID: "1", Type: "complete"}))
	require.NoError(t, c.Subscribe("1", generationSubscription, map[string]any{"id": teammate}))
	c.ExpectComplete(t, "1")
	require.Equal(t, first, nextGeneration(t, c, "1", teammate))

	// One value per change and subscription, and "1" stops with one complete.
	createMemory(t, s, teammate, "Prefers short answers")
	got := map[string]int{}
	for range 2 {
		m := c.Read(t)
		require.Equal(t, "next", m.Type, "message %s %s", m.Type, m.Payload)
		got[m.ID]++
	}
	require.Equal(t, map[string]int{"1": 1, "2": 1}, got)
	require.NoError(t, c.Send(apitest.WSMessage{ID: "1", Type: "complete"}))
	c.ExpectComplete(t, "1")
	createMemory(t, s, teammate, "Works in UTC")
	m := c.Read(t)
	require.Equal(t, []string{"2", "next"}, []string{m.ID, m.Type}, "only 2 is left")

	// "2" is still running: a second subscribe with its id closes the connection.
	require.NoError(t, c.Subscribe("2", generationSubscription, map[string]any{"id": teammate}))
	c.ExpectClose(t, server.CloseSubscriberExists)
}

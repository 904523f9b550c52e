package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/open-bot/memory/graph/generated"
	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/dbtest"
)

// credential is a column of the access matrix: who calls (RULES §4).
type credential int

const (
	credNone credential = iota
	credBadToken
	credUser
	credWorker
	// credOwnRun is a running run of the teammate whose data the operation names.
	credOwnRun
	// credOtherRun is a running run of another teammate.
	credOtherRun
	// credCompletedRun and credCancelledRun are runs that have ended: their tokens no longer act.
	credCompletedRun
	credCancelledRun
	// credSession is the web app's session cookie of a login; credLoggedOut the cookie of a login
	// that logged out since.
	credSession
	credLoggedOut
	// credIdleRun is a running run whose token went unused for longer than the run idle timeout: the
	// call is refused and the run interrupted.
	credIdleRun
	numCredentials
)

var credentialNames = [numCredentials]string{
	"none", "bad token", "user", "worker", "run of the owner", "run of another teammate", "completed run", "cancelled run",
	"session cookie", "logged-out session cookie", "idle run",
}

func (c credential) String() string { return credentialNames[c] }

// access is what a cell of the matrix expects: the call succeeds, or fails with this extensions.code.
type access string

const (
	allowed access = "allowed"
	unauth  access = "UNAUTHENTICATED"
	forbid  access = "FORBIDDEN"
)

// accessRow is one operation's expectations, in credential order:
// none, bad token, user, worker, run of the owner, run of another teammate, completed run, cancelled run,
// session cookie, logged-out session cookie, idle run.
type accessRow [numCredentials]access

// matrixOp is one root field of the schema, called with valid arguments against real data.
type matrixOp struct {
	query string
	// vars returns the variables for one cell, creating what the call needs (a fresh item to forget,
	// say) so that an allowed call really succeeds.
	vars func(f *matrixFixture, c *matrixCell) map[string]any
	want accessRow
	// check looks further at the data of an allowed call, when set.
	check func(t *testing.T, f *matrixFixture, c *matrixCell, data json.RawMessage)
	// event, for a subscription that sends nothing until something happens, prepares an action that
	// makes it send something; the action is repeated until the subscriber sees it.
	event func(f *matrixFixture) func(ctx context.Context, n int) error
}

// matrixFixture is the data every cell works against: the owner's teammate with an item and ended
// runs, and another teammate.
type matrixFixture struct {
	t            *testing.T
	s            *apitest.API
	db           *snapshots
	owner, other string
	item         string // an active item of the owner's scope
	completedRun startedRun
	cancelledRun startedRun
	// session is a login's cookie; loggedOut the cookie of a login that logged out.
	session, loggedOut *http.Cookie
	texts              int
}

// startedRun is what startRun returns that the matrix uses.
type startedRun struct {
	ID, Token, TeammateID string
}

// matrixCell is one (operation, credential) call.
type matrixCell struct {
	cred  credential
	token string // "" sends no credential
	// cookie is the session cookie sent instead of a token, for the cookie credentials.
	cookie *http.Cookie
	// run is the cell's own run for the run credentials.
	run startedRun
	// ownersRun is a run of the owner: the cell's run for credOwnRun, else the completed run.
	ownersRun string
}

// runMessage is every run's user message: it asks to remember and to forget, so that a run's
// tools really act when they are allowed to (A1, A5).
const runMessage = "Please remember that I like green tea. Forget the note about coffee."

func newMatrixFixture(t *testing.T) *matrixFixture {
	t.Helper()
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings)
	f := &matrixFixture{t: t, s: s, db: newSnapshots(t, databaseURL)}
	f.owner = s.CreateTeammate(t, "Ada")
	f.other = s.CreateTeammate(t, "Bob")
	f.item = f.createItem("The note about coffee")
	f.completedRun = f.startRun(f.owner, runMessage)
	f.mutate(f.completedRun.Token, `mutation { completeRun(input: {reply: "Noted."}) { id } }`, nil)
	f.cancelledRun = f.startRun(f.owner, runMessage)
	f.mutate(userToken, `mutation($id: ID!) { cancelRun(input: {runId: $id}) { id } }`, map[string]any{"id": f.cancelledRun.ID})
	f.session = loginCookie(t, s)
	f.loggedOut = loginCookie(t, s)
	logout(t, s, f.loggedOut)
	return f
}

// idle makes run's token look unused for longer than the run idle timeout (an hour by default).
func (f *matrixFixture) idle(run startedRun) {
	f.t.Helper()
	_, err := f.db.conn.Exec(f.t.Context(), `UPDATE runs SET last_active_at = now() - interval '2 hours' WHERE id = $1`, run.ID)
	require.NoError(f.t, err)
}

// runStatus reads a run's status and whether its token hash is still stored.
func (f *matrixFixture) runStatus(t *testing.T, id string) (status string, hasToken bool) {
	t.Helper()
	require.NoError(t, f.db.conn.QueryRow(t.Context(), `SELECT status, token_hash IS NOT NULL FROM runs WHERE id = $1`, id).
		Scan(&status, &hasToken))
	return status, hasToken
}

// mutate runs an operation that must succeed and returns its data.
func (f *matrixFixture) mutate(token, query string, vars map[string]any) json.RawMessage {
	f.t.Helper()
	res := f.s.Do(f.t, token, query, vars)
	require.Empty(f.t, res.Errors, "%s", query)
	require.Equal(f.t, http.StatusOK, res.Status)
	return res.Data
}

// text returns a text no earlier call used.
func (f *matrixFixture) text(prefix string) string {
	f.texts++
	return fmt.Sprintf("%s %d", prefix, f.texts)
}

func (f *matrixFixture) startRun(teammateID, message string) startedRun {
	f.t.Helper()
	var out struct {
		StartRun struct {
			Run      struct{ ID string }
			RunToken string
		}
	}
	data := f.mutate(workerToken, `mutation($tm: ID!, $m: String!) { startRun(input: {teammateId: $tm, message: $m}) { run { id } runToken } }`,
		map[string]any{"tm": teammateID, "m": message})
	require.NoError(f.t, json.Unmarshal(data, &out))
	require.NotEmpty(f.t, out.StartRun.RunToken)
	return startedRun{ID: out.StartRun.Run.ID, Token: out.StartRun.RunToken, TeammateID: teammateID}
}

// createItem adds an active item to the owner's scope as the user.
func (f *matrixFixture) createItem(content string) string {
	f.t.Helper()
	var out struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	data := f.mutate(userToken, `mutation($tm: ID, $c: String!) { createMemory(input: {scope: {teammateId: $tm}, content: $c}) { item { id } } }`,
		map[string]any{"tm": f.owner, "c": content})
	require.NoError(f.t, json.Unmarshal(data, &out))
	return out.CreateMemory.Item.ID
}

// itemForRun creates an item of the owner's scope for a run's tool to act on. Creating it changes
// the owner's memory, so the owner's run of the cell is started again afterwards: a run started
// before would be refused with MEMORY_CHANGED (G5), which is not what the cell tests.
func (f *matrixFixture) itemForRun(c *matrixCell, content string) string {
	f.t.Helper()
	id := f.createItem(content)
	if c.cred == credOwnRun {
		c.run = f.startRun(f.owner, runMessage)
		c.token, c.ownersRun = c.run.Token, c.run.ID
	}
	return id
}

// editedItem is a new item of the owner's scope edited once: it is at revision 2.
func (f *matrixFixture) editedItem() string {
	f.t.Helper()
	id := f.createItem(f.text("Drinks coffee"))
	f.mutate(userToken, `mutation($id: ID!, $c: String!) { editMemory(input: {id: $id, baseRevision: 1, content: $c}) { item { id } } }`,
		map[string]any{"id": id, "c": f.text("Drinks tea")})
	return id
}

// candidate is a new suggestion in the owner's scope: a run's save the user didn't ask for (A2).
func (f *matrixFixture) candidate() string {
	f.t.Helper()
	run := f.startRun(f.owner, "Hello.")
	var out struct {
		ToolRemember struct {
			Outcome string
			Item    struct{ ID string }
		}
	}
	data := f.mutate(run.Token, `mutation($c: String!) { toolRemember(input: {content: $c}) { outcome item { id } } }`,
		map[string]any{"c": f.text("Plays chess")})
	require.NoError(f.t, json.Unmarshal(data, &out))
	require.Equal(f.t, "SUGGESTED", out.ToolRemember.Outcome)
	return out.ToolRemember.Item.ID
}

// cell returns the credential of one cell; run credentials are fresh runs, so that an operation that
// ends its run (completeRun, a stale checkRunGeneration) can't affect another cell.
func (f *matrixFixture) cell(cred credential) *matrixCell {
	f.t.Helper()
	c := &matrixCell{cred: cred, ownersRun: f.completedRun.ID}
	switch cred {
	case credNone:
	case credBadToken:
		c.token = "mr_not-a-run-token-0123456789abcdefghijklmnopq"
	case credUser:
		c.token = userToken
	case credWorker:
		c.token = workerToken
	case credOwnRun:
		c.run = f.startRun(f.owner, runMessage)
		c.token, c.ownersRun = c.run.Token, c.run.ID
	case credOtherRun:
		c.run = f.startRun(f.other, runMessage)
		c.token = c.run.Token
	case credCompletedRun:
		c.run, c.token = f.completedRun, f.completedRun.Token
	case credCancelledRun:
		c.run, c.token = f.cancelledRun, f.cancelledRun.Token
	case credSession:
		c.cookie = f.session
	case credLoggedOut:
		c.cookie = f.loggedOut
	case credIdleRun:
		c.run = f.startRun(f.owner, runMessage)
		c.token = c.run.Token
		f.idle(c.run)
	}
	return c
}

func (c *matrixCell) header() http.Header {
	switch {
	case c.cookie != nil:
		return http.Header{"Cookie": {c.cookie.String()}}
	case c.token == "":
		return nil
	}
	return apitest.Bearer(c.token)
}

// initPayload is the connection_init payload carrying the cell's credential.
func (c *matrixCell) initPayload() map[string]any {
	if c.token == "" {
		return map[string]any{}
	}
	return map[string]any{"authorization": "Bearer " + c.token}
}

func noVars(*matrixFixture, *matrixCell) map[string]any { return nil }

func ownerVars(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"tm": f.owner} }

// Rows used by many operations; each operation still names its own.
var (
	userOnly   = accessRow{unauth, unauth, allowed, forbid, forbid, forbid, unauth, unauth, allowed, unauth, unauth}
	workerOnly = accessRow{unauth, unauth, forbid, allowed, forbid, forbid, unauth, unauth, forbid, unauth, unauth}
	// anyRun: tools that act on the run's own teammate, which no argument names (S2).
	anyRun = accessRow{unauth, unauth, forbid, forbid, allowed, allowed, unauth, unauth, forbid, unauth, unauth}
	// ownerRun: tools given an item of the owner's scope; another teammate's run is refused by the
	// scope check (S1), not by @auth.
	ownerRun = accessRow{unauth, unauth, forbid, forbid, allowed, forbid, unauth, unauth, forbid, unauth, unauth}
	// readers: the user, the worker and the owner's run read the owner's scope; another teammate's
	// run is refused by the scope check.
	readers = accessRow{unauth, unauth, allowed, allowed, allowed, forbid, unauth, unauth, allowed, unauth, unauth}
	// everyone: every valid credential, the run reading what it may (its own teammate, shared).
	everyone = accessRow{unauth, unauth, allowed, allowed, allowed, allowed, unauth, unauth, allowed, unauth, unauth}
	// userAndWorker: the web app and the worker, never a run.
	userAndWorker = accessRow{unauth, unauth, allowed, allowed, forbid, forbid, unauth, unauth, allowed, unauth, unauth}
)

// matrixOps is the hand-written expectation of every root field of the schema (RULES §4, §5): who may
// call it, with arguments that name the owner's data.
var matrixOps = map[string]matrixOp{
	// Queries.
	"teammates": {
		query: `query { teammates { id } }`, vars: noVars, want: everyone,
		check: func(t *testing.T, f *matrixFixture, c *matrixCell, data json.RawMessage) {
			var out struct{ Teammates []struct{ ID string } }
			require.NoError(t, json.Unmarshal(data, &out))
			ids := []string{}
			for _, tm := range out.Teammates {
				ids = append(ids, tm.ID)
			}
			if c.run.TeammateID != "" {
				require.Equal(t, []string{c.run.TeammateID}, ids, "a run sees its own teammate only")
			} else {
				require.Subset(t, ids, []string{f.owner, f.other})
			}
		},
	},
	"teammate": {
		query: `query($tm: ID!) { teammate(id: $tm) { id } }`, vars: ownerVars, want: readers,
	},
	"memoryItems": {
		query: `query($tm: ID) { memoryItems(scope: {teammateId: $tm}) { totalCount edges { node { id } } } }`,
		vars:  ownerVars, want: readers,
		check: func(t *testing.T, _ *matrixFixture, _ *matrixCell, data json.RawMessage) {
			var out struct{ MemoryItems struct{ TotalCount int } }
			require.NoError(t, json.Unmarshal(data, &out))
			require.Positive(t, out.MemoryItems.TotalCount)
		},
	},
	"memoryItem": {
		query: `query($id: ID!) { memoryItem(id: $id) { id } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.item} },
		want:  readers,
	},
	"candidates": {
		query: `query($tm: ID) { candidates(scope: {teammateId: $tm}) { id } }`, vars: ownerVars, want: userOnly,
	},
	"forgottenBefore": {
		query: `query($tm: ID) { forgottenBefore(scope: {teammateId: $tm}, content: "coffee") }`, vars: ownerVars,
		want: userOnly,
	},
	"copies": {
		query: `query($id: ID!) { copies(id: $id) { id } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.item} },
		want:  userOnly,
	},
	"copiesOf": {
		query: `query($id: ID!) { copiesOf(ids: [$id]) { id } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.item} },
		want:  userOnly,
	},
	"erasure": {query: `query { erasure { purged purgeDelaySeconds } }`, vars: noVars, want: userOnly},
	"searchMemory": {
		query: `query { searchMemory(search: "coffee") { id scope } }`, vars: noVars, want: userOnly,
	},
	"aboutMe":        {query: `query { aboutMe }`, vars: noVars, want: everyone},
	"limits":         {query: `query { limits { contentLength requestBytes } }`, vars: noVars, want: everyone},
	"lessons":        {query: `query($tm: ID!) { lessons(teammateId: $tm) { item { id } } }`, vars: ownerVars, want: readers},
	"pendingRetries": {query: `query { pendingRetries { messageId } }`, vars: noVars, want: workerOnly},
	"memoryImported": {query: `query($tm: ID!) { memoryImported(teammateId: $tm) }`, vars: ownerVars, want: workerOnly},
	"recallPreview": {
		query: `query($tm: ID!) { recallPreview(teammateId: $tm, query: "coffee") { text } }`, vars: ownerVars,
		want: readers,
	},
	"aiStatus": {query: `query { aiStatus { embeddings } }`, vars: noVars, want: userAndWorker},
	"backups":  {query: `query { backups { enabled count last { name } } }`, vars: noVars, want: userOnly},
	"run": {
		// A run credential reads its own run only: the owner's run here is the cell's own.
		query: `query($id: ID!) { run(id: $id) { id } }`,
		vars:  func(_ *matrixFixture, c *matrixCell) map[string]any { return map[string]any{"id": c.ownersRun} },
		want:  readers,
	},
	"runs":              {query: `query($tm: ID!) { runs(teammateId: $tm) { id } }`, vars: ownerVars, want: userAndWorker},
	"toolSearchMemory":  {query: `query { toolSearchMemory(query: "coffee") { id } }`, vars: noVars, want: anyRun},
	"toolSearchHistory": {query: `query { toolSearchHistory(query: "coffee") { id } }`, vars: noVars, want: anyRun},

	// Mutations.
	"createTeammate": {
		query: `mutation($n: String!) { createTeammate(input: {name: $n}) { teammate { id } } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"n": f.text("Cleo")} },
		want:  userOnly,
	},
	"renameTeammate": {
		query: `mutation($tm: ID!) { renameTeammate(input: {id: $tm, name: "Ada"}) { teammate { id } } }`,
		vars:  ownerVars, want: userOnly,
	},
	"setMemorySwitch": {
		query: `mutation($tm: ID!) { setMemorySwitch(input: {teammateId: $tm, saveMemory: true}) { teammate { id } } }`,
		vars:  ownerVars, want: userOnly,
	},
	"createMemory": {
		query: `mutation($tm: ID, $c: String!) { createMemory(input: {scope: {teammateId: $tm}, content: $c}) { item { id } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"tm": f.owner, "c": f.text("Likes jazz")}
		},
		want: userOnly,
	},
	"editMemory": {
		query: `mutation($id: ID!, $c: String!) { editMemory(input: {id: $id, baseRevision: 1, content: $c}) { item { revision } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"id": f.createItem(f.text("Likes jazz")), "c": f.text("Likes loud jazz")}
		},
		want: userOnly,
	},
	"restoreMemoryRevision": {
		query: `mutation($id: ID!) { restoreMemoryRevision(input: {id: $id, revision: 1, baseRevision: 2}) { item { revision } } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.editedItem()} },
		want:  userOnly,
	},
	"undoMemoryEdit": {
		query: `mutation($id: ID!) { undoMemoryEdit(input: {id: $id, revision: 2}) { item { revision } } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.editedItem()} },
		want:  userOnly,
	},
	"forgetMemory": {
		query: `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { status } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"id": f.createItem(f.text("Likes opera"))}
		},
		want: userOnly,
	},
	"confirmCandidate": {
		query: `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { status } } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.candidate()} },
		want:  userOnly,
	},
	"dismissCandidate": {
		query: `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { status } } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.candidate()} },
		want:  userOnly,
	},
	"rateRun": {
		query: `mutation($id: ID!) { rateRun(input: {runId: $id, rating: UP}) { rating } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.completedRun.ID} },
		want:  userOnly,
	},
	"keepLesson": {
		query: `mutation($id: ID!) { keepLesson(input: {runId: $id, note: "Answer in one line."}) { item { id } } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.completedRun.ID} },
		want:  userOnly,
	},
	"retryRunWithNote": {
		query: `mutation($id: ID!) { retryRunWithNote(input: {runId: $id, note: "Shorter, please."}) { messageId } }`,
		vars:  func(f *matrixFixture, _ *matrixCell) map[string]any { return map[string]any{"id": f.completedRun.ID} },
		want:  userOnly,
	},
	"cancelRetry": {
		query: `mutation($id: ID!) { cancelRetry(input: {messageId: $id}) { messageId } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			var out struct{ RetryRunWithNote struct{ MessageID string } }
			data := f.mutate(userToken, `mutation($id: ID!) { retryRunWithNote(input: {runId: $id, note: "Shorter, please."}) { messageId } }`,
				map[string]any{"id": f.completedRun.ID})
			require.NoError(f.t, json.Unmarshal(data, &out))
			return map[string]any{"id": out.RetryRunWithNote.MessageID}
		},
		want: userOnly,
	},
	"importMemoryFile": {
		query: `mutation($tm: ID!) { importMemoryFile(input: {teammateId: $tm, content: null}) { outcome } }`,
		vars:  ownerVars, want: workerOnly,
	},
	"startRun": {
		query: `mutation($tm: ID!) { startRun(input: {teammateId: $tm, message: "Hello."}) { runToken } }`,
		vars:  ownerVars, want: workerOnly,
	},
	"checkRunGeneration": {query: `mutation { checkRunGeneration { current } }`, vars: noVars, want: anyRun},
	"completeRun":        {query: `mutation { completeRun(input: {reply: "Done."}) { status } }`, vars: noVars, want: anyRun},
	"cancelRun": {
		query: `mutation($id: ID!) { cancelRun(input: {runId: $id}) { status } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"id": f.startRun(f.owner, "Hello.").ID}
		},
		want: userOnly,
	},
	"toolRemember": {
		query: `mutation { toolRemember(input: {content: "I like green tea"}) { outcome } }`, vars: noVars, want: anyRun,
	},
	"toolRememberAboutUser": {
		query: `mutation { toolRememberAboutUser(input: {content: "I like green tea"}) { outcome } }`, vars: noVars,
		want: anyRun,
	},
	"toolUpdateMemory": {
		query: `mutation($id: ID!) { toolUpdateMemory(input: {id: $id, baseRevision: 1, content: "I like green tea"}) { outcome } }`,
		vars: func(f *matrixFixture, c *matrixCell) map[string]any {
			return map[string]any{"id": f.itemForRun(c, f.text("I like black tea"))}
		},
		want: ownerRun,
	},
	"toolForgetMemory": {
		query: `mutation($id: ID!) { toolForgetMemory(input: {id: $id}) { outcome } }`,
		vars: func(f *matrixFixture, c *matrixCell) map[string]any {
			// Each cell's item must be a new text, and the run's "Forget the note about coffee" must
			// cover it (A5): the words that keep it apart are framing ("note"), not content.
			f.texts++
			return map[string]any{"id": f.itemForRun(c, "The note about coffee"+strings.Repeat(" note", f.texts))}
		},
		want: ownerRun,
		check: func(t *testing.T, _ *matrixFixture, _ *matrixCell, data json.RawMessage) {
			require.JSONEq(t, `{"toolForgetMemory": {"outcome": "FORGOTTEN"}}`, string(data))
		},
	},

	// Everyday memory management: the user's only.
	"exportMemory": {query: `query($tm: ID) { exportMemory(scope: {teammateId: $tm}, format: JSON) }`, vars: ownerVars, want: userOnly},
	"deleteTeammate": {
		query: `mutation($tm: ID!) { deleteTeammate(input: {id: $tm}) { teammateId } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"tm": f.s.CreateTeammate(f.t, f.text("Dana"))}
		},
		want: userOnly,
	},
	// Nothing carries the demo's mark here, so an allowed call removes nothing and succeeds.
	"removeDemo": {query: `mutation { removeDemo { forgottenSharedItems teammates { teammateId } } }`, vars: noVars, want: userOnly},
	"importMemory": {
		query: `mutation($tm: ID, $d: String!) { importMemory(input: {scope: {teammateId: $tm}, format: JSON, data: $d}) { unchanged items { id } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			data, err := json.Marshal(map[string]any{"format": "memory-export", "version": 1, "items": []map[string]any{
				{"kind": "fact", "key": nil, "content": f.text("Imported fact"), "pinned": false, "expiresAt": nil},
			}})
			require.NoError(f.t, err)
			return map[string]any{"tm": f.owner, "d": string(data)}
		},
		want: userOnly,
	},
	"forgetMemories": {
		query: `mutation($id: ID!) { forgetMemories(input: {items: [{id: $id, baseRevision: 1}]}) { items { status } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"id": f.createItem(f.text("Likes opera"))}
		},
		want: userOnly,
	},
	"pinMemories": {
		query: `mutation($id: ID!) { pinMemories(input: {items: [{id: $id, baseRevision: 1}], pinned: true}) { items { pinned } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"id": f.createItem(f.text("Likes opera"))}
		},
		want: userOnly,
	},
	"confirmCandidates": {
		query: `mutation($tm: ID, $id: ID!) { confirmCandidates(input: {scope: {teammateId: $tm}, ids: [$id]}) { items { status } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"tm": f.owner, "id": f.candidate()}
		},
		want: userOnly,
	},
	"dismissCandidates": {
		query: `mutation($tm: ID, $id: ID!) { dismissCandidates(input: {scope: {teammateId: $tm}, ids: [$id]}) { items { status } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			return map[string]any{"tm": f.owner, "id": f.candidate()}
		},
		want: userOnly,
	},
	"undoDismissCandidate": {
		query: `mutation($id: ID!) { undoDismissCandidate(input: {id: $id}) { item { status } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			id := f.candidate()
			f.mutate(userToken, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": id})
			return map[string]any{"id": id}
		},
		want: userOnly,
	},
	"undoConfirmCandidate": {
		query: `mutation($id: ID!) { undoConfirmCandidate(input: {id: $id, revision: 2}) { item { status } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			id := f.candidate()
			f.mutate(userToken, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": id})
			return map[string]any{"id": id}
		},
		want: userOnly,
	},
	"undoConfirmCandidates": {
		query: `mutation($id: ID!) { undoConfirmCandidates(input: {items: [{id: $id, revision: 2}]}) { items { status } } }`,
		vars: func(f *matrixFixture, _ *matrixCell) map[string]any {
			id := f.candidate()
			f.mutate(userToken, `mutation($id: ID!) { confirmCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": id})
			return map[string]any{"id": id}
		},
		want: userOnly,
	},

	// Subscriptions, over the websocket.
	"generationChanged": {
		query: `subscription($tm: ID!) { generationChanged(teammateId: $tm) { teammateId generation } }`,
		vars:  ownerVars, want: readers,
	},
	"memoryChanged": {
		query: `subscription($tm: ID) { memoryChanged(scope: {teammateId: $tm}) { scope itemId } }`,
		vars:  ownerVars, want: readers,
		event: func(f *matrixFixture) func(context.Context, int) error {
			return func(ctx context.Context, n int) error {
				return f.s.Call(ctx, userToken, `mutation($tm: ID, $c: String!) { createMemory(input: {scope: {teammateId: $tm}, content: $c}) { item { id } } }`,
					map[string]any{"tm": f.owner, "c": fmt.Sprintf("Changes %d", n)}, nil)
			}
		},
	},
	"candidateArrived": {
		query: `subscription($tm: ID) { candidateArrived(scope: {teammateId: $tm}) { id scope } }`,
		vars:  ownerVars, want: userOnly,
		event: func(f *matrixFixture) func(context.Context, int) error {
			run := f.startRun(f.owner, "Hello.")
			return func(ctx context.Context, n int) error {
				return f.s.Call(ctx, run.Token, `mutation($c: String!) { toolRemember(input: {content: $c}) { outcome } }`,
					map[string]any{"c": fmt.Sprintf("Collects stamps %d", n)}, nil)
			}
		},
	},
	"teammatesChanged": {
		query: `subscription { teammatesChanged { teammateId change teammate { name } } }`,
		vars:  noVars, want: userAndWorker,
		event: func(f *matrixFixture) func(context.Context, int) error {
			return func(ctx context.Context, _ int) error {
				return f.s.Call(ctx, userToken, `mutation($tm: ID!) { renameTeammate(input: {id: $tm, name: "Ada"}) { teammate { id } } }`,
					map[string]any{"tm": f.owner}, nil)
			}
		},
	},
}

// rootFields lists the schema's root fields by operation type.
func rootFields(t *testing.T) (*ast.Schema, map[string]ast.Operation) {
	t.Helper()
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	fields := map[string]ast.Operation{}
	for op, def := range map[ast.Operation]*ast.Definition{ast.Query: schema.Query, ast.Mutation: schema.Mutation, ast.Subscription: schema.Subscription} {
		require.NotNil(t, def, "the schema has no %s type", op)
		for _, f := range def.Fields {
			if !strings.HasPrefix(f.Name, "__") {
				require.NotContains(t, fields, f.Name, "two root types have a field %s", f.Name)
				fields[f.Name] = op
			}
		}
	}
	return schema, fields
}

// The access matrix: every root field of the schema, called by every credential, succeeds or fails
// exactly as its row says (RULES §4). A root field without a row, or a row without a field, fails the
// test, so a new operation can't ship without saying who may call it.
func TestAccessMatrix(t *testing.T) {
	t.Parallel()
	schema, fields := rootFields(t)
	var missing, unknown []string
	for name := range fields {
		if _, ok := matrixOps[name]; !ok {
			missing = append(missing, name)
		}
	}
	for name := range matrixOps {
		if _, ok := fields[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(missing)
	slices.Sort(unknown)
	require.Empty(t, missing, "root fields with no row in the access matrix")
	require.Empty(t, unknown, "access matrix rows for fields the schema doesn't have")

	names := make([]string, 0, len(matrixOps))
	for name, op := range matrixOps {
		doc, errs := gqlparser.LoadQueryWithRules(schema, op.query, nil)
		require.Empty(t, errs, "%s: the row's operation is invalid", name)
		require.Len(t, doc.Operations, 1, name)
		require.Equal(t, fields[name], doc.Operations[0].Operation, "%s: operation type", name)
		require.Len(t, doc.Operations[0].SelectionSet, 1, name)
		root, ok := doc.Operations[0].SelectionSet[0].(*ast.Field)
		require.True(t, ok, name)
		require.Equal(t, name, root.Name, "the row's operation calls another field")
		names = append(names, name)
	}
	slices.Sort(names)

	f := newMatrixFixture(t)
	cells := 0
	for _, name := range names {
		op := matrixOps[name]
		t.Run(name, func(t *testing.T) {
			for cred := range numCredentials {
				passed := t.Run(cred.String(), func(t *testing.T) {
					f.t = t
					defer func() { f.t = nil }()
					c := f.cell(cred)
					if fields[name] == ast.Subscription {
						checkSubscriptionCell(t, f, op, c)
					} else {
						checkHTTPCell(t, f, name, op, c)
					}
				})
				if passed {
					cells++
				}
			}
		})
	}
	t.Logf("access matrix: %d of %d cells passed (%d operations × %d credentials)", cells, len(names)*int(numCredentials), len(names), numCredentials)
	require.Equal(t, len(fields)*int(numCredentials), cells, "cells that failed")
}

// checkHTTPCell posts the operation with the cell's credential. A refused call must also have
// written nothing.
func checkHTTPCell(t *testing.T, f *matrixFixture, name string, op matrixOp, c *matrixCell) {
	vars := op.vars(f, c)
	want := op.want[c.cred]
	var before map[string]string
	if want != allowed {
		before = f.db.take(t)
	}
	res := f.s.DoWith(t, c.header(), op.query, vars)
	require.Equal(t, http.StatusOK, res.Status)
	if want != allowed {
		require.NotEmpty(t, res.Errors, "%s as %s: want %s", name, c.cred, want)
		require.Equal(t, []string{string(want)}, res.Codes(), "%s as %s", name, c.cred)
		if string(res.Data) != "null" { // a nullable root field is null
			require.JSONEq(t, fmt.Sprintf(`{%q: null}`, name), string(res.Data), "a refused call returned data")
		}
		after := f.db.take(t)
		if c.cred == credIdleRun {
			// The one write a refused idle token makes: its run is interrupted and its token forgotten.
			status, hasToken := f.runStatus(t, c.run.ID)
			require.Equal(t, "interrupted", status, "%s as %s: the idle run goes on", name, c.cred)
			require.False(t, hasToken, "the idle run's token hash is kept")
			delete(before, "runs")
			delete(after, "runs")
		}
		require.Equal(t, before, after, "%s as %s: a refused call changed the database", name, c.cred)
		return
	}
	require.Empty(t, res.Errors, "%s as %s: want it allowed", name, c.cred)
	var data map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(res.Data, &data))
	require.NotEqual(t, "null", string(data[name]), "%s as %s returned null", name, c.cred)
	if op.check != nil {
		op.check(t, f, c, res.Data)
	}
}

// checkSubscriptionCell subscribes over graphql-transport-ws with the credential in connection_init.
// A connection without a valid credential is closed at connection_init with 4403 — the websocket's
// UNAUTHENTICATED, before any operation; a valid one that may not subscribe gets the operation's
// error; an allowed one receives a value.
func checkSubscriptionCell(t *testing.T, f *matrixFixture, op matrixOp, c *matrixCell) {
	var header http.Header
	if c.cookie != nil {
		// The web app's websocket: the cookie on the upgrade request, the page's own origin.
		header = http.Header{"Cookie": {c.cookie.String()}, "Origin": {f.s.URL}}
	}
	ws := f.s.MustDialWS(t, header)
	want := op.want[c.cred]
	if want == unauth {
		require.NoError(t, ws.SendInit(c.initPayload()))
		ws.ExpectClose(t, auth.CloseForbidden)
		if c.cred == credIdleRun {
			status, _ := f.runStatus(t, c.run.ID)
			require.Equal(t, "interrupted", status, "the idle run goes on")
		}
		return
	}
	require.NoError(t, ws.Init(c.initPayload()))
	require.NoError(t, ws.Subscribe("1", op.query, op.vars(f, c)))
	if want != allowed {
		require.Equal(t, []string{string(want)}, ws.ExpectFailedNext(t, "1"), "as %s", c.cred)
		return
	}
	var stop func() error
	if op.event != nil {
		stop = repeatUntilStopped(t.Context(), op.event(f))
	}
	var data map[string]map[string]any
	ws.Next(t, "1", &data)
	if stop != nil {
		require.NoError(t, stop())
	}
	require.Len(t, data, 1)
	for _, value := range data {
		require.NotEmpty(t, value, "as %s", c.cred)
		for _, key := range []string{"teammateId", "scope"} {
			if v, ok := value[key]; ok {
				require.Equal(t, f.owner, v, "as %s: an event of another scope", c.cred)
			}
		}
	}
}

// repeatUntilStopped runs action every 50 ms until stop is called. A subscription registers on a
// goroutine of its own after the subscribe message and sends nothing first, so the client can't tell
// when an event would reach it: the event is repeated until one does. stop returns action's error.
func repeatUntilStopped(ctx context.Context, action func(ctx context.Context, n int) error) (stop func() error) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for n := 0; ; n++ {
			if err := action(ctx, n); err != nil && ctx.Err() == nil {
				done <- err
				return
			}
			select {
			case <-ctx.Done():
				done <- nil
				return
			case <-tick.C:
			}
		}
	}()
	return func() error {
		cancel()
		return <-done
	}
}

// A run's credential ends with the run (RULES §4) on a websocket opened while it ran, too: a later
// subscribe on that connection is refused.
func TestRunCredentialEndsOnItsWebsocket(t *testing.T) {
	t.Parallel()
	f := newMatrixFixture(t)
	f.t = t
	for _, end := range []struct {
		name string
		do   func(run startedRun)
	}{
		{"completed", func(run startedRun) {
			f.mutate(run.Token, `mutation { completeRun(input: {reply: "Done."}) { id } }`, nil)
		}},
		{"cancelled", func(run startedRun) {
			f.mutate(userToken, `mutation($id: ID!) { cancelRun(input: {runId: $id}) { id } }`, map[string]any{"id": run.ID})
		}},
	} {
		t.Run(end.name, func(t *testing.T) {
			f.t = t
			run := f.startRun(f.owner, runMessage)
			ws := f.s.MustDialWS(t, nil)
			require.NoError(t, ws.Init(map[string]any{"authorization": "Bearer " + run.Token}))
			require.NoError(t, ws.Subscribe("before", generationSubscription, map[string]any{"id": f.owner}))
			nextGeneration(t, ws, "before", f.owner)

			end.do(run)
			// The subscription the run opened ends at its next event rather than deliver it.
			f.mutate(userToken, `mutation($tm: ID!) { createMemory(input: {scope: {teammateId: $tm}, content: "Changed after the run"}) { item { id } } }`,
				map[string]any{"tm": f.owner})
			ws.ExpectComplete(t, "before")
			require.NoError(t, ws.Subscribe("after", generationSubscription, map[string]any{"id": f.owner}))
			require.Equal(t, []string{"UNAUTHENTICATED"}, ws.ExpectFailedNext(t, "after"))
		})
	}
}

// A browser sends these content types cross-site without a preflight, with the session cookie when
// SameSite allows it: the API refuses them before running anything. (A cross-site websocket upgrade
// is refused by its Origin: TestWebsocketOrigin. A mutation over GET: TestMutationOverGETIsRefused.)
func TestCrossSiteFormPostsAreRefused(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings)
	cookie := loginCookie(t, s)
	teammate := s.CreateTeammate(t, "Ada")
	var created struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	s.DoWith(t, http.Header{"Cookie": {cookie.String()}}, createMemoryMutation,
		map[string]any{"tm": teammate, "content": "Likes tea"}).Decode(t, &created)
	db := newSnapshots(t, databaseURL)
	before := db.take(t)

	// Each would create a teammate and forget the item if it ran.
	mutation := fmt.Sprintf(`mutation { createTeammate(input: {name: "Mallory"}) { teammate { id } } forgetMemory(input: {id: %q}) { item { id } } }`,
		created.CreateMemory.Item.ID)
	multipartBody := func() (string, string) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		require.NoError(t, w.WriteField("operations", fmt.Sprintf(`{"query": %q}`, mutation)))
		require.NoError(t, w.WriteField("map", `{}`))
		require.NoError(t, w.Close())
		return w.FormDataContentType(), b.String()
	}
	multipartType, multipartText := multipartBody()
	for _, tc := range []struct {
		contentType, body string
	}{
		{"application/x-www-form-urlencoded", url.Values{"query": {mutation}}.Encode()},
		{multipartType, multipartText},
		{"text/plain", fmt.Sprintf(`{"query": %q}`, mutation)},
		{"text/plain;charset=UTF-8", fmt.Sprintf(`{"query": %q}`, mutation)},
	} {
		t.Run(tc.contentType, func(t *testing.T) {
			// Each defence on its own: the foreign Origin is refused first (403); without it, as from
			// a browser that left Origin out, the content type is (400).
			for origin, status := range map[string]int{"http://evil.example": http.StatusForbidden, "": http.StatusBadRequest} {
				req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/graphql", strings.NewReader(tc.body))
				require.NoError(t, err)
				req.Header.Set("Content-Type", tc.contentType)
				if origin != "" {
					req.Header.Set("Origin", origin)
				}
				req.AddCookie(cookie)
				res := s.DoRequest(t, req)
				require.Equal(t, status, res.Status, "Origin %q: errors %+v", origin, res.Errors)
				require.NotEmpty(t, res.Errors)
				require.Equal(t, before, db.take(t), "a form POST changed the database")
			}
		})
	}
	require.Equal(t, []string{"Ada"}, teammateNames(t, s))
}

// One rule for suggestions: only the user reads candidate and dismissed items.
// For the worker and every run they don't exist, by any path: listing them is FORBIDDEN (as
// candidates and candidateArrived are, in the matrix above), one of them by id is NOT_FOUND (null),
// and memoryChanged never carries their ids.
func TestAccessMatrixSuggestionsAreTheUsersOnly(t *testing.T) {
	t.Parallel()
	f := newMatrixFixture(t)
	f.t = t
	waiting := f.candidate()
	dismissed := f.candidate()
	f.mutate(userToken, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": dismissed})

	// suggestionReads are the ways in, each with what the user, the worker and the owner's run get.
	type read struct {
		query string
		vars  map[string]any
		// user, worker, run: allowed, or the code; an allowed non-user call must return null data.
		want [3]access
	}
	const listSuggestions = `query($tm: ID, $s: MemoryStatus) { memoryItems(scope: {teammateId: $tm}, status: $s) { totalCount edges { node { id } } } }`
	reads := map[string]read{
		"memoryItems(status: CANDIDATE)": {listSuggestions, map[string]any{"tm": f.owner, "s": "CANDIDATE"}, [3]access{allowed, forbid, forbid}},
		"memoryItems(status: DISMISSED)": {listSuggestions, map[string]any{"tm": f.owner, "s": "DISMISSED"}, [3]access{allowed, forbid, forbid}},
		"memoryItem(waiting)":            {`query($id: ID!) { memoryItem(id: $id) { id content } }`, map[string]any{"id": waiting}, [3]access{allowed, allowed, allowed}},
		"memoryItem(dismissed)":          {`query($id: ID!) { memoryItem(id: $id) { id content } }`, map[string]any{"id": dismissed}, [3]access{allowed, allowed, allowed}},
		"candidates":                     {`query($tm: ID) { candidates(scope: {teammateId: $tm}) { id } }`, map[string]any{"tm": f.owner}, [3]access{allowed, forbid, forbid}},
	}
	for name, r := range reads {
		t.Run(name, func(t *testing.T) {
			f.t = t
			for i, cred := range []credential{credUser, credWorker, credOwnRun} {
				c := f.cell(cred)
				res := f.s.DoWith(t, c.header(), r.query, r.vars)
				require.Equal(t, http.StatusOK, res.Status)
				if r.want[i] != allowed {
					require.Equal(t, []string{string(r.want[i])}, res.Codes(), "%s as %s", name, cred)
					continue
				}
				require.Empty(t, res.Errors, "%s as %s", name, cred)
				if cred == credUser {
					require.NotContains(t, string(res.Data), `"totalCount":0`, "%s: the user sees the suggestion", name)
					require.NotContains(t, string(res.Data), `null`, "%s: the user sees the suggestion", name)
				} else {
					require.JSONEq(t, `{"memoryItem": null}`, string(res.Data), "%s as %s: a suggestion doesn't exist", name, cred)
				}
			}
		})
	}

	// A tool's answer: a run that suggests what is already waiting gets the suggestion back only if
	// it made it. Another teammate's run, suggesting the same for everyone, doesn't: the suggestion
	// holds the first run's evidence, a sentence of a conversation it may not read (S1).
	t.Run("a suggestion counted again", func(t *testing.T) {
		f.t = t
		text := f.text("Interviewing at Globex")
		secret := "Between us, " + strings.ToLower(text) + " is a secret"
		const suggest = `mutation($c: String!) { toolRemember(input: {content: $c, forEveryone: true}) { outcome item { id evidence } } }`
		var answer struct {
			ToolRemember struct {
				Outcome string
				Item    *struct{ ID, Evidence string }
			}
		}
		own := f.startRun(f.owner, secret+". What should I wear?")
		for range 2 {
			require.NoError(t, json.Unmarshal(f.mutate(own.Token, suggest, map[string]any{"c": text}), &answer))
			require.Equal(t, "SUGGESTED", answer.ToolRemember.Outcome)
			require.NotNil(t, answer.ToolRemember.Item, "the run's own suggestion, made and counted again")
			require.Equal(t, secret, answer.ToolRemember.Item.Evidence)
		}
		first := answer.ToolRemember.Item.ID
		other := f.startRun(f.other, "Hello.")
		data := f.mutate(other.Token, suggest, map[string]any{"c": text})
		require.NoError(t, json.Unmarshal(data, &answer))
		require.Equal(t, "SUGGESTED", answer.ToolRemember.Outcome)
		require.Nil(t, answer.ToolRemember.Item, "another run's suggestion")
		require.NotContains(t, string(data), "Between us")
		require.NotContains(t, string(data), first)
		var waiting struct {
			Candidates []struct{ TimesSuggested int }
		}
		require.NoError(t, json.Unmarshal(f.mutate(userToken, `{ candidates(scope: {}) { timesSuggested } }`, nil), &waiting))
		require.Equal(t, []struct{ TimesSuggested int }{{3}}, waiting.Candidates, "one suggestion, counted three times")
	})

	// memoryChanged: a suggestion arrives, is dismissed and forgotten, then an active item is made.
	// The user hears of all of it; the worker and the run hear of the active item first.
	t.Run("memoryChanged", func(t *testing.T) {
		f.t = t
		type sub struct {
			cred credential
			ws   *apitest.WS
		}
		var subs []sub
		for _, cred := range []credential{credUser, credWorker, credOwnRun} {
			c := f.cell(cred)
			ws := f.s.MustDialWS(t, nil)
			require.NoError(t, ws.Init(c.initPayload()))
			require.NoError(t, ws.Subscribe("1", `subscription($tm: ID) { memoryChanged(scope: {teammateId: $tm}) { itemId status } }`, map[string]any{"tm": f.owner}))
			subs = append(subs, sub{cred, ws})
		}
		// A subscription registers asynchronously: repeat an active-item change until each
		// subscriber has seen one, so all of them are listening before the suggestions arrive.
		for _, s := range subs {
			stop := repeatUntilStopped(t.Context(), func(ctx context.Context, n int) error {
				return f.s.Call(ctx, userToken, `mutation($tm: ID, $c: String!) { createMemory(input: {scope: {teammateId: $tm}, content: $c}) { item { id } } }`,
					map[string]any{"tm": f.owner, "c": fmt.Sprintf("Warm-up %d %s", n, s.cred)}, nil)
			})
			var first map[string]map[string]any
			s.ws.Next(t, "1", &first)
			require.NoError(t, stop())
		}
		// Drain the warm-up events: read until a marker item arrives on every connection.
		suggestion := f.candidate()
		f.mutate(userToken, `mutation($id: ID!) { dismissCandidate(input: {id: $id}) { item { id } } }`, map[string]any{"id": suggestion})
		f.mutate(userToken, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": suggestion})
		marker := f.createItem(f.text("Marker"))
		for _, s := range subs {
			var seen []string
			for {
				var ev struct {
					MemoryChanged struct{ ItemID, Status string }
				}
				s.ws.Next(t, "1", &ev)
				if ev.MemoryChanged.ItemID == marker {
					break
				}
				seen = append(seen, ev.MemoryChanged.ItemID)
			}
			if s.cred == credUser {
				require.Contains(t, seen, suggestion, "the user hears of the suggestion")
			} else {
				require.NotContains(t, seen, suggestion, "as %s: a suggestion's id never arrives", s.cred)
			}
		}
	})
}

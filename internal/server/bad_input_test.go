package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/server"
)

// snapshots reads snapshots of one database: each table's row count and a hash of its rows, all in
// one statement. Equal snapshots mean that nothing was written in between.
type snapshots struct {
	conn  *pgx.Conn
	query string
}

// newSnapshots connects to databaseURL until the test ends.
func newSnapshots(t *testing.T, databaseURL string) *snapshots {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	rows, err := conn.Query(t.Context(), `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)
	require.NoError(t, err)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	for _, table := range []string{"teammates", "memory_items", "memory_revisions", "runs", "messages"} {
		require.Contains(t, tables, table)
	}
	parts := make([]string, len(tables))
	for i, table := range tables {
		parts[i] = fmt.Sprintf(`SELECT %s, count(*), coalesce(md5(string_agg(t::text, E'\n' ORDER BY t::text)), '') FROM %s t`,
			quoteLiteral(table), pgx.Identifier{table}.Sanitize())
	}
	return &snapshots{conn: conn, query: strings.Join(parts, " UNION ALL ")}
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// take returns the database's state now, table by table.
func (d *snapshots) take(t *testing.T) map[string]string {
	t.Helper()
	rows, err := d.conn.Query(t.Context(), d.query) //nolint:rowserrcheck // pgx.ForEachRow checks rows.Err
	require.NoError(t, err)
	out := map[string]string{}
	var table, hash string
	var count int64
	_, err = pgx.ForEachRow(rows, []any{&table, &count, &hash}, func() error {
		out[table] = fmt.Sprintf("%d rows, md5 %s", count, hash)
		return nil
	})
	require.NoError(t, err)
	return out
}

// gqlBody is a POST body for query with vars.
func gqlBody(query string, vars map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		panic(err)
	}
	return b
}

// gqlBodyRaw is a POST body whose variables are written out as given, bytes and all (json.Marshal
// would replace invalid UTF-8).
func gqlBodyRaw(query, rawVariables string) []byte {
	q, err := json.Marshal(query)
	if err != nil {
		panic(err)
	}
	return []byte(`{"query": ` + string(q) + `, "variables": ` + rawVariables + `}`)
}

// manyAliases is a query selecting teammates n times under different names.
func manyAliases(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " t%d: teammates { id }", i)
	}
	b.WriteString(" }")
	return b.String()
}

// typenameAliases selects __typename, which costs nothing to resolve, n times under different names.
func typenameAliases(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " a%d: __typename", i)
	}
	b.WriteString(" }")
	return b.String()
}

// fragmentBomb is a query whose fragments each spread the one before twice: it writes out a few
// dozen selections and expands to 2^n.
func fragmentBomb(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{ ...F%d } fragment F0 on Query { teammates { id } }", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, " fragment F%d on Query { ...F%d ...F%d }", i, i-1, i-1)
	}
	return b.String()
}

// badInput is a request the API must refuse with a clear, coded error, changing nothing.
type badInput struct {
	name string
	// token is the bearer credential (default the user's).
	token string
	// get sends query in the query string instead of a POST body.
	get  string
	body []byte
	// chunked sends the body without Content-Length.
	chunked bool
	status  int
	code    string
	// field is extensions.field of a BAD_USER_INPUT the memory service raised, when set.
	field string
	// message is a part of the first error's message, when set.
	message string
}

// TestBadInput sends hostile and malformed requests through HTTP (RULES §6): each gets its HTTP
// status and exact extensions.code, writes nothing to the database, and the server stays healthy.
func TestBadInput(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings)
	db := newSnapshots(t, databaseURL)
	tm := s.CreateTeammate(t, "Ada")
	var created struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	s.Must(t, userToken, createMemoryMutation, map[string]any{"tm": tm, "content": "Likes tea"}, &created)
	item := created.CreateMemory.Item.ID
	var started struct{ StartRun struct{ RunToken string } }
	s.Must(t, workerToken, `mutation($tm: ID!) { startRun(input: {teammateId: $tm, message: "Please remember that I like tea."}) { runToken } }`,
		map[string]any{"tm": tm}, &started)
	runToken := started.StartRun.RunToken
	require.NotEmpty(t, runToken)

	const (
		unknownID    = "00000000-0000-4000-8000-000000000000"
		createMemory = `mutation($tm: ID, $c: String!, $k: String) { createMemory(input: {scope: {teammateId: $tm}, content: $c, key: $k}) { item { id } } }`
		editMemory   = `mutation($id: ID!, $b: Int!) { editMemory(input: {id: $id, baseRevision: $b, content: "Likes green tea"}) { item { id } } }`
		search       = `query($q: String) { memoryItems(scope: {}, search: $q) { totalCount } }`
		createMate   = `mutation($n: String!) { createTeammate(input: {name: $n}) { teammate { id } } }`
		withExpiry   = `mutation($tm: ID, $e: Time) { createMemory(input: {scope: {teammateId: $tm}, content: "Likes tea", expiresAt: $e}) { item { id } } }`
	)
	// A syntactically valid request larger than the limit: a query padded with a comment.
	oversized := gqlBody("{ teammates { id } }\n#"+strings.Repeat("x", server.MaxBodyBytes), nil)
	ownerVars := func(extra map[string]any) map[string]any {
		vars := map[string]any{"tm": tm}
		for k, v := range extra {
			vars[k] = v
		}
		return vars
	}
	const (
		ok     = http.StatusOK
		badReq = http.StatusBadRequest
		// invalid is a request error (RULES §5, GraphQL over HTTP): 200 with application/json, 400
		// with application/graphql-response+json, and no data either way.
		invalid  = -1
		tooLarge = http.StatusRequestEntityTooLarge
	)

	cases := []badInput{
		// The body and its encoding.
		{name: "oversized body with Content-Length", body: oversized, status: tooLarge, code: "BAD_USER_INPUT"},
		{name: "oversized body chunked", body: oversized, chunked: true, status: tooLarge, code: "BAD_USER_INPUT"},
		{name: "content variable over the body limit", body: gqlBody(createMemory, ownerVars(map[string]any{"c": strings.Repeat("x", server.MaxBodyBytes)})),
			status: tooLarge, code: "BAD_USER_INPUT"},
		{name: "content variable over the body limit chunked", body: gqlBody(createMemory, ownerVars(map[string]any{"c": strings.Repeat("x", server.MaxBodyBytes)})),
			chunked: true, status: tooLarge, code: "BAD_USER_INPUT"},
		{name: "not JSON", body: []byte(`{"query": `), status: badReq, code: "BAD_USER_INPUT"},
		{name: "large body that is not JSON", body: []byte(`{"query": "mutation { createMemory(input: {content: \"secret ` + strings.Repeat("y", 500_000) + ``),
			status: badReq, code: "BAD_USER_INPUT"},
		{name: "empty body", body: []byte{}, status: badReq, code: "BAD_USER_INPUT"},
		{name: "batch of operations", body: []byte(`[{"query": "{ teammates { id } }"}]`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "variables not an object", body: []byte(`{"query": "{ teammates { id } }", "variables": [1]}`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "query not a string", body: []byte(`{"query": 5}`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "variables nested past the JSON depth limit", body: gqlBodyRaw(`{ teammates { id } }`, `{"x": `+strings.Repeat("[", 20_000)+strings.Repeat("]", 20_000)+`}`),
			status: badReq, code: "BAD_USER_INPUT"},
		{name: "invalid UTF-8 in a content variable", body: gqlBodyRaw(createMemory, `{"tm": "`+tm+`", "c": "Likes \xff tea"}`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "invalid UTF-8 in a content literal", body: []byte(`{"query": "mutation { createMemory(input: {scope: {teammateId: \"` + tm + `\"}, content: \"Likes \xc3 tea\"}) { item { id } } }"}`),
			status: badReq, code: "BAD_USER_INPUT"},
		{name: "invalid UTF-8 in a search variable", body: gqlBodyRaw(search, `{"q": "tea\xfe\xff"}`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "invalid UTF-8 in a teammate name", body: gqlBodyRaw(createMate, `{"n": "Bo\xc3b"}`), status: badReq, code: "BAD_USER_INPUT"},
		// Lone surrogate escapes are not text either: the decoders would store U+FFFD.
		{name: "lone high surrogate in a content variable", body: gqlBodyRaw(createMemory, `{"tm": "`+tm+`", "c": "Likes \ud800 tea"}`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "lone low surrogate in a content variable", body: gqlBodyRaw(createMemory, `{"tm": "`+tm+`", "c": "Likes \udc00 tea"}`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "reversed surrogate pair in a search variable", body: gqlBodyRaw(search, `{"q": "tea \udc00\ud800"}`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "lone surrogate in a content literal", body: []byte(`{"query": "mutation { createMemory(input: {scope: {teammateId: \"` + tm + `\"}, content: \"Likes \\ud800 tea\"}) { item { id } } }"}`),
			status: badReq, code: "BAD_USER_INPUT"},
		{name: "braced surrogate escape in a content literal", body: []byte(`{"query": "mutation { createMemory(input: {scope: {teammateId: \"` + tm + `\"}, content: \"Likes \\u{D800} tea\"}) { item { id } } }"}`),
			status: badReq, code: "BAD_USER_INPUT"},
		{name: "lone surrogate in a GET query string", get: `{ memoryItems(scope: {}, search: "tea \ud800") { totalCount } }`, status: badReq, code: "BAD_USER_INPUT"},
		{name: "invalid UTF-8 in a GET query string", get: `{ memoryItems(scope: {}, search: "tea` + "\xff" + `") { totalCount } }`, status: badReq, code: "BAD_USER_INPUT"},

		// The document.
		{name: "no operation", body: []byte(`{}`), status: badReq, code: "BAD_USER_INPUT"},
		{name: "syntax error", body: gqlBody(`{ teammates { id `, nil), status: invalid, code: "GRAPHQL_PARSE_FAILED"},
		{name: "unknown field", body: gqlBody(`{ teammates { id salary } }`, nil), status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "operation name not in the document", body: []byte(`{"query": "query A { teammates { id } }", "operationName": "B"}`),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "inline fragments nested 3,000 deep", body: gqlBody("{"+strings.Repeat(" ... on Query {", 3000)+" teammates { id }"+strings.Repeat(" }", 3000)+" }", nil),
			status: invalid, code: "GRAPHQL_PARSE_FAILED"},
		{name: "list literal nested 3,000 deep", body: gqlBody(`{ teammate(id: `+strings.Repeat("[", 3000)+`"x"`+strings.Repeat("]", 3000)+`) { id } }`, nil),
			status: invalid, code: "GRAPHQL_PARSE_FAILED"},
		{name: "fragment cycle", body: gqlBody(`{ ...A } fragment A on Query { ...B } fragment B on Query { teammates { id } ...A }`, nil),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "complexity through page sizes", body: gqlBody(`{ memoryItems(scope: {}, first: 100) { edges { node { revisions(first: 100) { edges { node { revision content } } } } } } }`, nil),
			status: invalid, code: "COMPLEXITY_LIMIT_EXCEEDED"},
		{name: "2,501 aliases", body: gqlBody(manyAliases(server.MaxComplexity/2+1), nil), status: invalid, code: "COMPLEXITY_LIMIT_EXCEEDED"},
		{name: "__typename under 5,000 aliases", body: gqlBody(typenameAliases(5000), nil), status: invalid, code: "COMPLEXITY_LIMIT_EXCEEDED"},
		{name: "one field repeated 100,000 times", body: gqlBody("{ teammates {"+strings.Repeat(" id", 100_000)+" } }", nil),
			status: invalid, code: "COMPLEXITY_LIMIT_EXCEEDED"},
		{name: "one field repeated in an unused fragment", body: gqlBody("{ teammates { id } } fragment F on Teammate {"+strings.Repeat(" id", 5000)+" }", nil),
			status: invalid, code: "COMPLEXITY_LIMIT_EXCEEDED"},
		{name: "fragments that double 40 times", body: gqlBody(fragmentBomb(40), nil), status: invalid, code: "COMPLEXITY_LIMIT_EXCEEDED"},

		// Text: NUL, lengths, blanks (invalid UTF-8 is above: it never reaches the service).
		{name: "NUL in a content variable", body: gqlBody(createMemory, ownerVars(map[string]any{"c": "Likes\x00tea"})), status: ok, code: "BAD_USER_INPUT", field: "content"},
		{name: "NUL in a content literal", body: gqlBody(`mutation($tm: ID) { createMemory(input: {scope: {teammateId: $tm}, content: "Likes\u0000tea"}) { item { id } } }`, ownerVars(nil)),
			status: ok, code: "BAD_USER_INPUT", field: "content"},
		{name: "NUL in a key", body: gqlBody(createMemory, ownerVars(map[string]any{"c": "Likes tea", "k": "drink\x00"})), status: ok, code: "BAD_USER_INPUT", field: "key"},
		{name: "content of 4,001 characters", body: gqlBody(createMemory, ownerVars(map[string]any{"c": strings.Repeat("é", 4001)})), status: ok, code: "BAD_USER_INPUT", field: "content"},
		{name: "content of 900,000 characters", body: gqlBody(createMemory, ownerVars(map[string]any{"c": strings.Repeat("x", 900_000)})), status: ok, code: "BAD_USER_INPUT", field: "content"},
		{name: "blank content", body: gqlBody(createMemory, ownerVars(map[string]any{"c": " \t\n "})), status: ok, code: "BAD_USER_INPUT", field: "content"},
		{name: "NUL in a search", body: gqlBody(search, map[string]any{"q": "tea\x00"}), status: ok, code: "BAD_USER_INPUT", field: "search"},
		{name: "search of 501 characters", body: gqlBody(search, map[string]any{"q": strings.Repeat("t", 501)}), status: ok, code: "BAD_USER_INPUT", field: "search"},
		{name: "NUL in a teammate name", body: gqlBody(createMate, map[string]any{"n": "Bo\x00b"}), status: ok, code: "BAD_USER_INPUT", field: "name"},
		{name: "teammate name of 121 characters", body: gqlBody(createMate, map[string]any{"n": strings.Repeat("B", 121)}), status: ok, code: "BAD_USER_INPUT", field: "name"},
		{name: "NUL in a new name", body: gqlBody(`mutation($id: ID!, $n: String!) { renameTeammate(input: {id: $id, name: $n}) { teammate { id } } }`, map[string]any{"id": tm, "n": "Ada\x00"}),
			status: ok, code: "BAD_USER_INPUT", field: "name"},
		{name: "NUL in a run's message", token: workerToken, body: gqlBody(`mutation($tm: ID!, $m: String!) { startRun(input: {teammateId: $tm, message: $m}) { runToken } }`, map[string]any{"tm": tm, "m": "Hi\x00"}),
			status: ok, code: "BAD_USER_INPUT", field: "message"},
		{name: "NUL in a teammate's save", token: runToken, body: gqlBody(`mutation($c: String!) { toolRemember(input: {content: $c}) { outcome } }`, map[string]any{"c": "I like tea\x00"}),
			status: ok, code: "BAD_USER_INPUT", field: "content"},
		{name: "NUL in a teammate's search", token: runToken, body: gqlBody(`query($q: String!) { toolSearchMemory(query: $q) { id } }`, map[string]any{"q": "tea\x00"}),
			status: ok, code: "BAD_USER_INPUT", field: "query"},

		// Ids: unknown ones are NOT_FOUND, malformed ones BAD_USER_INPUT.
		{name: "edit of an unknown item", body: gqlBody(editMemory, map[string]any{"id": unknownID, "b": 1}), status: ok, code: "NOT_FOUND"},
		{name: "forget of an unknown item", body: gqlBody(`mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": unknownID}), status: ok, code: "NOT_FOUND"},
		{name: "memory in an unknown teammate's scope", body: gqlBody(createMemory, map[string]any{"tm": unknownID, "c": "Likes tea"}), status: ok, code: "NOT_FOUND"},
		{name: "recall of an unknown teammate", body: gqlBody(`query($tm: ID!) { recallPreview(teammateId: $tm, query: "tea") { text } }`, map[string]any{"tm": unknownID}), status: ok, code: "NOT_FOUND"},
		{name: "lessons of an unknown teammate", body: gqlBody(`query($tm: ID!) { lessons(teammateId: $tm) { item { id } } }`, map[string]any{"tm": unknownID}), status: ok, code: "NOT_FOUND"},
		{name: "runs of an unknown teammate", body: gqlBody(`query($tm: ID!) { runs(teammateId: $tm) { id } }`, map[string]any{"tm": unknownID}), status: ok, code: "NOT_FOUND"},
		{name: "import state of an unknown teammate", token: workerToken, body: gqlBody(`query($tm: ID!) { memoryImported(teammateId: $tm) }`, map[string]any{"tm": unknownID}), status: ok, code: "NOT_FOUND"},
		{name: "run start for an unknown teammate", token: workerToken, body: gqlBody(`mutation($tm: ID!) { startRun(input: {teammateId: $tm, message: "Hi"}) { runToken } }`, map[string]any{"tm": unknownID}),
			status: ok, code: "NOT_FOUND"},
		{name: "rating of an unknown run", body: gqlBody(`mutation($id: ID!) { rateRun(input: {runId: $id, rating: UP}) { id } }`, map[string]any{"id": unknownID}), status: ok, code: "NOT_FOUND"},
		{name: "edit of a malformed id", body: gqlBody(editMemory, map[string]any{"id": "item-1", "b": 1}), status: ok, code: "BAD_USER_INPUT", field: "id"},
		{name: "lesson for a malformed run id", body: gqlBody(`mutation($id: ID!) { keepLesson(input: {runId: $id, note: "Shorter."}) { item { id } } }`, map[string]any{"id": "run-1"}),
			status: ok, code: "BAD_USER_INPUT", field: "runId"},
		{name: "id of 900,000 characters", body: gqlBody(`query($id: ID!) { memoryItem(id: $id) { id } }`, map[string]any{"id": strings.Repeat("a", 900_000)}), status: ok, code: "BAD_USER_INPUT", field: "id"},
		{name: "id with a NUL", body: gqlBody(`query($id: ID!) { memoryItem(id: $id) { id } }`, map[string]any{"id": unknownID + "\x00"}), status: ok, code: "BAD_USER_INPUT", field: "id"},
		{name: "id given as a number", body: gqlBodyRaw(`query($id: ID!) { memoryItem(id: $id) { id } }`, `{"id": 12}`), status: ok, code: "BAD_USER_INPUT", field: "id"},
		{name: "cursor that isn't one", body: gqlBody(`{ memoryItems(scope: {}, after: "garbage") { totalCount } }`, nil), status: ok, code: "BAD_USER_INPUT", field: "after"},

		// Types.
		{name: "revision given as a string", body: gqlBody(editMemory, map[string]any{"id": item, "b": "one"}), status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "revision given as a fraction", body: gqlBodyRaw(editMemory, `{"id": "`+item+`", "b": 1.5}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "revision past 64 bits", body: gqlBodyRaw(editMemory, `{"id": "`+item+`", "b": 99999999999999999999999}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "revision literal past 64 bits", body: gqlBody(`mutation($id: ID!) { editMemory(input: {id: $id, baseRevision: 99999999999999999999999, content: "x"}) { item { id } } }`, map[string]any{"id": item}),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		// Spec-strict coercion (§3.5): gqlgen's validator took these (a number stored as text, digits as
		// an Int) or misreported them ("cannot use value 0").
		{name: "content given as a number", body: gqlBodyRaw(createMemory, `{"tm": "`+tm+`", "c": 5}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use 5 as String"},
		{name: "content given as a boolean", body: gqlBodyRaw(createMemory, `{"tm": "`+tm+`", "c": true}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use true as String"},
		{name: "teammate name given as a number", body: gqlBodyRaw(createMate, `{"n": 12.5}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use 12.5 as String"},
		{name: "revision given as digits", body: gqlBody(editMemory, map[string]any{"id": item, "b": "1"}), status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use a string as Int"},
		{name: "revision given as 1000.0", body: gqlBodyRaw(editMemory, `{"id": "`+item+`", "b": 1000.0}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use 1000.0 as Int"},
		{name: "revision given as 1e3", body: gqlBodyRaw(editMemory, `{"id": "`+item+`", "b": 1e3}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use 1e3 as Int"},
		{name: "revision past 32 bits", body: gqlBodyRaw(editMemory, `{"id": "`+item+`", "b": 2147483648}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use 2147483648 as Int"},
		{name: "revision inside an input object given as digits", body: gqlBodyRaw(`mutation($in: EditMemoryInput!) { editMemory(input: $in) { item { id } } }`, `{"in": {"id": "`+item+`", "baseRevision": "1", "content": "Likes green tea"}}`),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use a string as Int"},
		{name: "content inside an input object given as a number", body: gqlBodyRaw(`mutation($in: CreateMemoryInput!) { createMemory(input: $in) { item { id } } }`, `{"in": {"scope": {"teammateId": "`+tm+`"}, "content": 42}}`),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use 42 as String"},
		{name: "content literal given as a number", body: gqlBody(`mutation($tm: ID) { createMemory(input: {scope: {teammateId: $tm}, content: 5}) { item { id } } }`, ownerVars(nil)),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		// Enum values are case-sensitive: "preference" was stored as FACT, "down" cleared a rating.
		{name: "kind in lower case", body: gqlBody(`mutation($tm: ID, $k: MemoryKind) { createMemory(input: {scope: {teammateId: $tm}, content: "Likes tea", kind: $k}) { item { id } } }`, ownerVars(map[string]any{"k": "preference"})),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "none of MemoryKind's values (FACT, PREFERENCE, LESSON, NOTE"},
		{name: "kind in mixed case inside an input object", body: gqlBodyRaw(`mutation($in: CreateMemoryInput!) { createMemory(input: $in) { item { id } } }`, `{"in": {"scope": {"teammateId": "`+tm+`"}, "content": "Likes tea", "kind": "Preference"}}`),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "none of MemoryKind's values"},
		{name: "status filter in lower case", body: gqlBody(`query($s: MemoryStatus) { memoryItems(scope: {}, status: $s) { totalCount } }`, map[string]any{"s": "candidate"}),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "none of MemoryStatus's values"},
		{name: "kinds list in lower case", body: gqlBody(`query($k: [MemoryKind!]) { memoryItems(scope: {}, kinds: $k) { totalCount } }`, map[string]any{"k": []string{"FACT", "lesson"}}),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "none of MemoryKind's values"},
		{name: "kind given as a number", body: gqlBodyRaw(`query($k: MemoryKind) { memoryItems(scope: {}, kind: $k) { totalCount } }`, `{"k": 1}`),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED", message: "cannot use 1 as MemoryKind"},
		{name: "revision 0", body: gqlBody(editMemory, map[string]any{"id": item, "b": 0}), status: ok, code: "BAD_USER_INPUT", field: "baseRevision"},
		{name: "revision ahead of the item", body: gqlBody(editMemory, map[string]any{"id": item, "b": 7}), status: ok, code: "BAD_USER_INPUT", field: "baseRevision"},
		{name: "id given as an object", body: gqlBodyRaw(editMemory, `{"id": {"id": "`+item+`"}, "b": 1}`), status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "id given as 100,000 numbers", body: gqlBody(editMemory, map[string]any{"id": make([]int, 100_000), "b": 1}), status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "null for a required variable", body: gqlBody(editMemory, map[string]any{"id": nil, "b": 1}), status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "unknown kind", body: gqlBody(`query($k: MemoryKind) { memoryItems(scope: {}, kind: $k) { totalCount } }`, map[string]any{"k": "SECRET"}),
			status: invalid, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "expiry that is no time", body: gqlBody(withExpiry, ownerVars(map[string]any{"e": "tomorrow"})), status: ok, code: "BAD_USER_INPUT", field: "expiresAt"},
		{name: "expiry given as a number", body: gqlBodyRaw(withExpiry, `{"tm": "`+tm+`", "e": 1893456000}`), status: ok, code: "BAD_USER_INPUT", field: "expiresAt"},
		{name: "expiry literal that is no time", body: gqlBody(`mutation($tm: ID) { createMemory(input: {scope: {teammateId: $tm}, content: "Likes tea", expiresAt: "soon"}) { item { id } } }`, ownerVars(nil)),
			status: ok, code: "BAD_USER_INPUT", field: "expiresAt"},
		{name: "expiry in the past", body: gqlBody(withExpiry, ownerVars(map[string]any{"e": "2001-01-01T00:00:00Z"})), status: ok, code: "BAD_USER_INPUT", field: "expiresAt"},
		{name: "page size 0", body: gqlBody(`{ memoryItems(scope: {}, first: 0) { totalCount } }`, nil), status: ok, code: "BAD_USER_INPUT", field: "first"},
		{name: "page size 101", body: gqlBody(`{ memoryItems(scope: {}, first: 101) { totalCount } }`, nil), status: ok, code: "BAD_USER_INPUT", field: "first"},
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := db.take(t)
			want := tc.status
			if tc.status == invalid {
				want = http.StatusOK
				req := tc.request(t, s)
				req.Header.Set("Accept", "application/graphql-response+json")
				res := s.DoRequest(t, req)
				require.Equal(t, http.StatusBadRequest, res.Status, "application/graphql-response+json: errors %+v", res.Errors)
				require.Equal(t, tc.code, res.Code())
			}
			res := s.DoRequest(t, tc.request(t, s))
			require.Equal(t, want, res.Status, "errors %+v", res.Errors)
			require.NotEmpty(t, res.Errors)
			for _, e := range res.Errors {
				require.Equal(t, tc.code, e.Extensions["code"], "error %+v", e)
				require.NotEmpty(t, e.Message)
				require.Less(t, len(e.Message), 1000, "the error quotes the request")
			}
			if tc.field != "" {
				require.Equal(t, tc.field, res.Errors[0].Extensions["field"], "error %+v", res.Errors[0])
			}
			if tc.message != "" {
				require.Contains(t, res.Errors[0].Message, tc.message)
			}
			require.Equal(t, before, db.take(t), "a refused request changed the database")
		})
	}
	t.Logf("%d bad inputs refused", len(cases))

	// The server is still healthy after all of them.
	requireHealthy(t, s)
	res, body := s.Fetch(t, "/readyz", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	var data struct {
		MemoryItems struct {
			Edges []struct{ Node struct{ ID, Content string } }
		}
	}
	s.Must(t, userToken, `query($tm: ID) { memoryItems(scope: {teammateId: $tm}) { edges { node { id content } } } }`,
		map[string]any{"tm": tm}, &data)
	require.Len(t, data.MemoryItems.Edges, 1)
	require.Equal(t, item, data.MemoryItems.Edges[0].Node.ID)
	require.Equal(t, "Likes tea", data.MemoryItems.Edges[0].Node.Content)
	require.Equal(t, []string{"Ada"}, teammateNames(t, s))

	// The limits leave room for GraphiQL's introspection, the largest document a client sends.
	var schema struct {
		Schema struct{ Types []struct{ Name string } } `json:"__schema"`
	}
	s.Must(t, userToken, graphiQLIntrospection, nil, &schema)
	require.NotEmpty(t, schema.Schema.Types)
}

// graphiQLIntrospection is graphql-js 16's getIntrospectionQuery with the options GraphiQL passes
// (inputValueDeprecation, schemaDescription) and specifiedByUrl and directiveIsRepeatable besides.
const graphiQLIntrospection = `query IntrospectionQuery { __schema { description queryType { name kind } mutationType { name kind } subscriptionType { name kind } types { ...FullType } directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } } } } fragment FullType on __Type { kind name description specifiedByURL fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason } inputFields(includeDeprecated: true) { ...InputValue } interfaces { ...TypeRef } enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } } fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason } fragment TypeRef on __Type { kind name ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind } } } } } } } } } }`

// request builds the case's HTTP request.
func (tc badInput) request(t *testing.T, s *apitest.API) *http.Request {
	t.Helper()
	var req *http.Request
	var err error
	if tc.get != "" {
		req, err = http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/graphql?"+url.Values{"query": {tc.get}}.Encode(), nil)
	} else {
		req, err = http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/graphql", bytes.NewReader(tc.body))
	}
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	token := tc.token
	if token == "" {
		token = userToken
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if tc.chunked {
		req.ContentLength = -1 // unknown: the client streams the body chunked
	}
	return req
}

// TestStrictVariablesOfACachedDocument: a document gqlgen has parsed, validated and cached is still
// held to the strict coercion of variables (strictVariables reads it from that cache) — the same
// mutation, answered once with good variables, refuses a revision sent as digits or as a fraction
// the next time, and writes nothing.
func TestStrictVariablesOfACachedDocument(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	tm := s.CreateTeammate(t, "Ada")
	var created struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	s.Must(t, userToken, createMemoryMutation, map[string]any{"tm": tm, "content": "Likes tea"}, &created)
	item := created.CreateMemory.Item.ID
	const edit = `mutation($id: ID!, $b: Int!, $c: String!) { editMemory(input: {id: $id, baseRevision: $b, content: $c}) { item { revision } } }`
	var edited struct {
		EditMemory struct{ Item struct{ Revision int } }
	}
	s.Must(t, userToken, edit, map[string]any{"id": item, "b": 1, "c": "Likes green tea"}, &edited)
	require.Equal(t, 2, edited.EditMemory.Item.Revision)
	for _, bad := range []struct {
		vars    map[string]any
		message string
	}{
		{map[string]any{"id": item, "b": "2", "c": "Likes black tea"}, "cannot use a string as Int"},
		{map[string]any{"id": item, "b": 2.5, "c": "Likes black tea"}, "cannot use 2.5 as Int"},
		{map[string]any{"id": item, "b": 2, "c": 7}, "cannot use 7 as String"},
	} {
		res := s.Do(t, userToken, edit, bad.vars)
		require.Equal(t, "GRAPHQL_VALIDATION_FAILED", res.Code(), "%v", bad.vars)
		require.Contains(t, res.Errors[0].Message, bad.message)
	}
	var read struct{ MemoryItem struct{ Revision int } }
	s.Must(t, userToken, `query($id: ID!) { memoryItem(id: $id) { revision } }`, map[string]any{"id": item}, &read)
	require.Equal(t, 2, read.MemoryItem.Revision)
}

package server

import (
	"context"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/open-bot/memory/graph/generated"
)

// The real schema can't nest deeper than about five levels (memoryItem { revisions { edges { node {
// revision } } } }), far below MaxDepth, so no valid request reaches the depth limit through HTTP.
// These tests run it on a recursive schema of their own, with fragments resolved by the validator
// as gqlgen resolves them.
var recursiveSchema = gqlparser.MustLoadSchema(&ast.Source{Name: "recursive.graphqls", Input: `
	type Query { node: Node }
	type Node { id: ID, child: Node, children: [Node] }
`})

// nested returns a query whose selections nest depth levels deep (depth >= 2): node, then child
// fields, then id.
func nested(depth int) string {
	return "{ node {" + chain(depth-2) + " } }"
}

// chain is n nested child selections around id.
func chain(n int) string {
	return strings.Repeat(" child {", n) + " id" + strings.Repeat(" }", n)
}

func TestSelectionDepth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		query string
		want  int
	}{
		{"leaf", `{ node { id } }`, 2},
		{"nested", nested(6), 6},
		{"widest branch wins", `{ node { id child { id } children { child { child { id } } } } }`, 5},
		{"inline fragment adds nothing", `{ node { ... on Node { child { id } } } }`, 3},
		{"fragment spread counts its fields", `{ node { ...deep } } fragment deep on Node { child { child { id } } }`, 4},
		{"fragment inside fragment", `{ node { ...a } } fragment a on Node { child { ...b } } fragment b on Node { child { id } }`, 4},
		{"introspection not counted", `{ __schema { types { fields { type { ofType { name } } } } } node { id } }`, 2},
		{"typename not counted", `{ node { __typename } }`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, errs := gqlparser.LoadQueryWithRules(recursiveSchema, tc.query, nil)
			require.Empty(t, errs)
			require.Equal(t, tc.want, selectionDepth(doc.Operations[0].SelectionSet, 0, 100))
		})
	}
}

// The walk stops once it is past the limit, so a hostile document costs no more than the limit.
func TestSelectionDepthStopsPastTheLimit(t *testing.T) {
	t.Parallel()
	doc, err := parser.ParseQuery(&ast.Source{Input: nested(900)}) // the parser stops at 1000
	require.NoError(t, err)
	require.Equal(t, MaxDepth+1, selectionDepth(doc.Operations[0].SelectionSet, 0, MaxDepth))
}

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	limit := depthLimit{max: MaxDepth}
	for _, tc := range []struct {
		name  string
		query string
		code  string
	}{
		{"at the limit", nested(MaxDepth), ""},
		{"one past the limit", nested(MaxDepth + 1), "DEPTH_LIMIT_EXCEEDED"},
		{"past the limit through fragments", `{ node { ...a } } fragment a on Node { child { ...b } } ` +
			`fragment b on Node { child {` + chain(MaxDepth-3) + ` } }`, "DEPTH_LIMIT_EXCEEDED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, errs := gqlparser.LoadQueryWithRules(recursiveSchema, tc.query, nil)
			require.Empty(t, errs)
			gerr := limit.MutateOperationContext(context.Background(), &graphql.OperationContext{Operation: doc.Operations[0]})
			if tc.code == "" {
				require.Nil(t, gerr)
				return
			}
			require.NotNil(t, gerr)
			require.Equal(t, tc.code, gerr.Extensions["code"])
			require.Contains(t, gerr.Message, "limit")
		})
	}
	require.Nil(t, limit.MutateOperationContext(context.Background(), &graphql.OperationContext{}), "no operation")
}

// The limit is out of reach of the real schema today; when a change makes the schema recursive
// (a teammate's items, say), this fails as a reminder to test the limit over HTTP instead.
func TestSchemaCannotReachMaxDepth(t *testing.T) {
	t.Parallel()
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	deepest := typeDepth(schema, schema.Query, map[string]bool{})
	for _, root := range []*ast.Definition{schema.Mutation, schema.Subscription} {
		deepest = max(deepest, typeDepth(schema, root, map[string]bool{}))
	}
	t.Logf("the deepest selection the schema allows: %d levels", deepest)
	require.Greater(t, deepest, 3)
	require.Less(t, deepest, MaxDepth, "the schema now nests as deep as the depth limit: test the limit through HTTP")
}

// typeDepth is the deepest selection def allows, or a large number when a type recurs.
func typeDepth(schema *ast.Schema, def *ast.Definition, seen map[string]bool) int {
	if def == nil || (def.Kind != ast.Object && def.Kind != ast.Interface) {
		return 0
	}
	if seen[def.Name] {
		return 1 << 20
	}
	seen[def.Name] = true
	defer delete(seen, def.Name)
	deepest := 0
	for _, f := range def.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		deepest = max(deepest, 1+typeDepth(schema, schema.Types[f.Type.Name()], seen))
	}
	return deepest
}

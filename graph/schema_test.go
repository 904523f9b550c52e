package graph_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// loadSchema parses every graph/*.graphqls, as gqlgen.yml has gqlgen do.
func loadSchema(t *testing.T) *ast.Schema {
	t.Helper()
	files, err := filepath.Glob("*.graphqls")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var sources []*ast.Source
	for _, name := range files {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		sources = append(sources, &ast.Source{Name: name, Input: string(src)})
	}
	schema, gerr := gqlparser.LoadSchema(sources...)
	require.Nil(t, gerr)
	return schema
}

// credentials are the values @auth(accept:) may list (RULES §4).
var credentials = []string{"USER", "WORKER", "RUN"}

// Every operation must say which credentials may call it: a root field without @auth would be open to
// anyone the transport lets through, so a new operation without an access rule fails here.
func TestEveryOperationDeclaresAuth(t *testing.T) {
	t.Parallel()
	schema := loadSchema(t)

	roots := map[string]*ast.Definition{"Query": schema.Query, "Mutation": schema.Mutation, "Subscription": schema.Subscription}
	checked := 0
	for name, root := range roots {
		if root == nil {
			continue
		}
		for _, field := range root.Fields {
			if strings.HasPrefix(field.Name, "__") {
				continue // introspection, added by the parser
			}
			checked++
			t.Run(name+"."+field.Name, func(t *testing.T) {
				t.Parallel()
				auth := field.Directives.ForName("auth")
				require.NotNil(t, auth, "%s.%s has no @auth(accept: [...]): say which credentials may call it", name, field.Name)
				accept := auth.Arguments.ForName("accept")
				require.NotNil(t, accept)
				require.Equal(t, ast.ListValue, accept.Value.Kind)
				require.NotEmpty(t, accept.Value.Children, "%s.%s accepts no credential", name, field.Name)
				for _, c := range accept.Value.Children {
					require.Contains(t, credentials, c.Value.Raw)
				}
			})
		}
	}
	require.NotNil(t, schema.Query)
	require.NotNil(t, schema.Mutation)
	require.NotNil(t, schema.Subscription)
	require.Positive(t, checked)
}

// The user's mutations (RULES §5) accept the user only: the worker and runs have their own operations.
func TestUserMutationsAcceptOnlyTheUser(t *testing.T) {
	t.Parallel()
	schema := loadSchema(t)
	userMutations := []string{
		"createTeammate", "createMemory", "editMemory", "restoreMemoryRevision", "undoMemoryEdit",
		"forgetMemory", "confirmCandidate", "dismissCandidate", "rateRun", "keepLesson",
		"retryRunWithNote", "cancelRun",
	}
	for _, field := range schema.Mutation.Fields {
		if !slices.Contains(userMutations, field.Name) {
			continue
		}
		auth := field.Directives.ForName("auth")
		require.NotNil(t, auth, field.Name)
		var accepted []string
		for _, c := range auth.Arguments.ForName("accept").Value.Children {
			accepted = append(accepted, c.Value.Raw)
		}
		require.Equal(t, []string{"USER"}, accepted, "%s", field.Name)
	}
}

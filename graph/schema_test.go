package graph_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

// Every element a client sees — type, field, argument, input field, enum value, directive — says what
// it is: a description is the schema's documentation, and GraphiQL shows nothing
// else. Root fields must also say which credentials may call them, in words as well as in @auth.
func TestEverythingIsDescribed(t *testing.T) {
	t.Parallel()
	schema := loadSchema(t)
	var missing []string
	need := func(what, description string) {
		if strings.TrimSpace(description) == "" {
			missing = append(missing, what)
		}
	}
	for name, def := range schema.Types {
		if def.BuiltIn || strings.HasPrefix(name, "__") {
			continue
		}
		if name != "Query" && name != "Mutation" && name != "Subscription" {
			need("type "+name, def.Description)
		}
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			need(name+"."+f.Name, f.Description)
			for _, a := range f.Arguments {
				need(name+"."+f.Name+"("+a.Name+")", a.Description)
			}
		}
		for _, v := range def.EnumValues {
			need(name+"."+v.Name, v.Description)
		}
	}
	for name, d := range schema.Directives {
		if d.Position == nil || d.Position.Src.BuiltIn {
			continue
		}
		need("@"+name, d.Description)
		for _, a := range d.Arguments {
			need("@"+name+"("+a.Name+")", a.Description)
		}
	}
	slices.Sort(missing)
	require.Empty(t, missing, "%d schema elements have no description", len(missing))
}

// credentialWords are how a root field's description names the credentials of RULES §4.
var credentialWords = map[string]string{"USER": "user", "WORKER": "worker", "RUN": "run"}

// credentialsLine is the sentence that ends every root field's description.
var credentialsLine = regexp.MustCompile(`(?m)Credentials: ([a-z, ]+)\.$`)

// Every root field's description says who may call it — "Credentials: user, worker." — and says
// exactly what its @auth accepts, so the documentation can't drift from the access rule (RULES §4).
func TestOperationsNameTheirCredentials(t *testing.T) {
	t.Parallel()
	schema := loadSchema(t)
	var wrong []string
	for _, root := range []*ast.Definition{schema.Query, schema.Mutation, schema.Subscription} {
		for _, f := range root.Fields {
			auth := f.Directives.ForName("auth")
			if auth == nil || strings.HasPrefix(f.Name, "__") {
				continue // TestEveryOperationDeclaresAuth fails on a missing @auth
			}
			var want []string
			for _, c := range auth.Arguments.ForName("accept").Value.Children {
				want = append(want, credentialWords[c.Value.Raw])
			}
			m := credentialsLine.FindAllStringSubmatch(f.Description, -1)
			if len(m) != 1 || m[0][1] != strings.Join(want, ", ") {
				wrong = append(wrong, fmt.Sprintf("%s.%s: want the line \"Credentials: %s.\"", root.Name, f.Name, strings.Join(want, ", ")))
			}
		}
	}
	slices.Sort(wrong)
	require.Empty(t, wrong)
}

// Each mutation returns a payload of its own name (createTeammate → CreateTeammatePayload), or one
// of the shared payloads named for what they hold, so that a field added for one mutation can't
// appear on another's result.
func TestMutationsReturnConsistentPayloads(t *testing.T) {
	t.Parallel()
	schema := loadSchema(t)
	shared := []string{"MemoryItemPayload", "MemoryItemsPayload", "ToolResult", "Run"}
	for _, f := range schema.Mutation.Fields {
		typ := f.Type.Name()
		if slices.Contains(shared, typ) {
			continue
		}
		own := strings.ToUpper(f.Name[:1]) + f.Name[1:] + "Payload"
		if typ != own && strings.HasSuffix(typ, "Payload") {
			t.Errorf("%s returns %s: want %s or a shared payload", f.Name, typ, own)
		}
	}
}

package resolvers_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/complexity"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/open-bot/memory/graph/generated"
	"github.com/open-bot/memory/graph/resolvers"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/server"
)

// webAppDocument is every operation and fragment the web app sends: the graphql(`…`) blocks of
// frontend/src, where each sits beside the component that uses it (src/gql is generated from them).
func webAppDocument(t *testing.T) string {
	t.Helper()
	block := regexp.MustCompile("(?s)graphql\\(`(.*?)`\\)")
	var parts []string
	err := filepath.WalkDir("../../frontend/src", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == "gql" {
				return filepath.SkipDir
			}
			return err
		}
		if !strings.HasSuffix(path, ".ts") && !strings.HasSuffix(path, ".tsx") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, b := range block.FindAllStringSubmatch(string(src), -1) {
			parts = append(parts, b[1])
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, parts)
	// urql adds __typename to every selection set it sends; so does this document, so that what is
	// costed is what arrives.
	doc, err := parser.ParseQuery(&ast.Source{Input: strings.Join(parts, "\n")})
	require.NoError(t, err)
	spread := map[string]bool{}
	var addTypename func(ast.SelectionSet) ast.SelectionSet
	addTypename = func(set ast.SelectionSet) ast.SelectionSet {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if len(s.SelectionSet) > 0 {
					s.SelectionSet = addTypename(s.SelectionSet)
				}
			case *ast.InlineFragment:
				s.SelectionSet = addTypename(s.SelectionSet)
			case *ast.FragmentSpread:
				spread[s.Name] = true
			}
		}
		return append(set, &ast.Field{Alias: "__typename", Name: "__typename"})
	}
	for _, op := range doc.Operations {
		for _, sel := range op.SelectionSet {
			if f, ok := sel.(*ast.Field); ok && len(f.SelectionSet) > 0 {
				f.SelectionSet = addTypename(f.SelectionSet)
			}
		}
	}
	for _, f := range doc.Fragments {
		f.SelectionSet = addTypename(f.SelectionSet)
	}
	// A fragment no operation spreads is the web app cache's own (it writes with it) and never sent.
	doc.Fragments = slices.DeleteFunc(doc.Fragments, func(f *ast.FragmentDefinition) bool { return !spread[f.Name] })
	var b strings.Builder
	formatter.NewFormatter(&b).FormatQueryDocument(doc)
	return b.String()
}

// complexityOf is the complexity gqlgen's limit computes for op with vars.
func complexityOf(es *struct{ generated.Config }, op *ast.OperationDefinition, vars map[string]any) int {
	return complexity.Calculate(context.Background(), generated.NewExecutableSchema(es.Config), op, vars)
}

// TestCostsReflectDatabaseWork: the fields that make the database rank, search or
// count cost that work, so the complexity limit bounds how much of it one operation can ask for —
// and every operation the web app sends still fits, at the largest page it may ask for.
func TestCostsReflectDatabaseWork(t *testing.T) {
	t.Parallel()
	cfg := &struct{ generated.Config }{(&resolvers.Resolver{}).Config()}
	schema := generated.NewExecutableSchema(cfg.Config).Schema()

	doc, gerr := gqlparser.LoadQueryWithRules(schema, webAppDocument(t), nil)
	require.Nil(t, gerr, "%v", gerr)
	require.NotEmpty(t, doc.Operations)
	for _, op := range doc.Operations {
		vars := map[string]any{}
		for _, v := range op.VariableDefinitions {
			switch v.Type.Name() {
			case "ID":
				vars[v.Variable] = "00000000-0000-0000-0000-000000000001"
			case "String":
				vars[v.Variable] = "green tea"
			case "Int":
				vars[v.Variable] = memory.MaxPageSize
			case "ScopeInput":
				vars[v.Variable] = map[string]any{"teammateId": nil}
			}
		}
		c := complexityOf(cfg, op, vars)
		assert.LessOrEqual(t, c, server.MaxComplexity, "the web app's %s", op.Name)
	}

	heavy := func(field string, n int) *ast.OperationDefinition {
		var b strings.Builder
		b.WriteString("query {")
		for i := range n {
			fmt.Fprintf(&b, " a%d: %s", i, field)
		}
		b.WriteString(" }")
		d, gerr := gqlparser.LoadQueryWithRules(schema, b.String(), nil)
		require.Nil(t, gerr, b.String())
		return d.Operations[0]
	}
	const tm = `"00000000-0000-0000-0000-000000000001"`
	recall := `recallPreview(teammateId: ` + tm + `, query: "green tea") { text }`
	assert.Greater(t, complexityOf(cfg, heavy(recall, 120), nil), server.MaxComplexity, "120 aliased recallPreview")
	assert.LessOrEqual(t, complexityOf(cfg, heavy(recall, 9), nil), server.MaxComplexity)
	assert.Greater(t, complexityOf(cfg, heavy(recall, 11), nil), server.MaxComplexity, "at most 10 recalls an operation")
	search := `toolSearchMemory(query: "tea") { id }`
	assert.Greater(t, complexityOf(cfg, heavy(search, 21), nil), server.MaxComplexity, "at most 20 searches an operation")
	assert.Greater(t, complexityOf(cfg, heavy(`aiStatus { embedded }`, 21), nil), server.MaxComplexity, "aiStatus counts every active item")
	search = `memoryItems(scope: {teammateId: null}, search: "tea", first: 1) { edges { cursor } }`
	assert.Greater(t, complexityOf(cfg, heavy(search, 21), nil), server.MaxComplexity, "memoryItems with a search")
	assert.LessOrEqual(t, complexityOf(cfg, heavy(`memoryItems(scope: {teammateId: null}, first: 1) { edges { cursor } }`, 21), nil),
		server.MaxComplexity, "a page without a search is no search")
	history := `toolSearchHistory(query: "tea") { id }`
	assert.Greater(t, complexityOf(cfg, heavy(history, 21), nil), server.MaxComplexity)
	export := `exportMemory(scope: {teammateId: null}, includeRevisions: true)`
	assert.LessOrEqual(t, complexityOf(cfg, heavy(export, 1), nil), server.MaxComplexity, "an export")
	assert.Greater(t, complexityOf(cfg, heavy(export, 2), nil), server.MaxComplexity, "at most one export an operation")
	assert.True(t, resolvers.HeavyField("Query", "exportMemory"), "exports share the process's heavy slots")
}

package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// Request limits. They are generous for the web app and GraphiQL and small enough that no single
// request can make the server do unbounded work.
const (
	// MaxBodyBytes bounds a /graphql request body (and a websocket message).
	MaxBodyBytes = 1 << 20
	// MaxComplexity is gqlgen's fixed complexity limit (each field costs 1, lists multiply by first).
	MaxComplexity = 5000
	// MaxDepth bounds how deeply selections nest (introspection fields are not counted).
	MaxDepth = 12
	// MaxSelections bounds the selections a document writes out, and the fields any of its
	// operations or fragments expands to with every fragment spread in place. It is checked before
	// gqlgen validates the document: the overlapping-fields check is quadratic in fields that share
	// a name, and the complexity and depth walks follow every spread, so without it a few kilobytes
	// (one field repeated a few thousand times, or forty fragments that each spread the previous
	// one twice) keep a CPU busy for minutes. GraphiQL's introspection query expands to about 200.
	MaxSelections = 500
)

// selectionLimit rejects a document with more than max selections (see MaxSelections) before gqlgen
// parses and validates it. A document in gqlgen's query cache (docs) has passed it already — gqlgen
// caches a document only after every parameter mutator let it through — so it isn't parsed again.
type selectionLimit struct {
	max  int
	docs graphql.Cache[*ast.QueryDocument]
}

var (
	_ graphql.HandlerExtension          = selectionLimit{}
	_ graphql.OperationParameterMutator = selectionLimit{}
)

func (selectionLimit) ExtensionName() string                   { return "SelectionLimit" }
func (selectionLimit) Validate(graphql.ExecutableSchema) error { return nil }
func (l selectionLimit) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if _, ok := l.docs.Get(ctx, p.Query); ok {
		return nil
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: p.Query})
	if err != nil {
		return nil // gqlgen parses it again and reports the syntax error itself
	}
	if documentSelections(doc, l.max) > l.max {
		err := gqlerror.Errorf("the document has more than %d selections, counting fragments where they are spread", l.max)
		err.Extensions = map[string]any{"code": "COMPLEXITY_LIMIT_EXCEEDED"}
		return err
	}
	return nil
}

// documentSelections returns the larger of the selections doc writes out and the most fields one of
// its operations or fragments expands to, stopping at limit+1. Each fragment is expanded once; a
// spread inside its own expansion (a cycle, which validation refuses) counts nothing.
func documentSelections(doc *ast.QueryDocument, limit int) int {
	written := 0
	var write func(ast.SelectionSet)
	write = func(set ast.SelectionSet) {
		for _, sel := range set {
			written++
			switch s := sel.(type) {
			case *ast.Field:
				write(s.SelectionSet)
			case *ast.InlineFragment:
				write(s.SelectionSet)
			}
		}
	}
	for _, op := range doc.Operations {
		write(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		write(f.SelectionSet)
	}
	if written > limit {
		return limit + 1
	}

	expanded := map[string]int{}
	expanding := map[string]bool{}
	var expand func(ast.SelectionSet) int
	fragment := func(name string) int {
		if n, ok := expanded[name]; ok {
			return n
		}
		def := doc.Fragments.ForName(name)
		if def == nil || expanding[name] {
			return 0
		}
		expanding[name] = true
		n := expand(def.SelectionSet)
		delete(expanding, name)
		expanded[name] = n
		return n
	}
	expand = func(set ast.SelectionSet) int {
		n := 0
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				n += 1 + expand(s.SelectionSet)
			case *ast.InlineFragment:
				n += expand(s.SelectionSet)
			case *ast.FragmentSpread:
				n += fragment(s.Name)
			}
			if n > limit {
				return limit + 1
			}
		}
		return n
	}
	most := written
	for _, op := range doc.Operations {
		most = max(most, expand(op.SelectionSet))
	}
	for _, f := range doc.Fragments {
		most = max(most, fragment(f.Name))
	}
	return most
}

// depthLimit rejects operations whose selections nest deeper than max.
type depthLimit struct{ max int }

var (
	_ graphql.HandlerExtension        = depthLimit{}
	_ graphql.OperationContextMutator = depthLimit{}
)

func (depthLimit) ExtensionName() string                   { return "DepthLimit" }
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }
func (d depthLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, 0, d.max); depth > d.max {
		err := gqlerror.Errorf("operation nests %d levels deep; the limit is %d", depth, d.max)
		err.Extensions = map[string]any{"code": "DEPTH_LIMIT_EXCEEDED"}
		return err
	}
	return nil
}

// selectionDepth returns the deepest field nesting under set, stopping once it passes limit (so a
// hostile document can't make this walk long either).
func selectionDepth(set ast.SelectionSet, depth, limit int) int {
	if depth > limit {
		return depth
	}
	deepest := depth
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(s.Name, "__") {
				continue
			}
			d = selectionDepth(s.SelectionSet, depth+1, limit)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, depth, limit)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				d = selectionDepth(s.Definition.SelectionSet, depth, limit)
			}
		default:
			panic(fmt.Sprintf("unexpected selection %T", sel))
		}
		deepest = max(deepest, d)
	}
	return deepest
}

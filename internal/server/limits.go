package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
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
)

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

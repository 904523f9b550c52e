package server

import (
	"context"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/open-bot/memory/internal/metrics"
)

// routeClass is the route label of a request's path: one of a fixed set, whatever the path.
func routeClass(path string) string {
	switch path {
	case "/graphql":
		return "graphql"
	case "/mcp":
		return "mcp"
	case "/export":
		return "export"
	case "/healthz":
		return "healthz"
	case "/readyz":
		return "readyz"
	case "/login":
		return "login"
	case "/logout":
		return "logout"
	}
	if path == "/graphiql" || strings.HasPrefix(path, "/graphiql/") {
		return "graphiql"
	}
	if strings.HasPrefix(path, "/assets/") {
		return "assets"
	}
	return "app"
}

// graphqlMetrics is the gqlgen extension that times each query and mutation (subscriptions run for
// as long as their client wants, and are counted by the websocket gauges instead). The operation
// label is the root field the operation asks for, when it asks for exactly one that the schema
// has (aliases and __typename aside): "multiple" when it asks for several, metrics.Other for
// anything else — never a name the client chose, so a client can neither multiply the series nor
// put text into them. The code is the first error's extensions.code (after the error presenter),
// or OK.
type graphqlMetrics struct {
	m *metrics.Metrics
	// fields are the root fields of the schema's Query, Mutation and Subscription types.
	fields map[string]bool
}

var (
	_ graphql.HandlerExtension    = graphqlMetrics{}
	_ graphql.ResponseInterceptor = graphqlMetrics{}
)

func newGraphQLMetrics(m *metrics.Metrics, schema *ast.Schema) graphqlMetrics {
	g := graphqlMetrics{m: m, fields: map[string]bool{}}
	for _, def := range []*ast.Definition{schema.Query, schema.Mutation, schema.Subscription} {
		if def == nil {
			continue
		}
		for _, f := range def.Fields {
			if !strings.HasPrefix(f.Name, "__") {
				g.fields[f.Name] = true
			}
		}
	}
	return g
}

func (graphqlMetrics) ExtensionName() string                          { return "GraphQLMetrics" }
func (graphqlMetrics) Validate(schema graphql.ExecutableSchema) error { return nil }

func (g graphqlMetrics) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if g.m == nil || !graphql.HasOperationContext(ctx) {
		return next(ctx)
	}
	rc := graphql.GetOperationContext(ctx)
	if rc.Operation != nil && rc.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	start := rc.Stats.OperationStart
	if start.IsZero() {
		start = time.Now()
	}
	resp := next(ctx)
	code := ""
	if resp != nil && len(resp.Errors) > 0 {
		code = "INTERNAL"
		if c, ok := resp.Errors[0].Extensions["code"].(string); ok {
			code = c
		}
	}
	g.m.GraphQLRequest(g.operation(rc.Operation), code, time.Since(start))
	return resp
}

// operation is the operation label of op (see graphqlMetrics).
func (g graphqlMetrics) operation(op *ast.OperationDefinition) string {
	if op == nil {
		return metrics.Other
	}
	name := ""
	for _, sel := range op.SelectionSet {
		f, ok := sel.(*ast.Field)
		switch {
		case !ok:
			return metrics.Other // a fragment at the root: not worth resolving for a label
		case f.Name == "__typename":
		case name != "" && f.Name != name:
			return "multiple"
		default:
			name = f.Name
		}
	}
	if !g.fields[name] {
		return metrics.Other
	}
	return name
}

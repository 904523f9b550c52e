package server

import (
	"errors"
	"net/http"
	"unicode/utf8"

	"github.com/open-bot/memory/internal/mcpserver"
)

// mcp serves the teammates' memory tools over MCP's Streamable HTTP at /mcp (RULES §5), for the run
// whose token each request carries. The credential is found by the same middleware as /graphql's;
// mcpserver.Handler turns away everything but a running run's token. Each request is one call (a
// batch is refused), which takes the heavy slots its GraphQL twin would (operationBudget.admit), and
// its answer is at most mcpserver.DefaultMaxResponseBytes.
func (s *server) mcp() http.Handler {
	h := mcpserver.Handler(mcpserver.New(s.Memory, s.Log, s.Metrics), mcpserver.HTTPOptions{
		MaxBodyBytes: MaxBodyBytes, CheckBody: checkMCPBody,
		// hostGuard checks every request's Host, allowing configured public names too.
		HostChecked: true,
		Admit:       s.budget.admit,
	})
	return s.Auth.Middleware(h)
}

// checkMCPBody refuses a body that isn't valid UTF-8 or escapes a lone surrogate, as /graphql does:
// a JSON decoder would quietly turn either into U+FFFD, which then passes every text check (RULES
// §6).
func checkMCPBody(body []byte) error {
	if !utf8.Valid(body) {
		return errors.New("the request body is not valid UTF-8")
	}
	return checkSurrogates(body)
}

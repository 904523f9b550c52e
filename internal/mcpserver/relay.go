package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrRunEnded is Relay's answer when the API refuses the run token at the start: the run has
// completed, failed, been interrupted or cancelled (or idled out), or the token is wrong.
var ErrRunEnded = errors.New("the API refused the run token (401): the run has ended, or the token is not a run's")

// RelayOptions configure Relay.
type RelayOptions struct {
	// Endpoint is the API's MCP endpoint, like http://127.0.0.1:8080/mcp.
	Endpoint string
	// Token is the run token (startRun's runToken).
	Token string
	// HTTPClient makes the requests; nil means a client with a 60 s timeout.
	HTTPClient *http.Client
}

// Relay serves the API's MCP tools and resources for one run over transport (a LineTransport on
// stdin and stdout, for `worker mcp`: a line that isn't one JSON-RPC message is answered with an
// error and the session goes on), relaying every call to the API's Streamable HTTP endpoint with the run token as
// its Bearer credential. The API does all the work — credential, scope, the rules of each tool and
// the generation check (G5) — so the tools behave exactly as over HTTP, and what they are (names,
// descriptions, schemas) is read from the API when Relay starts. It returns when the client
// disconnects or ctx ends. It fails at once (ErrRunEnded) when the API refuses the token.
//
// Once the run ends, the API refuses its token, and each call answers the tool error
// UNAUTHENTICATED.
func Relay(ctx context.Context, o RelayOptions, transport mcp.Transport) error {
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	rt := &bearerTransport{token: o.Token, next: hc.Transport}
	if rt.next == nil {
		rt.next = http.DefaultTransport
	}
	withBearer := *hc
	withBearer.Transport = rt

	client := mcp.NewClient(&mcp.Implementation{Name: "memory-worker-relay", Version: version}, nil)
	upstream, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: o.Endpoint, HTTPClient: &withBearer,
		// The API is stateless: it has no stream to offer, and nothing to resume.
		DisableStandaloneSSE: true, MaxRetries: -1,
	}, nil)
	if err != nil {
		if rt.refused.Load() {
			return ErrRunEnded
		}
		return fmt.Errorf("connect to the API's MCP endpoint %s: %w", o.Endpoint, err)
	}
	defer upstream.Close()

	init := upstream.InitializeResult()
	s := mcp.NewServer(&mcp.Implementation{Name: init.ServerInfo.Name, Title: init.ServerInfo.Title, Version: init.ServerInfo.Version},
		&mcp.ServerOptions{Instructions: init.Instructions, Capabilities: &mcp.ServerCapabilities{}})
	failed := func(err error) string {
		var answer *jsonrpc.Error
		switch {
		case rt.refused.Load():
			return msgUnauthenticated
		case errors.As(err, &answer):
			return answer.Message // the API refused this call alone, saying why (see refuse)
		case errors.Is(err, context.Canceled):
			return "the call was cancelled"
		}
		return "UNAVAILABLE: the memory API can't be reached right now; try again shortly."
	}
	for tool, err := range upstream.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("list the API's tools: %w", err)
		}
		s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := upstream.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
			if err != nil {
				res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: failed(err)}}}
			}
			return res, nil
		})
	}
	for resource, err := range upstream.Resources(ctx, nil) {
		if err != nil {
			return fmt.Errorf("list the API's resources: %w", err)
		}
		s.AddResource(resource, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			res, err := upstream.ReadResource(ctx, &mcp.ReadResourceParams{URI: req.Params.URI})
			var answer *jsonrpc.Error
			switch {
			case err == nil:
				return res, nil
			case rt.refused.Load():
				//lint:ignore ST1005 the model reads this as it is: a sentence, like every tool error's text.
				return nil, errors.New(msgUnauthenticated) //nolint:staticcheck // a sentence the model reads as it is
			case errors.As(err, &answer):
				return nil, answer // the API's error as it gave it (G5's message), not wrapped in the call's
			}
			return nil, err
		})
	}
	return s.Run(ctx, transport)
}

// bearerTransport sends the run token with every request and notes when the API refused it.
type bearerTransport struct {
	token   string
	next    http.RoundTripper
	refused atomic.Bool
}

func (b *bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := b.next.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		b.refused.Store(true)
	}
	return resp, err
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/open-bot/memory/internal/mcpserver"
)

// runTokenVariable names the environment variable `worker mcp` reads the run token from: a token on
// the command line would show in every process listing.
const runTokenVariable = "MEMORY_RUN_TOKEN"

// mcpCommand serves one run's memory tools over stdio for an agent that launches its tools as
// processes: it relays every call to the API's /mcp with the run token (mcpserver.Relay), so the
// tools, their rules and the generation check (G5) are the API's own. Nothing but MCP is written
// to stdout; problems go to stderr.
func mcpCommand(args []string, stderr io.Writer) error {
	flags := flag.NewFlagSet("mcp", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s=<run token> worker mcp\n\n"+
			"Serves the run's memory tools over stdio (MCP), relayed to $MEMORY_API_URL/mcp (default\n"+
			"http://127.0.0.1:8080/mcp). The token is startRun's runToken; it works until the run ends.\n", runTokenVariable)
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		flags.Usage()
		return errors.New("mcp takes no arguments")
	}
	token := strings.TrimSpace(os.Getenv(runTokenVariable))
	if token == "" {
		return fmt.Errorf("mcp: set %s to the run's token (startRun's runToken)", runTokenVariable)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// LineTransport rather than the SDK's stdio transport: a bad line is answered with a JSON-RPC
	// error instead of ending the agent's tools for the rest of its run.
	err := mcpserver.Relay(ctx, mcpserver.RelayOptions{Endpoint: mcpEndpoint(), Token: token},
		&mcpserver.LineTransport{Reader: os.Stdin, Writer: os.Stdout})
	if errors.Is(err, context.Canceled) {
		return nil // Ctrl-C or SIGTERM: a clean stop
	}
	return err
}

// mcpEndpoint is the API's MCP endpoint, from MEMORY_API_URL.
func mcpEndpoint() string {
	return strings.TrimRight(envOr("MEMORY_API_URL", "http://127.0.0.1:8080"), "/") + "/mcp"
}

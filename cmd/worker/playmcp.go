package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// playMCP is the rest of `play -mcp`: the run is handed to an agent that calls the tools over MCP
// itself — the API's Streamable HTTP at /mcp with the run token as Bearer, or `worker mcp` over
// stdio with the token in MEMORY_RUN_TOKEN — so play reads no tool calls. It prints the handover,
// then either runs the agent (-agent) and completes the run with what the agent wrote, or reads
// `complete REPLY` from stdin. The API checks the generation in every tool call and in completeRun
// (G5), so an agent whose memory changed mid-turn is told so by its tool, and play reports the
// interruption when it completes.
func playMCP(ctx context.Context, c *apiClient, p playInput, runID, token, message, packet string, in io.Reader, out io.Writer) error {
	endpoint := mcpURL(c)
	fmt.Fprintf(out, "MCP for this run — valid until the run completes, fails, is interrupted, cancelled or idles out:\n"+
		"  Streamable HTTP: %s with the header \"Authorization: Bearer %s\"\n"+
		"  stdio:           MEMORY_API_URL=%s %s=%s worker mcp\n",
		endpoint, token, strings.TrimSuffix(endpoint, "/mcp"), runTokenVariable, token)
	if p.agent != "" {
		reply, err := runAgent(ctx, p.agent, endpoint, token, message, packet)
		if err != nil {
			return fmt.Errorf("%w; the run goes on until the user cancels it or it idles out", err)
		}
		return complete(ctx, c, runID, token, reply, out)
	}
	fmt.Fprintln(out, "waiting for `complete REPLY` on stdin (the tools are the agent's, over MCP)")
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" {
			continue
		}
		verb, rest, _ := strings.Cut(line, " ")
		if verb != "complete" {
			fmt.Fprintln(out, "with -mcp the agent calls the tools over MCP; only `complete REPLY` is read here")
			continue
		}
		return complete(ctx, c, runID, token, rest, out)
	}
	if err := lines.Err(); err != nil {
		return err
	}
	fmt.Fprintln(out, "input ended before `complete`: the run is still running until the user cancels it or it idles out")
	return nil
}

// mcpURL is the API's MCP endpoint next to the GraphQL one the client speaks to.
func mcpURL(c *apiClient) string { return strings.TrimSuffix(c.url, "/graphql") + "/mcp" }

// runAgent runs command with sh, the user's message on its stdin, and the handover in its
// environment; what it writes to stdout is the reply. Its stderr is the worker's.
func runAgent(ctx context.Context, command, endpoint, token, message, packet string) (string, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Env = append(os.Environ(),
		"MEMORY_MCP_URL="+endpoint, runTokenVariable+"="+token,
		"MEMORY_API_URL="+strings.TrimSuffix(endpoint, "/mcp"), "MEMORY_PACKET="+packet)
	cmd.Stdin = strings.NewReader(message)
	cmd.Stderr = os.Stderr
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("the agent failed: %w", err)
	}
	reply := strings.TrimSpace(stdout.String())
	if reply == "" {
		return "", errors.New("the agent wrote no reply")
	}
	return reply, nil
}

package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

const playHelp = `commands (one per line):
  remember [--everyone] TEXT     toolRemember
  about-user TEXT                toolRememberAboutUser
  update ID REVISION TEXT        toolUpdateMemory
  forget ID                      toolForgetMemory
  search TEXT                    toolSearchMemory
  history TEXT                   toolSearchHistory
  complete REPLY                 completeRun, and stop

With -mcp the tools come from an agent over MCP instead: play prints the run's MCP endpoint and
token, then reads only "complete REPLY" (or, with -agent, runs the agent and completes with its
output).`

func playCommand(args []string, in io.Reader, out io.Writer) error {
	flags := flag.NewFlagSet("play", flag.ContinueOnError)
	teammate := flags.String("teammate", "", "teammate id")
	message := flags.String("message", "", "the user's message that starts the run")
	retry := flags.Bool("retry", false, "start the teammate's oldest retry waiting for a run (\"Try again with this\") instead of a new message")
	thread := flags.String("thread", "", "continue this thread if its generation is current")
	workspace := flags.String("workspace", "", "prepare this workspace first (the one-time MEMORY.md import)")
	overMCP := flags.Bool("mcp", false, "serve the run's tools over MCP to an agent instead of reading tool calls from stdin: print the endpoint and run token, then read only `complete REPLY`")
	agent := flags.String("agent", "", "with -mcp: run this shell command as the agent, with MEMORY_MCP_URL, MEMORY_RUN_TOKEN, MEMORY_API_URL and MEMORY_PACKET set and the user's message on stdin; its output is the reply")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *teammate == "" || (*message == "") == !*retry {
		fmt.Fprintln(flags.Output(), playHelp)
		return errors.New("play: -teammate and one of -message or -retry are required")
	}
	if *agent != "" && !*overMCP {
		return errors.New("play: -agent needs -mcp")
	}
	c, err := newAPIClient()
	if err != nil {
		return err
	}
	return play(context.Background(), c, playInput{teammateID: *teammate, threadID: *thread, message: *message,
		retry: *retry, workspace: *workspace, mcp: *overMCP, agent: *agent}, in, out)
}

// playInput is what `worker play` was asked to do.
type playInput struct {
	teammateID, threadID, message, workspace string
	// retry starts the teammate's oldest pending retry (L3) instead of message.
	retry bool
	// mcp hands the run to an agent over MCP instead of reading tool calls (see playMCP); agent is
	// the shell command of that agent, if play runs it.
	mcp   bool
	agent string
}

// errRunInterrupted: memory changed mid-turn (G5), so the run ended without a reply.
var errRunInterrupted = errors.New("the run was interrupted: memory changed mid-turn; the next message starts a fresh thread")

// play is one run as a worker drives it: prepare, startRun (G3, G4) — of a new message, or of a
// retry the user asked for (L3) —, then for each tool call first checkRunGeneration (G5) and stop if
// memory changed, and completeRun at the end. The run credential is used for everything after
// startRun. It returns an error (so the command exits non-zero) when the run was interrupted or any
// tool call failed.
func play(ctx context.Context, c *apiClient, p playInput, in io.Reader, out io.Writer) error {
	if p.workspace != "" {
		outcome, err := prepare(ctx, c, p.teammateID, p.workspace)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, "MEMORY.md:", outcome)
	}
	var started struct {
		StartRun struct {
			Run struct {
				ID          string
				UserMessage string
			}
			RunToken           string
			Thread             struct{ ID string }
			Fresh              bool
			MemoryOff          bool
			Packet, Generation string
			RetryOf            *struct {
				RunID, UserMessage, Note string
				Reply                    *string
			}
		}
	}
	input := map[string]any{"teammateId": p.teammateID}
	if p.threadID != "" {
		input["threadId"] = p.threadID
	}
	if p.retry {
		id, err := oldestRetry(ctx, c, p.teammateID)
		if err != nil {
			return err
		}
		input["retryMessageId"] = id
	} else {
		input["message"] = p.message
	}
	if err := c.do(ctx, c.token, `mutation($in: StartRunInput!) { startRun(input: $in) {
		run { id userMessage } runToken thread { id } fresh memoryOff packet generation retryOf { runId userMessage reply note } } }`,
		map[string]any{"in": input}, &started); err != nil {
		return err
	}
	s := started.StartRun
	fmt.Fprintf(out, "run %s in thread %s (fresh: %t), generation %s\n", s.Run.ID, s.Thread.ID, s.Fresh, s.Generation)
	if r := s.RetryOf; r != nil {
		// What a model would be given for a retry: the request, the reply being redone (a fresh
		// thread doesn't have it) and the user's note as the user's words.
		fmt.Fprintf(out, "retry of run %s\noriginal request: %s\n", r.RunID, r.UserMessage)
		if r.Reply != nil {
			fmt.Fprintf(out, "reply being redone: %s\n", *r.Reply)
		}
		fmt.Fprintf(out, "the user's note: %s\n", r.Note)
	}
	switch {
	case s.MemoryOff:
		// The user turned "Use memory" off: the packet is only the note saying so, for the model.
		fmt.Fprintf(out, "memory packet (memory is off for this teammate):\n%s\n", s.Packet)
	case s.Packet == "":
		fmt.Fprintln(out, "memory packet: (empty)")
	default:
		fmt.Fprintf(out, "memory packet:\n%s\n", s.Packet)
	}
	run := s.RunToken
	if p.mcp {
		return playMCP(ctx, c, p, s.Run.ID, run, s.Run.UserMessage, s.Packet, in, out)
	}

	failed := 0
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" {
			continue
		}
		verb, rest, _ := strings.Cut(line, " ")
		if verb == "complete" {
			if err := complete(ctx, c, s.Run.ID, run, rest, out); err != nil {
				return err
			}
			return toolFailures(failed)
		}
		var check struct {
			CheckRunGeneration struct {
				Current     string
				Interrupted bool
			}
		}
		if err := c.do(ctx, run, `mutation { checkRunGeneration { current interrupted } }`, nil, &check); err != nil {
			return err
		}
		if check.CheckRunGeneration.Interrupted {
			fmt.Fprintf(out, "memory changed mid-turn (now %s): the run was interrupted; the next message starts a fresh thread\n", check.CheckRunGeneration.Current)
			return errRunInterrupted
		}
		if err := playTool(ctx, c, run, verb, rest, out); err != nil {
			var gql *gqlError
			if !errors.As(err, &gql) {
				return err
			}
			fmt.Fprintln(out, "error:", gql.Error())
			if gql.Code == "MEMORY_CHANGED" {
				// The tool checked the generation itself (G5): the run has ended.
				fmt.Fprintln(out, "memory changed mid-turn: the run was interrupted; the next message starts a fresh thread")
				return errRunInterrupted
			}
			if gql.Code == "MEMORY_OFF" {
				continue // the user turned "Use memory" off: an answer, not a failure of the tool
			}
			failed++
		}
	}
	if err := lines.Err(); err != nil {
		return err
	}
	fmt.Fprintln(out, "input ended before `complete`: the run is still running until the user cancels it")
	return toolFailures(failed)
}

// complete stores the reply and ends the run (completeRun with the run's token). Memory that changed
// mid-turn (G5) — seen by completeRun itself, or by a tool call over MCP that already ended the run —
// is errRunInterrupted.
func complete(ctx context.Context, c *apiClient, runID, token, reply string, out io.Writer) error {
	var done struct{ CompleteRun struct{ Status string } }
	err := c.do(ctx, token, `mutation($r: String!) { completeRun(input: {reply: $r}) { status } }`, map[string]any{"r": reply}, &done)
	var gql *gqlError
	switch {
	case err == nil:
		fmt.Fprintln(out, "run", strings.ToLower(done.CompleteRun.Status))
		return nil
	case errors.As(err, &gql) && gql.Code == "MEMORY_CHANGED":
		fmt.Fprintln(out, "memory changed mid-turn: the reply was not stored and the run was interrupted")
		return errRunInterrupted
	case errors.As(err, &gql) && gql.Code == "UNAUTHENTICATED":
		// The run ended before the reply: ask the API how, with the worker's token.
		var run struct{ Run struct{ Status string } }
		if err := c.do(ctx, c.token, `query($id: ID!) { run(id: $id) { status } }`, map[string]any{"id": runID}, &run); err != nil {
			return err
		}
		if run.Run.Status == "INTERRUPTED" {
			fmt.Fprintln(out, "memory changed mid-turn: the run was interrupted; the reply was not stored")
			return errRunInterrupted
		}
		return fmt.Errorf("the run ended (%s) before its reply; the reply was not stored", strings.ToLower(run.Run.Status))
	}
	return err
}

// toolFailures is play's answer when the run went on after failed tool calls: an error when there
// were any, so that the command exits non-zero.
func toolFailures(n int) error {
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%d tool call(s) failed", n)
}

// oldestRetry returns the message id of the teammate's oldest retry waiting for a run (L3).
func oldestRetry(ctx context.Context, c *apiClient, teammateID string) (string, error) {
	var pending struct {
		PendingRetries []struct{ MessageID, TeammateID string }
	}
	if err := c.do(ctx, c.token, `{ pendingRetries { messageId teammateId } }`, nil, &pending); err != nil {
		return "", err
	}
	for _, r := range pending.PendingRetries {
		if r.TeammateID == teammateID {
			return r.MessageID, nil
		}
	}
	return "", errors.New("play -retry: no retry of this teammate is waiting")
}

const toolFields = `outcome message reason adopted item { id revision status }`

type toolAnswer struct {
	Outcome, Message string
	// Reason is the judge's code (A8); nil when the outcome wasn't judged.
	Reason  *string
	Adopted bool
	Item    *struct {
		ID       string
		Revision int
		Status   string
	}
}

func (a toolAnswer) print(out io.Writer) {
	fmt.Fprintf(out, "%s: %s", strings.ToLower(a.Outcome), a.Message)
	if a.Reason != nil {
		fmt.Fprintf(out, " (reason: %s)", *a.Reason)
	}
	if a.Item != nil {
		fmt.Fprintf(out, " [item %s@%d, %s]", a.Item.ID, a.Item.Revision, strings.ToLower(a.Item.Status))
	}
	fmt.Fprintln(out)
}

func playTool(ctx context.Context, c *apiClient, run, verb, rest string, out io.Writer) error {
	switch verb {
	case "remember", "about-user":
		everyone := false
		if t, ok := strings.CutPrefix(rest, "--everyone "); ok {
			everyone, rest = true, t
		}
		var res map[string]toolAnswer
		q := `mutation($c: String!, $e: Boolean) { a: toolRemember(input: {content: $c, forEveryone: $e}) { ` + toolFields + ` } }`
		if verb == "about-user" {
			q = `mutation($c: String!) { a: toolRememberAboutUser(input: {content: $c}) { ` + toolFields + ` } }`
		}
		if err := c.do(ctx, run, q, map[string]any{"c": rest, "e": everyone}, &res); err != nil {
			return err
		}
		res["a"].print(out)
	case "update":
		parts := strings.SplitN(rest, " ", 3)
		if len(parts) != 3 {
			return &gqlError{Code: "USAGE", Message: "update ID REVISION TEXT"}
		}
		rev, err := strconv.Atoi(parts[1])
		if err != nil {
			return &gqlError{Code: "USAGE", Message: "REVISION must be a number"}
		}
		var res map[string]toolAnswer
		if err := c.do(ctx, run, `mutation($id: ID!, $b: Int!, $c: String!) { a: toolUpdateMemory(input: {id: $id, baseRevision: $b, content: $c}) { `+toolFields+` } }`,
			map[string]any{"id": parts[0], "b": rev, "c": parts[2]}, &res); err != nil {
			return err
		}
		res["a"].print(out)
	case "forget":
		var res map[string]toolAnswer
		if err := c.do(ctx, run, `mutation($id: ID!) { a: toolForgetMemory(input: {id: $id}) { `+toolFields+` } }`, map[string]any{"id": rest}, &res); err != nil {
			return err
		}
		res["a"].print(out)
	case "search":
		var res struct {
			ToolSearchMemory []struct{ ID, Content string }
		}
		if err := c.do(ctx, run, `query($q: String!) { toolSearchMemory(query: $q) { id content } }`, map[string]any{"q": rest}, &res); err != nil {
			return err
		}
		fmt.Fprintln(out, count(len(res.ToolSearchMemory), "memory", "memories"))
		for _, m := range res.ToolSearchMemory {
			fmt.Fprintf(out, "  %s  %s\n", m.ID, m.Content)
		}
	case "history":
		var res struct {
			ToolSearchHistory []struct{ Role, Content string }
		}
		if err := c.do(ctx, run, `query($q: String!) { toolSearchHistory(query: $q) { role content } }`, map[string]any{"q": rest}, &res); err != nil {
			return err
		}
		fmt.Fprintln(out, count(len(res.ToolSearchHistory), "message", "messages"))
		for _, m := range res.ToolSearchHistory {
			fmt.Fprintf(out, "  %s: %s\n", m.Role, m.Content)
		}
	default:
		return &gqlError{Code: "USAGE", Message: "unknown command " + strconv.Quote(verb) + "\n" + playHelp}
	}
	return nil
}

// count is "1 memory", "2 memories".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

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
  complete REPLY                 completeRun, and stop`

func playCommand(args []string, in io.Reader, out io.Writer) error {
	flags := flag.NewFlagSet("play", flag.ContinueOnError)
	teammate := flags.String("teammate", "", "teammate id")
	message := flags.String("message", "", "the user's message that starts the run")
	thread := flags.String("thread", "", "continue this thread if its generation is current")
	workspace := flags.String("workspace", "", "prepare this workspace first (the one-time MEMORY.md import)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *teammate == "" || *message == "" {
		return errors.New("play: -teammate and -message are required\n" + playHelp)
	}
	c, err := newAPIClient()
	if err != nil {
		return err
	}
	return play(context.Background(), c, *teammate, *thread, *message, *workspace, in, out)
}

// play is one run as a worker drives it: prepare, startRun (G3, G4), then for each tool call first
// checkRunGeneration (G5) and stop if memory changed, and completeRun at the end. The run credential
// is used for everything after startRun.
func play(ctx context.Context, c *apiClient, teammateID, threadID, message, workspace string, in io.Reader, out io.Writer) error {
	if workspace != "" {
		outcome, err := prepare(ctx, c, teammateID, workspace)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, "MEMORY.md:", outcome)
	}
	var started struct {
		StartRun struct {
			Run                struct{ ID string }
			RunToken           string
			Thread             struct{ ID string }
			Fresh              bool
			Packet, Generation string
		}
	}
	vars := map[string]any{"t": teammateID, "m": message, "th": nil}
	if threadID != "" {
		vars["th"] = threadID
	}
	if err := c.do(ctx, c.token, `mutation($t: ID!, $th: ID, $m: String) { startRun(input: {teammateId: $t, threadId: $th, message: $m}) {
		run { id } runToken thread { id } fresh packet generation } }`, vars, &started); err != nil {
		return err
	}
	s := started.StartRun
	fmt.Fprintf(out, "run %s in thread %s (fresh: %t), generation %s\n", s.Run.ID, s.Thread.ID, s.Fresh, s.Generation)
	if s.Packet == "" {
		fmt.Fprintln(out, "memory packet: (empty)")
	} else {
		fmt.Fprintf(out, "memory packet:\n%s\n", s.Packet)
	}
	run := s.RunToken

	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" {
			continue
		}
		verb, rest, _ := strings.Cut(line, " ")
		if verb == "complete" {
			var done struct{ CompleteRun struct{ Status string } }
			if err := c.do(ctx, run, `mutation($r: String!) { completeRun(input: {reply: $r}) { status } }`, map[string]any{"r": rest}, &done); err != nil {
				return err
			}
			fmt.Fprintln(out, "run", strings.ToLower(done.CompleteRun.Status))
			return nil
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
			return nil
		}
		if err := playTool(ctx, c, run, verb, rest, out); err != nil {
			var gql *gqlError
			if !errors.As(err, &gql) {
				return err
			}
			fmt.Fprintln(out, "error:", gql.Error())
		}
	}
	if err := lines.Err(); err != nil {
		return err
	}
	fmt.Fprintln(out, "input ended before `complete`: the run is still running until the user cancels it")
	return nil
}

const toolFields = `outcome message adopted item { id revision status }`

type toolAnswer struct {
	Outcome, Message string
	Adopted          bool
	Item             *struct {
		ID       string
		Revision int
		Status   string
	}
}

func (a toolAnswer) print(out io.Writer) {
	fmt.Fprintf(out, "%s: %s", strings.ToLower(a.Outcome), a.Message)
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
		fmt.Fprintf(out, "%d memories\n", len(res.ToolSearchMemory))
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
		fmt.Fprintf(out, "%d messages\n", len(res.ToolSearchHistory))
		for _, m := range res.ToolSearchHistory {
			fmt.Fprintf(out, "  %s: %s\n", m.Role, m.Content)
		}
	default:
		return &gqlError{Code: "USAGE", Message: "unknown command " + strconv.Quote(verb) + "\n" + playHelp}
	}
	return nil
}

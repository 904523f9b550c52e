package main_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

var (
	workerBuild    sync.Once
	workerBin      string
	workerBuildErr error
)

// workerBinary builds cmd/worker once per test binary.
func workerBinary(t *testing.T) string {
	t.Helper()
	workerBuild.Do(func() {
		dir, err := os.MkdirTemp("", "worker-bin-")
		if err != nil {
			workerBuildErr = err
			return
		}
		workerBin = filepath.Join(dir, "worker")
		out, err := exec.Command("go", "build", "-o", workerBin, ".").CombinedOutput()
		if err != nil {
			workerBuildErr = err
			t.Logf("%s", out)
		}
	})
	require.NoError(t, workerBuildErr)
	return workerBin
}

type client struct {
	api *apitest.API
}

func newClient(t *testing.T) client { return client{api: apitest.Start(t, dbtest.URL(t))} }

func (c client) env() []string {
	return append(os.Environ(), "MEMORY_API_URL="+c.api.URL, "MEMORY_WORKER_TOKEN="+apitest.WorkerToken)
}

// kits numbers the teammates the tests create: names are unique.
var kits atomic.Int64

func (c client) teammate(t *testing.T) string {
	return c.api.CreateTeammate(t, fmt.Sprintf("Kit %d", kits.Add(1)))
}

func (c client) notes(t *testing.T, teammate string) []string {
	var out struct {
		MemoryItems struct {
			Edges []struct{ Node struct{ Content string } }
		}
	}
	c.api.Must(t, apitest.UserToken, `query($t: ID) { memoryItems(scope: {teammateId: $t}, kind: NOTE) { edges { node { content } } } }`,
		map[string]any{"t": teammate}, &out)
	var list []string
	for _, e := range out.MemoryItems.Edges {
		list = append(list, e.Node.Content)
	}
	return list
}

func (c client) prepare(t *testing.T, teammate, workspace string) (string, error) {
	cmd := exec.Command(workerBinary(t), "prepare", "-teammate", teammate, "-workspace", workspace)
	cmd.Env = c.env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestPrepareImportsMemoryFileOnce(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	ws := t.TempDir()
	file := filepath.Join(ws, "MEMORY.md")
	require.NoError(t, os.WriteFile(file, []byte("# Kit\n\nThe user's dog is called Bruno.\n"), 0o644))

	// Two preparations at once: exactly one imports (M1).
	var wg sync.WaitGroup
	outs := make([]string, 2)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := c.prepare(t, tm, ws)
			assert.NoError(t, err, out)
			outs[i] = out
		}()
	}
	wg.Wait()
	joined := strings.Join(outs, "|")
	assert.Equal(t, 1, strings.Count(joined, "MEMORY.md: imported"), joined)
	assert.Equal(t, 1, strings.Count(joined, "already imported"), joined)
	assert.Equal(t, []string{"# Kit\n\nThe user's dog is called Bruno."}, c.notes(t, tm))

	pointer, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(pointer), "This file is generated", "M3: the file becomes a pointer")
	assert.NotContains(t, string(pointer), "Bruno", "M3: memory bodies are never written to disk")

	// Edits to the pointer are never read, and the file is left alone.
	require.NoError(t, os.WriteFile(file, []byte("The user's cat is called Luna.\n"), 0o644))
	out, err := c.prepare(t, tm, ws)
	require.NoError(t, err, out)
	assert.Contains(t, out, "already imported")
	assert.Len(t, c.notes(t, tm), 1)
	after, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "The user's cat is called Luna.\n", string(after))
}

func TestPrepareWithoutMemoryFile(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	ws := t.TempDir()
	out, err := c.prepare(t, tm, ws)
	require.NoError(t, err, out)
	assert.Contains(t, out, "MEMORY.md: absent")
	pointer, err := os.ReadFile(filepath.Join(ws, "MEMORY.md"))
	require.NoError(t, err)
	assert.Contains(t, string(pointer), "This file is generated")
	// A file that appears later is never imported.
	require.NoError(t, os.WriteFile(filepath.Join(ws, "MEMORY.md"), []byte("late"), 0o644))
	out, err = c.prepare(t, tm, ws)
	require.NoError(t, err, out)
	assert.Contains(t, out, "already imported")
	assert.Empty(t, c.notes(t, tm))
}

// M2: a file that exists but can't be imported fails preparation and stays byte-for-byte the same.
func TestPrepareRefusesUnreadableFiles(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	cases := map[string]func(path string) error{
		"a directory": func(path string) error { return os.Mkdir(path, 0o755) },
		"invalid UTF-8": func(path string) error {
			return os.WriteFile(path, []byte("caf\xe9 au lait\n"), 0o644)
		},
		"too large": func(path string) error {
			return os.WriteFile(path, bytes.Repeat([]byte("a"), memory.MaxMemoryFileBytes+1), 0o644)
		},
		"a broken symlink target": func(path string) error { return os.Symlink(filepath.Join(filepath.Dir(path), "missing", "x"), path) },
	}
	if os.Geteuid() != 0 { // root reads files whatever their mode
		cases["unreadable"] = func(path string) error { return os.WriteFile(path, []byte("secret"), 0o000) }
	}
	for name, makeFile := range cases {
		tm := c.teammate(t)
		ws := t.TempDir()
		file := filepath.Join(ws, "MEMORY.md")
		require.NoError(t, makeFile(file), name)
		before := snapshot(t, file)
		out, err := c.prepare(t, tm, ws)
		if name == "a broken symlink target" {
			// A dangling link is no file: recorded as absent, and the link is replaced by the pointer.
			require.NoError(t, err, out)
			continue
		}
		require.Error(t, err, "%s: %s", name, out)
		assert.Contains(t, out, "left as it is", name)
		assert.Equal(t, before, snapshot(t, file), "%s: the file is untouched", name)
		var imported struct{ MemoryImported bool }
		c.api.Must(t, apitest.WorkerToken, `query($t: ID!) { memoryImported(teammateId: $t) }`, map[string]any{"t": tm}, &imported)
		assert.False(t, imported.MemoryImported, "%s: nothing recorded, so a fixed file is imported next time", name)
	}
}

func snapshot(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Lstat(path)
	require.NoError(t, err)
	if info.IsDir() {
		return "dir " + info.Mode().String()
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "unreadable " + info.Mode().String()
	}
	return info.Mode().String() + " " + string(b)
}

func TestPlayOneRun(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	cmd := exec.Command(workerBinary(t), "play", "-teammate", tm, "-message", "Please remember that I like green tea.")
	cmd.Env = c.env()
	cmd.Stdin = strings.NewReader("remember I like green tea\nsearch green tea\nhistory green tea\nforget 5b0f3a4e-8f1c-4c1e-9d7a-000000000000\ncomplete Noted: green tea.\n")
	out, err := cmd.CombinedOutput()
	text := string(out)
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "a failed tool call makes play exit non-zero: %s", text)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, text, "(fresh: true)")
	assert.Contains(t, text, "saved: Saved to memory, as the user asked. (reason: asked)")
	assert.Contains(t, text, "\n1 memory\n")
	assert.Contains(t, text, "\n1 message\n")
	assert.Contains(t, text, "error: NOT_FOUND")
	assert.Contains(t, text, "run completed")
	assert.Contains(t, text, "1 tool call(s) failed")

	// Without a failing call, play exits 0.
	cmd = exec.Command(workerBinary(t), "play", "-teammate", tm, "-message", "What do I drink?")
	cmd.Env = c.env()
	cmd.Stdin = strings.NewReader("search tea\ncomplete Green tea.\n")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, string(out))
}

// G5 from the terminal: a user edit while the run is going interrupts it at the next tool call.
func TestPlayInterruptedWhenMemoryChanges(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	cmd := exec.Command(workerBinary(t), "play", "-teammate", tm, "-message", "Plan my week.")
	cmd.Env = c.env()
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewReader(stdout)
	first, err := lines.ReadString('\n')
	require.NoError(t, err)
	require.Contains(t, first, "run ")

	c.api.Must(t, apitest.UserToken, `mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, content: "Busy on Mondays"}) { item { id } } }`,
		map[string]any{"t": tm}, &struct{}{})
	_, err = io.WriteString(stdin, "remember Plan my week\n")
	require.NoError(t, err)
	require.NoError(t, stdin.Close())
	rest, err := io.ReadAll(lines)
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "an interrupted run makes play exit non-zero")
		assert.Equal(t, 1, exit.ExitCode())
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("worker play did not exit")
	}
	assert.Contains(t, string(rest), "memory changed mid-turn")
}

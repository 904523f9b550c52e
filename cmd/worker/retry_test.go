package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
)

func (c client) imported(t *testing.T, teammate string) bool {
	t.Helper()
	var out struct{ MemoryImported bool }
	c.api.Must(t, apitest.WorkerToken, `query($t: ID!) { memoryImported(teammateId: $t) }`, map[string]any{"t": teammate}, &out)
	return out.MemoryImported
}

// M3: when the pointer can't be written, nothing is imported and MEMORY.md is left as it is; the
// next preparation, once it can write, imports and leaves only the pointer.
func TestPreparePointerFailureLeavesTheImportUnrecorded(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	ws := t.TempDir()
	file := filepath.Join(ws, "MEMORY.md")
	const text = "# Kit\n\nThe user's dog is called Bruno.\n"
	require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	// A non-empty directory where the pending pointer goes: no rename can replace it (even as root).
	blocker := filepath.Join(ws, ".MEMORY.md.pending")
	require.NoError(t, os.MkdirAll(filepath.Join(blocker, "x"), 0o755))

	out, err := c.prepare(t, tm, ws)
	require.Error(t, err, out)
	assert.Contains(t, out, "nothing was imported and the file was left as it is")
	assert.False(t, c.imported(t, tm), "the import is not recorded")
	assert.Empty(t, c.notes(t, tm))
	after, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, text, string(after))

	require.NoError(t, os.RemoveAll(blocker))
	out, err = c.prepare(t, tm, ws)
	require.NoError(t, err, out)
	assert.Contains(t, out, "MEMORY.md: imported")
	pointer, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.NotContains(t, string(pointer), "Bruno")
	_, err = os.Lstat(blocker)
	assert.ErrorIs(t, err, os.ErrNotExist, "no pending pointer left")
}

// M3: a preparation that stopped between the import and the pointer (the import recorded, the
// pending pointer still there) is finished by the next one, without reading the file.
func TestPrepareFinishesAPendingPointer(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	ws := t.TempDir()
	file := filepath.Join(ws, "MEMORY.md")
	const text = "The user's cat is called Luna."
	require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".MEMORY.md.pending"), []byte("pending"), 0o644))
	c.api.Must(t, apitest.WorkerToken, `mutation($t: ID!, $c: String) { importMemoryFile(input: {teammateId: $t, content: $c}) { outcome } }`,
		map[string]any{"t": tm, "c": text}, &struct{}{})

	out, err := c.prepare(t, tm, ws)
	require.NoError(t, err, out)
	assert.Contains(t, out, "already imported (the pointer an earlier preparation left pending is written now)")
	pointer, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(pointer), "This file is generated")
	assert.NotContains(t, string(pointer), "Luna")
	_, err = os.Lstat(filepath.Join(ws, ".MEMORY.md.pending"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Equal(t, []string{text}, c.notes(t, tm), "imported once")
}

// M1: a workspace directory that doesn't exist is "absent", not an error, and nothing is created.
func TestPrepareMissingWorkspaceIsAbsent(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	ws := filepath.Join(t.TempDir(), "not-there")
	out, err := c.prepare(t, tm, ws)
	require.NoError(t, err, out)
	assert.Contains(t, out, "MEMORY.md: absent")
	assert.True(t, c.imported(t, tm))
	_, err = os.Stat(ws)
	assert.ErrorIs(t, err, os.ErrNotExist, "no directory made")
}

var runLine = regexp.MustCompile(`run ([0-9a-f-]{36}) in thread`)

// play runs `worker play` with args and stdin, and returns its output and the run's id.
func (c client) play(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(workerBinary(t), append([]string{"play"}, args...)...)
	cmd.Env = c.env()
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	m := runLine.FindStringSubmatch(string(out))
	if m == nil {
		return string(out), "", err
	}
	return string(out), m[1], err
}

// L3 end to end through the reference worker: the user asks for a retry with a note and memory
// changes meanwhile; `worker play -retry` starts it in a fresh thread with the original request, the
// reply being redone and the note, and completes it; the retry no longer waits, and the API shows
// the new run as a retry of the first with the user's note.
func TestPlayRetry(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	out, first, err := c.play(t, "complete Hey, fix the heating pls\n", "-teammate", tm, "-message", "Draft a reply to the landlord about the heating")
	require.NoError(t, err, out)
	require.NotEmpty(t, first, out)

	out, _, err = c.play(t, "", "-teammate", tm, "-retry")
	require.Error(t, err, "nothing waits yet: %s", out)
	assert.Contains(t, out, "no retry of this teammate is waiting")

	c.api.Must(t, apitest.UserToken, `mutation($r: ID!) { retryRunWithNote(input: {runId: $r, note: "Make it polite and formal"}) { messageId } }`,
		map[string]any{"r": first}, &struct{}{})
	c.api.Must(t, apitest.UserToken, `mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, content: "The landlord is Ms Smith"}) { item { id } } }`,
		map[string]any{"t": tm}, &struct{}{})

	out, redo, err := c.play(t, "search landlord\ncomplete Dear Ms Smith, could the heating be repaired this week?\n", "-teammate", tm, "-retry")
	require.NoError(t, err, out)
	assert.Contains(t, out, "(fresh: true)")
	assert.Contains(t, out, "retry of run "+first)
	assert.Contains(t, out, "original request: Draft a reply to the landlord about the heating")
	assert.Contains(t, out, "reply being redone: Hey, fix the heating pls")
	assert.Contains(t, out, "the user's note: Make it polite and formal")
	assert.Contains(t, out, "The landlord is Ms Smith", "the packet is recalled for the request, not the note alone")
	assert.Contains(t, out, "run completed")

	var pending struct{ PendingRetries []struct{ MessageID string } }
	c.api.Must(t, apitest.WorkerToken, `{ pendingRetries { messageId } }`, nil, &pending)
	assert.Empty(t, pending.PendingRetries)
	var got struct {
		Run struct {
			Status       string
			RetryNote    *string
			RetryOfRunID *string
			Reply        string
		}
	}
	c.api.Must(t, apitest.UserToken, `query($id: ID!) { run(id: $id) { status retryNote retryOfRunId reply } }`, map[string]any{"id": redo}, &got)
	assert.Equal(t, "COMPLETED", got.Run.Status)
	require.NotNil(t, got.Run.RetryNote)
	assert.Equal(t, "Make it polite and formal", *got.Run.RetryNote)
	require.NotNil(t, got.Run.RetryOfRunID)
	assert.Equal(t, first, *got.Run.RetryOfRunID)
}

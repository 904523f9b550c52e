package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/open-bot/memory/internal/memory"
)

// MemoryFilePointer is what MEMORY.md says once its contents live in the memory service (M3). It
// holds no memory text, and nothing ever reads the file again.
const MemoryFilePointer = `# MEMORY.md

This file is generated. This teammate's memory lives in the memory service now, where the user
can see, correct and forget it. What this file held was imported once, as pinned notes.

Edits to this file are never read. To remember something, use the memory tools:
toolRemember, toolRememberAboutUser, toolUpdateMemory, toolForgetMemory, toolSearchMemory and
toolSearchHistory.
`

func prepareCommand(args []string) error {
	flags := flag.NewFlagSet("prepare", flag.ContinueOnError)
	teammate := flags.String("teammate", "", "teammate id")
	workspace := flags.String("workspace", ".", "the teammate's workspace directory (holds MEMORY.md)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *teammate == "" {
		return errors.New("prepare: -teammate is required")
	}
	c, err := newAPIClient()
	if err != nil {
		return err
	}
	outcome, err := prepare(context.Background(), c, *teammate, *workspace)
	if err != nil {
		return err
	}
	fmt.Println("MEMORY.md:", outcome)
	return nil
}

// pendingPointer is the workspace file that marks an import whose pointer isn't written yet. It is
// written (holding the pointer) before anything is imported, which proves that the pointer can be
// written at all, and removed once MEMORY.md is the pointer. A preparation that finds the import
// recorded and this file present finishes the pointer: a preparation stopped between the import and
// the pointer doesn't leave memory text on disk for good.
const pendingPointer = ".MEMORY.md.pending"

// pointerAttempts and pointerBackoff: how often, and how patiently, the pointer write is retried
// after the import (a busy or flaky file system) before the file is removed instead.
const (
	pointerAttempts = 5
	pointerBackoff  = 100 * time.Millisecond
)

// prepare runs the one-time MEMORY.md import of a teammate's workspace (M1–M3). Once the import is
// recorded it reads nothing: it only finishes a pointer an earlier preparation left pending.
// Otherwise:
//
//   - a missing workspace directory, or no MEMORY.md in it, is recorded as absent (in a missing
//     directory nothing is created);
//   - a file that can't be imported (unreadable, not a regular file, invalid UTF-8, larger than
//     the limit) fails preparation and is left untouched, with nothing recorded (M2);
//   - the pointer is written first, beside the file (pendingPointer): if that fails, nothing is
//     imported and the file is left as it is, so the next preparation tries again;
//   - the file is imported through importMemoryFile (concurrent preparations import once: the API
//     decides), then replaced by MemoryFilePointer, retried a few times; if it still can't be
//     replaced it is removed — its text is in the memory service, and memory text is never left on
//     disk after the import (M3). The original is not kept as a backup: the notes can be exported
//     from the web app (Export) or the API (exportMemory).
func prepare(ctx context.Context, c *apiClient, teammateID, workspace string) (string, error) {
	var done struct{ MemoryImported bool }
	if err := c.do(ctx, c.token, `query($t: ID!) { memoryImported(teammateId: $t) }`, map[string]any{"t": teammateID}, &done); err != nil {
		return "", err
	}
	path := filepath.Join(workspace, "MEMORY.md")
	pending := filepath.Join(workspace, pendingPointer)
	if done.MemoryImported {
		if _, err := os.Lstat(pending); err == nil {
			if err := finishPointer(ctx, path, pending); err != nil {
				return "", err
			}
			return "already imported (the pointer an earlier preparation left pending is written now)", nil
		}
		return "already imported", nil
	}
	if info, err := os.Stat(workspace); errors.Is(err, fs.ErrNotExist) {
		return importFile(ctx, c, teammateID, nil, "absent (no workspace directory: nothing written)")
	} else if err != nil {
		return "", fmt.Errorf("the workspace can't be read (%v); preparation stopped", err)
	} else if !info.IsDir() {
		return "", fmt.Errorf("the workspace %s is not a directory; preparation stopped", workspace)
	}
	content, err := readMemoryFile(path)
	if err != nil {
		return "", err
	}
	if err := writeAtomically(pending, []byte(MemoryFilePointer)); err != nil {
		return "", fmt.Errorf("the pointer that replaces MEMORY.md can't be written in the workspace (%v); nothing was imported and the file was left as it is", err)
	}
	outcome, err := importFile(ctx, c, teammateID, content, "")
	if err != nil || outcome == "already imported" {
		// Nothing recorded by us: the file stays as it is (another preparation that won writes the
		// pointer; one that fails leaves the import to the next).
		_ = os.Remove(pending)
		return outcome, err
	}
	if err := finishPointer(ctx, path, pending); err != nil {
		return "", err
	}
	return outcome, nil
}

// importFile calls importMemoryFile and names its outcome; absent overrides the name of ABSENT.
func importFile(ctx context.Context, c *apiClient, teammateID string, content *string, absent string) (string, error) {
	var out struct{ ImportMemoryFile struct{ Outcome string } }
	if err := c.do(ctx, c.token, `mutation($t: ID!, $c: String) { importMemoryFile(input: {teammateId: $t, content: $c}) { outcome } }`,
		map[string]any{"t": teammateID, "c": content}, &out); err != nil {
		return "", err
	}
	switch out.ImportMemoryFile.Outcome {
	case "ALREADY":
		return "already imported", nil
	case "ABSENT":
		if absent != "" {
			return absent, nil
		}
		return "absent", nil
	default:
		return "imported", nil
	}
}

// finishPointer replaces MEMORY.md by the pointer after the import, retrying with backoff; if it
// can't, it removes the file (its text is in the memory service) and keeps pending, so the next
// preparation writes the pointer. Only when even that fails is there an error: the file may still
// hold memory text, and the operator must remove it.
func finishPointer(ctx context.Context, path, pending string) error {
	var err error
	for attempt := range pointerAttempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pointerBackoff << (attempt - 1)):
			}
		}
		if err = writeAtomically(path, []byte(MemoryFilePointer)); err == nil {
			_ = os.Remove(pending)
			return nil
		}
	}
	if rmErr := os.Remove(path); rmErr == nil || errors.Is(rmErr, fs.ErrNotExist) {
		fmt.Fprintf(os.Stderr, "worker: MEMORY.md was imported but the pointer couldn't be written (%v); the file was removed instead, and the next preparation writes the pointer\n", err)
		return nil
	}
	return fmt.Errorf("MEMORY.md was imported, but neither the pointer could be written (%v) nor the file removed: remove %s by hand (its text is in the memory service)", err, path)
}

// readMemoryFile returns the file's text, nil when it doesn't exist, or an error that says why it
// can't be imported. It only ever opens the file for reading.
func readMemoryFile(path string) (*string, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("MEMORY.md can't be read (%v); preparation stopped and the file was left as it is", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; preparation stopped and it was left as it is", path)
	}
	if info.Size() > memory.MaxMemoryFileBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes; shorten it (it is imported once as pinned notes) — it was left as it is", path, memory.MaxMemoryFileBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("MEMORY.md can't be read (%v); preparation stopped and the file was left as it is", err)
	}
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("%s is not valid UTF-8; preparation stopped and the file was left as it is", path)
	}
	s := string(b)
	return &s, nil
}

// writeAtomically replaces path with data through a temporary file and a rename, so a crash leaves
// either the old file or the new one.
func writeAtomically(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".MEMORY.md.*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// prepare runs the one-time MEMORY.md import of a teammate's workspace (M1–M3): once the import is
// recorded it does nothing at all — the file is neither read nor written. Otherwise it reads the file
// (absent is fine; unreadable, not a regular file, invalid UTF-8 or larger than the limit fails
// preparation and leaves the file untouched, M2), stores it through importMemoryFile, and replaces
// it with MemoryFilePointer. Concurrent preparations import once: the API decides.
func prepare(ctx context.Context, c *apiClient, teammateID, workspace string) (string, error) {
	var done struct{ MemoryImported bool }
	if err := c.do(ctx, c.token, `query($t: ID!) { memoryImported(teammateId: $t) }`, map[string]any{"t": teammateID}, &done); err != nil {
		return "", err
	}
	if done.MemoryImported {
		return "already imported", nil
	}
	path := filepath.Join(workspace, "MEMORY.md")
	content, err := readMemoryFile(path)
	if err != nil {
		return "", err
	}
	var out struct{ ImportMemoryFile struct{ Outcome string } }
	if err := c.do(ctx, c.token, `mutation($t: ID!, $c: String) { importMemoryFile(input: {teammateId: $t, content: $c}) { outcome } }`,
		map[string]any{"t": teammateID, "c": content}, &out); err != nil {
		return "", err
	}
	if out.ImportMemoryFile.Outcome == "ALREADY" {
		return "already imported", nil // another preparation won the race and writes the pointer
	}
	if err := writeAtomically(path, []byte(MemoryFilePointer)); err != nil {
		return "", fmt.Errorf("MEMORY.md was imported, but writing the pointer failed: %w", err)
	}
	return map[string]string{"IMPORTED": "imported", "ABSENT": "absent"}[out.ImportMemoryFile.Outcome], nil
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

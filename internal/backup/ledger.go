package backup

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/open-bot/memory/internal/memory"
)

// LedgerFile is the forget ledger's file name in the backup directory.
const LedgerFile = "forget-ledger.jsonl"

// Ledger is the forget ledger's file (RULES F8): one memory.LedgerEntry per line, appended and
// synced, never rewritten. It lives beside the backups, outside the database, so that a restore
// can learn what was forgotten after its backup was made. It holds ids, keyed hashes and times.
type Ledger struct {
	path string
	mu   sync.Mutex // one append at a time in this process
}

// OpenLedger returns the ledger in dir (created on the first append).
func OpenLedger(dir string) *Ledger { return &Ledger{path: filepath.Join(dir, LedgerFile)} }

// Path is the ledger file's path.
func (l *Ledger) Path() string { return l.path }

// Append adds entries to the file and syncs it before it returns: an entry Append accepted survives
// a crash.
func (l *Ledger) Append(entries []memory.LedgerEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, e := range entries {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	dir := filepath.Dir(l.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	_, statErr := os.Stat(l.path)
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	defer f.Close()
	if _, err := f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		return syncDir(dir)
	}
	return f.Close()
}

// Read returns every entry of the file, in the order they were appended; none when there is no file
// yet. A last line without its newline — an append a crash cut short, never acknowledged — is
// ignored; any other unreadable line is an error, since skipping it could bring a forgotten item back.
func (l *Ledger) Read() ([]memory.LedgerEntry, error) {
	raw, err := os.ReadFile(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("forget ledger: %w", err)
	}
	if i := bytes.LastIndexByte(raw, '\n'); i < len(raw)-1 {
		raw = raw[:i+1]
	}
	var out []memory.LedgerEntry
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		var e memory.LedgerEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.ID == "" {
			return nil, fmt.Errorf("forget ledger %s: line %d is not an entry", l.path, line)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// Flush copies the entries the database hasn't written to the file yet, then marks them written;
// it returns how many. An entry copied but not marked (a crash in between) is copied again later,
// which Read's callers tolerate: Replay applies an id once.
func (l *Ledger) Flush(ctx context.Context, svc *memory.Background) (int, error) {
	n := 0
	for {
		entries, err := svc.LedgerUnwritten(ctx, 500)
		if err != nil || len(entries) == 0 {
			return n, err
		}
		if err := l.Append(entries); err != nil {
			return n, err
		}
		ids := make([]string, len(entries))
		for i, e := range entries {
			ids[i] = e.ID
		}
		if err := svc.LedgerMarkWritten(ctx, ids); err != nil {
			return n, err
		}
		n += len(entries)
	}
}

// Replay applies again every entry of the file the database doesn't hold (memory.Background.Replay).
func (l *Ledger) Replay(ctx context.Context, svc *memory.Background) (memory.ReplayReport, error) {
	entries, err := l.Read()
	if err != nil {
		return memory.ReplayReport{}, err
	}
	return svc.Replay(ctx, entries)
}

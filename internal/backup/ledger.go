package backup

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

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
// a crash. A last line a crash cut short (Read ignores it) is cut off first, so that the new entries
// start on a line of their own.
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
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	defer f.Close()
	// Processes on one database that share MEMORY_BACKUP_DIR append one at a time.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("forget ledger: lock: %w", err)
	}
	end, err := completeLines(f)
	if err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	if err := f.Truncate(end); err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	if _, err := f.WriteAt(buf.Bytes(), end); err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("forget ledger: %w", err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if err := syncDir(dir); err != nil {
			return fmt.Errorf("forget ledger: %w", err)
		}
	}
	return f.Close()
}

// completeLines is the size of f up to the end of its last complete line.
func completeLines(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(0, end-int64(len(buf)))
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
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
		if err := l.write(ctx, svc, entries); err != nil {
			return n, err
		}
		n += len(entries)
	}
}

// Sync makes the file hold every entry the database holds: those not written yet, and any the file
// lost — deleted, cut short, or a new MEMORY_BACKUP_DIR — including entries a restore applied
// again. It returns how many it added. The API runs it at start and a restore before it replaces
// the database, so that the ledger is only ever lost with both the file and the database.
func (l *Ledger) Sync(ctx context.Context, svc *memory.Background) (int, error) {
	have, err := l.Read()
	if err != nil {
		return 0, err
	}
	known := make(map[string]bool, len(have))
	for _, e := range have {
		known[e.ID] = true
	}
	all, err := svc.LedgerAll(ctx)
	if err != nil {
		return 0, err
	}
	var missing []memory.LedgerEntry
	for _, e := range all {
		if !known[e.ID] {
			missing = append(missing, e)
		}
	}
	for i := 0; i < len(missing); i += 500 {
		if err := l.write(ctx, svc, missing[i:min(i+500, len(missing))]); err != nil {
			return i, err
		}
	}
	return len(missing), nil
}

// write appends entries and marks them written.
func (l *Ledger) write(ctx context.Context, svc *memory.Background, entries []memory.LedgerEntry) error {
	if err := l.Append(entries); err != nil {
		return err
	}
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	return svc.LedgerMarkWritten(ctx, ids)
}

// Replay applies again every entry of the file the database doesn't hold (memory.Background.Replay).
func (l *Ledger) Replay(ctx context.Context, svc *memory.Background) (memory.ReplayReport, error) {
	entries, err := l.Read()
	if err != nil {
		return memory.ReplayReport{}, err
	}
	return svc.Replay(ctx, entries)
}

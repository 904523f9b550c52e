package memory

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// MaxMemoryFileBytes is the largest MEMORY.md the one-time import accepts (M1, M2). A larger file
// fails preparation and is left untouched.
const MaxMemoryFileBytes = 16 << 10

// ImportOutcome is what ImportMemoryFile did.
type ImportOutcome string

// The outcomes of the MEMORY.md import.
const (
	// ImportImported: the file was stored as pinned notes.
	ImportImported ImportOutcome = "imported"
	// ImportAbsent: there was no file; recorded so the import is never tried again.
	ImportAbsent ImportOutcome = "absent"
	// ImportAlready: an earlier preparation imported (or recorded the absence) already; nothing done.
	ImportAlready ImportOutcome = "already"
)

// ImportResult is ImportMemoryFile's answer.
type ImportResult struct {
	Outcome ImportOutcome
	Items   []Item
}

const (
	qImportInsert = `INSERT INTO memory_imports (teammate_id, outcome, content_hash) VALUES ($1, $2, $3)
		ON CONFLICT (teammate_id) DO NOTHING RETURNING teammate_id::text`
	qImportLinkItem = `UPDATE memory_imports SET item_id = $2 WHERE teammate_id = $1`
	qImportExists   = `SELECT EXISTS (SELECT 1 FROM memory_imports WHERE teammate_id = $1)`
)

// MemoryImported reports whether teammate id's MEMORY.md import has happened (worker only).
func (s *Service) MemoryImported(ctx context.Context, teammateID string) (bool, error) {
	if _, err := require(ctx, CredentialWorker); err != nil {
		return false, err
	}
	teammateID, err := parseID("teammateId", teammateID)
	if err != nil {
		return false, err
	}
	if err := s.checkTeammateExists(ctx, teammateID); err != nil {
		return false, err
	}
	var yes bool
	err = s.pool.QueryRow(ctx, qImportExists, teammateID).Scan(&yes)
	return yes, err
}

// ImportMemoryFile stores a workspace's MEMORY.md once per teammate (M1, worker only): content nil
// records that there is no file; otherwise the file becomes pinned notes (source import), split at
// paragraph boundaries into pieces of at most MaxContentLength characters. The import record's
// primary key makes concurrent preparations import exactly once: the loser gets ImportAlready.
func (s *Service) ImportMemoryFile(ctx context.Context, teammateID string, content *string) (ImportResult, error) {
	if _, err := require(ctx, CredentialWorker); err != nil {
		return ImportResult{}, err
	}
	teammateID, err := parseID("teammateId", teammateID)
	if err != nil {
		return ImportResult{}, err
	}
	var pieces []string
	var hash []byte
	outcome := ImportAbsent
	if content != nil {
		text := *content
		switch {
		case len(text) > MaxMemoryFileBytes:
			return ImportResult{}, invalid("content", fmt.Sprintf("MEMORY.md is larger than %d bytes", MaxMemoryFileBytes))
		case !utf8.ValidString(text):
			return ImportResult{}, invalid("content", "MEMORY.md must be valid UTF-8")
		case strings.ContainsRune(text, 0):
			return ImportResult{}, invalid("content", "MEMORY.md must not contain NUL characters")
		}
		h := sha256.Sum256([]byte(text))
		hash, outcome, pieces = h[:], ImportImported, splitNotes(text, MaxContentLength)
	}
	res := ImportResult{Outcome: outcome}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockScopeTx(ctx, tx, teammateID); err != nil {
			return err
		}
		var id string
		if err := tx.QueryRow(ctx, qImportInsert, teammateID, outcome, hash).Scan(&id); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				res.Outcome = ImportAlready
				return nil
			}
			return err
		}
		for _, p := range pieces {
			item, err := s.insertItemTx(ctx, tx, newItem{
				scope: Scope{TeammateID: &teammateID}, state: state{content: p, kind: KindNote, pinned: true},
				status: StatusActive, source: SourceImport, actor: "import",
			})
			if err != nil {
				return err
			}
			res.Items = append(res.Items, item)
		}
		if len(res.Items) > 0 {
			_, err := tx.Exec(ctx, qImportLinkItem, teammateID, res.Items[0].ID)
			return err
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, wrapUnlessDomain("import MEMORY.md", err)
	}
	s.log.InfoContext(ctx, "MEMORY.md import", "teammate", teammateID, "outcome", string(res.Outcome), "notes", len(res.Items))
	return res, nil
}

// splitNotes cuts text into pieces of at most max characters: at blank lines when it can, then at
// line ends, then anywhere. Blank pieces are dropped; a blank file gives none.
func splitNotes(text string, max int) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	add := func(part, sep string) bool {
		if utf8.RuneCountInString(cur.String())+utf8.RuneCountInString(sep+part) <= max {
			if cur.Len() > 0 {
				cur.WriteString(sep)
			}
			cur.WriteString(part)
			return true
		}
		return false
	}
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if add(para, "\n\n") {
			continue
		}
		flush()
		if add(para, "") {
			continue
		}
		for _, line := range strings.Split(para, "\n") {
			if add(line, "\n") {
				continue
			}
			flush()
			for r := []rune(line); len(r) > 0; {
				n := min(max, len(r))
				cur.WriteString(string(r[:n]))
				flush()
				r = r[n:]
			}
		}
	}
	flush()
	return out
}

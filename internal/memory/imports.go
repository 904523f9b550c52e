package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
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

// MemoryImported reports whether teammate id's MEMORY.md import has happened (worker only).
func (w *Worker) MemoryImported(ctx context.Context, teammateID string) (bool, error) {
	s := w.service()
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
	return queries(s.pool).ImportExists(ctx, teammateID)
}

// ImportMemoryFile stores a workspace's MEMORY.md once per teammate (M1, worker only): content nil
// records that there is no file; otherwise the file becomes pinned notes (source import), one per
// section and of at most ImportNoteMaxCharacters each (see splitNotes). The import record's
// primary key makes concurrent preparations import exactly once: the loser gets ImportAlready.
func (w *Worker) ImportMemoryFile(ctx context.Context, teammateID string, content *string) (ImportResult, error) {
	s := w.service()
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
		// Keyed: the file's notes may be forgotten, and a plain hash of a short file is reversible.
		hash, outcome, pieces = s.importHash(text), ImportImported, splitNotes(text, ImportNoteMaxCharacters)
	}
	var res ImportResult
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		res = ImportResult{Outcome: outcome}
		if err := lockScopeTx(ctx, tx, teammateID); err != nil {
			return err
		}
		q := queries(tx)
		if _, err := q.ImportInsert(ctx, memorydb.ImportInsertParams{
			TeammateID: teammateID, Outcome: string(outcome), ContentHash: hash,
		}); err != nil {
			if errors.Is(err, ErrNotFound) { // an import record exists already
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
			return q.ImportLinkItem(ctx, memorydb.ImportLinkItemParams{TeammateID: teammateID, ItemID: &res.Items[0].ID})
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, wrapUnlessDomain("import MEMORY.md", err)
	}
	s.log.InfoContext(ctx, "MEMORY.md import", "teammate", teammateID, "outcome", string(res.Outcome), "notes", len(res.Items))
	return res, nil
}

// ImportNoteMaxCharacters is the size the MEMORY.md import aims its notes at: a section of the
// file per note, cut at paragraphs (then lines, then words) when it is longer, so that each note is
// something the user can read, correct or forget on its own and recall can pick — rather than one
// pinned blob that fills a packet by itself.
const ImportNoteMaxCharacters = 1200

// splitNotes cuts a MEMORY.md into notes of at most max characters (M1): a new note starts at every
// Markdown heading (a line of 1–6 '#' and a space, outside fenced code blocks); a section longer
// than max is cut at blank lines, a paragraph longer than that at line ends, a line at spaces, and a
// word anywhere (never inside a character). Blank notes are dropped; a blank file gives none. Line
// endings become "\n" and notes are trimmed; nothing else of the text changes, so the notes hold
// the whole file in order.
func splitNotes(text string, max int) []string {
	var out []string
	for _, sec := range markdownSections(strings.ReplaceAll(text, "\r\n", "\n")) {
		var cur strings.Builder
		flush := func() {
			if s := strings.TrimSpace(cur.String()); s != "" {
				out = append(out, s)
			}
			cur.Reset()
		}
		// add appends part after sep if the note has room for it; a part is never split here.
		add := func(part, sep string) bool {
			if cur.Len() == 0 {
				sep = ""
			}
			if utf8.RuneCountInString(cur.String())+utf8.RuneCountInString(sep+part) > max {
				return false
			}
			cur.WriteString(sep + part)
			return true
		}
		for _, para := range strings.Split(sec, "\n\n") {
			if para = strings.Trim(para, "\n"); strings.TrimSpace(para) == "" || add(para, "\n\n") {
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
				if add(line, "") {
					continue
				}
				for _, word := range strings.SplitAfter(line, " ") {
					if add(word, "") {
						continue
					}
					flush()
					for r := []rune(word); len(r) > 0; { // cur is empty here
						n := min(max, len(r))
						cur.WriteString(string(r[:n]))
						if r = r[n:]; len(r) > 0 {
							flush()
						}
					}
				}
			}
		}
		flush()
	}
	return out
}

// markdownSections cuts text before every heading line outside fenced code blocks.
func markdownSections(text string) []string {
	var (
		out   []string
		cur   strings.Builder
		fence bool
	)
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if !fence && isHeading(line) && cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
		cur.WriteString(line)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// isHeading reports whether line is an ATX Markdown heading: up to three spaces, 1–6 '#', then a
// space or the end of the line.
func isHeading(line string) bool {
	line = strings.TrimRight(line, "\n")
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return false
	}
	hashes := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
	if hashes < 1 || hashes > 6 {
		return false
	}
	rest := trimmed[hashes:]
	return rest == "" || rest[0] == ' ' || rest[0] == '\t'
}

package db

import (
	"bufio"
	"cmp"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/open-bot/memory/migrations"
)

// LossyMarker starts the first line of a down migration that loses data. The comment lines after it,
// up to a bare "--" or the first statement, say exactly what is lost; that text is what the operator
// is shown before agreeing to the loss. A down loses data when it deletes rows, drops a table or a
// column that holds any, or leaves data that the older code reads wrongly.
const LossyMarker = "-- lossy:"

// Lossy says whether MigrateTo and MigrateDown may run a down migration that loses data.
type Lossy bool

const (
	// RefuseLossy stops before changing anything when a down on the way is lossy.
	RefuseLossy Lossy = false
	// AllowLossy runs lossy downs too: the operator accepted the loss (api migrate … --allow-lossy).
	AllowLossy Lossy = true
)

// LossyDown is a down migration marked with LossyMarker.
type LossyDown struct {
	Version uint
	// File is the down migration's file name, e.g. 000018_forget_ledger.down.sql.
	File string
	// Loses is the marker's text: what running the down loses.
	Loses string
}

// LossError is the refusal of MigrateTo or MigrateDown to run lossy downs without AllowLossy. Nothing
// was changed: the database is still at From.
type LossError struct {
	From, To uint
	// Downs are the lossy downs between From and To, in the order they would run.
	Downs []LossyDown
}

func (e *LossError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "migrating down from %d to %d loses data, so nothing was changed (the database is still at %d):",
		e.From, e.To, e.From)
	for _, d := range e.Downs {
		fmt.Fprintf(&b, "\n  %s loses %s", d.File, d.Loses)
	}
	b.WriteString("\nBack the database up first (api backup); to accept the loss, run the command again with --allow-lossy.")
	return b.String()
}

// LossyDowns lists the embedded down migrations marked with LossyMarker, oldest first.
func LossyDowns() ([]LossyDown, error) {
	names, err := fs.Glob(migrations.FS, "*.down.sql")
	if err != nil {
		return nil, err
	}
	var downs []LossyDown
	for _, name := range names {
		number, _, _ := strings.Cut(name, "_")
		version, err := strconv.ParseUint(number, 10, 0)
		if err != nil {
			return nil, fmt.Errorf("migration %s: the name doesn't start with a version: %w", name, err)
		}
		text, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			return nil, err
		}
		if loses, ok := lossyText(string(text)); ok {
			downs = append(downs, LossyDown{Version: uint(version), File: name, Loses: loses})
		}
	}
	slices.SortFunc(downs, func(a, b LossyDown) int { return cmp.Compare(a.Version, b.Version) })
	return downs, nil
}

// lossyText returns the text of a down migration's LossyMarker, its continuation lines joined into
// one, and whether the file has the marker on its first line.
func lossyText(sql string) (string, bool) {
	s := bufio.NewScanner(strings.NewReader(sql))
	if !s.Scan() {
		return "", false
	}
	first, ok := strings.CutPrefix(s.Text(), LossyMarker)
	if !ok {
		return "", false
	}
	words := strings.Fields(first)
	for s.Scan() {
		line, comment := strings.CutPrefix(strings.TrimSpace(s.Text()), "--")
		if !comment || strings.TrimSpace(line) == "" {
			break
		}
		words = append(words, strings.Fields(line)...)
	}
	return strings.Join(words, " "), true
}

// refuseLoss returns a *LossError when going down from version from to version to runs a lossy down
// and lossy is RefuseLossy.
func refuseLoss(from, to uint, lossy Lossy) error {
	if lossy == AllowLossy || to >= from {
		return nil
	}
	all, err := LossyDowns()
	if err != nil {
		return err
	}
	e := &LossError{From: from, To: to}
	for _, d := range slices.Backward(all) {
		if d.Version > to && d.Version <= from {
			e.Downs = append(e.Downs, d)
		}
	}
	if len(e.Downs) == 0 {
		return nil
	}
	return e
}

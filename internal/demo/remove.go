package demo

import (
	"context"
	"fmt"
	"regexp"

	"github.com/open-bot/memory/internal/memory"
)

// Mark is how the demo labels what it writes: "(demo)", or "(demo lesson)", "(demo suggestion)", in
// teammates' names and memory texts. The web app labels demo rows by the same mark.
var Mark = regexp.MustCompile(`(?i)\(demo(?: [a-z]+)?\)`)

// Removed is what Remove took away.
type Removed struct {
	// Teammates are the deleted demo teammates, each with everything it had (memory.DeleteTeammate).
	Teammates []memory.DeleteResult
	// SharedItems is the number of forgotten demo items of the shared memory.
	SharedItems int
}

// Remove takes the demo away for the user whose credential ctx carries: every teammate whose name
// carries the demo's mark is deleted with all its memory, conversations and lessons, and every
// active shared item whose text carries the mark is forgotten (RULES F1–F6), in one bulk forget.
// The mark is the only sign of demo data the database keeps, so a user who named a teammate
// "X (demo)" loses it too; the app's confirmation lists every name and text before it calls this.
//
// Each deletion is its own transaction; if one fails, what was removed stays removed and calling
// Remove again finishes the job (it finds only what is left).
func Remove(ctx context.Context, svc *memory.Service) (Removed, error) {
	var out Removed
	teammates, err := svc.Teammates(ctx)
	if err != nil {
		return out, err
	}
	for _, t := range teammates {
		if !Mark.MatchString(t.Name) {
			continue
		}
		res, err := svc.DeleteTeammate(ctx, t.ID)
		if err != nil {
			return out, fmt.Errorf("remove the demo: delete %q: %w", t.Name, err)
		}
		out.Teammates = append(out.Teammates, res)
	}
	refs, err := markedSharedItems(ctx, svc)
	if err != nil || len(refs) == 0 {
		return out, err
	}
	forgotten, _, err := svc.ForgetMemories(ctx, refs, nil)
	if err != nil {
		return out, fmt.Errorf("remove the demo: forget its shared memories: %w", err)
	}
	out.SharedItems = len(forgotten)
	return out, nil
}

// markedSharedItems lists the active shared items whose text carries the mark, at the revision read
// (a bulk forget erases only what was read, R2), at most memory.MaxBulkItems of them.
func markedSharedItems(ctx context.Context, svc *memory.Service) ([]memory.ItemRef, error) {
	var refs []memory.ItemRef
	f := memory.ListFilter{Search: "demo"}
	for {
		page, err := svc.ListItems(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			key := ""
			if it.Key != nil {
				key = *it.Key
			}
			if (Mark.MatchString(it.Content) || Mark.MatchString(key)) && len(refs) < memory.MaxBulkItems {
				refs = append(refs, memory.ItemRef{ID: it.ID, BaseRevision: it.Revision})
			}
		}
		if !page.HasNext || len(page.Items) == 0 {
			return refs, nil
		}
		f.After = page.Cursor(page.Items[len(page.Items)-1])
	}
}

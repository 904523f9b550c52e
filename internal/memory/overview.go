package memory

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// TeammateActivity is what the teammate list shows about each teammate: how much memory it keeps,
// how many suggestions wait for the user, and when it last talked or changed.
type TeammateActivity struct {
	TeammateID string
	// Memories counts the active items of the teammate's own scope (lessons included).
	Memories int
	// Suggestions counts the candidates waiting in the teammate's scope (A2).
	Suggestions int
	// LastConversationAt is when its newest run started; nil when it never ran.
	LastConversationAt *time.Time
	// LastActivityAt is the newest of: created, last run, last change to an item of its scope.
	LastActivityAt time.Time
}

func activityFromRow(r *memorydb.TeammatesActivityRow) TeammateActivity {
	a := TeammateActivity{TeammateID: r.ID, Memories: r.Memories, Suggestions: r.Suggestions, LastActivityAt: r.LastActivityAt}
	if r.HasRun {
		a.LastConversationAt = &r.LastConversationAt
	}
	return a
}

// TeammateActivities loads the activity of teammates for a dataloader (user only): one statement for
// the whole list, results in ids' order, ErrNotFound for an id that names no teammate.
func (s *Service) TeammateActivities(ctx context.Context, ids []string) ([]TeammateActivity, []error) {
	out := make([]TeammateActivity, len(ids))
	errs := make([]error, len(ids))
	fail := func(err error) ([]TeammateActivity, []error) {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	if _, err := require(ctx, CredentialUser); err != nil {
		return fail(err)
	}
	rows, err := queries(s.pool).TeammatesActivity(ctx, ids)
	if err != nil {
		return fail(fmt.Errorf("teammate activity: %w", err))
	}
	found := mapRows(rows, activityFromRow)
	byID := make(map[string]TeammateActivity, len(found))
	for _, a := range found {
		byID[a.TeammateID] = a
	}
	for i, id := range ids {
		if a, ok := byID[id]; ok {
			out[i] = a
		} else {
			errs[i] = ErrNotFound
		}
	}
	return out, errs
}

// MaxSearchAllResults bounds what SearchAll returns.
const MaxSearchAllResults = 50

// SearchAll searches the active memory of every scope — shared and every teammate's — at once (user
// only; a teammate never reads another's scope, S1). first is 1–50, default 50.
func (s *Service) SearchAll(ctx context.Context, search string, first *int) ([]Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return nil, err
	}
	search = strings.TrimSpace(search)
	if err := checkText("search", search, MaxSearchLength, true); err != nil {
		return nil, err
	}
	limit := MaxSearchAllResults
	if first != nil {
		if *first < 1 || *first > MaxSearchAllResults {
			return nil, invalid("first", fmt.Sprintf("must be between 1 and %d", MaxSearchAllResults))
		}
		limit = *first
	}
	rows, err := queries(s.pool).ItemsSearchAll(ctx, memorydb.ItemsSearchAllParams{
		Words: search, Pattern: "%" + escapeLike(search) + "%", MaxRows: limit,
	})
	if err != nil {
		return nil, fmt.Errorf("search all memory: %w", err)
	}
	items := mapRows(rows, itemFromRow)
	return items, nil
}

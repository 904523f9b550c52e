package memory

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// ListFilter selects items of one scope for ListItems.
type ListFilter struct {
	Scope Scope
	// Status defaults to StatusActive.
	Status Status
	Kind   *Kind
	// Kinds, when not empty, keeps only items of these kinds (together with Kind: of both).
	Kinds []Kind
	// Search matches words (full text, English stemming) or any part of the content or key.
	Search string
	First  *int
	// After is the cursor of the last item of the previous page.
	After string
}

// ItemPage is one page of ListItems, pinned first, then most recently changed.
type ItemPage struct {
	Items   []Item
	HasNext bool
	filter  memorydb.ItemsCountParams
}

// Cursor is the opaque position of item in the list order, for After.
func (ItemPage) Cursor(item Item) string {
	b, _ := json.Marshal(cursor{Pinned: item.Pinned, Updated: item.UpdatedAt, ID: item.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

type cursor struct {
	Pinned  bool      `json:"p"`
	Updated time.Time `json:"u"`
	ID      string    `json:"i"`
}

// ListItems returns a page of one scope's items. Runs read shared and their own scope, active items
// only (A2: candidates are never given to a run); only the user lists suggestions (candidate and
// dismissed items, see CanReadSuggestions).
func (s *Service) ListItems(ctx context.Context, f ListFilter) (ItemPage, error) {
	sc, err := s.CheckScopeReadable(ctx, f.Scope)
	if err != nil {
		return ItemPage{}, err
	}
	if f.Status == "" {
		f.Status = StatusActive
	}
	if !f.Status.valid() {
		return ItemPage{}, invalid("status", "must be active, candidate, dismissed or forgotten")
	}
	if err := mayList(ctx, sc.String(), f.Status); err != nil {
		return ItemPage{}, err
	}
	if f.Kind != nil && !f.Kind.valid() {
		return ItemPage{}, invalid("kind", "must be fact, preference, lesson or note")
	}
	limit, err := pageSize(f.First)
	if err != nil {
		return ItemPage{}, err
	}
	q := memorydb.ItemsCountParams{Scope: sc.String(), Status: string(f.Status), Kind: (*string)(f.Kind)}
	if len(f.Kinds) > 0 { // nil: any kind
		q.Kinds = make([]string, len(f.Kinds))
		for i, k := range f.Kinds {
			if !k.valid() {
				return ItemPage{}, invalid("kinds", "must be fact, preference, lesson or note")
			}
			q.Kinds[i] = string(k)
		}
	}
	if search := strings.TrimSpace(f.Search); search != "" {
		if err := checkText("search", search, MaxSearchLength, false); err != nil {
			return ItemPage{}, err
		}
		pattern := "%" + escapeLike(search) + "%"
		q.Words, q.Pattern = &search, &pattern
	}
	list := memorydb.ItemsListParams{
		Scope: q.Scope, Status: q.Status, Kind: q.Kind, Kinds: q.Kinds, Words: q.Words, Pattern: q.Pattern,
		MaxRows: limit + 1,
	}
	if f.After != "" {
		var cur cursor
		raw, err := base64.RawURLEncoding.DecodeString(f.After)
		if err == nil {
			err = json.Unmarshal(raw, &cur)
		}
		if err == nil {
			_, err = parseID("after", cur.ID)
		}
		if err != nil {
			return ItemPage{}, invalid("after", "is not a cursor from this list")
		}
		list.AfterPinned, list.AfterUpdated, list.AfterID = &cur.Pinned, &cur.Updated, &cur.ID
	}
	rows, err := queries(s.pool).ItemsList(ctx, list)
	if err != nil {
		return ItemPage{}, fmt.Errorf("list memory: %w", err)
	}
	items := mapRows(rows, itemFromRow)
	if err := withholdForRun(ctx, s.pool, CredentialFrom(ctx), items); err != nil { // S4
		return ItemPage{}, err
	}
	page := ItemPage{Items: items, filter: q}
	if len(items) > limit {
		page.Items, page.HasNext = items[:limit], true
	}
	return page, nil
}

// Count is the number of items the page's filter matches across all pages.
func (s *Service) Count(ctx context.Context, p ItemPage) (int, error) {
	if err := mayList(ctx, p.filter.Scope, Status(p.filter.Status)); err != nil {
		return 0, err
	}
	n, err := queries(s.pool).ItemsCount(ctx, p.filter)
	if err != nil {
		return 0, fmt.Errorf("count memory: %w", err)
	}
	return int(n), nil
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Item returns one item (a forgotten one keeps no content). Runs may read active items of shared and
// their own scope only; a suggestion is NOT_FOUND to anyone but the user (CanReadSuggestions) — and so
// is, to a run, the id of a suggestion the tombstones suppressed, after the same scope check (F3,
// suppressed.go). A run reads evidence from its own teammate's conversations only (S4, evidence.go).
func (s *Service) Item(ctx context.Context, id string) (Item, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return Item{}, err
	}
	if id, err = parseID("id", id); err != nil {
		return Item{}, err
	}
	row, err := queries(s.pool).ItemGet(ctx, id)
	if errors.Is(err, ErrNotFound) && c.Kind == CredentialRun {
		if scope, err := s.suppressedScope(ctx, id); err == nil && !c.CanReadScope(scope) {
			return Item{}, ErrForbidden
		}
		return Item{}, ErrNotFound
	}
	if err != nil {
		return Item{}, err
	}
	item := itemFromRow(row)
	if !c.CanReadScope(item.Scope) {
		return Item{}, ErrForbidden
	}
	if c.Kind == CredentialRun && item.Status != StatusActive {
		return Item{}, ErrNotFound
	}
	if item.Status.isSuggestion() && !c.CanReadSuggestions() {
		return Item{}, ErrNotFound
	}
	items := []Item{item}
	if err := withholdForRun(ctx, s.pool, c, items); err != nil {
		return Item{}, err
	}
	return items[0], nil
}

// RevisionPage is a page of an item's revisions, newest first.
type RevisionPage struct {
	Revisions []Revision
	HasNext   bool
}

// Revisions returns the item's revisions newest first; after is a revision number (exclusive). To a
// run they name no other teammate (S4, evidence.go).
func (s *Service) Revisions(ctx context.Context, itemID string, first *int, after *int) (RevisionPage, error) {
	if _, err := s.Item(ctx, itemID); err != nil { // checks the id and the caller's reach
		return RevisionPage{}, err
	}
	limit, err := pageSize(first)
	if err != nil {
		return RevisionPage{}, err
	}
	rows, err := queries(s.pool).RevisionsList(ctx, memorydb.RevisionsListParams{ItemID: itemID, Before: after, MaxRows: limit + 1})
	if err != nil {
		return RevisionPage{}, fmt.Errorf("list revisions: %w", err)
	}
	revs := mapRows(rows, revisionFromRow)
	if err := withholdAuthorsForRun(ctx, s.pool, CredentialFrom(ctx), revs); err != nil {
		return RevisionPage{}, err
	}
	page := RevisionPage{Revisions: revs}
	if len(revs) > limit {
		page.Revisions, page.HasNext = revs[:limit], true
	}
	return page, nil
}

// TeammatesByID loads teammates for a dataloader; the result is in ids' order, with ErrNotFound for
// ids that name no teammate the caller can see.
func (s *Service) TeammatesByID(ctx context.Context, ids []string) ([]Teammate, []error) {
	out := make([]Teammate, len(ids))
	errs := make([]error, len(ids))
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	rows, err := queries(s.pool).TeammatesByIDs(ctx, ids)
	found := mapRows(rows, teammateFromRow)
	byID := make(map[string]Teammate, len(found))
	for _, t := range found {
		byID[t.ID] = t
	}
	for i, id := range ids {
		t, ok := byID[id]
		switch {
		case err != nil:
			errs[i] = fmt.Errorf("load teammates: %w", err)
		case !ok:
			errs[i] = ErrNotFound
		case !c.canReadTeammate(id):
			errs[i] = ErrForbidden
		default:
			out[i] = t
		}
	}
	return out, errs
}

// RunTeammatesByID returns, for each run id, the id of the teammate it belongs to (user only): a
// suggestion links to the conversation that made it. It serves a dataloader (one query per list).
func (s *Service) RunTeammatesByID(ctx context.Context, runIDs []string) ([]string, []error) {
	out := make([]string, len(runIDs))
	errs := make([]error, len(runIDs))
	byID := map[string]string{}
	_, err := require(ctx, CredentialUser)
	if err == nil {
		var rows []*memorydb.RunsTeammatesRow
		rows, err = queries(s.pool).RunsTeammates(ctx, runIDs)
		for _, r := range rows {
			byID[r.ID] = r.TeammateID
		}
		if err != nil && !isDomain(err) {
			err = fmt.Errorf("load runs' teammates: %w", err)
		}
	}
	for i, id := range runIDs {
		switch t, ok := byID[id]; {
		case err != nil:
			errs[i] = err
		case !ok:
			errs[i] = ErrNotFound
		default:
			out[i] = t
		}
	}
	return out, errs
}

// mayList checks that the caller may list scope's items of status: it reads the scope (S1), a run
// lists active items only (A2), and only the user lists suggestions (CanReadSuggestions).
func mayList(ctx context.Context, scope string, status Status) error {
	c, err := readScope(ctx, scope)
	switch {
	case err != nil:
		return err
	case c.Kind == CredentialRun && status != StatusActive, status.isSuggestion() && !c.CanReadSuggestions():
		return ErrForbidden
	}
	return nil
}

// CurrentActionsByID returns, for each item id, the action of its current revision (ActionConfirm:
// the user confirmed a suggestion, and the item hasn't changed since). It serves a dataloader for
// items the caller has already read, so it reveals nothing of items it couldn't; an id of no item
// is ErrNotFound.
func (s *Service) CurrentActionsByID(ctx context.Context, ids []string) ([]Action, []error) {
	out := make([]Action, len(ids))
	errs := make([]error, len(ids))
	byID := map[string]Action{}
	_, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err == nil {
		var rows []*memorydb.RevisionsCurrentActionsRow
		rows, err = queries(s.pool).RevisionsCurrentActions(ctx, ids)
		for _, r := range rows {
			byID[r.ItemID] = Action(r.Action)
		}
		if err != nil && !isDomain(err) {
			err = fmt.Errorf("load items' current actions: %w", err)
		}
	}
	for i, id := range ids {
		switch a, ok := byID[id]; {
		case err != nil:
			errs[i] = err
		case !ok:
			errs[i] = ErrNotFound
		default:
			out[i] = a
		}
	}
	return out, errs
}

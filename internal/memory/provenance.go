package memory

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"
)

// Provenance is where an item came from, as the web app says it in words: "Saved by Ada when you
// said '…' — today", "Confirmed by you from Ada's suggestion", "Imported from a file", "Added by
// you". It is read from what the item itself records (its source, source run and evidence) and from
// its revisions (when the user confirmed it), so it says nothing the item's other fields don't.
//
// Its quote is the item's evidence: the sentence of the user's message the teammate's write came
// from. It is erased with the item when the item is forgotten (F1), and with the conversation when
// its teammate is deleted (S4); to a run, it and the source run are withheld unless they come from
// its own teammate's conversations (S4, evidence.go), and so is the teammate's name.
type Provenance struct {
	Kind ProvenanceKind
	// TeammateID is the teammate whose run saved or suggested the item; nil when none (the user's
	// own, an import), when that teammate was deleted, and to a run for another teammate.
	TeammateID *string
	// RunID is that run, under the same rules.
	RunID *string
	// Quote is the user's words the write came from; nil when none was kept or it was erased.
	Quote *string
	// At is when the item was first written.
	At time.Time
	// ConfirmedAt is when the user confirmed it from a suggestion; nil otherwise.
	ConfirmedAt *time.Time
}

// ProvenanceKind says in one word how an item came to be.
type ProvenanceKind string

// The kinds of provenance.
const (
	// ProvenanceAddedByYou: the user wrote it.
	ProvenanceAddedByYou ProvenanceKind = "added_by_you"
	// ProvenanceSavedByTeammate: a teammate saved it because the user asked (A1).
	ProvenanceSavedByTeammate ProvenanceKind = "saved_by_teammate"
	// ProvenanceConfirmedSuggestion: the user confirmed a teammate's suggestion (A2).
	ProvenanceConfirmedSuggestion ProvenanceKind = "confirmed_suggestion"
	// ProvenanceSuggestedByTeammate: a teammate's suggestion, not (or not yet) confirmed.
	ProvenanceSuggestedByTeammate ProvenanceKind = "suggested_by_teammate"
	// ProvenanceFoundInConversation: extraction found it in a conversation; the user confirmed it,
	// or it waits.
	ProvenanceFoundInConversation ProvenanceKind = "found_in_conversation"
	// ProvenanceImported: it came from a file the user imported.
	ProvenanceImported ProvenanceKind = "imported"
	// ProvenanceFromFeedback: the user kept it as a lesson from their rating of a reply.
	ProvenanceFromFeedback ProvenanceKind = "from_feedback"
)

// ProvenancesByID returns the provenance of each item of ids, in ids' order, for a dataloader: one
// round of queries for a whole list. An item the caller can't read is ErrNotFound or ErrForbidden,
// with exactly Item's rules: a run reads active items of shared and its own scope only.
func (s *Service) ProvenancesByID(ctx context.Context, ids []string) ([]Provenance, []error) {
	out := make([]Provenance, len(ids))
	errs := make([]error, len(ids))
	fail := func(err error) ([]Provenance, []error) {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return fail(err)
	}
	rows, err := queries(s.pool).ItemsGetByIDs(ctx, ids)
	if err != nil {
		return fail(fmt.Errorf("load items' provenance: %w", err))
	}
	items := mapRows(rows, itemFromRow)
	readable := items[:0]
	for _, it := range items {
		if !c.CanReadScope(it.Scope) || (c.Kind == CredentialRun && it.Status != StatusActive) ||
			(it.Status.isSuggestion() && !c.CanReadSuggestions()) {
			continue
		}
		readable = append(readable, it)
	}
	if err := withholdForRun(ctx, s.pool, c, readable); err != nil {
		return fail(err)
	}
	var itemIDs, runIDs []string
	for _, it := range readable {
		itemIDs = append(itemIDs, it.ID)
		if it.SourceRunID != nil {
			runIDs = append(runIDs, *it.SourceRunID)
		}
	}
	confirmed := map[string]time.Time{}
	teammateOf := map[string]string{}
	if len(itemIDs) > 0 {
		crows, err := queries(s.pool).ProvenanceConfirmations(ctx, itemIDs)
		if err != nil {
			return fail(fmt.Errorf("load items' confirmations: %w", err))
		}
		for _, r := range crows {
			confirmed[r.ItemID] = r.ConfirmedAt
		}
	}
	if len(runIDs) > 0 {
		// To a run, withholdForRun left only runs of its own teammate.
		rrows, err := queries(s.pool).RunsTeammates(ctx, runIDs)
		if err != nil {
			return fail(fmt.Errorf("load runs' teammates: %w", err))
		}
		for _, r := range rrows {
			teammateOf[r.ID] = r.TeammateID
		}
	}
	byID := make(map[string]Provenance, len(readable))
	for _, it := range readable {
		p := Provenance{At: it.CreatedAt, Quote: it.Evidence, Kind: provenanceKind(it, confirmed)}
		if at, ok := confirmed[it.ID]; ok {
			p.ConfirmedAt = &at
		}
		if it.SourceRunID != nil {
			if tid, ok := teammateOf[*it.SourceRunID]; ok {
				run, teammate := *it.SourceRunID, tid
				p.RunID, p.TeammateID = &run, &teammate
			}
		}
		if p.RunID == nil {
			p.Quote = nil // no conversation to quote from: the run's teammate is gone
		}
		byID[it.ID] = p
	}
	for i, id := range ids {
		p, ok := byID[id]
		if ok {
			out[i] = p
			continue
		}
		// Not readable, or no such item: the same answer Item gives.
		_, errs[i] = s.Item(ctx, id)
		if errs[i] == nil {
			errs[i] = ErrNotFound
		}
	}
	return out, errs
}

func provenanceKind(it Item, confirmed map[string]time.Time) ProvenanceKind {
	_, wasConfirmed := confirmed[it.ID]
	switch it.Source {
	case SourceTeammate:
		if wasConfirmed {
			return ProvenanceConfirmedSuggestion
		}
		if it.Status.isSuggestion() || it.Resolution != nil {
			return ProvenanceSuggestedByTeammate
		}
		return ProvenanceSavedByTeammate
	case SourceExtraction:
		return ProvenanceFoundInConversation
	case SourceImport:
		return ProvenanceImported
	case SourceFeedback:
		return ProvenanceFromFeedback
	default:
		return ProvenanceAddedByYou
	}
}

// RunChangeKind says what a teammate's run did to one item.
type RunChangeKind string

// The kinds of a run's change.
const (
	// RunChangeSaved: saved as memory, as the user asked (A1).
	RunChangeSaved RunChangeKind = "saved"
	// RunChangeSuggested: saved as a suggestion for the user (A2).
	RunChangeSuggested RunChangeKind = "suggested"
	// RunChangeProposedChange: proposed changing an item (A4).
	RunChangeProposedChange RunChangeKind = "proposed_change"
	// RunChangeProposedForget: proposed forgetting an item (A5).
	RunChangeProposedForget RunChangeKind = "proposed_forget"
	// RunChangeCorrected: changed an item, as the user asked (A4).
	RunChangeCorrected RunChangeKind = "corrected"
	// RunChangeForgot: forgot an item, as the user asked (A5).
	RunChangeForgot RunChangeKind = "forgot"
)

// RunChange is one thing a teammate's run did to memory, for the "Memory updated" line under its
// reply. Label is a short text of the item as it is now (its key, or the start of its content); nil
// once the item is forgotten, whatever the run did (F1), and for a proposal to forget.
type RunChange struct {
	Kind   RunChangeKind
	ItemID string
	// Scope is the item's scope now: where the app finds it.
	Scope string
	// Waiting is true while the item is a suggestion waiting for the user.
	Waiting bool
	Label   *string
	At      time.Time
}

// runChangeLabelRunes bounds a change's label.
const runChangeLabelRunes = 80

// RunChangesByID returns, for each run id, what its teammate's tools did to memory, oldest first
// (user only: it names items of every scope). It serves a dataloader (one query per list).
func (s *Service) RunChangesByID(ctx context.Context, runIDs []string) ([][]RunChange, []error) {
	out := make([][]RunChange, len(runIDs))
	errs := make([]error, len(runIDs))
	if _, err := require(ctx, CredentialUser); err != nil {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	rows, err := queries(s.pool).RunMemoryChanges(ctx, runIDs)
	if err != nil {
		err = fmt.Errorf("load runs' memory changes: %w", err)
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	byRun := map[string][]RunChange{}
	for _, r := range rows {
		ch := RunChange{ItemID: r.ItemID, Scope: r.Scope, At: r.CreatedAt, Waiting: Status(r.Status) == StatusCandidate}
		switch {
		case r.Action == string(ActionForget):
			if r.TargetItemID != nil {
				continue // a proposal that went with the item it named
			}
			ch.Kind = RunChangeForgot
		case r.Action == string(ActionCorrect):
			ch.Kind = RunChangeCorrected
		case r.ProposesForget:
			ch.Kind = RunChangeProposedForget
		case r.TargetItemID != nil:
			ch.Kind = RunChangeProposedChange
		case r.Confirmed || Status(r.Status).isSuggestion():
			ch.Kind = RunChangeSuggested
		default:
			ch.Kind = RunChangeSaved
		}
		if Status(r.Status) != StatusForgotten && ch.Kind != RunChangeForgot && !r.ProposesForget {
			label := r.Content
			if r.Key != nil {
				label = *r.Key
			}
			if utf8.RuneCountInString(label) > runChangeLabelRunes {
				label = string([]rune(label)[:runChangeLabelRunes-1]) + "…"
			}
			ch.Label = &label
		}
		byRun[r.RunID] = append(byRun[r.RunID], ch)
	}
	for i, id := range runIDs {
		out[i] = byRun[id]
		if out[i] == nil {
			out[i] = []RunChange{}
		}
	}
	return out, errs
}

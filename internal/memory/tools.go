package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"

	"github.com/open-bot/memory/internal/memory/intent"
)

// ToolOutcome says plainly what a teammate's memory tool did.
type ToolOutcome string

// The outcomes of a teammate's tool call.
const (
	// OutcomeSaved: saved as confirmed memory (A1).
	OutcomeSaved ToolOutcome = "saved"
	// OutcomeSuggested: waits for the user: a suggestion, a proposed change or a proposal to
	// forget (A2, A4, A5).
	OutcomeSuggested ToolOutcome = "suggested"
	// OutcomeUnchanged: the same text is already remembered; nothing written.
	OutcomeUnchanged ToolOutcome = "unchanged"
	// OutcomeDropped is never answered: a suggestion of a text the user forgot before is dropped
	// without the run being told (F3, suppressed.go); it answers OutcomeSuggested. The value stays
	// for the API's enum.
	OutcomeDropped ToolOutcome = "dropped"
	// OutcomeForgotten: erased (A5).
	OutcomeForgotten ToolOutcome = "forgotten"
	// OutcomeRefused: nothing changed; Message says why (a run past its suggestion budget).
	OutcomeRefused ToolOutcome = "refused"
)

// ToolResult is a tool's answer to the teammate. Message never contains memory text.
type ToolResult struct {
	Outcome ToolOutcome
	Message string
	// Reason is the judge's code for the decision behind every outcome it judged (A8): why the
	// write was confirmed or waits. It is "" for an outcome decided before the judge read the
	// message (the text already remembered, say). A code holds no text of memory or message.
	Reason intent.Reason
	// Item is what the tool wrote: nil when nothing was, and when it counted again a suggestion
	// another run made (suggestions are the user's, A2).
	Item *Item
	// Adopted is true when the run adopted the generation its own write produced (G6).
	Adopted bool
}

// ReasonCode is Reason as the API gives it: nil when the judge didn't decide the outcome.
func (r ToolResult) ReasonCode() *string {
	if r.Reason == "" {
		return nil
	}
	code := string(r.Reason)
	return &code
}

// RememberInput is toolRemember's (and toolRememberAboutUser's) input. The scope is never an
// argument: it is the run's teammate, or shared when ForEveryone (S2).
type RememberInput struct {
	Content     string
	Key         *string
	Kind        Kind
	ForEveryone bool
	// IdempotencyKey, when set, makes a retry of the same call (same run) answer this call's
	// answer instead of writing again (idempotency.go).
	IdempotencyKey *string
}

// ToolUpdateInput is toolUpdateMemory's input (Tools.UpdateMemory).
type ToolUpdateInput struct {
	ID           string
	BaseRevision int
	Content      string
	// IdempotencyKey: as RememberInput's.
	IdempotencyKey *string
}

// ToolForgetInput is toolForgetMemory's input (Tools.ForgetMemory).
type ToolForgetInput struct {
	ID string
	// IdempotencyKey: as RememberInput's.
	IdempotencyKey *string
}

// MaxToolResults bounds what toolSearchMemory and toolSearchHistory return.
const MaxToolResults = 20

func actorOf(run Run) string { return "teammate:" + run.TeammateID }

// Remember saves what a teammate learned (run credential). intent.Judge decides: confirmed memory when
// the user's message asks for it and contains it (A1, A3 for shared), a suggestion otherwise (A2). A
// suggestion whose text the user forgot before is dropped without the run being told: it is answered
// as any suggestion (F3, suppressed.go). A text already remembered is not saved twice. A confirmed
// preference is pinned (Kind.PinnedByDefault).
func (t *Tools) Remember(ctx context.Context, in RememberInput) (ToolResult, error) {
	s := t.service()
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return ToolResult{}, err
	}
	if in.Kind == "" {
		in.Kind = KindFact
	}
	if !in.Kind.valid() {
		return ToolResult{}, invalid("kind", "must be fact, preference, lesson or note")
	}
	if err := checkContent(in.Content); err != nil {
		return ToolResult{}, err
	}
	key, err := normalizeKey(in.Key)
	if err != nil {
		return ToolResult{}, err
	}
	sc := Scope{TeammateID: &c.TeammateID}
	if in.ForEveryone {
		sc = Scope{}
	}
	keyed := keyedWrite{key: in.IdempotencyKey, operation: opToolRemember, input: struct {
		Content     string  `json:"content"`
		Key         *string `json:"key"`
		Kind        Kind    `json:"kind"`
		ForEveryone bool    `json:"forEveryone"`
	}{in.Content, key, in.Kind, in.ForEveryone}}
	var d intent.Decision
	res, err := s.runWriteTx(ctx, sc.String(), keyed, func(tx pgx.Tx, run Run, message, messageID string) (ToolResult, error) {
		d = intent.Decision{}
		dup, err := queries(tx).ItemActiveTextExists(ctx, memorydb.ItemActiveTextExistsParams{
			Scope: sc.String(), ContentHash: ContentHash(in.Content),
		})
		if err != nil {
			return ToolResult{}, err
		}
		if dup {
			return ToolResult{Outcome: OutcomeUnchanged, Message: "This is already remembered; nothing was saved."}, nil
		}
		off, err := s.savingOffTx(ctx, tx, run)
		if err != nil {
			return ToolResult{}, err
		}
		waits := "Saved as a suggestion for the user to confirm, because "
		if off {
			d, waits = savingOff, ""
		} else {
			d = intent.Judge(message, intent.Write{Kind: intent.Save, Content: in.Content, Key: deref(key), Shared: in.ForEveryone})
		}
		n := newItem{
			scope: sc, state: state{content: in.Content, key: key, kind: in.Kind}, source: SourceTeammate,
			actor: actorOf(run), sourceRunID: &run.ID, sourceMessageID: &messageID,
		}
		if d.Verdict == intent.Confirmed {
			n.status, n.state.pinned = StatusActive, in.Kind.PinnedByDefault()
			// The sentence that asked is kept as the item's evidence, so the user sees where it came
			// from; it is erased with the item (F1) and read by runs as any evidence is (S4).
			if sentence := intent.SourceSentence(message, in.Content); sentence != "" {
				n.evidence = &sentence
			}
			item, err := s.insertItemTx(ctx, tx, n)
			if err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Outcome: OutcomeSaved, Reason: d.Reason, Item: &item,
				Message: "Saved to memory, as the user asked."}, nil
		}
		gone, err := s.tombstonedTx(ctx, tx, sc.String(), in.Content)
		if err != nil {
			return ToolResult{}, err
		}
		return s.suggestTx(ctx, tx, run, n, d, message, in.Content, waitMessage(waits, d), gone)
	})
	s.countJudged("save", d, err)
	return res, err
}

// UpdateMemory changes a visible active item for a teammate (run credential). With an explicit,
// matching request from the user it is a "correct" revision, based on baseRevision (R2); otherwise it
// becomes a suggestion that proposes the change (A4) — unless the item already holds that text up to
// A1's normaliser, when nothing is left to propose. With an idempotency key, a retry of the same call
// of the same run answers the first call's answer and changes nothing — not a CONFLICT, though the
// first call's correction moved the item past the base revision.
func (t *Tools) UpdateMemory(ctx context.Context, in ToolUpdateInput) (ToolResult, error) {
	s := t.service()
	id, baseRevision, content := in.ID, in.BaseRevision, in.Content
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return ToolResult{}, err
	}
	if id, err = parseID("id", id); err != nil {
		return ToolResult{}, err
	}
	if baseRevision < 1 {
		return ToolResult{}, invalid("baseRevision", "must be a revision number (1 or more)")
	}
	if err := checkContent(content); err != nil {
		return ToolResult{}, err
	}
	scope, err := s.visibleScope(ctx, c, id)
	if err != nil {
		return ToolResult{}, err
	}
	keyed := keyedWrite{key: in.IdempotencyKey, operation: opToolUpdate, input: struct {
		ID           string `json:"id"`
		BaseRevision int    `json:"baseRevision"`
		Content      string `json:"content"`
	}{id, baseRevision, content}}
	var d intent.Decision
	res, err := s.runWriteTx(ctx, scope, keyed, func(tx pgx.Tx, run Run, message, messageID string) (ToolResult, error) {
		d = intent.Decision{}
		cur, err := activeItemForUpdateTx(ctx, tx, id)
		if err != nil {
			return ToolResult{}, err
		}
		if err := checkBase(cur, baseRevision); err != nil {
			return ToolResult{}, err
		}
		next := itemState(cur)
		next.content = content
		if next.equal(itemState(cur)) {
			return ToolResult{Outcome: OutcomeUnchanged, Message: "The memory already says this; nothing changed."}, nil
		}
		off, err := s.savingOffTx(ctx, tx, run)
		if err != nil {
			return ToolResult{}, err
		}
		waits := "Not changed yet: the change waits for the user to confirm, because "
		if off {
			d, waits = savingOff, ""
		} else {
			d = intent.Judge(message, intent.Write{Kind: intent.Update, Content: content, Shared: cur.Scope == ScopeShared,
				Target: judgedTarget(cur)})
		}
		if d.Verdict == intent.Confirmed {
			item, err := s.writeRevisionTx(ctx, tx, cur, next, StatusActive, ActionCorrect, actorOf(run), &run.ID)
			if err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Outcome: OutcomeSaved, Reason: d.Reason, Item: &item,
				Message: "Memory corrected, as the user asked."}, nil
		}
		// The same text but for case, spacing or punctuation: the proposal would be settled as
		// already applied the moment it was made (resolveAppliedProposalsTx compares the same hash).
		if bytes.Equal(ContentHash(content), ContentHash(cur.Content)) {
			return ToolResult{Outcome: OutcomeUnchanged, Reason: d.Reason,
				Message: "The memory already says this, but for case, spacing or punctuation; nothing changed."}, nil
		}
		gone, err := s.tombstonedTx(ctx, tx, cur.Scope, content)
		if err != nil {
			return ToolResult{}, err
		}
		return s.suggestTx(ctx, tx, run, newItem{
			scope: Scope{TeammateID: cur.TeammateID}, source: SourceTeammate, actor: actorOf(run),
			state:       state{content: content, key: cur.Key, kind: cur.Kind, pinned: cur.Pinned, expiresAt: cur.ExpiresAt},
			sourceRunID: &run.ID, sourceMessageID: &messageID, targetItemID: &cur.ID, targetRevision: &cur.Revision,
		}, d, message, content, waitMessage(waits, d), gone)
	})
	s.countJudged("update", d, err)
	return res, err
}

// ForgetMemory erases a visible item for a teammate when the user's message asks to forget that
// item (A5). Otherwise nothing is erased: the forget waits as a proposal the user confirms or
// dismisses in Suggestions. With an idempotency key, a retry of the same call of the same run
// answers the first call's answer (FORGOTTEN, say — not NOT_FOUND for the item it erased).
func (t *Tools) ForgetMemory(ctx context.Context, in ToolForgetInput) (ToolResult, error) {
	s := t.service()
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return ToolResult{}, err
	}
	id, err := parseID("id", in.ID)
	if err != nil {
		return ToolResult{}, err
	}
	scope, err := s.visibleScope(ctx, c, id)
	if err != nil {
		return ToolResult{}, err
	}
	keyed := keyedWrite{key: in.IdempotencyKey, operation: opToolForget, input: struct {
		ID string `json:"id"`
	}{id}}
	var d intent.Decision
	res, err := s.runWriteTx(ctx, scope, keyed, func(tx pgx.Tx, run Run, message, messageID string) (ToolResult, error) {
		d = intent.Decision{}
		cur, err := activeItemForUpdateTx(ctx, tx, id)
		if err != nil {
			return ToolResult{}, err
		}
		off, err := s.savingOffTx(ctx, tx, run)
		if err != nil {
			return ToolResult{}, err
		}
		waits := "Not forgotten yet: the user is asked to confirm forgetting this memory, because "
		if off {
			d, waits = savingOff, ""
		} else {
			d = intent.Judge(message, intent.Write{Kind: intent.Forget, Shared: cur.Scope == ScopeShared,
				Target: judgedTarget(cur)})
		}
		if d.Verdict == intent.Confirmed {
			item, err := s.forgetItemTx(ctx, tx, cur, actorOf(run), &run.ID)
			if err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Outcome: OutcomeForgotten, Reason: d.Reason, Item: &item,
				Message: "Forgotten, as the user asked."}, nil
		}
		pending, err := queries(tx).ItemForgetProposalWaiting(ctx, cur.ID)
		if err != nil {
			return ToolResult{}, err
		}
		if pending {
			return ToolResult{Outcome: OutcomeUnchanged, Reason: d.Reason,
				Message: "Not forgotten: the user is already asked whether to forget this memory."}, nil
		}
		return s.suggestTx(ctx, tx, run, newItem{
			scope: Scope{TeammateID: cur.TeammateID}, state: state{kind: cur.Kind}, source: SourceTeammate,
			actor: actorOf(run), sourceRunID: &run.ID, sourceMessageID: &messageID,
			targetItemID: &cur.ID, targetRevision: &cur.Revision, proposesForget: true,
		}, d, message, cur.Content, waitMessage(waits, d), false)
	})
	s.countJudged("forget", d, err)
	return res, err
}

// suggestTx saves n as a suggestion of run (A2, A4, A5) with its source: the sentence of the user's
// message it most likely came from (the one sharing most words with about) is kept as its evidence,
// so the user sees where the idea came from, and the judge's decision d as why it waits (A8): its
// reason and the words that decided. Every answer carries d's reason. An identical suggestion
// already waiting in the scope (same text, same target) is counted again instead of stored twice
// (keeping the reason it was stored with), and the answer holds it only when this run made it. A
// run that has made runSuggestionLimit suggestions makes no more, so one turn can't bury the user's
// list. Both are decided under the scope's lock, so concurrent identical suggestions merge too.
//
// suppressed says that n's text matches a tombstone (F3): it is dropped — the user never sees it —
// but answered exactly as above, with the same checks in the same order: it merges into a suppressed
// suggestion of the same text as into a waiting one, counts toward the budget and, when it is made,
// is recorded in memory_suppressed instead of memory_items (suppressed.go says how that stays
// indistinguishable to the run).
func (s *Service) suggestTx(ctx context.Context, tx pgx.Tx, run Run, n newItem, d intent.Decision,
	message, about, saved string, suppressed bool) (ToolResult, error) {
	n.status = StatusCandidate
	n.waitReason = d.Reason
	if words := intent.Quote(d.Trace.Words); words != "" {
		n.waitWords = &words
	}
	q := queries(tx)
	if !n.proposesForget {
		// Suggestions are the user's (A2): a run reads back only one it made itself. Another
		// run's carries that run's evidence, a sentence of a conversation this run may not read
		// — another teammate's, when the suggestion is for everyone (S1, S4).
		mergedAnswer := func(merged Item) ToolResult {
			res := ToolResult{Outcome: OutcomeSuggested, Reason: d.Reason,
				Message: "The same suggestion is already waiting for the user; it was counted again."}
			if merged.SourceRunID != nil && *merged.SourceRunID == run.ID {
				res.Item = &merged
			}
			return res
		}
		row, err := q.ItemSuggestionMerge(ctx, memorydb.ItemSuggestionMergeParams{
			Scope: n.scope.String(), ContentHash: ContentHash(n.state.content), TargetItemID: n.targetItemID,
		})
		switch {
		case err == nil:
			merged := itemFromRow(row)
			return mergedAnswer(merged), announceTx(ctx, tx, merged, "")
		case !errors.Is(err, ErrNotFound): // ErrNotFound: none waits
			return ToolResult{}, err
		}
		if suppressed {
			merged, err := s.mergeSuppressedTx(ctx, tx, run, n)
			switch {
			case err == nil:
				return mergedAnswer(merged), nil // no announcement: the user never sees it
			case !errors.Is(err, ErrNotFound):
				return ToolResult{}, err
			}
		}
	}
	made, err := q.ItemsSuggestedByRun(ctx, run.ID)
	if err != nil {
		return ToolResult{}, err
	}
	if made >= s.runSuggestionLimit {
		suggestions := fmt.Sprintf("%d suggestions", made)
		if made == 1 {
			suggestions = "1 suggestion" // MEMORY_RUN_SUGGESTION_LIMIT=1
		}
		return ToolResult{Outcome: OutcomeRefused, Reason: d.Reason,
			Message: "Not saved: this turn already made " + suggestions +
				" for the user to review, the most one turn may make. Mention anything else in your reply."}, nil
	}
	if sentence := intent.SourceSentence(message, about); sentence != "" {
		n.evidence = &sentence
	}
	if suppressed {
		item, err := s.insertSuppressedTx(ctx, tx, run, n)
		if err != nil {
			return ToolResult{}, err
		}
		return ToolResult{Outcome: OutcomeSuggested, Item: &item, Message: saved, Reason: d.Reason}, nil
	}
	item, err := s.insertItemTx(ctx, tx, n)
	if err != nil {
		return ToolResult{}, err
	}
	return ToolResult{Outcome: OutcomeSuggested, Item: &item, Message: saved, Reason: d.Reason}, nil
}

// waitMessage is the answer of a write that waits: why, in the teammate's words (A8). An empty
// lead means "Save to memory" is off, which says it all (switch.go).
func waitMessage(lead string, d intent.Decision) string {
	if lead == "" {
		return savingOffMessage
	}
	return lead + d.Reason.ForTeammate()
}

// judgedTarget is an item as the judge reads the target of an update or a forget: a pinned item or
// a lesson is only ever proposed for forgetting (A5).
func judgedTarget(cur Item) intent.Item {
	return intent.Item{Key: deref(cur.Key), Content: cur.Content, Pinned: cur.Pinned, Lesson: cur.Kind == KindLesson}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// activeItemForUpdateTx locks item id (its scope's lock held by the caller) and returns it while it
// is active: anything else is ErrNotFound to a teammate.
func activeItemForUpdateTx(ctx context.Context, tx pgx.Tx, id string) (Item, error) {
	row, err := queries(tx).ItemGetForUpdate(ctx, id)
	if err != nil {
		return Item{}, err
	}
	if cur := itemFromRow(row); cur.Status == StatusActive {
		return cur, nil
	}
	return Item{}, ErrNotFound
}

// visibleScope returns the scope of item id if a run of c's teammate may see it (shared or its own):
// another teammate's item is FORBIDDEN (S1), an unknown one NOT_FOUND.
//
// The id of a suggestion the tombstones suppressed is looked up too, so a run that names it goes on
// to the same checks — its lock, its generation (G5) — and the same NOT_FOUND as for the id of a
// waiting suggestion (F3, suppressed.go).
func (s *Service) visibleScope(ctx context.Context, c Credential, id string) (string, error) {
	scope, err := queries(s.pool).ItemScope(ctx, id)
	if errors.Is(err, ErrNotFound) {
		scope, err = s.suppressedScope(ctx, id)
	}
	if err != nil {
		return "", err
	}
	if !c.CanReadScope(scope) {
		return "", ErrForbidden
	}
	return scope, nil
}

// SearchMemory searches the teammate's visible active, unexpired items (run credential), after
// the run's generation check (G5, runTx). Evidence from another teammate's conversations is withheld
// (S4).
func (t *Tools) SearchMemory(ctx context.Context, query string) ([]Item, error) {
	s := t.service()
	items, err := runSearch(ctx, s, "search memory", query, func(q *memorydb.Queries, teammateID, pattern string) ([]*memorydb.ItemsSearchVisibleRow, error) {
		return q.ItemsSearchVisible(ctx, memorydb.ItemsSearchVisibleParams{
			TeammateID: teammateID, Words: query, Pattern: pattern, MaxRows: MaxToolResults,
		})
	}, itemFromRow)
	if err != nil {
		return nil, err
	}
	return items, withholdForRun(ctx, s.pool, CredentialFrom(ctx), items)
}

// HistoryMessage is one message of a teammate's own conversations (P8).
type HistoryMessage struct {
	ID        string
	ThreadID  string
	RunID     *string
	Role      string
	Content   string
	CreatedAt time.Time
}

// SearchHistory searches the teammate's own conversations (run credential, P8): original
// conversations are not memory, but a teammate may look back at them. The run's generation is
// checked first (G5, runTx).
func (t *Tools) SearchHistory(ctx context.Context, query string) ([]HistoryMessage, error) {
	s := t.service()
	return runSearch(ctx, s, "search history", query, func(q *memorydb.Queries, teammateID, pattern string) ([]*memorydb.MessagesSearchOfTeammateRow, error) {
		return q.MessagesSearchOfTeammate(ctx, memorydb.MessagesSearchOfTeammateParams{
			TeammateID: teammateID, Words: query, Pattern: pattern, MaxRows: MaxToolResults,
		})
	}, func(r *memorydb.MessagesSearchOfTeammateRow) HistoryMessage {
		return HistoryMessage{ID: r.ID, ThreadID: r.ThreadID, RunID: r.RunID, Role: r.Role, Content: r.Content,
			CreatedAt: r.CreatedAt}
	})
}

// runSearch is the body of a run's search tool: the run credential, a query of at most
// MaxSearchLength characters, then search — given the run's teammate and the query as a substring
// pattern — in a transaction that checks the run's generation first (G5, runTx). While the
// teammate's "Use memory" is off it searches nothing and answers ErrMemoryOff (switch.go).
func runSearch[R, T any](ctx context.Context, s *Service, op, query string,
	search func(q *memorydb.Queries, teammateID, pattern string) ([]*R, error), convert func(*R) T) ([]T, error) {
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return nil, err
	}
	if err := checkText("query", query, MaxSearchLength, true); err != nil {
		return nil, err
	}
	var out []T
	err = s.runTx(ctx, op, func(tx pgx.Tx, run Run) error {
		out = nil
		if off, err := memoryOffTx(ctx, tx, run.TeammateID); err != nil || off {
			if off {
				return ErrMemoryOff // switch.go: memory is off, not "nothing found"
			}
			return err
		}
		rows, err := search(queries(tx), c.TeammateID, "%"+escapeLike(query)+"%")
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		out = mapRows(rows, convert)
		return nil
	})
	return out, err
}

package memory

import (
	"time"

	"github.com/open-bot/memory/internal/memory/intent"
	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Kind is what a memory item is about.
type Kind string

// The kinds of RULES §2.
const (
	KindFact       Kind = "fact"
	KindPreference Kind = "preference"
	KindLesson     Kind = "lesson"
	KindNote       Kind = "note"
)

func (k Kind) valid() bool {
	switch k {
	case KindFact, KindPreference, KindLesson, KindNote:
		return true
	}
	return false
}

// PinnedByDefault reports whether a new item of kind k is pinned unless the user says otherwise: a
// preference ("answers in bullet points") is meant for every request, and a request rarely shares a
// word with it, so it is pinned when it is created or confirmed (P2: pinned items always match).
// The user can unpin it, and it is then given only when it matches.
func (k Kind) PinnedByDefault() bool { return k == KindPreference }

// Status is where an item is in its life.
type Status string

// The statuses of RULES §2.
const (
	StatusActive    Status = "active"
	StatusCandidate Status = "candidate"
	StatusDismissed Status = "dismissed"
	StatusForgotten Status = "forgotten"
)

func (s Status) valid() bool {
	switch s {
	case StatusActive, StatusCandidate, StatusDismissed, StatusForgotten:
		return true
	}
	return false
}

// isSuggestion reports the statuses of suggestions: waiting for the user, or dismissed by them.
func (s Status) isSuggestion() bool { return s == StatusCandidate || s == StatusDismissed }

// Action is what produced a revision.
type Action string

// The revision actions of RULES §2.
const (
	ActionCreate  Action = "create"
	ActionEdit    Action = "edit"
	ActionCorrect Action = "correct"
	ActionRestore Action = "restore"
	ActionUndo    Action = "undo"
	ActionConfirm Action = "confirm"
	ActionPin     Action = "pin"
	ActionForget  Action = "forget"
	// ActionDismiss: the user dismissed a suggestion (its text is unchanged).
	ActionDismiss Action = "dismiss"
	// ActionResolve: a proposal settled itself, because the item came to hold its text.
	ActionResolve Action = "resolve"
)

// Resolution says how a suggestion that no longer waits was settled.
type Resolution string

// The resolutions of a settled suggestion.
const (
	// ResolutionConfirmed: the user confirmed a proposal; it was applied to its item.
	ResolutionConfirmed Resolution = "confirmed"
	// ResolutionDismissed: the user dismissed it.
	ResolutionDismissed Resolution = "dismissed"
	// ResolutionApplied: its item came to hold the proposed text anyway.
	ResolutionApplied Resolution = "applied"
)

// Source is where an item came from.
type Source string

// The sources of RULES §2.
const (
	SourceUser       Source = "user"
	SourceTeammate   Source = "teammate"
	SourceExtraction Source = "extraction"
	SourceImport     Source = "import"
	SourceFeedback   Source = "feedback"
)

// ActorUser is the actor of the user's own changes; teammates act as "teammate:<id>".
const ActorUser = "user"

// Item is the current state of one memory item.
type Item struct {
	ID string
	// Scope is ScopeShared or the teammate id; TeammateID is the same, nil for shared.
	Scope      string
	TeammateID *string
	Kind       Kind
	Key        *string
	Content    string
	Status     Status
	Pinned     bool
	Revision   int
	Source     Source
	Evidence   *string
	// WaitReason is the judge's code for why a teammate's suggestion, proposed change or proposed
	// forget waits for the user (A8), or extraction's (ReasonExtracted); nil when none was recorded.
	// It never holds text. WaitWords are the words of the user's message that decided, quoted
	// (intent.Quote); nil when no words decided. They are erased with the evidence (F1).
	WaitReason     *intent.Reason
	WaitWords      *string
	SourceRunID    *string
	TargetItemID   *string
	TargetRevision *int
	// ProposesForget marks a suggestion that proposes forgetting TargetItemID (A5). It has no
	// content of its own; the user sees the target's.
	ProposesForget bool
	// TimesSuggested counts identical suggestions merged into this one while it waited.
	TimesSuggested int
	// Resolution says how a suggestion that no longer waits was settled; nil while it waits and for
	// everything that was never a suggestion.
	Resolution  *Resolution
	ExpiresAt   *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	ForgottenAt *time.Time
}

// Expired reports whether the item's expiry has passed at now. Expired items stay visible in the
// app, marked, and are left out of recall.
func (i Item) Expired(now time.Time) bool {
	return i.ExpiresAt != nil && !i.ExpiresAt.After(now)
}

// ReasonExtracted is the wait reason extraction candidates get (I2): the extraction model picked
// them out of the user's message after the run, and the judge never read them. It is memory's own
// code beside the judge's (intent.Reason), and WaitExplanation words it.
const ReasonExtracted intent.Reason = "extracted"

// WaitExplanation is why a suggestion waits (or waited) for the user, in plain words that may quote
// the deciding words of the user's message (A8); nil for an item that is no suggestion or has no
// recorded reason.
func (i Item) WaitExplanation() *string {
	if i.WaitReason == nil || !i.Status.isSuggestion() {
		return nil
	}
	s := "Automatic extraction picked it out of your message; nothing is remembered until you confirm it."
	if *i.WaitReason != ReasonExtracted {
		s = i.WaitReason.Explain(deref(i.WaitWords))
	}
	return &s
}

// itemRow is an item's row as every statement of queries/items.sql that returns items reads it. sqlc
// makes a type of each statement's row; itemFromRow takes those of this shape only, so a statement
// that reads other columns, or the same ones in another order, doesn't compile.
type itemRow = struct {
	ID             string
	TeammateID     *string
	Scope          string
	Kind           string
	Key            *string
	Content        string
	Status         string
	Pinned         bool
	Revision       int
	Source         string
	Evidence       *string
	WaitReason     *string
	WaitWords      *string
	SourceRunID    *string
	TargetItemID   *string
	TargetRevision *int
	ProposesForget bool
	TimesSuggested int
	Resolution     *string
	ExpiresAt      *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
	ForgottenAt    *time.Time
}

// itemFromRow is the one place where an item's row becomes an Item.
func itemFromRow[R ~itemRow](row *R) Item {
	r := itemRow(*row)
	return Item{
		ID: r.ID, Scope: r.Scope, TeammateID: r.TeammateID, Kind: Kind(r.Kind), Key: r.Key, Content: r.Content,
		Status: Status(r.Status), Pinned: r.Pinned, Revision: r.Revision, Source: Source(r.Source),
		Evidence: r.Evidence, WaitReason: (*intent.Reason)(r.WaitReason), WaitWords: r.WaitWords,
		SourceRunID: r.SourceRunID, TargetItemID: r.TargetItemID, TargetRevision: r.TargetRevision,
		ProposesForget: r.ProposesForget, TimesSuggested: r.TimesSuggested, Resolution: (*Resolution)(r.Resolution),
		ExpiresAt: r.ExpiresAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, ForgottenAt: r.ForgottenAt,
	}
}

// Revision is one saved state of an item (R1). A forgotten item's revisions keep no content (F1).
type Revision struct {
	ItemID    string
	Revision  int
	Content   string
	Key       *string
	Kind      Kind
	Pinned    bool
	ExpiresAt *time.Time
	Action    Action
	Actor     string
	BasedOn   *int
	RunID     *string
	CreatedAt time.Time
}

// revisionFromRow is the one place where a revision's row becomes a Revision.
func revisionFromRow(r *memorydb.MemoryRevision) Revision {
	return Revision{
		ItemID: r.ItemID, Revision: r.Revision, Content: r.Content, Key: r.Key, Kind: Kind(r.Kind), Pinned: r.Pinned,
		ExpiresAt: r.ExpiresAt, Action: Action(r.Action), Actor: r.Actor, BasedOn: r.BasedOn, RunID: r.RunID,
		CreatedAt: r.CreatedAt,
	}
}

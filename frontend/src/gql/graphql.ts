/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A retry to withdraw. */
export type CancelRetryInput = {
  /** The retry's stored message (RetryRequest.messageId). */
  messageId: string;
};

/** The run to cancel. */
export type CancelRunInput = {
  /** The run (running). */
  runId: string;
};

/** Suggestions of a scope to confirm or dismiss at once. */
export type CandidatesInput = {
  /**
   * The suggestions the user saw (1–100, each waiting in scope); omitted: every suggestion waiting in
   * the scope now (up to 100).
   */
  ids?: Array<string> | null | undefined;
  /** The scope whose suggestions these are. */
  scope: ScopeInput;
};

/** The user's confirmation of a suggestion, optionally edited. */
export type ConfirmCandidateInput = {
  /** The user's edited text; omitted: confirm as suggested. */
  content?: string | null | undefined;
  /** The suggestion (waiting). */
  id: string;
  /**
   * The key to confirm it with (up to 120 characters, one line; blank removes it); omitted: the
   * suggestion's (for a proposed change, the target's).
   */
  key?: string | null | undefined;
  /** The kind to confirm it as; omitted: the suggestion's (for a proposed change, the target's). */
  kind?: MemoryKind | null | undefined;
};

/** What became of an item given to a run (P7). */
export type ContextState =
  /** Changed since; currentRevision is the newer one. */
  | 'CHANGED'
  /** Its expiry has passed; runs no longer get it. */
  | 'EXPIRED'
  /** Forgotten since; its content is gone. */
  | 'FORGOTTEN'
  /** Still at the revision the run was given. */
  | 'UNCHANGED';

/** A new item the user writes: active and confirmed at once. */
export type CreateMemoryInput = {
  /** 1–4,000 characters. */
  content: string;
  /** Must be in the future. */
  expiresAt?: string | null | undefined;
  /**
   * Makes a retry safe: a request sent again with the same key (any string of 1–200 characters on one
   * line; a fresh UUID per request is a good choice) answers what the first one did, and writes
   * nothing, for a day. The same key with another input is BAD_USER_INPUT (field idempotencyKey).
   * Send one whenever the answer may be lost (UNAVAILABLE, a timeout) and the request is retried.
   */
  idempotencyKey?: string | null | undefined;
  /** Up to 120 characters; blank means none. */
  key?: string | null | undefined;
  /** What it is about; FACT when omitted. */
  kind?: MemoryKind | null | undefined;
  /**
   * Pinned items are given to every run of the scope, first. Omitted: true for a PREFERENCE (a
   * preference is meant for every request), false otherwise.
   */
  pinned?: boolean | null | undefined;
  /** Where it goes: shared or one teammate's scope. */
  scope: ScopeInput;
};

/** A new teammate. */
export type CreateTeammateInput = {
  /**
   * Makes a retry safe: a request sent again with the same key (any string of 1–200 characters on one
   * line; a fresh UUID per request is a good choice) answers what the first one did, and writes
   * nothing, for a day. The same key with another input is BAD_USER_INPUT (field idempotencyKey).
   * Send one whenever the answer may be lost (UNAVAILABLE, a timeout) and the request is retried.
   */
  idempotencyKey?: string | null | undefined;
  /** 1–120 characters. */
  name: string;
};

/** The teammate to delete. */
export type DeleteTeammateInput = {
  /** The teammate's id. */
  id: string;
};

/** The suggestion to dismiss. */
export type DismissCandidateInput = {
  /** The suggestion (waiting). */
  id: string;
};

/** Change an active item. Omitted fields keep their value. A baseRevision that is no longer current fails with CONFLICT (extensions.currentRevision) and changes nothing. */
export type EditMemoryInput = {
  /** The revision the editor started from (MemoryItem.revision). */
  baseRevision: number;
  /** true removes the expiry (not with expiresAt). */
  clearExpiresAt?: boolean | null | undefined;
  /** The new content (1–4,000 characters); omitted: unchanged. */
  content?: string | null | undefined;
  /** A new expiry, in the future; omitted: unchanged. */
  expiresAt?: string | null | undefined;
  /** The item to change (active). */
  id: string;
  /** A blank key removes it. */
  key?: string | null | undefined;
  /** The new kind; omitted: unchanged. */
  kind?: MemoryKind | null | undefined;
  /** Pin or unpin; a change of the pin alone is recorded as a PIN revision. */
  pinned?: boolean | null | undefined;
};

/** The formats memory is exported in. */
export type ExportFormat =
  /**
   * Lossless, and what importMemory reads: {"format": "memory-export", "version": 1, "scope",
   * "teammate" (its name; absent for shared), "exportedAt", "items": [{"id", "kind", "key", "content",
   * "pinned", "expiresAt", "source", "revision", "createdAt", "updatedAt", "revisions"?: [{"revision",
   * "content", "key", "kind", "pinned", "expiresAt", "action", "actor", "createdAt"}]}]}, with kinds,
   * sources and actions in lower case as in RULES §2.
   */
  | 'JSON'
  /** For people: the items by kind, pinned first, with key, pin and expiry; not importable. */
  | 'MARKDOWN';

/** Several items to forget at once. */
export type ForgetMemoriesInput = {
  /**
   * Other items to forget in the same transaction, typically the copies of the items (the copiesOf
   * query) the user left ticked, up to 100; each gets a tombstone in its own scope. Items already
   * forgotten are skipped.
   */
  alsoForget?: Array<string> | null | undefined;
  /** 1–100 active items, each with the revision the user saw; no id twice. */
  items: Array<MemoryItemRevisionInput>;
};

/** The item to forget. */
export type ForgetMemoryInput = {
  /**
   * Other items to forget in the same transaction, typically the copies of id (the copies query), up
   * to 100; each gets a tombstone in its own scope. Items already forgotten are skipped.
   */
  alsoForget?: Array<string> | null | undefined;
  /** The item (active, or a suggestion). */
  id: string;
};

/** A file of memory to add to a scope. */
export type ImportMemoryInput = {
  /** The file's text, at most the 1 MiB request limit. */
  data: string;
  /** Only JSON (an exportMemory file) can be imported; MARKDOWN is refused. */
  format?: ExportFormat;
  /**
   * Makes a retry safe: a request sent again with the same key (any string of 1–200 characters on one
   * line; a fresh UUID per request is a good choice) answers what the first one did, and writes
   * nothing, for a day. The same key with another input is BAD_USER_INPUT (field idempotencyKey).
   * Send one whenever the answer may be lost (UNAVAILABLE, a timeout) and the request is retried.
   */
  idempotencyKey?: string | null | undefined;
  /** Where the items go; the file's own scope is not used. */
  scope: ScopeInput;
};

/** A note to keep as a lesson. */
export type KeepLessonInput = {
  /** What to do differently (1–4,000 characters); becomes a pinned lesson of the run's teammate. */
  note: string;
  /** The run whose reply prompted it. */
  runId: string;
};

/** An item and the revision the caller last saw of it: a later revision fails with CONFLICT (R2). */
export type MemoryItemRevisionInput = {
  /** The revision the caller saw (MemoryItem.revision). */
  baseRevision: number;
  /** The item's id. */
  id: string;
};

/** What a memory item is about. */
export type MemoryKind =
  /** Something true about the user or their world. */
  | 'FACT'
  /** What to do differently, from the user's feedback on a reply (L2). */
  | 'LESSON'
  /** Anything else: a MEMORY.md import, a reminder. */
  | 'NOTE'
  /** How the user likes things done. */
  | 'PREFERENCE';

/** Where an item came from. */
export type MemorySource =
  /** The optional extraction of a user's message (I2). */
  | 'EXTRACTION'
  /** A lesson kept from feedback on a reply (L2). */
  | 'FEEDBACK'
  /** A MEMORY.md import (M1) or importMemory. */
  | 'IMPORT'
  /** A teammate's memory tool (a run). */
  | 'TEAMMATE'
  /** The user wrote it. */
  | 'USER';

/** Where an item is in its life: ACTIVE memory is given to runs; CANDIDATE waits for the user (A2). */
export type MemoryStatus =
  /** Confirmed memory, given to runs (unless expired). */
  | 'ACTIVE'
  /** A suggestion waiting for the user; never given to a run (A2). */
  | 'CANDIDATE'
  /** A suggestion that no longer waits: dismissed, or a proposal that was settled (see resolution). */
  | 'DISMISSED'
  /** Forgotten for real (F1): no content, key or text in any revision. */
  | 'FORGOTTEN';

/** Several items to pin or unpin at once. */
export type PinMemoriesInput = {
  /** 1–100 active items, each with the revision the user saw; no id twice. */
  items: Array<MemoryItemRevisionInput>;
  /** true pins, false unpins. An item already so is left as it is (no revision). */
  pinned: boolean;
};

/** How an item came to be, in one word (MemoryItem.provenance). */
export type ProvenanceKind =
  /** You wrote it. */
  | 'ADDED_BY_YOU'
  /** You confirmed a teammate's suggestion (A2). */
  | 'CONFIRMED_SUGGESTION'
  /** Found in a conversation by extraction. */
  | 'FOUND_IN_CONVERSATION'
  /** Kept as a lesson from your rating of a reply. */
  | 'FROM_FEEDBACK'
  /** Imported from a file. */
  | 'IMPORTED'
  /** A teammate saved it because you asked (A1). */
  | 'SAVED_BY_TEAMMATE'
  /** A teammate's suggestion, not confirmed. */
  | 'SUGGESTED_BY_TEAMMATE';

/** A rating of a reply. */
export type RateRunInput = {
  /** null clears the rating. */
  rating?: Rating | null | undefined;
  /** The run whose reply is rated. */
  runId: string;
};

/** Thumbs up or down on a reply (L1). */
export type Rating =
  /** Thumbs down: the app asks what to do differently. */
  | 'DOWN'
  /** Thumbs up. */
  | 'UP';

/** A list of recall that can find a packet's entry. */
export type RecallList =
  /** The full-text list: the item holds one of the request's words; the matches are ordered by BM25 (P2). */
  | 'FULL_TEXT'
  /** The item is pinned: every visible pinned item is given, first (P2). */
  | 'PINNED'
  /** The vector list: the item's embedding is near the request's (P3). */
  | 'VECTOR';

/** A teammate's new name. */
export type RenameTeammateInput = {
  /** The teammate to rename. */
  id: string;
  /** 1–120 characters. */
  name: string;
};

/** Bring back an earlier revision as a new revision, based on baseRevision. */
export type RestoreMemoryRevisionInput = {
  /** The revision the user was looking at (the current one, or CONFLICT). */
  baseRevision: number;
  /** The item (active). */
  id: string;
  /** The earlier revision to bring back. */
  revision: number;
};

/** A redo of a reply, with a note. */
export type RetryRunWithNoteInput = {
  /** What to do differently (1–4,000 characters). */
  note: string;
  /** The run to redo. */
  runId: string;
};

/** What produced a revision. */
export type RevisionAction =
  /** The user confirmed a suggestion or applied a proposed change. */
  | 'CONFIRM'
  /** A teammate changed the item at the user's explicit request (A4). */
  | 'CORRECT'
  /** The first revision of an item. */
  | 'CREATE'
  /** The user dismissed a suggestion; its text is unchanged. */
  | 'DISMISS'
  /** The user changed the item. */
  | 'EDIT'
  /** The item was forgotten; the revision has no content (F1). */
  | 'FORGET'
  /** Only the pin changed. */
  | 'PIN'
  /** A proposal settled itself: its item came to hold the proposed text. */
  | 'RESOLVE'
  /** An earlier revision brought back (R3). */
  | 'RESTORE'
  /** A save undone (R3), or a dismissed suggestion brought back to waiting. */
  | 'UNDO';

/** What a teammate's run did to one item (Run.memoryChanges). */
export type RunMemoryChangeKind =
  /** Changed a memory, as you asked (A4). */
  | 'CORRECTED'
  /** Forgot a memory, as you asked (A5). */
  | 'FORGOT'
  /** Proposed changing a memory (A4). */
  | 'PROPOSED_CHANGE'
  /** Proposed forgetting a memory (A5). */
  | 'PROPOSED_FORGET'
  /** Saved as memory, as you asked (A1). */
  | 'SAVED'
  /** Saved as a suggestion for you (A2). */
  | 'SUGGESTED';

/** Where a run is: RUNNING until it completes, fails, is interrupted or cancelled. */
export type RunStatus =
  /** The user cancelled it (cancelRun). */
  | 'CANCELLED'
  /** The teammate replied (completeRun). */
  | 'COMPLETED'
  /** It could not start: memory changed while it was starting (G4). */
  | 'FAILED'
  /** Memory changed mid-turn (G5): ended so the teammate doesn't act on stale facts. */
  | 'INTERRUPTED'
  /** Started and not ended: its credential works. */
  | 'RUNNING';

/** A scope: one teammate's, or the shared scope when teammateId is null. */
export type ScopeInput = {
  /**
   * The teammate whose scope it is; null (or omitted) means the shared scope, which every teammate
   * reads.
   */
  teammateId?: string | null | undefined;
};

/** A change of a teammate's memory switch; an omitted setting stays as it is, and at least one is given. */
export type SetMemorySwitchInput = {
  /** Save to memory: on or off. */
  saveMemory?: boolean | null | undefined;
  /** The teammate. */
  teammateId: string;
  /** Use memory: on or off. */
  useMemory?: boolean | null | undefined;
};

/** How a teammate changed. */
export type TeammateChangeKind =
  /** The teammate was added. */
  | 'CREATED'
  /** The teammate was deleted with its memory and conversations. */
  | 'DELETED'
  /** The teammate's name changed. */
  | 'RENAMED'
  /** The teammate's memory switch (useMemory, saveMemory) changed. */
  | 'SWITCHED';

/** A confirmation of a suggestion to take back. */
export type UndoConfirmCandidateInput = {
  /** The confirmed suggestion's id (for a proposal, the proposal's, not its item's). */
  id: string;
  /**
   * The revision of the item the confirmation returned: for a suggested new memory, the item's own;
   * for a proposal to change an item, that item's.
   */
  revision: number;
};

/** The confirmations of one Confirm all to take back together. */
export type UndoConfirmCandidatesInput = {
  /** 1–100 confirmations. */
  items: Array<UndoConfirmCandidateInput>;
};

/** A dismissed suggestion to bring back. */
export type UndoDismissCandidateInput = {
  /** The dismissed suggestion's id. */
  id: string;
};

/** Undo the save that produced revision (restores revision - 1); CONFLICT if the item changed since. */
export type UndoMemoryEditInput = {
  /** The item (active). */
  id: string;
  /** The revision the save produced; it must still be the current one. */
  revision: number;
};

/** The part vector search played in a packet (P3). */
export type VectorSearch =
  /** The request couldn't be embedded (endpoint failure, budget spent): full text alone was used. */
  | 'FAILED'
  /** No embedding endpoint is configured: full text alone. */
  | 'NOT_CONFIGURED'
  /** The request has no searchable words: nothing was embedded. */
  | 'SKIPPED'
  /** The request was embedded and the vector list fused in. */
  | 'USED';

export type SessionQueryVariables = Exact<{ [key: string]: never; }>;


export type SessionQuery = { limits: { contentLength: number, noteLength: number, keyLength: number, teammateNameLength: number, searchLength: number, messageLength: number, pageSize: number, bulkItems: number, requestBytes: number } };

export type UserTokenProbeQueryVariables = Exact<{ [key: string]: never; }>;


export type UserTokenProbeQuery = { candidates: Array<{ id: string }> };

export type TeammateGenerationFragment = { id: string, generation: string };

export type SettledSuggestionFragment = { id: string, status: MemoryStatus };

export type LimitsFieldsFragment = { contentLength: number, noteLength: number, keyLength: number, teammateNameLength: number, searchLength: number, messageLength: number, pageSize: number, bulkItems: number, requestBytes: number };

export type RunsQueryVariables = Exact<{
  teammateId: string;
  first?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type RunsQuery = { runs: Array<{ id: string, status: RunStatus, startedByUser: boolean, createdAt: string, endedAt: string | null, cancelledAt: string | null, userMessage: string, retryNote: string | null, retryOfRunId: string | null, reply: string | null, rating: Rating | null, thread: { id: string, generation: string }, memoryChanges: Array<{ kind: RunMemoryChangeKind, itemId: string, scope: string, waiting: boolean, label: string | null, at: string }> }> };

export type RunQueryVariables = Exact<{
  id: string;
}>;


export type RunQuery = { run: { id: string, status: RunStatus, startedByUser: boolean, createdAt: string, endedAt: string | null, cancelledAt: string | null, userMessage: string, retryNote: string | null, retryOfRunId: string | null, reply: string | null, rating: Rating | null, thread: { id: string, generation: string }, memoryChanges: Array<{ kind: RunMemoryChangeKind, itemId: string, scope: string, waiting: boolean, label: string | null, at: string }> } | null };

export type RunMemoryContextQueryVariables = Exact<{
  id: string;
}>;


export type RunMemoryContextQuery = { run: { id: string, memoryContext: Array<{ position: number, itemId: string, revisionGiven: number, currentRevision: number, state: ContextState, truncated: boolean, item: { id: string, scope: string, content: string, key: string | null, kind: MemoryKind, expiresAt: string | null } }> } | null };

export type RunFieldsFragment = { id: string, status: RunStatus, startedByUser: boolean, createdAt: string, endedAt: string | null, cancelledAt: string | null, userMessage: string, retryNote: string | null, retryOfRunId: string | null, reply: string | null, rating: Rating | null, thread: { id: string, generation: string }, memoryChanges: Array<{ kind: RunMemoryChangeKind, itemId: string, scope: string, waiting: boolean, label: string | null, at: string }> };

export type RateRunMutationVariables = Exact<{
  input: RateRunInput;
}>;


export type RateRunMutation = { rateRun: { id: string, rating: Rating | null } };

export type CancelRunMutationVariables = Exact<{
  input: CancelRunInput;
}>;


export type CancelRunMutation = { cancelRun: { id: string, status: RunStatus, startedByUser: boolean, createdAt: string, endedAt: string | null, cancelledAt: string | null, userMessage: string, retryNote: string | null, retryOfRunId: string | null, reply: string | null, rating: Rating | null, thread: { id: string, generation: string }, memoryChanges: Array<{ kind: RunMemoryChangeKind, itemId: string, scope: string, waiting: boolean, label: string | null, at: string }> } };

export type KeepLessonMutationVariables = Exact<{
  input: KeepLessonInput;
}>;


export type KeepLessonMutation = { keepLesson: { item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } } };

export type RetryRunWithNoteMutationVariables = Exact<{
  input: RetryRunWithNoteInput;
}>;


export type RetryRunWithNoteMutation = { retryRunWithNote: { messageId: string, threadId: string, retryOfRunId: string, prompt: string, note: string, createdAt: string } };

export type CancelRetryMutationVariables = Exact<{
  input: CancelRetryInput;
}>;


export type CancelRetryMutation = { cancelRetry: { messageId: string } };

export type LessonsQueryVariables = Exact<{
  teammateId: string;
}>;


export type LessonsQuery = { lessons: Array<{ item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } }, run: { id: string, status: RunStatus, createdAt: string } | null }> };

export type LessonRunQueryVariables = Exact<{
  id: string;
}>;


export type LessonRunQuery = { run: { id: string, userMessage: string, reply: string | null } | null };

export type ForgetMemoriesMutationVariables = Exact<{
  input: ForgetMemoriesInput;
}>;


export type ForgetMemoriesMutation = { forgetMemories: { items: Array<{ id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } }>, alsoForgotten: Array<{ id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } }> } };

export type BulkCopiesQueryVariables = Exact<{
  ids: Array<string> | string;
}>;


export type BulkCopiesQuery = { copiesOf: Array<{ id: string, scope: string, status: MemoryStatus, key: string | null, content: string, teammate: { id: string, name: string } | null }> };

export type PinMemoriesMutationVariables = Exact<{
  input: PinMemoriesInput;
}>;


export type PinMemoriesMutation = { pinMemories: { items: Array<{ id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } }> } };

export type CreateMemoryMutationVariables = Exact<{
  input: CreateMemoryInput;
}>;


export type CreateMemoryMutation = { createMemory: { item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } } };

export type ForgetMemoryMutationVariables = Exact<{
  input: ForgetMemoryInput;
}>;


export type ForgetMemoryMutation = { forgetMemory: { item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } }, alsoForgotten: Array<{ id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } }> } };

export type ForgetInfoQueryVariables = Exact<{
  id: string;
}>;


export type ForgetInfoQuery = { copies: Array<{ id: string, scope: string, status: MemoryStatus, key: string | null, content: string, teammate: { id: string, name: string } | null }>, erasure: { purged: boolean, purgeDelaySeconds: number | null } };

export type ForgottenBeforeQueryVariables = Exact<{
  scope: ScopeInput;
  content: string;
}>;


export type ForgottenBeforeQuery = { forgottenBefore: boolean };

export type MemoryHistoryQueryVariables = Exact<{
  id: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type MemoryHistoryQuery = { memoryItem: { id: string, revision: number, revisions: { edges: Array<{ cursor: string, node: { revision: number, content: string, key: string | null, kind: MemoryKind, pinned: boolean, expiresAt: string | null, action: RevisionAction, actor: string, runId: string | null, basedOn: number | null, createdAt: string, actorTeammate: { id: string, name: string } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } } | null };

export type RestoreMemoryRevisionMutationVariables = Exact<{
  input: RestoreMemoryRevisionInput;
}>;


export type RestoreMemoryRevisionMutation = { restoreMemoryRevision: { item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } } };

export type UndoMemoryEditMutationVariables = Exact<{
  input: UndoMemoryEditInput;
}>;


export type UndoMemoryEditMutation = { undoMemoryEdit: { item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } } };

export type LessonCountQueryVariables = Exact<{
  scope: ScopeInput;
}>;


export type LessonCountQuery = { memoryItems: { totalCount: number } };

export type RecallPreviewQueryVariables = Exact<{
  teammateId: string;
  query: string;
}>;


export type RecallPreviewQuery = { recallPreview: { memoryOff: boolean, vectorSearch: VectorSearch, vectorReason: string | null, leftOut: { noSharedWord: number, overBudget: number, expired: number, waiting: number } | null, entries: Array<{ header: string, fullTextRank: number | null, fullTextPosition: number | null, bm25Score: number | null, foundBy: Array<RecallList>, vectorDistance: number | null, vectorPosition: number | null, score: number, truncated: boolean, item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, pinned: boolean } }> } };

export type ImportMemoryMutationVariables = Exact<{
  input: ImportMemoryInput;
}>;


export type ImportMemoryMutation = { importMemory: { unchanged: number, items: Array<{ id: string }> } };

export type MemoryItemFieldsFragment = { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } };

export type MemoryItemQueryVariables = Exact<{
  id: string;
}>;


export type MemoryItemQuery = { memoryItem: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } | null };

export type EditMemoryMutationVariables = Exact<{
  input: EditMemoryInput;
}>;


export type EditMemoryMutation = { editMemory: { item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } } };

export type MemoryItemsQueryVariables = Exact<{
  scope: ScopeInput;
  kind?: MemoryKind | null | undefined;
  kinds?: Array<MemoryKind> | MemoryKind | null | undefined;
  search?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type MemoryItemsQuery = { memoryItems: { totalCount: number, edges: Array<{ cursor: string, node: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type MemoryChangedSubscriptionVariables = Exact<{
  scope: ScopeInput;
}>;


export type MemoryChangedSubscription = { memoryChanged: { scope: string, itemId: string, revision: number, action: RevisionAction | null, status: MemoryStatus, item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } | null } };

export type AiStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type AiStatusQuery = { aiStatus: { embeddings: boolean, embeddingModel: string | null, embeddingDimensions: number | null, embeddingHost: string | null, embedded: number, embeddable: number, extraction: boolean, extractionModel: string | null, extractionHost: string | null, requestsToday: number, dailyRequestLimit: number } };

export type AboutYouWaitingQueryVariables = Exact<{ [key: string]: never; }>;


export type AboutYouWaitingQuery = { memoryItems: { totalCount: number } };

export type BackupsQueryVariables = Exact<{ [key: string]: never; }>;


export type BackupsQuery = { backups: { enabled: boolean, intervalSeconds: number | null, keep: number, count: number, totalBytes: number, last: { name: string, createdAt: string, bytes: number, migration: number } | null } };

export type ConfirmCandidateMutationVariables = Exact<{
  input: ConfirmCandidateInput;
}>;


export type ConfirmCandidateMutation = { confirmCandidate: { item: { id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } } };

export type DismissCandidateMutationVariables = Exact<{
  input: DismissCandidateInput;
}>;


export type DismissCandidateMutation = { dismissCandidate: { item: { id: string, scope: string, status: MemoryStatus } } };

export type CandidateFieldsFragment = { evidence: string | null, waitReason: string | null, targetItemId: string | null, targetRevision: number | null, proposesForget: boolean, sourceRunId: string | null, timesSuggested: number, id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, sourceTeammate: { id: string, name: string } | null, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } };

export type CandidatesQueryVariables = Exact<{
  scope: ScopeInput;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type CandidatesQuery = { memoryItems: { totalCount: number, edges: Array<{ node: { evidence: string | null, waitReason: string | null, targetItemId: string | null, targetRevision: number | null, proposesForget: boolean, sourceRunId: string | null, timesSuggested: number, id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, sourceTeammate: { id: string, name: string } | null, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConfirmCandidatesMutationVariables = Exact<{
  input: CandidatesInput;
}>;


export type ConfirmCandidatesMutation = { confirmCandidates: { items: Array<{ id: string, status: MemoryStatus, revision: number }> } };

export type DismissCandidatesMutationVariables = Exact<{
  input: CandidatesInput;
}>;


export type DismissCandidatesMutation = { dismissCandidates: { items: Array<{ id: string, status: MemoryStatus }> } };

export type UndoDismissCandidateMutationVariables = Exact<{
  input: UndoDismissCandidateInput;
}>;


export type UndoDismissCandidateMutation = { undoDismissCandidate: { item: { id: string, scope: string, status: MemoryStatus } } };

export type UndoConfirmCandidatesMutationVariables = Exact<{
  input: UndoConfirmCandidatesInput;
}>;


export type UndoConfirmCandidatesMutation = { undoConfirmCandidates: { items: Array<{ id: string, scope: string, status: MemoryStatus }> } };

export type TeammateStartQueryVariables = Exact<{
  scope: ScopeInput;
  teammateId: string;
}>;


export type TeammateStartQuery = { memoryItems: { totalCount: number }, runs: Array<{ id: string }> };

export type TeammateActivityQueryVariables = Exact<{
  id: string;
}>;


export type TeammateActivityQuery = { teammate: { id: string, name: string, activity: { memories: number, suggestions: number, lastConversationAt: string | null } } | null };

export type DeleteTeammateMutationVariables = Exact<{
  input: DeleteTeammateInput;
}>;


export type DeleteTeammateMutation = { deleteTeammate: { teammateId: string, forgottenItems: number, deletedRuns: number, deletedThreads: number, deletedMessages: number } };

export type SearchMemoryQueryVariables = Exact<{
  search: string;
}>;


export type SearchMemoryQuery = { searchMemory: Array<{ id: string, scope: string, kind: MemoryKind, key: string | null, content: string, status: MemoryStatus, pinned: boolean, revision: number, lastAction: RevisionAction | null, source: MemorySource, expiresAt: string | null, expired: boolean, createdAt: string, updatedAt: string, teammate: { id: string, name: string } | null, provenance: { kind: ProvenanceKind, runId: string | null, quote: string | null, at: string, confirmedAt: string | null, teammate: { id: string, name: string } | null } }> };

export type SetMemorySwitchMutationVariables = Exact<{
  input: SetMemorySwitchInput;
}>;


export type SetMemorySwitchMutation = { setMemorySwitch: { teammate: { id: string, useMemory: boolean, saveMemory: boolean } } };

export type TeammateQueryVariables = Exact<{
  id: string;
}>;


export type TeammateQuery = { teammate: { id: string, name: string, createdAt: string, generation: string, useMemory: boolean, saveMemory: boolean } | null };

export type RenameTeammateMutationVariables = Exact<{
  input: RenameTeammateInput;
}>;


export type RenameTeammateMutation = { renameTeammate: { teammate: { id: string, name: string } } };

export type GenerationChangedSubscriptionVariables = Exact<{
  teammateId: string;
}>;


export type GenerationChangedSubscription = { generationChanged: { teammateId: string, generation: string } };

export type TeammateRowFragment = { id: string, name: string, createdAt: string, useMemory: boolean, saveMemory: boolean, activity: { memories: number, suggestions: number, lastConversationAt: string | null, lastActivityAt: string } };

export type TeammatesQueryVariables = Exact<{ [key: string]: never; }>;


export type TeammatesQuery = { teammates: Array<{ id: string, name: string, createdAt: string, useMemory: boolean, saveMemory: boolean, activity: { memories: number, suggestions: number, lastConversationAt: string | null, lastActivityAt: string } }> };

export type CreateTeammateMutationVariables = Exact<{
  input: CreateTeammateInput;
}>;


export type CreateTeammateMutation = { createTeammate: { teammate: { id: string, name: string, createdAt: string, useMemory: boolean, saveMemory: boolean, activity: { memories: number, suggestions: number, lastConversationAt: string | null, lastActivityAt: string } } } };

export type TeammatesChangedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type TeammatesChangedSubscription = { teammatesChanged: { teammateId: string, change: TeammateChangeKind, teammate: { id: string, name: string, createdAt: string, useMemory: boolean, saveMemory: boolean, activity: { memories: number, suggestions: number, lastConversationAt: string | null, lastActivityAt: string } } | null } };

export type BackupsEnabledQueryVariables = Exact<{ [key: string]: never; }>;


export type BackupsEnabledQuery = { backups: { enabled: boolean } };

export type RemoveDemoMutationVariables = Exact<{ [key: string]: never; }>;


export type RemoveDemoMutation = { removeDemo: { forgottenSharedItems: number, teammates: Array<{ teammateId: string, forgottenItems: number, deletedMessages: number }> } };

export const TeammateGenerationFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TeammateGeneration"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Teammate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}}]}}]} as unknown as DocumentNode<TeammateGenerationFragment, unknown>;
export const SettledSuggestionFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SettledSuggestion"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]} as unknown as DocumentNode<SettledSuggestionFragment, unknown>;
export const LimitsFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LimitsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Limits"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"contentLength"}},{"kind":"Field","name":{"kind":"Name","value":"noteLength"}},{"kind":"Field","name":{"kind":"Name","value":"keyLength"}},{"kind":"Field","name":{"kind":"Name","value":"teammateNameLength"}},{"kind":"Field","name":{"kind":"Name","value":"searchLength"}},{"kind":"Field","name":{"kind":"Name","value":"messageLength"}},{"kind":"Field","name":{"kind":"Name","value":"pageSize"}},{"kind":"Field","name":{"kind":"Name","value":"bulkItems"}},{"kind":"Field","name":{"kind":"Name","value":"requestBytes"}}]}}]} as unknown as DocumentNode<LimitsFieldsFragment, unknown>;
export const RunFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"startedByUser"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"endedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cancelledAt"}},{"kind":"Field","name":{"kind":"Name","value":"userMessage"}},{"kind":"Field","name":{"kind":"Name","value":"retryNote"}},{"kind":"Field","name":{"kind":"Name","value":"retryOfRunId"}},{"kind":"Field","name":{"kind":"Name","value":"reply"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"thread"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}}]}},{"kind":"Field","name":{"kind":"Name","value":"memoryChanges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<RunFieldsFragment, unknown>;
export const MemoryItemFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<MemoryItemFieldsFragment, unknown>;
export const CandidateFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CandidateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}},{"kind":"Field","name":{"kind":"Name","value":"evidence"}},{"kind":"Field","name":{"kind":"Name","value":"waitReason"}},{"kind":"Field","name":{"kind":"Name","value":"targetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"targetRevision"}},{"kind":"Field","name":{"kind":"Name","value":"proposesForget"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRunId"}},{"kind":"Field","name":{"kind":"Name","value":"timesSuggested"}},{"kind":"Field","name":{"kind":"Name","value":"sourceTeammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<CandidateFieldsFragment, unknown>;
export const TeammateRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TeammateRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Teammate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"useMemory"}},{"kind":"Field","name":{"kind":"Name","value":"saveMemory"}},{"kind":"Field","name":{"kind":"Name","value":"activity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memories"}},{"kind":"Field","name":{"kind":"Name","value":"suggestions"}},{"kind":"Field","name":{"kind":"Name","value":"lastConversationAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}}]}}]}}]} as unknown as DocumentNode<TeammateRowFragment, unknown>;
export const SessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"limits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LimitsFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LimitsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Limits"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"contentLength"}},{"kind":"Field","name":{"kind":"Name","value":"noteLength"}},{"kind":"Field","name":{"kind":"Name","value":"keyLength"}},{"kind":"Field","name":{"kind":"Name","value":"teammateNameLength"}},{"kind":"Field","name":{"kind":"Name","value":"searchLength"}},{"kind":"Field","name":{"kind":"Name","value":"messageLength"}},{"kind":"Field","name":{"kind":"Name","value":"pageSize"}},{"kind":"Field","name":{"kind":"Name","value":"bulkItems"}},{"kind":"Field","name":{"kind":"Name","value":"requestBytes"}}]}}]} as unknown as DocumentNode<SessionQuery, SessionQueryVariables>;
export const UserTokenProbeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UserTokenProbe"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"candidates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"teammateId"},"value":{"kind":"NullValue"}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<UserTokenProbeQuery, UserTokenProbeQueryVariables>;
export const RunsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Runs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"teammateId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"startedByUser"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"endedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cancelledAt"}},{"kind":"Field","name":{"kind":"Name","value":"userMessage"}},{"kind":"Field","name":{"kind":"Name","value":"retryNote"}},{"kind":"Field","name":{"kind":"Name","value":"retryOfRunId"}},{"kind":"Field","name":{"kind":"Name","value":"reply"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"thread"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}}]}},{"kind":"Field","name":{"kind":"Name","value":"memoryChanges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<RunsQuery, RunsQueryVariables>;
export const RunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Run"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"startedByUser"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"endedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cancelledAt"}},{"kind":"Field","name":{"kind":"Name","value":"userMessage"}},{"kind":"Field","name":{"kind":"Name","value":"retryNote"}},{"kind":"Field","name":{"kind":"Name","value":"retryOfRunId"}},{"kind":"Field","name":{"kind":"Name","value":"reply"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"thread"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}}]}},{"kind":"Field","name":{"kind":"Name","value":"memoryChanges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<RunQuery, RunQueryVariables>;
export const RunMemoryContextDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RunMemoryContext"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"memoryContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"revisionGiven"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RunMemoryContextQuery, RunMemoryContextQueryVariables>;
export const RateRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RateRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RateRunInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rateRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}}]}}]}}]} as unknown as DocumentNode<RateRunMutation, RateRunMutationVariables>;
export const CancelRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CancelRunInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"startedByUser"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"endedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cancelledAt"}},{"kind":"Field","name":{"kind":"Name","value":"userMessage"}},{"kind":"Field","name":{"kind":"Name","value":"retryNote"}},{"kind":"Field","name":{"kind":"Name","value":"retryOfRunId"}},{"kind":"Field","name":{"kind":"Name","value":"reply"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"thread"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}}]}},{"kind":"Field","name":{"kind":"Name","value":"memoryChanges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<CancelRunMutation, CancelRunMutationVariables>;
export const KeepLessonDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"KeepLesson"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"KeepLessonInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"keepLesson"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<KeepLessonMutation, KeepLessonMutationVariables>;
export const RetryRunWithNoteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetryRunWithNote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RetryRunWithNoteInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryRunWithNote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"threadId"}},{"kind":"Field","name":{"kind":"Name","value":"retryOfRunId"}},{"kind":"Field","name":{"kind":"Name","value":"prompt"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<RetryRunWithNoteMutation, RetryRunWithNoteMutationVariables>;
export const CancelRetryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelRetry"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CancelRetryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelRetry"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}}]}}]}}]} as unknown as DocumentNode<CancelRetryMutation, CancelRetryMutationVariables>;
export const LessonsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Lessons"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lessons"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"teammateId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<LessonsQuery, LessonsQueryVariables>;
export const LessonRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LessonRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"userMessage"}},{"kind":"Field","name":{"kind":"Name","value":"reply"}}]}}]}}]} as unknown as DocumentNode<LessonRunQuery, LessonRunQueryVariables>;
export const ForgetMemoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ForgetMemories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ForgetMemoriesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forgetMemories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"alsoForgotten"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<ForgetMemoriesMutation, ForgetMemoriesMutationVariables>;
export const BulkCopiesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BulkCopies"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"copiesOf"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<BulkCopiesQuery, BulkCopiesQueryVariables>;
export const PinMemoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PinMemories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PinMemoriesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pinMemories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<PinMemoriesMutation, PinMemoriesMutationVariables>;
export const CreateMemoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateMemory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateMemoryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createMemory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<CreateMemoryMutation, CreateMemoryMutationVariables>;
export const ForgetMemoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ForgetMemory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ForgetMemoryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forgetMemory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"alsoForgotten"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<ForgetMemoryMutation, ForgetMemoryMutationVariables>;
export const ForgetInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ForgetInfo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"copies"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"erasure"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purged"}},{"kind":"Field","name":{"kind":"Name","value":"purgeDelaySeconds"}}]}}]}}]} as unknown as DocumentNode<ForgetInfoQuery, ForgetInfoQueryVariables>;
export const ForgottenBeforeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ForgottenBefore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ScopeInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"content"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forgottenBefore"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"content"},"value":{"kind":"Variable","name":{"kind":"Name","value":"content"}}}]}]}}]} as unknown as DocumentNode<ForgottenBeforeQuery, ForgottenBeforeQueryVariables>;
export const MemoryHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MemoryHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"revisions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"actor"}},{"kind":"Field","name":{"kind":"Name","value":"actorTeammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"basedOn"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MemoryHistoryQuery, MemoryHistoryQueryVariables>;
export const RestoreMemoryRevisionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RestoreMemoryRevision"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RestoreMemoryRevisionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"restoreMemoryRevision"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<RestoreMemoryRevisionMutation, RestoreMemoryRevisionMutationVariables>;
export const UndoMemoryEditDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UndoMemoryEdit"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UndoMemoryEditInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"undoMemoryEdit"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<UndoMemoryEditMutation, UndoMemoryEditMutationVariables>;
export const LessonCountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LessonCount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ScopeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"EnumValue","value":"LESSON"}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]} as unknown as DocumentNode<LessonCountQuery, LessonCountQueryVariables>;
export const RecallPreviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecallPreview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recallPreview"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"teammateId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}}},{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryOff"}},{"kind":"Field","name":{"kind":"Name","value":"vectorSearch"}},{"kind":"Field","name":{"kind":"Name","value":"vectorReason"}},{"kind":"Field","name":{"kind":"Name","value":"leftOut"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"noSharedWord"}},{"kind":"Field","name":{"kind":"Name","value":"overBudget"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"waiting"}}]}},{"kind":"Field","name":{"kind":"Name","value":"entries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"header"}},{"kind":"Field","name":{"kind":"Name","value":"fullTextRank"}},{"kind":"Field","name":{"kind":"Name","value":"fullTextPosition"}},{"kind":"Field","name":{"kind":"Name","value":"bm25Score"}},{"kind":"Field","name":{"kind":"Name","value":"foundBy"}},{"kind":"Field","name":{"kind":"Name","value":"vectorDistance"}},{"kind":"Field","name":{"kind":"Name","value":"vectorPosition"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RecallPreviewQuery, RecallPreviewQueryVariables>;
export const ImportMemoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ImportMemory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImportMemoryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"importMemory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"unchanged"}}]}}]}}]} as unknown as DocumentNode<ImportMemoryMutation, ImportMemoryMutationVariables>;
export const MemoryItemDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MemoryItem"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryItem"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<MemoryItemQuery, MemoryItemQueryVariables>;
export const EditMemoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EditMemory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"EditMemoryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"editMemory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<EditMemoryMutation, EditMemoryMutationVariables>;
export const MemoryItemsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MemoryItems"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ScopeInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryKind"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kinds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryKind"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"EnumValue","value":"ACTIVE"}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"kinds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kinds"}}},{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<MemoryItemsQuery, MemoryItemsQueryVariables>;
export const MemoryChangedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"MemoryChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ScopeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"itemId"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<MemoryChangedSubscription, MemoryChangedSubscriptionVariables>;
export const AiStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AIStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"aiStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"embeddings"}},{"kind":"Field","name":{"kind":"Name","value":"embeddingModel"}},{"kind":"Field","name":{"kind":"Name","value":"embeddingDimensions"}},{"kind":"Field","name":{"kind":"Name","value":"embeddingHost"}},{"kind":"Field","name":{"kind":"Name","value":"embedded"}},{"kind":"Field","name":{"kind":"Name","value":"embeddable"}},{"kind":"Field","name":{"kind":"Name","value":"extraction"}},{"kind":"Field","name":{"kind":"Name","value":"extractionModel"}},{"kind":"Field","name":{"kind":"Name","value":"extractionHost"}},{"kind":"Field","name":{"kind":"Name","value":"requestsToday"}},{"kind":"Field","name":{"kind":"Name","value":"dailyRequestLimit"}}]}}]}}]} as unknown as DocumentNode<AiStatusQuery, AiStatusQueryVariables>;
export const AboutYouWaitingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AboutYouWaiting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"teammateId"},"value":{"kind":"NullValue"}}]}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"EnumValue","value":"CANDIDATE"}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]} as unknown as DocumentNode<AboutYouWaitingQuery, AboutYouWaitingQueryVariables>;
export const BackupsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Backups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"backups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"intervalSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"keep"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"totalBytes"}},{"kind":"Field","name":{"kind":"Name","value":"last"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"bytes"}},{"kind":"Field","name":{"kind":"Name","value":"migration"}}]}}]}}]}}]} as unknown as DocumentNode<BackupsQuery, BackupsQueryVariables>;
export const ConfirmCandidateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConfirmCandidate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ConfirmCandidateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"confirmCandidate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<ConfirmCandidateMutation, ConfirmCandidateMutationVariables>;
export const DismissCandidateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DismissCandidate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DismissCandidateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dismissCandidate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<DismissCandidateMutation, DismissCandidateMutationVariables>;
export const CandidatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Candidates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ScopeInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"EnumValue","value":"CANDIDATE"}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CandidateFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CandidateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}},{"kind":"Field","name":{"kind":"Name","value":"evidence"}},{"kind":"Field","name":{"kind":"Name","value":"waitReason"}},{"kind":"Field","name":{"kind":"Name","value":"targetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"targetRevision"}},{"kind":"Field","name":{"kind":"Name","value":"proposesForget"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRunId"}},{"kind":"Field","name":{"kind":"Name","value":"timesSuggested"}},{"kind":"Field","name":{"kind":"Name","value":"sourceTeammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CandidatesQuery, CandidatesQueryVariables>;
export const ConfirmCandidatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConfirmCandidates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CandidatesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"confirmCandidates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}}]}}]}}]}}]} as unknown as DocumentNode<ConfirmCandidatesMutation, ConfirmCandidatesMutationVariables>;
export const DismissCandidatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DismissCandidates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CandidatesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dismissCandidates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<DismissCandidatesMutation, DismissCandidatesMutationVariables>;
export const UndoDismissCandidateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UndoDismissCandidate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UndoDismissCandidateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"undoDismissCandidate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<UndoDismissCandidateMutation, UndoDismissCandidateMutationVariables>;
export const UndoConfirmCandidatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UndoConfirmCandidates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UndoConfirmCandidatesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"undoConfirmCandidates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<UndoConfirmCandidatesMutation, UndoConfirmCandidatesMutationVariables>;
export const TeammateStartDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TeammateStart"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ScopeInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"teammateId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<TeammateStartQuery, TeammateStartQueryVariables>;
export const TeammateActivityDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TeammateActivity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"activity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memories"}},{"kind":"Field","name":{"kind":"Name","value":"suggestions"}},{"kind":"Field","name":{"kind":"Name","value":"lastConversationAt"}}]}}]}}]}}]} as unknown as DocumentNode<TeammateActivityQuery, TeammateActivityQueryVariables>;
export const DeleteTeammateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteTeammate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeleteTeammateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteTeammate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammateId"}},{"kind":"Field","name":{"kind":"Name","value":"forgottenItems"}},{"kind":"Field","name":{"kind":"Name","value":"deletedRuns"}},{"kind":"Field","name":{"kind":"Name","value":"deletedThreads"}},{"kind":"Field","name":{"kind":"Name","value":"deletedMessages"}}]}}]}}]} as unknown as DocumentNode<DeleteTeammateMutation, DeleteTeammateMutationVariables>;
export const SearchMemoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SearchMemory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"searchMemory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MemoryItemFields"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MemoryItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MemoryItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAction"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"quote"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"confirmedAt"}}]}}]}}]} as unknown as DocumentNode<SearchMemoryQuery, SearchMemoryQueryVariables>;
export const SetMemorySwitchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetMemorySwitch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SetMemorySwitchInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setMemorySwitch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"useMemory"}},{"kind":"Field","name":{"kind":"Name","value":"saveMemory"}}]}}]}}]}}]} as unknown as DocumentNode<SetMemorySwitchMutation, SetMemorySwitchMutationVariables>;
export const TeammateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Teammate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"useMemory"}},{"kind":"Field","name":{"kind":"Name","value":"saveMemory"}}]}}]}}]} as unknown as DocumentNode<TeammateQuery, TeammateQueryVariables>;
export const RenameTeammateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RenameTeammate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RenameTeammateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"renameTeammate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<RenameTeammateMutation, RenameTeammateMutationVariables>;
export const GenerationChangedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"GenerationChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generationChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"teammateId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"teammateId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammateId"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}}]}}]}}]} as unknown as DocumentNode<GenerationChangedSubscription, GenerationChangedSubscriptionVariables>;
export const TeammatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Teammates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TeammateRow"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TeammateRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Teammate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"useMemory"}},{"kind":"Field","name":{"kind":"Name","value":"saveMemory"}},{"kind":"Field","name":{"kind":"Name","value":"activity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memories"}},{"kind":"Field","name":{"kind":"Name","value":"suggestions"}},{"kind":"Field","name":{"kind":"Name","value":"lastConversationAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}}]}}]}}]} as unknown as DocumentNode<TeammatesQuery, TeammatesQueryVariables>;
export const CreateTeammateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateTeammate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateTeammateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createTeammate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TeammateRow"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TeammateRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Teammate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"useMemory"}},{"kind":"Field","name":{"kind":"Name","value":"saveMemory"}},{"kind":"Field","name":{"kind":"Name","value":"activity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memories"}},{"kind":"Field","name":{"kind":"Name","value":"suggestions"}},{"kind":"Field","name":{"kind":"Name","value":"lastConversationAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}}]}}]}}]} as unknown as DocumentNode<CreateTeammateMutation, CreateTeammateMutationVariables>;
export const TeammatesChangedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TeammatesChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammatesChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammateId"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"teammate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TeammateRow"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TeammateRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Teammate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"useMemory"}},{"kind":"Field","name":{"kind":"Name","value":"saveMemory"}},{"kind":"Field","name":{"kind":"Name","value":"activity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memories"}},{"kind":"Field","name":{"kind":"Name","value":"suggestions"}},{"kind":"Field","name":{"kind":"Name","value":"lastConversationAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}}]}}]}}]} as unknown as DocumentNode<TeammatesChangedSubscription, TeammatesChangedSubscriptionVariables>;
export const BackupsEnabledDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BackupsEnabled"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"backups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}}]}}]}}]} as unknown as DocumentNode<BackupsEnabledQuery, BackupsEnabledQueryVariables>;
export const RemoveDemoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveDemo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeDemo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"teammateId"}},{"kind":"Field","name":{"kind":"Name","value":"forgottenItems"}},{"kind":"Field","name":{"kind":"Name","value":"deletedMessages"}}]}},{"kind":"Field","name":{"kind":"Name","value":"forgottenSharedItems"}}]}}]}}]} as unknown as DocumentNode<RemoveDemoMutation, RemoveDemoMutationVariables>;
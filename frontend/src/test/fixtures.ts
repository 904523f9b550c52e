import type { CandidateFieldsFragment, MemoryItemFieldsFragment, RunFieldsFragment } from '../gql/graphql.ts'

// Objects as the API answers them (with __typename, which the normalised cache keys them by).

const created = '2025-03-01T09:30:00Z'

export type ItemAnswer = MemoryItemFieldsFragment & { __typename: 'MemoryItem' }

/** An active memory item of Ada's scope. */
export function memoryItem(over: Partial<MemoryItemFieldsFragment> = {}): ItemAnswer {
  return {
    __typename: 'MemoryItem',
    id: 'item-1',
    scope: 'ada',
    kind: 'PREFERENCE',
    key: 'coffee',
    content: 'Drinks oat milk flat whites.',
    status: 'ACTIVE',
    pinned: false,
    revision: 1,
    lastAction: 'CREATE',
    source: 'USER',
    expiresAt: null,
    expired: false,
    createdAt: created,
    updatedAt: created,
    provenance: provenance({ at: created }),
    ...over,
  }
}

type Provenance = MemoryItemFieldsFragment['provenance']

/**
 * Where an item came from, as the API answers it: the user's own by default. Its objects carry their
 * __typename (which the generated types leave out), as the cache needs to write them.
 */
export function provenance(over: Partial<Provenance> = {}): Provenance {
  const p = { kind: 'ADDED_BY_YOU', teammate: null, runId: null, quote: null, at: created, confirmedAt: null, ...over } as Provenance
  return {
    __typename: 'MemoryProvenance',
    ...p,
    teammate: p.teammate && ({ __typename: 'Teammate', ...p.teammate } as Provenance['teammate']),
  } as Provenance
}

/** A suggestion waiting in Ada's scope: a new memory a teammate suggested. */
export function candidate(over: Partial<CandidateFieldsFragment> = {}): CandidateFieldsFragment {
  return {
    id: 'cand-1',
    scope: 'ada',
    kind: 'FACT',
    key: null,
    content: 'Lives in Lyon.',
    status: 'CANDIDATE',
    pinned: false,
    revision: 1,
    lastAction: 'CREATE',
    source: 'TEAMMATE',
    expiresAt: null,
    expired: false,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    evidence: null,
    waitReason: null,
    targetItemId: null,
    targetRevision: null,
    proposesForget: false,
    sourceRunId: null,
    timesSuggested: 1,
    sourceTeammate: null,
    provenance: provenance({ kind: 'SUGGESTED_BY_TEAMMATE', at: new Date().toISOString() }),
    ...over,
  }
}

/** One of Ada's turns that replied. */
export function run(over: Partial<RunFieldsFragment> = {}): RunFieldsFragment {
  return {
    id: 'run-1',
    status: 'COMPLETED',
    startedByUser: true,
    createdAt: created,
    endedAt: created,
    cancelledAt: null,
    userMessage: 'What should I cook tonight?',
    retryNote: null,
    retryOfRunId: null,
    reply: 'A mushroom risotto.',
    rating: null,
    thread: { id: 'thread-1', generation: '1:1:0' },
    memoryChanges: [],
    ...over,
  }
}

import type { Cache, CacheExchangeOpts, Data, FieldArgs, UpdateResolver } from '@urql/exchange-graphcache'
import { graphql } from '../gql'
import type {
  CandidatesInput,
  ConfirmCandidateMutation,
  ConfirmCandidateMutationVariables,
  CreateTeammateMutation,
  DeleteTeammateMutation,
  RemoveDemoMutation,
  ForgetMemoryMutation,
  GenerationChangedSubscription,
  ImportMemoryInput,
  MemoryChangedSubscription,
  ScopeInput,
  TeammatesChangedSubscription,
} from '../gql/graphql.ts'
import { chainedConnection, chainedRuns } from './pagination.ts'

// The web app's normalised cache (graphcache). Teammates, memory items, runs and threads are
// entities keyed by id, so an item shown in a list, a suggestion's comparison and an editor is one
// record, and a mutation's answer or a subscription's event updates it everywhere at once. The
// updaters below say which lists a change affects: those are invalidated, and the queries showing
// them read them again (lists are ordered and filtered by the server — pinned first, search by
// stemmed words — so they are not re-sorted here).

// Types without an id are part of the object that holds them (a page, a payload, an event), so the
// cache keys them as embedded. The list is exactly the object types without an id field that can
// appear in an answer to the web app: those returned by a field the user may read, from the root
// fields whose @auth accepts USER down. The worker's and runs' own types (StartRunPayload,
// ToolResult, RetryOrigin …) are behind fields only they may call, and never reach the web app.
// cache.test.ts derives the list from the schema (graph/*.graphqls) and fails when they differ.
const embedded = [
  'TeammateActivity',
  'TeammateChange',
  'GenerationChange',
  'MemoryChange',
  'MemoryItemConnection',
  'MemoryItemEdge',
  'MemoryRevision',
  'MemoryRevisionConnection',
  'MemoryRevisionEdge',
  'PageInfo',
  'CreateTeammatePayload',
  'RenameTeammatePayload',
  'DeleteTeammatePayload',
  'RemoveDemoPayload',
  'MemoryItemPayload',
  'MemoryItemsPayload',
  'ForgetMemoryPayload',
  'ForgetMemoriesPayload',
  'ImportMemoryPayload',
  'RetryRequest',
  'Lesson',
  'MemoryContextEntry',
  'RecallPreview',
  'RecallEntry',
  'RecallLeftOut',
  'AIStatus',
  'Erasure',
  'BackupStatus',
  'Backup',
  'Limits',
  'MemoryProvenance',
  'RunMemoryChange',
  'SetMemorySwitchPayload',
]

/** A scope's name (shared or a teammate id) as the teammateId of its ScopeInput. */
function teammateOf(scope: string): string | null {
  return scope === 'shared' ? null : scope
}

/** The scope a ScopeInput names. */
function scopeName(scope: ScopeInput): string {
  return scope.teammateId ?? 'shared'
}

/** Each cached field of Query named name, with its arguments. */
function queryFields(cache: Cache, name: string) {
  return cache.inspectFields('Query').filter((f) => f.fieldName === name)
}

/**
 * scopeChanged invalidates everything that lists or counts the items of a scope: its pages of
 * memoryItems (every status, filter and page), the teammate's lessons and activity counts, and every
 * search across scopes. The queries that show them read them again.
 */
export function scopeChanged(cache: Cache, scope: string) {
  const teammateId = teammateOf(scope)
  for (const f of queryFields(cache, 'memoryItems')) {
    const args = f.arguments as { scope?: ScopeInput } | null
    if ((args?.scope?.teammateId ?? null) === teammateId) cache.invalidate('Query', f.fieldName, f.arguments ?? undefined)
  }
  for (const f of queryFields(cache, 'searchMemory')) cache.invalidate('Query', f.fieldName, f.arguments ?? undefined)
  if (teammateId === null) return
  cache.invalidate('Query', 'lessons', { teammateId })
  cache.invalidate({ __typename: 'Teammate', id: teammateId }, 'activity')
}

/** scopeChanged for the scope of each item a mutation returned. */
function itemsChanged(cache: Cache, items: readonly ({ scope: string } | null | undefined)[]) {
  for (const scope of new Set(items.map((i) => i?.scope))) {
    if (scope) scopeChanged(cache, scope)
  }
}

/** A teammate, written to the cache by the same answer, joins the cached list (the page sorts it). */
function teammateAdded(cache: Cache, teammate: { id: string } | null | undefined) {
  const key = teammate && cache.keyOfEntity({ __typename: 'Teammate', id: teammate.id })
  const list = cache.resolve('Query', 'teammates')
  if (key && Array.isArray(list) && !(list as string[]).includes(key)) cache.link('Query', 'teammates', [...(list as string[]), key])
}

/** A teammate is gone: from the list, as the answer to teammate(id), and from every search. */
function teammateDeleted(cache: Cache, id: string) {
  const key = cache.keyOfEntity({ __typename: 'Teammate', id })
  const list = cache.resolve('Query', 'teammates')
  if (Array.isArray(list)) cache.link('Query', 'teammates', (list as string[]).filter((k) => k !== key))
  cache.link('Query', 'teammate', { id }, null)
  for (const f of queryFields(cache, 'searchMemory')) cache.invalidate('Query', f.fieldName, f.arguments ?? undefined)
}

const TeammateGenerationFragment = graphql(`
  fragment TeammateGeneration on Teammate {
    id
    generation
  }
`)

/**
 * A teammate's generation moved (G7): the teammate records it, and what the runs were given is read
 * again wherever it is shown (each entry's state — changed, forgotten, expired — follows memory the
 * teammate sees, and the generation is how that is announced, expiries included). The first event
 * of a subscription repeats the value read with the teammate, which changes nothing.
 */
const generationChanged: UpdateResolver<GenerationChangedSubscription> = (result, _args, cache) => {
  const { teammateId, generation } = result.generationChanged
  const before = cache.resolve({ __typename: 'Teammate', id: teammateId }, 'generation')
  cache.writeFragment(TeammateGenerationFragment, { id: teammateId, generation })
  if (before === undefined || before === generation) return
  for (const f of queryFields(cache, 'run')) {
    const run = cache.resolve('Query', f.fieldName, f.arguments ?? undefined)
    if (typeof run === 'string') cache.invalidate(run, 'memoryContext')
  }
}

/**
 * An item's revision was written, by whatever answer or event carried it: a history of the item
 * read before that revision is out of date, and is invalidated, so that an open history reads it
 * again. (The newest revision of a history is its first.)
 */
const revisionWritten: UpdateResolver<{ revision?: number }> = (item, _args, cache, info) => {
  const fields = cache.inspectFields(info.parentKey).filter((f) => f.fieldName === 'revisions')
  const stale = fields.some((f) => {
    if (f.arguments?.after != null) return false
    const page = cache.resolve(info.parentKey, f.fieldKey)
    const edges = typeof page === 'string' ? cache.resolve(page, 'edges') : null
    const newest = Array.isArray(edges) && edges.length > 0 ? cache.resolve(cache.resolve(edges[0] as string, 'node') as string, 'revision') : null
    return newest !== null && newest !== item.revision
  })
  if (stale) for (const f of fields) cache.invalidate(info.parentKey, f.fieldName, f.arguments ?? undefined)
}

// A suggestion that no longer waits, as far as the cache needs to know.
const SettledFragment = graphql(`
  fragment SettledSuggestion on MemoryItem {
    id
    status
  }
`)

/** The mutations that return the item they wrote: the lists of its scope change with it. */
const itemMutations = [
  'createMemory',
  'editMemory',
  'undoMemoryEdit',
  'restoreMemoryRevision',
  'dismissCandidate',
  'undoDismissCandidate',
  'undoConfirmCandidate',
  'keepLesson',
] as const

/** The bulk mutations that return the items they wrote. */
const itemsMutations = ['forgetMemories', 'pinMemories', 'undoConfirmCandidates'] as const

/** The mutations that name their scope in input.scope. */
const scopeMutations = ['confirmCandidates', 'dismissCandidates', 'importMemory'] as const

type Payload = { item?: { scope: string } | null; items?: readonly { scope: string }[] | null } | null | undefined

export const cacheConfig: CacheExchangeOpts = {
  keys: Object.fromEntries(embedded.map((type) => [type, () => null])),
  resolvers: {
    Query: { memoryItems: chainedConnection, runs: chainedRuns },
    MemoryItem: { revisions: chainedConnection },
  },
  updates: {
    MemoryItem: { revision: revisionWritten },
    Mutation: {
      ...Object.fromEntries(
        itemMutations.map((name) => [name, (result: Data, _args: FieldArgs, cache: Cache) => itemsChanged(cache, [(result[name] as Payload)?.item])]),
      ),
      ...Object.fromEntries(
        itemsMutations.map((name) => [name, (result: Data, _args: FieldArgs, cache: Cache) => itemsChanged(cache, (result[name] as Payload)?.items ?? [])]),
      ),
      ...Object.fromEntries(
        scopeMutations.map((name) => [
          name,
          (_result: Data, args: FieldArgs, cache: Cache) => scopeChanged(cache, scopeName((args as { input: CandidatesInput | ImportMemoryInput }).input.scope)),
        ]),
      ),
      // Confirming a proposal answers with the item it changed; the proposal itself no longer waits.
      confirmCandidate: ((result, args, cache) => {
        const item = result.confirmCandidate?.item
        if (!item) return
        if (item.id !== args.input.id) cache.writeFragment(SettledFragment, { id: args.input.id, status: 'DISMISSED' })
        scopeChanged(cache, item.scope)
      }) satisfies UpdateResolver<ConfirmCandidateMutation, ConfirmCandidateMutationVariables>,
      forgetMemory: ((result, _args, cache) => {
        const payload = result.forgetMemory
        if (payload) itemsChanged(cache, [payload.item, ...payload.alsoForgotten])
      }) satisfies UpdateResolver<ForgetMemoryMutation>,
      createTeammate: ((result, _args, cache) => teammateAdded(cache, result.createTeammate?.teammate)) satisfies UpdateResolver<CreateTeammateMutation>,
      deleteTeammate: ((result, _args, cache) => {
        if (result.deleteTeammate) teammateDeleted(cache, result.deleteTeammate.teammateId)
      }) satisfies UpdateResolver<DeleteTeammateMutation>,
      // The demo's teammates are deleted, and its shared items forgotten.
      removeDemo: ((result, _args, cache) => {
        if (!result.removeDemo) return
        for (const t of result.removeDemo.teammates) teammateDeleted(cache, t.teammateId)
        scopeChanged(cache, 'shared')
      }) satisfies UpdateResolver<RemoveDemoMutation>,
    },
    Subscription: {
      memoryChanged: ((result, _args, cache) => scopeChanged(cache, result.memoryChanged.scope)) satisfies UpdateResolver<MemoryChangedSubscription>,
      generationChanged,
      // A rename needs nothing here: the event carries the teammate, whose name the cache updates.
      teammatesChanged: ((result, _args, cache) => {
        const { teammateId, change, teammate } = result.teammatesChanged
        if (change === 'DELETED') teammateDeleted(cache, teammateId)
        else if (change === 'CREATED') teammateAdded(cache, teammate)
      }) satisfies UpdateResolver<TeammatesChangedSubscription>,
    },
  },
}

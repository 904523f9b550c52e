import { useCallback, useEffect, useRef, useState } from 'react'
import { useClient, type CombinedError } from 'urql'
import { MemoryItemsQuery } from '../api/operations.ts'
import type { MemoryKind, ScopeInput } from '../gql/graphql.ts'
import type { MemoryItem } from './model.ts'

/** Items per page of the list (the API allows 1–100). */
export const memoryPageSize = 20

export interface MemoryListFilter {
  scope: ScopeInput
  kind: MemoryKind | null
  /** The kinds the list is limited to (null: all). */
  kinds?: MemoryKind[] | null
  search: string
}

export interface MemoryList {
  items: MemoryItem[]
  totalCount: number
  hasNextPage: boolean
  /** The first page for the current filter hasn't arrived yet. */
  loading: boolean
  loadingMore: boolean
  error: CombinedError | undefined
  /** The search and kind the items shown were read with (the filter may have moved on since). */
  shownFilter: { search: string; kind: MemoryKind | null }
  /** Re-reads every page shown so far (coalesced: calls during a read cause one more read). */
  refresh(): void
  /** Appends the next page, read after the last cursor. */
  loadMore(): void
  /** Shows a mutation's result at once, before the refresh that follows it puts it in order. */
  replaceItem(item: MemoryItem): void
  /** Takes an item off the list at once (it was forgotten); the refresh that follows confirms it. */
  removeItem(id: string): void
}

interface State {
  items: MemoryItem[]
  totalCount: number
  hasNextPage: boolean
  loading: boolean
  loadingMore: boolean
  error: CombinedError | undefined
  shownFilter: { search: string; kind: MemoryKind | null }
}

const initialState: State = {
  items: [],
  totalCount: 0,
  hasNextPage: false,
  loading: true,
  loadingMore: false,
  error: undefined,
  shownFilter: { search: '', kind: null },
}

/**
 * useMemoryList reads a scope's active items page by page with the Relay cursors of memoryItems.
 * Reads are serialised: a refresh re-reads the pages shown so far from the first one (following the
 * new cursors, so an item that moved is neither lost nor shown twice), and a change of filter drops
 * whatever was still on its way for the old one.
 */
export function useMemoryList({ scope, kind, kinds = null, search }: MemoryListFilter): MemoryList {
  const client = useClient()
  const [state, setState] = useState<State>(initialState)
  const filterKey = JSON.stringify([scope.teammateId ?? null, kind, search, kinds])
  // A new filter: keep showing the old items until the new ones arrive, so typing in the search box
  // doesn't flash an empty list.
  const [readingFilterKey, setReadingFilterKey] = useState(filterKey)
  if (readingFilterKey !== filterKey) {
    setReadingFilterKey(filterKey)
    setState((s) => ({ ...s, loading: s.items.length === 0, loadingMore: false }))
  }

  // epoch changes with the filter; results read for an older epoch are dropped.
  const epoch = useRef(0)
  const pages = useRef(1)
  const endCursor = useRef<string | null>(null)
  const pending = useRef({ refresh: false, more: false })
  const running = useRef(false)

  // The filter the next read uses; reads are started by the serial loop below, which may outlive a
  // render, so they look the filter up here rather than capture it.
  const filter = useRef<{ teammateId: string | null; kind: MemoryKind | null; kinds: MemoryKind[] | null; search: string }>(null!)

  const readPage = useCallback(
    (after: string | null) => {
      const f = filter.current
      return client
        .query(
          MemoryItemsQuery,
          { scope: { teammateId: f.teammateId }, kind: f.kind, kinds: f.kinds, search: f.search || null, first: memoryPageSize, after },
          { requestPolicy: 'network-only' },
        )
        .toPromise()
    },
    [client],
  )

  const pump = useCallback(async () => {
    if (running.current) return
    running.current = true
    try {
      while (pending.current.refresh || pending.current.more) {
        const myEpoch = epoch.current
        const shownFilter = { search: filter.current.search, kind: filter.current.kind }
        if (pending.current.refresh) {
          pending.current.refresh = false
          const items: MemoryItem[] = []
          let after: string | null = null
          let last = null
          let error: CombinedError | undefined
          for (let i = 0; i < pages.current; i++) {
            const result = await readPage(after)
            if (result.error || !result.data) {
              error = result.error
              break
            }
            last = result.data.memoryItems
            items.push(...last.edges.map((e) => e.node))
            after = last.pageInfo.endCursor ?? null
            if (!last.pageInfo.hasNextPage) break
          }
          if (myEpoch !== epoch.current) continue
          if (error || !last) {
            setState((s) => ({ ...s, loading: false, loadingMore: false, error }))
            continue
          }
          const page = last
          endCursor.current = page.pageInfo.endCursor ?? null
          setState((s) => ({
            items: newest(unique(items), s.items),
            totalCount: page.totalCount,
            hasNextPage: page.pageInfo.hasNextPage,
            loading: false,
            loadingMore: false,
            error: undefined,
            shownFilter,
          }))
        } else {
          pending.current.more = false
          const result = await readPage(endCursor.current)
          if (myEpoch !== epoch.current) continue
          if (result.error || !result.data) {
            const error = result.error
            setState((s) => ({ ...s, loadingMore: false, error }))
            continue
          }
          const page = result.data.memoryItems
          pages.current += 1
          endCursor.current = page.pageInfo.endCursor ?? null
          setState((s) => ({
            ...s,
            items: unique([...s.items, ...newest(page.edges.map((e) => e.node), s.items)]),
            totalCount: page.totalCount,
            hasNextPage: page.pageInfo.hasNextPage,
            loadingMore: false,
            error: undefined,
          }))
        }
      }
    } finally {
      running.current = false
    }
  }, [readPage])

  const refresh = useCallback(() => {
    pending.current.refresh = true
    void pump()
  }, [pump])

  const loadMore = useCallback(() => {
    if (!endCursor.current) return
    pending.current.more = true
    setState((s) => ({ ...s, loadingMore: true }))
    void pump()
  }, [pump])

  const replaceItem = useCallback((item: MemoryItem) => {
    setState((s) => ({ ...s, items: s.items.map((i) => (i.id === item.id && item.revision >= i.revision ? item : i)) }))
  }, [])

  const removeItem = useCallback(
    (id: string) => {
      setState((s) =>
        s.items.some((i) => i.id === id)
          ? { ...s, items: s.items.filter((i) => i.id !== id), totalCount: Math.max(0, s.totalCount - 1) }
          : s,
      )
      refresh()
    },
    [refresh],
  )

  useEffect(() => {
    const [teammateId, k, q, ks] = JSON.parse(filterKey) as [string | null, MemoryKind | null, string, MemoryKind[] | null]
    filter.current = { teammateId, kind: k, kinds: ks, search: q }
    epoch.current += 1
    pages.current = 1
    endCursor.current = null
    pending.current = { refresh: true, more: false }
    void pump()
  }, [pump, filterKey])

  return { ...state, refresh, loadMore, replaceItem, removeItem }
}

/**
 * items, except that an item already shown at a later revision stays as shown: a read that started
 * before a save can answer after it, and must not take the item back to the revision the save
 * replaced (an edit based on that would conflict). Revisions only ever grow.
 */
function newest(items: MemoryItem[], shown: MemoryItem[]): MemoryItem[] {
  const byId = new Map(shown.map((i) => [i.id, i]))
  return items.map((i) => {
    const current = byId.get(i.id)
    return current && current.revision > i.revision ? current : i
  })
}

function unique(items: MemoryItem[]): MemoryItem[] {
  const seen = new Set<string>()
  return items.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)))
}

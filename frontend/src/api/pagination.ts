import type { Resolver } from '@urql/exchange-graphcache'
import { useCallback, useMemo } from 'react'
import { useQuery, type AnyVariables, type CombinedError, type Operation, type TypedDocumentNode } from 'urql'

// Paged lists on the normalised cache.
//
// A list is read by one query for its first page, whose size (`first`) grows as the user asks for
// more, up to the API's page limit (Limits.pageSize). Past that limit the next pages are read by
// queries of their own, each starting where the one before ended, and the resolvers below hand the
// first page's query the whole chain. So the first page's query always shows the whole list, and
// when a change invalidates the list it is read again from the start in one request — up to the
// page limit a list never shrinks or shows an item twice while it refreshes, and past it the chain
// is followed again from the new first page, so that an item that moved is neither lost nor listed
// twice. (graphcache's relayPagination merges pages by their cursors but drops totalCount and, after
// an invalidation, re-reads only the page the query last asked for.)

/**
 * chainedConnection resolves a Relay connection field (`first`/`after`, `pageInfo.endCursor`): read
 * without `after`, it is that page followed by the cached pages chained after it — each the page
 * read with the same arguments and `after` = the previous page's endCursor — with no item twice, the
 * first page's totalCount and the last page's pageInfo. Read with `after`, it is that page alone (the
 * query that reads the next page). A page not cached yet ends the chain; reading it (a dependency)
 * brings the chain up to date once it is.
 */
export const chainedConnection: Resolver = (_parent, args, cache, info) => {
  const own = cache.resolve(info.parentKey, info.fieldName, args)
  if (typeof own !== 'string' || args.after != null) return own
  const edges = cache.resolve(own, 'edges')
  if (!Array.isArray(edges)) return own
  const merged = [...edges]
  const seen = new Set(edges.map((e) => cache.resolve(e as string, 'node')))
  let pageInfo = cache.resolve(own, 'pageInfo')
  for (let page = own; ; ) {
    const more = typeof pageInfo === 'string' && cache.resolve(pageInfo, 'hasNextPage') === true
    const end = typeof pageInfo === 'string' ? cache.resolve(pageInfo, 'endCursor') : null
    if (!more || typeof end !== 'string') break
    const next = cache.resolve(info.parentKey, info.fieldName, { ...args, after: end })
    const nextEdges = typeof next === 'string' ? cache.resolve(next, 'edges') : undefined
    if (typeof next !== 'string' || next === page || !Array.isArray(nextEdges)) break
    for (const e of nextEdges) {
      const node = cache.resolve(e as string, 'node')
      if (seen.has(node)) continue
      seen.add(node)
      merged.push(e)
    }
    page = next
    pageInfo = cache.resolve(next, 'pageInfo')
  }
  return {
    __typename: cache.resolve(own, '__typename') as string,
    totalCount: cache.resolve(own, 'totalCount'),
    edges: merged,
    pageInfo,
  }
}

/**
 * chainedRuns resolves Query.runs (`first`/`before`, newest first): read without `before`, it is
 * that page followed by the cached pages chained after it — each read with `before` = the id of the
 * last run of a full page before it. Read with `before`, it is that page alone.
 */
export const chainedRuns: Resolver = (_parent, args, cache, info) => {
  const own = cache.resolve(info.parentKey, info.fieldName, args)
  if (!Array.isArray(own) || args.before != null || typeof args.first !== 'number') return own
  const merged = [...own]
  const seen = new Set(own)
  for (let page = own; page.length === args.first; ) {
    const before = cache.resolve(page[page.length - 1] as string, 'id') as string
    const next = cache.resolve(info.parentKey, info.fieldName, { ...args, before })
    if (!Array.isArray(next) || next === page) break
    merged.push(...next.filter((r) => !seen.has(r)))
    next.forEach((r) => seen.add(r))
    page = next
  }
  return merged
}

/** What usePagedList reads out of a query's data: the list, and where the page after it starts. */
export interface Page<Item> {
  items: Item[]
  /** The cursor the next page is read after (or before); null when the list is known to end here. */
  cursor: string | null
}

/** A Relay connection's page as usePagedList reads it: its nodes, and the cursor after its end. */
export function connectionPage<Node>(connection: {
  edges: readonly { node: Node }[]
  pageInfo: { hasNextPage: boolean; endCursor?: string | null }
}): Page<Node> {
  return {
    items: connection.edges.map((e) => e.node),
    cursor: connection.pageInfo.hasNextPage ? (connection.pageInfo.endCursor ?? null) : null,
  }
}

export interface PagedListOptions<Data, Variables extends AnyVariables, Item> {
  query: TypedDocumentNode<Data, Variables>
  /** The query's variables for a page of `first` items starting at `cursor` (null: the first page). */
  variables(first: number, cursor: string | null): Variables
  /** How many items the user asked to see. */
  wanted: number
  /** The API's largest page (Limits.pageSize). */
  pageSize: number
  /** The list in a result; `first` is the page size it was read with. Null when there is none. */
  read(data: Data, first: number): Page<Item> | null
}

export interface PagedList<Data, Item> {
  /** The items to show: at most `wanted`. */
  items: Item[]
  /** The first page's data as the cache holds it (the whole chain), and the operation it is for. */
  data: Data | undefined
  operation: Operation<Data> | undefined
  /** More items exist than are shown. */
  hasMore: boolean
  /** Nothing has been read yet. */
  loading: boolean
  /** More were asked for and are on their way. */
  loadingMore: boolean
  error: CombinedError | undefined
  /** Reads the list again from the server (after an error, or on a poll). */
  refresh(): void
}

/**
 * usePagedList shows the first `wanted` items of a list read as chainedConnection and chainedRuns
 * describe: the first page's query (cache and network) with `first` = min(wanted, pageSize), and,
 * while the cached chain holds fewer than `wanted` items and more exist, one query for the page
 * after it. The chain is in the cache, so the pages of a list are not copied into component state
 * and a change anywhere (a mutation's or a subscription's updater) shows in every list at once.
 */
export function usePagedList<Data, Variables extends AnyVariables, Item>({
  query,
  variables,
  wanted,
  pageSize,
  read,
}: PagedListOptions<Data, Variables, Item>): PagedList<Data, Item> {
  const first = Math.min(wanted, pageSize)
  const [root, reexecute] = useQuery({ query, variables: variables(first, null), requestPolicy: 'cache-and-network' })
  const page = useMemo(() => (root.data ? read(root.data, first) : null), [root.data, first, read])
  const cursor = page?.cursor ?? null
  // Pages after the first exist only past the page limit, where `first` no longer grows; they are
  // read once the first page's own read settled, so that a cursor from a list about to change is not
  // followed.
  const follow = !!page && wanted > pageSize && !root.fetching && cursor !== null && page.items.length < wanted
  const [next] = useQuery({ query, variables: variables(first, cursor), pause: !follow })
  // A full last page may be the end: the page after it reads empty.
  const ended = !!next.data && read(next.data, first)?.items.length === 0
  const items = useMemo(() => (page ? page.items.slice(0, wanted) : []), [page, wanted])
  const readMore = cursor !== null && !ended
  const error = root.error ?? next.error
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute])
  return {
    items,
    data: root.data,
    operation: root.operation,
    hasMore: !!page && (page.items.length > wanted || readMore),
    loading: !root.data && !root.error,
    loadingMore: !!page && items.length < wanted && readMore && !error,
    error,
    refresh,
  }
}

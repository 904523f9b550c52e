import { graphql } from '../gql'
import type { MemoryItemsQuery as MemoryItemsResult, MemoryKind, ScopeInput } from '../gql/graphql.ts'
import { useLiveSubscription } from '../api/live.ts'
import { useLimits } from '../api/limits.ts'
import { connectionPage, usePagedList, type Page } from '../api/pagination.ts'
import type { MemoryItem } from './model.ts'

const MemoryItemsQuery = graphql(`
  query MemoryItems($scope: ScopeInput!, $kind: MemoryKind, $kinds: [MemoryKind!], $search: String, $first: Int, $after: String) {
    memoryItems(scope: $scope, status: ACTIVE, kind: $kind, kinds: $kinds, search: $search, first: $first, after: $after) {
      totalCount
      edges {
        cursor
        node {
          ...MemoryItemFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

/**
 * Every change to an item of a scope. The event carries the item as it is now, which the cache
 * records, and its updater (api/cache.ts) invalidates the scope's lists, lessons and counts.
 */
const MemoryChangedSubscription = graphql(`
  subscription MemoryChanged($scope: ScopeInput!) {
    memoryChanged(scope: $scope) {
      scope
      itemId
      revision
      action
      status
      item {
        ...MemoryItemFields
      }
    }
  }
`)

/** Keeps the scope's memory live: what any list, card or count of it shows follows every change. */
export function useLiveScope(scope: ScopeInput) {
  useLiveSubscription(MemoryChangedSubscription, { scope: { teammateId: scope.teammateId ?? null } })
}

/** Items per page of the list (the API allows up to Limits.pageSize). */
export const memoryPageSize = 20

export interface MemoryListFilter {
  scope: ScopeInput
  kind: MemoryKind | null
  /** The kinds the list is limited to (null: all). */
  kinds?: MemoryKind[] | null
  search: string
  /** How many items to show: a page, and a page more each time the user asks. */
  wanted: number
}

/**
 * useMemoryList reads a scope's active items, pinned first (as the API orders them), as many as
 * wanted, through the cache (api/pagination.ts). While another filter is read, the items of the last
 * one stay shown (shownFilter says which), so typing in the search box doesn't flash an empty list.
 * An item forgotten or no longer active leaves the list as soon as the cache knows, before the list
 * is read again.
 */
export function useMemoryList({ scope, kind, kinds = null, search, wanted }: MemoryListFilter) {
  const limits = useLimits()
  const list = usePagedList({
    query: MemoryItemsQuery,
    variables: (first, after) => ({ scope: { teammateId: scope.teammateId ?? null }, kind, kinds, search: search || null, first, after }),
    wanted,
    pageSize: limits.pageSize,
    read: readItems,
  })
  const shown = list.operation?.variables
  return {
    ...list,
    items: list.items.filter((i) => i.status === 'ACTIVE'),
    totalCount: list.data?.memoryItems.totalCount ?? 0,
    shownFilter: { search: shown?.search ?? '', kind: shown?.kind ?? null },
  }
}

const readItems = (data: MemoryItemsResult): Page<MemoryItem> => connectionPage(data.memoryItems)

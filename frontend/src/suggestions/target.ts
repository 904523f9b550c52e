import { useQuery } from 'urql'
import { MemoryHistoryQuery } from '../memory/HistoryPanel.tsx'
import { MemoryItemQuery, type MemoryItem } from '../memory/model.ts'

/** The target of a proposal as it is now: loading, gone (forgotten or no longer active), or read. */
export type Target = { state: 'loading' } | { state: 'gone' } | { state: 'read'; item: MemoryItem }

/**
 * The target of a proposal as the cache holds it (the scope's events keep it current): loading, gone
 * (forgotten, or no longer active), or read.
 */
export function useTarget(targetId: string | null): Target {
  const [{ data }] = useQuery({ query: MemoryItemQuery, variables: { id: targetId ?? '' }, pause: !targetId, requestPolicy: 'cache-and-network' })
  if (!data) return { state: 'loading' }
  const item = data.memoryItem
  return item && item.status === 'ACTIVE' ? { state: 'read', item } : { state: 'gone' }
}

/**
 * The text of the revision a stale proposal was made for, from the item's history (newest first, so
 * it is read down to that revision), or null while unknown. Only read while the proposal is stale:
 * currentRevision is then the item's revision now, and null otherwise.
 */
export function useProposalBase(itemId: string | null, revision: number | null, currentRevision: number | null, pageSize: number): string | null {
  const first = revision !== null && currentRevision !== null ? Math.min(pageSize, currentRevision - revision + 1) : 0
  const [{ data }] = useQuery({ query: MemoryHistoryQuery, variables: { id: itemId ?? '', first }, pause: !itemId || first < 1 })
  if (first < 1) return null
  const found = data?.memoryItem?.id === itemId ? data?.memoryItem?.revisions.edges.find((e) => e.node.revision === revision) : undefined
  return found ? found.node.content : null
}

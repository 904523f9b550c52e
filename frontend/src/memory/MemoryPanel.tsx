import { useEffect, useId, useState } from 'react'
import { useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { graphql } from '../gql'
import type { MemoryKind, ScopeInput } from '../gql/graphql.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { Field } from '../ui/Field.tsx'
import { useIdSet } from '../ui/useIdSet.ts'
import { BulkBar, BulkForgetDialog } from './BulkActions.tsx'
import { CreateMemoryForm } from './CreateMemoryForm.tsx'
import { MemoryItemCard } from './MemoryItemCard.tsx'
import { KindOptions } from './MemoryFields.tsx'
import { isExpired, type MemoryItem } from './model.ts'
import { memoryPageSize, useLiveScope, useMemoryList } from './useMemoryList.ts'

/**
 * How many lessons a scope keeps, for a list that leaves them to their own section: the count beside
 * it counts them too, so that it is the same number the teammate list says ("10 memories").
 */
const LessonCountQuery = graphql(`
  query LessonCount($scope: ScopeInput!) {
    memoryItems(scope: $scope, kind: LESSON, first: 1) {
      totalCount
    }
  }
`)

interface MemoryPanelProps {
  scope: ScopeInput
  /** Shown above the list. */
  heading: string
  /** What to call one item in the empty state ("memory", "fact about you" …). */
  emptyHint: string
  /** The kinds listed here (all when omitted): a teammate's lessons have a section of their own. */
  kinds?: MemoryKind[]
}

/**
 * MemoryPanel is one scope's active memory: the list (pinned first, as the API orders it) with
 * search, kind filter, paging, creation and per-item editing. It stays live: the scope's
 * memoryChanged events update the cache, and the list with it, so nothing ever needs a reload.
 */
export function MemoryPanel({ scope, heading, emptyHint, kinds }: MemoryPanelProps) {
  const limits = useLimits()
  const [searchText, setSearchText] = useState('')
  const search = useDebounced(searchText.trim(), 250)
  const [kind, setKind] = useState<MemoryKind | null>(null)
  const [creating, setCreating] = useState(false)
  // How many items the user asked to see, for the filter they asked with: another filter starts
  // again from one page.
  const filterKey = JSON.stringify([kind, search])
  const [asked, setAsked] = useState({ filterKey, wanted: memoryPageSize })
  const wanted = asked.filterKey === filterKey ? asked.wanted : memoryPageSize
  const list = useMemoryList({ scope, kind, kinds: kinds ?? null, search, wanted })
  useLiveScope(scope)
  const now = useNowUntilNextExpiry(list.items)
  // Expired memories (no longer given to runs) are left out unless the user asks to see them. The
  // API's memoryItems has no filter for expiry, so this is done here, on the items read: the count
  // beside the list leaves out the expired ones among them (those on pages not read yet can't be
  // known). One that expires while listed stays, marked expired, so nothing moves under the user.
  const [showExpired, setShowExpired] = useState(false)
  const [seenUnexpired, setSeenUnexpired] = useState<ReadonlySet<string>>(() => new Set())
  const unexpired = list.items.filter((i) => !isExpired(i, now) && !seenUnexpired.has(i.id))
  if (unexpired.length > 0) setSeenUnexpired(new Set([...seenUnexpired, ...unexpired.map((i) => i.id)]))
  const expiredAtRead = list.items.filter((i) => isExpired(i, now) && !seenUnexpired.has(i.id))
  const hidden = showExpired ? 0 : expiredAtRead.length
  const items = hidden === 0 ? list.items : list.items.filter((i) => !expiredAtRead.includes(i))
  const searchId = useId()
  const kindId = useId()
  // Selection mode: a checkbox on every card and the bar of bulk actions.
  const [selecting, setSelecting] = useState(false)
  const [selectedIds, select, setSelectedIds] = useIdSet()
  const [bulkForget, setBulkForget] = useState(false)
  const [bulkMessage, setBulkMessage] = useState<string | null>(null)
  const [bulkDone, setBulkDone] = useState<string | null>(null)
  // Only items still listed count as selected (one forgotten elsewhere drops out).
  const selected = items.filter((i) => selectedIds.has(i.id))
  const endSelecting = () => {
    setSelecting(false)
    setSelectedIds([])
    setBulkMessage(null)
  }

  const filtered = search !== '' || kind !== null
  // Lessons left out of this list (listed in their own section) still count as memories.
  const lessonsApart = !!kinds && !kinds.includes('LESSON')
  const [lessonCount] = useQuery({ query: LessonCountQuery, variables: { scope }, pause: !lessonsApart, requestPolicy: 'cache-and-network' })
  const lessons = lessonsApart ? (lessonCount.data?.memoryItems.totalCount ?? null) : 0

  return (
    <section className="memory-panel" data-testid="memory-panel" aria-label={heading}>
      <div className="panel-head">
        <h2 className="panel-title">{heading}</h2>
        <span className="muted small" data-testid="memory-count" aria-live="polite">
          {list.loading || lessons === null ? 'Loading…' : countLabel(list.totalCount - hidden, lessons, filtered)}
        </span>
      </div>

      <div className="toolbar">
        <Field htmlFor={searchId} label="Search" className="grow" role="search">
          <input
            id={searchId}
            type="search"
            placeholder="Words in the text or key"
            value={searchText}
            maxLength={limits.searchLength}
            onChange={(e) => setSearchText(e.target.value)}
            data-testid="memory-search"
          />
        </Field>
        <Field htmlFor={kindId} label="Kind">
          <select
            id={kindId}
            value={kind ?? ''}
            onChange={(e) => setKind((e.target.value || null) as MemoryKind | null)}
            data-testid="memory-kind-filter"
          >
            <option value="">All kinds</option>
            <KindOptions kinds={kinds} />
          </select>
        </Field>
        {(expiredAtRead.length > 0 || showExpired) && (
          <div className="field toolbar-action">
            <label className="checkbox-label">
              <input type="checkbox" checked={showExpired} onChange={(e) => setShowExpired(e.target.checked)} data-testid="memory-show-expired" />{' '}
              Show expired{expiredAtRead.length > 0 ? ` (${expiredAtRead.length})` : ''}
            </label>
          </div>
        )}
        <div className="field toolbar-action">
          <button
            type="button"
            className="button"
            onClick={() => (selecting ? endSelecting() : (setSelecting(true), setBulkDone(null)))}
            aria-pressed={selecting}
            disabled={items.length === 0 && !selecting}
            data-testid="memory-select-mode"
          >
            Select
          </button>
        </div>
        <div className="field toolbar-action">
          <button
            type="button"
            className="button primary"
            onClick={() => setCreating((c) => !c)}
            aria-expanded={creating}
            data-testid="memory-new"
          >
            New memory
          </button>
        </div>
      </div>

      {selecting && (
        <BulkBar
          selected={selected}
          shown={items.length}
          onSelectAll={() => setSelectedIds(items.map((i) => i.id))}
          onClear={endSelecting}
          onChanged={(items) => {
            setBulkDone(`${items.length === 1 ? '1 memory' : `${items.length} memories`} ${items[0]?.pinned ? 'pinned' : 'unpinned'}.`)
          }}
          onForgetAsked={() => setBulkForget(true)}
          message={bulkMessage}
          setMessage={setBulkMessage}
        />
      )}
      {bulkDone && (
        <p className="message ok" role="status" data-testid="bulk-done-notice">
          {bulkDone}
        </p>
      )}
      {bulkForget && (
        <BulkForgetDialog
          items={selected}
          onClose={() => setBulkForget(false)}
          onForgotten={(n) => {
            setBulkForget(false)
            setSelectedIds([])
            setBulkDone(`Forgot ${n === 1 ? '1 memory' : `${n} memories`}.`)
          }}
          onFailed={(message) => {
            setBulkForget(false)
            setBulkMessage(message)
          }}
        />
      )}

      {creating && <CreateMemoryForm scope={scope} onClose={() => setCreating(false)} />}

      {list.error && (
        <ErrorMessage onRetry={list.refresh} testId="memory-list-error">
          {describeError(list.error)}
        </ErrorMessage>
      )}

      <ul
        className="memory-list"
        data-testid="memory-list"
        data-state={list.loading ? 'loading' : 'ready'}
        data-search={list.shownFilter.search}
        data-kind={list.shownFilter.kind ?? ''}
        aria-busy={list.loading}
      >
        {items.map((item) => (
          <MemoryItemCard
            key={item.id}
            item={item}
            now={now}
            selection={selecting ? { selected: selectedIds.has(item.id), onToggle: (on) => select(item.id, on) } : undefined}
          />
        ))}
      </ul>

      {!list.loading && items.length === 0 && !list.error && !creating && (
        <p className="empty" data-testid="memory-empty">
          {hidden > 0
            ? 'Only expired memories here: “Show expired” lists them.'
            : filtered
              ? 'Nothing matches this search.'
              : `Nothing here yet. Add a ${emptyHint} with “New memory”.`}
        </p>
      )}

      {list.hasMore && (
        <div className="load-more">
          <button
            type="button"
            className="button"
            onClick={() => setAsked({ filterKey, wanted: wanted + memoryPageSize })}
            disabled={list.loadingMore}
            data-testid="memory-load-more"
          >
            {list.loadingMore ? 'Loading…' : `Load more (${list.totalCount - list.items.length} left)`}
          </button>
        </div>
      )}
    </section>
  )
}

/**
 * The count beside the list, in the app's one vocabulary: memories, lessons included ("10 memories,
 * 1 of them a lesson"), as the teammate list counts them; while filtered, what matches here.
 */
function countLabel(listed: number, lessons: number, filtered: boolean): string {
  if (filtered) return `${memories(listed)} match`
  const all = memories(listed + lessons)
  return lessons === 0 ? all : `${all}, ${lessons === 1 ? '1 of them a lesson' : `${lessons} of them lessons`}`
}

/** "1 memory", "10 memories". */
function memories(n: number): string {
  return n === 1 ? '1 memory' : `${n} memories`
}

/** value, once it has stayed the same for ms. */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return debounced
}

/**
 * The current time, re-read when the next of the items' expiries passes, so an item is marked
 * expired the moment it expires (the server's sweep announces it a little later).
 */
export function useNowUntilNextExpiry(items: MemoryItem[]): number {
  const [now, setNow] = useState(() => Date.now())
  const next = items
    .map((i) => (i.expiresAt ? Date.parse(i.expiresAt) : Number.NaN))
    .filter((t) => t > now)
    .reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY)
  useEffect(() => {
    if (!Number.isFinite(next)) return
    // setTimeout takes at most 2^31-1 ms; a later expiry is re-checked after that long.
    const t = setTimeout(() => setNow(Date.now()), Math.min(next - Date.now() + 50, 2 ** 31 - 1))
    return () => clearTimeout(t)
  }, [next])
  return now
}

import { useEffect, useRef, useState } from 'react'
import { useClient, useMutation, type CombinedError } from 'urql'
import { describeError, hasErrorCode } from '../api/errors.ts'
import { useLiveSubscription } from '../api/live.ts'
import {
  CandidateArrivedSubscription,
  CandidatesQuery,
  ConfirmCandidatesMutation,
  DismissCandidatesMutation,
  MemoryChangedSubscription,
  UndoDismissCandidateMutation,
} from '../api/operations.ts'
import { useSerialRead } from '../api/serial.ts'
import type { CandidateFieldsFragment, ScopeInput } from '../gql/graphql.ts'
import { SuggestionCard } from './SuggestionCard.tsx'

export type Candidate = CandidateFieldsFragment

interface SuggestionsPanelProps {
  scope: ScopeInput
  /** Who would be given the suggestions once confirmed ("Ada", "every teammate"). */
  audience: string
}

/** One page of the waiting suggestions, as CandidatesQuery reads it. */
interface CandidatePage {
  totalCount: number
  edges: { node: Candidate }[]
  pageInfo: { hasNextPage: boolean; endCursor?: string | null }
}

/** Suggestions read at a time; "Show more" adds as many. */
const suggestionsPage = 50
/** The most suggestions Confirm all and Dismiss all send at once (the API's limit). */
const maxBulk = 100

interface State {
  items: Candidate[]
  /** How many wait in the scope, shown or not. */
  total: number
  loaded: boolean
  error: CombinedError | undefined
}

/**
 * SuggestionsPanel lists the scope's candidates: what teammates or extraction think is worth
 * remembering, waiting for the user to confirm (optionally after editing) or dismiss (A2). New ones
 * arrive live through candidateArrived (A6); any change in the scope re-reads the list, so a
 * suggestion confirmed or dismissed elsewhere goes away here too. The section shows only while
 * something waits.
 */
export function SuggestionsPanel({ scope, audience }: SuggestionsPanelProps) {
  const client = useClient()
  const teammateId = scope.teammateId ?? null
  const [state, setState] = useState<State>({ items: [], total: 0, loaded: false, error: undefined })
  const [notice, setNotice] = useState<string | null>(null)
  // Bumped on every re-read, so that cards re-read the items their proposals would change.
  const [tick, setTick] = useState(0)

  // How many suggestions the list shows: a page, and a page more each time the user asks, so that
  // a long list is never cut off silently.
  const [wanted, setWanted] = useState(suggestionsPage)
  const wantedRef = useRef(wanted)
  wantedRef.current = wanted

  const refresh = useSerialRead(async () => {
    const items: Candidate[] = []
    let after: string | null = null
    let total: number
    for (;;) {
      const result = await client
        .query(CandidatesQuery, { scope: { teammateId }, first: suggestionsPage, after }, { requestPolicy: 'network-only' })
        .toPromise()
      if (!result.data) {
        setTick((t) => t + 1)
        setState((s) => ({ ...s, loaded: true, error: result.error }))
        return
      }
      const page: CandidatePage = result.data.memoryItems
      total = page.totalCount
      items.push(...page.edges.map((e) => e.node))
      if (!page.pageInfo.hasNextPage || items.length >= wantedRef.current || !page.pageInfo.endCursor) break
      after = page.pageInfo.endCursor
    }
    setTick((t) => t + 1)
    setState({ items, total, loaded: true, error: undefined })
  })

  useEffect(() => refresh(), [refresh, wanted])

  useLiveSubscription(
    CandidateArrivedSubscription,
    { scope: { teammateId } },
    {
      onData(data) {
        const arrived = data.candidateArrived
        setNotice(null)
        setState((s) => (s.items.some((i) => i.id === arrived.id) ? s : { ...s, items: [arrived, ...s.items], total: s.total + 1 }))
      },
      onResync: refresh,
    },
  )
  useLiveSubscription(
    MemoryChangedSubscription,
    { scope: { teammateId } },
    { onData: refresh, onResync: refresh },
  )

  // The suggestions the last dismissal settled, which Undo brings back.
  const [undoable, setUndoable] = useState<string[]>([])
  const [bulkError, setBulkError] = useState<string | null>(null)
  const [confirmAllState, confirmCandidates] = useMutation(ConfirmCandidatesMutation)
  const [dismissAllState, dismissCandidates] = useMutation(DismissCandidatesMutation)
  const [undoState, undoDismiss] = useMutation(UndoDismissCandidateMutation)
  const bulkBusy = confirmAllState.fetching || dismissAllState.fetching || undoState.fetching

  const done = (id: string, what: string, dismissed = false) => {
    setState((s) => ({ ...s, items: s.items.filter((i) => i.id !== id), total: Math.max(0, s.total - 1) }))
    setNotice(what)
    setUndoable(dismissed ? [id] : [])
    setBulkError(null)
    refresh()
  }

  // Confirm all and Dismiss all act on the suggestions shown (the ones the user saw; the API takes up
  // to 100 at once), in one transaction: all or none.
  const shownIds = () => state.items.slice(0, maxBulk).map((i) => i.id)
  const settled = (ids: string[]) =>
    setState((s) => ({ ...s, items: s.items.filter((i) => !ids.includes(i.id)), total: Math.max(0, s.total - ids.length) }))
  const confirmAll = async () => {
    const ids = shownIds()
    setBulkError(null)
    const result = await confirmCandidates({ input: { scope: { teammateId }, ids } })
    if (result.data) {
      const n = result.data.confirmCandidates.items.length
      settled(ids)
      setNotice(`Confirmed ${n === 1 ? '1 suggestion' : `all ${n} suggestions`}: they are memory now.`)
      setUndoable([])
    } else {
      setBulkError(
        hasErrorCode(result.error, 'CONFLICT')
          ? 'Nothing was confirmed: a memory that one of them would change has changed since. Look at the suggestions marked below, then try again.'
          : `Nothing was confirmed. ${describeError(result.error)}`,
      )
    }
    refresh()
  }
  const dismissAll = async () => {
    const ids = shownIds()
    setBulkError(null)
    const result = await dismissCandidates({ input: { scope: { teammateId }, ids } })
    if (result.data) {
      const gone = result.data.dismissCandidates.items.map((i) => i.id)
      settled(gone)
      setNotice(`Dismissed ${gone.length === 1 ? '1 suggestion' : `all ${gone.length} suggestions`}: they won’t be remembered.`)
      setUndoable(gone)
    } else {
      setBulkError(`Nothing was dismissed. ${describeError(result.error)}`)
    }
    refresh()
  }
  const undo = async () => {
    setBulkError(null)
    let back = 0
    for (const id of undoable) {
      const result = await undoDismiss({ input: { id } })
      if (result.data) back++
      else setBulkError(`Not everything could be brought back. ${describeError(result.error)}`)
    }
    setUndoable([])
    setNotice(back === 0 ? null : back === 1 ? 'Brought back: it waits for you again.' : `Brought back ${back} suggestions.`)
    refresh()
  }

  const count = Math.max(state.total, state.items.length)
  const more = state.total - state.items.length
  return (
    <section
      className="suggestions"
      data-testid="suggestions-panel"
      data-state={state.loaded ? 'ready' : 'loading'}
      data-count={count}
      aria-label="Suggestions"
      hidden={count === 0 && !notice && !state.error && !bulkError}
    >
      {count > 0 && (
        <>
          <div className="panel-head">
            <h2 className="panel-title">
              Suggestions <span className="count-pill">{count}</span>
            </h2>
            {state.items.length > 1 && (
              <div className="inline suggestions-bulk">
                <button type="button" className="button small primary" onClick={() => void confirmAll()} disabled={bulkBusy} data-testid="suggestions-confirm-all">
                  {confirmAllState.fetching ? 'Confirming…' : count > state.items.length ? `Confirm these ${Math.min(state.items.length, maxBulk)}` : `Confirm all ${count}`}
                </button>
                <button type="button" className="button small" onClick={() => void dismissAll()} disabled={bulkBusy} data-testid="suggestions-dismiss-all">
                  {dismissAllState.fetching ? 'Dismissing…' : count > state.items.length ? `Dismiss these ${Math.min(state.items.length, maxBulk)}` : 'Dismiss all'}
                </button>
              </div>
            )}
          </div>
          <p className="lede small-lede">
            Noticed in conversations, not yet memory: nothing here is given to {audience} until you confirm it.
          </p>
        </>
      )}
      {state.error && (
        <p className="message error" role="alert">
          {describeError(state.error)}{' '}
          <button type="button" className="link-button" onClick={refresh}>
            Try again
          </button>
        </p>
      )}
      <ul className="suggestion-list" data-testid="suggestion-list" aria-live="polite">
        {state.items.map((c) => (
          <SuggestionCard key={c.id} candidate={c} tick={tick} onDone={done} onStale={refresh} />
        ))}
      </ul>
      {more > 0 && (
        <p className="load-more">
          <button type="button" className="button small" onClick={() => setWanted(state.items.length + suggestionsPage)} data-testid="suggestions-more">
            Show {Math.min(more, suggestionsPage)} more ({more} not shown)
          </button>
        </p>
      )}
      {bulkError && (
        <p className="message error" role="alert" data-testid="suggestions-bulk-error">
          {bulkError}
        </p>
      )}
      {notice && (
        <p className="message ok" role="status" data-testid="suggestions-notice">
          {notice}{' '}
          {undoable.length > 0 && (
            <button type="button" className="link-button" onClick={() => void undo()} disabled={bulkBusy} data-testid="suggestions-undo">
              Undo
            </button>
          )}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setNotice(null)
              setUndoable([])
            }}
          >
            OK
          </button>
        </p>
      )}
    </section>
  )
}

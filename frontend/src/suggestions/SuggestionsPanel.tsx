import { useState } from 'react'
import { useMutation } from 'urql'
import { describeError, hasErrorCode } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { connectionPage, usePagedList, type Page } from '../api/pagination.ts'
import { graphql } from '../gql'
import type { CandidateFieldsFragment, CandidatesQuery as CandidatesResult, ScopeInput } from '../gql/graphql.ts'
import { useLiveScope } from '../memory/useMemoryList.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { SuggestionCard } from './SuggestionCard.tsx'

export type Candidate = CandidateFieldsFragment

/** What a card's Undo takes back: its dismissal, or its confirmation (the revision it answered). */
export type Undoable = { kind: 'dismiss' } | { kind: 'confirm'; revision: number }

/**
 * What the notice's Undo takes back: the suggestions a dismissal settled, or the confirmations a
 * confirm made, each with the revision of the memory it answered (undoConfirmCandidates).
 */
type Undo = { kind: 'dismiss'; ids: string[] } | { kind: 'confirm'; items: { id: string; revision: number }[] }

/** What a suggestion card shows besides the item: where it came from and what it would change. */
export const CandidateFields = graphql(`
  fragment CandidateFields on MemoryItem {
    ...MemoryItemFields
    evidence
    waitReason
    targetItemId
    targetRevision
    proposesForget
    sourceRunId
    timesSuggested
    sourceTeammate {
      id
      name
    }
  }
`)

export const CandidatesQuery = graphql(`
  query Candidates($scope: ScopeInput!, $first: Int, $after: String) {
    memoryItems(scope: $scope, status: CANDIDATE, first: $first, after: $after) {
      totalCount
      edges {
        node {
          ...CandidateFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

// The bulk answers carry each suggestion's status: one confirmed or dismissed leaves the list at once.
const ConfirmCandidatesMutation = graphql(`
  mutation ConfirmCandidates($input: CandidatesInput!) {
    confirmCandidates(input: $input) {
      items {
        id
        status
        revision
      }
    }
  }
`)

const DismissCandidatesMutation = graphql(`
  mutation DismissCandidates($input: CandidatesInput!) {
    dismissCandidates(input: $input) {
      items {
        id
        status
      }
    }
  }
`)

const UndoDismissCandidateMutation = graphql(`
  mutation UndoDismissCandidate($input: UndoDismissCandidateInput!) {
    undoDismissCandidate(input: $input) {
      item {
        id
        scope
        status
      }
    }
  }
`)

// Undo after Confirm and Confirm all: the suggestions wait again, and memory goes back, in one
// transaction (all or none).
const UndoConfirmCandidatesMutation = graphql(`
  mutation UndoConfirmCandidates($input: UndoConfirmCandidatesInput!) {
    undoConfirmCandidates(input: $input) {
      items {
        id
        scope
        status
      }
    }
  }
`)

interface SuggestionsPanelProps {
  scope: ScopeInput
  /** Who would be given the suggestions once confirmed ("Ada", "every teammate"). */
  audience: string
}

/** Suggestions read at a time; "Show more" adds as many. */
const suggestionsPage = 50

/**
 * SuggestionsPanel lists the scope's candidates: what teammates or extraction think is worth
 * remembering, waiting for the user to confirm (optionally after editing) or dismiss (A2). They
 * arrive live: the scope's memoryChanged events (A6) update the cache, so a suggestion made, merged,
 * confirmed or dismissed anywhere shows here at once. The section shows only while something waits.
 */
export function SuggestionsPanel({ scope, audience }: SuggestionsPanelProps) {
  const limits = useLimits()
  const teammateId = scope.teammateId ?? null
  // How many suggestions the list shows: a page, and a page more each time the user asks, so that
  // a long list is never cut off silently.
  const [wanted, setWanted] = useState(suggestionsPage)
  const list = usePagedList({
    query: CandidatesQuery,
    variables: (first, after) => ({ scope: { teammateId }, first, after }),
    wanted,
    pageSize: limits.pageSize,
    read: readCandidates,
  })
  useLiveScope(scope)
  // One settled here or elsewhere leaves at once, before the list is read again.
  const items = list.items.filter((c) => c.status === 'CANDIDATE')
  const settledMeanwhile = list.items.length - items.length
  const total = Math.max(0, (list.data?.memoryItems.totalCount ?? 0) - settledMeanwhile)
  const [notice, setNotice] = useState<string | null>(null)

  // What the last dismissal or confirmation settled, which Undo takes back.
  const [undoable, setUndoable] = useState<Undo | null>(null)
  const [bulkError, setBulkError] = useState<string | null>(null)
  const [confirmAllState, confirmCandidates] = useMutation(ConfirmCandidatesMutation)
  const [dismissAllState, dismissCandidates] = useMutation(DismissCandidatesMutation)
  const [undoState, undoDismiss] = useMutation(UndoDismissCandidateMutation)
  const [undoConfirmState, undoConfirm] = useMutation(UndoConfirmCandidatesMutation)
  const bulkBusy = confirmAllState.fetching || dismissAllState.fetching || undoState.fetching || undoConfirmState.fetching

  // A suggestion this panel has not listed before (a new one, made since) makes the last result
  // ("Confirmed all 3 …") stale: it goes, with its Undo. Suggestions brought back by Undo were
  // listed before, so they keep the notice that says they came back.
  const [listed, setListed] = useState<ReadonlySet<string>>(() => new Set())
  const arrived = items.filter((c) => !listed.has(c.id))
  if (arrived.length > 0) {
    setListed(new Set([...listed, ...arrived.map((c) => c.id)]))
    if (notice !== null) setNotice(null)
    if (undoable !== null) setUndoable(null)
  }

  const done = (id: string, what: string, undo?: Undoable) => {
    setNotice(what)
    setUndoable(
      undo?.kind === 'dismiss' ? { kind: 'dismiss', ids: [id] } : undo?.kind === 'confirm' ? { kind: 'confirm', items: [{ id, revision: undo.revision }] } : null,
    )
    setBulkError(null)
  }

  // Confirm all and Dismiss all act on the suggestions shown (the ones the user saw; the API takes up
  // to Limits.bulkItems at once), in one transaction: all or none.
  const shownIds = () => items.slice(0, limits.bulkItems).map((i) => i.id)
  const confirmAll = async () => {
    setBulkError(null)
    const shown = items.slice(0, limits.bulkItems)
    const result = await confirmCandidates({ input: { scope: { teammateId }, ids: shown.map((i) => i.id) } })
    if (result.data) {
      const confirmed = result.data.confirmCandidates.items
      const n = confirmed.length
      setNotice(`Confirmed ${n === 1 ? '1 suggestion' : `all ${n} suggestions`}: they are memory now.`)
      // Each answer is the memory a suggestion made (a new one is its own; a proposal's, the item it
      // changed). A proposal to forget can't be undone: what it forgot is gone for good.
      const back = confirmed.flatMap((item) => {
        const s = shown.find((c) => c.id === item.id || (c.targetItemId === item.id && !c.proposesForget))
        return s && item.status === 'ACTIVE' ? [{ id: s.id, revision: item.revision }] : []
      })
      setUndoable(back.length > 0 ? { kind: 'confirm', items: back } : null)
    } else {
      setBulkError(
        hasErrorCode(result.error, 'CONFLICT')
          ? 'Nothing was confirmed: a memory that one of them would change has changed since. Look at the suggestions marked below, then try again.'
          : `Nothing was confirmed. ${describeError(result.error)}`,
      )
    }
  }
  const dismissAll = async () => {
    setBulkError(null)
    const result = await dismissCandidates({ input: { scope: { teammateId }, ids: shownIds() } })
    if (result.data) {
      const gone = result.data.dismissCandidates.items.map((i) => i.id)
      setNotice(`Dismissed ${gone.length === 1 ? '1 suggestion' : `all ${gone.length} suggestions`}: they won’t be remembered.`)
      setUndoable({ kind: 'dismiss', ids: gone })
    } else {
      setBulkError(`Nothing was dismissed. ${describeError(result.error)}`)
    }
  }
  const undo = async () => {
    setBulkError(null)
    if (undoable?.kind === 'confirm') {
      const result = await undoConfirm({ input: { items: undoable.items } })
      setUndoable(null)
      if (result.data) {
        const n = result.data.undoConfirmCandidates.items.length
        setNotice(n === 1 ? 'Undone: it waits for you again.' : `Undone: the ${n} suggestions wait for you again.`)
      } else {
        setNotice(null)
        setBulkError(
          hasErrorCode(result.error, 'CONFLICT')
            ? 'Nothing was undone: the memory changed after you confirmed it.'
            : `Nothing was undone. ${describeError(result.error)}`,
        )
      }
      return
    }
    let back = 0
    for (const id of undoable?.ids ?? []) {
      const result = await undoDismiss({ input: { id } })
      if (result.data) back++
      else setBulkError(`Not everything could be brought back. ${describeError(result.error)}`)
    }
    setUndoable(null)
    setNotice(back === 0 ? null : back === 1 ? 'Brought back: it waits for you again.' : `Brought back ${back} suggestions.`)
  }

  const count = Math.max(total, items.length)
  const more = total - items.length
  return (
    <section
      className="suggestions"
      data-testid="suggestions-panel"
      data-state={list.loading ? 'loading' : 'ready'}
      data-count={count}
      aria-label="Suggestions"
      hidden={count === 0 && !notice && !list.error && !bulkError}
    >
      {count > 0 && (
        <>
          <div className="panel-head">
            <h2 className="panel-title">
              Suggestions <span className="count-pill">{count}</span>
            </h2>
            {items.length > 1 && (
              <div className="inline suggestions-bulk">
                <button type="button" className="button small primary" onClick={() => void confirmAll()} disabled={bulkBusy} data-testid="suggestions-confirm-all">
                  {confirmAllState.fetching ? 'Confirming…' : count > items.length ? `Confirm these ${Math.min(items.length, limits.bulkItems)}` : `Confirm all ${count}`}
                </button>
                <button type="button" className="button small" onClick={() => void dismissAll()} disabled={bulkBusy} data-testid="suggestions-dismiss-all">
                  {dismissAllState.fetching ? 'Dismissing…' : count > items.length ? `Dismiss these ${Math.min(items.length, limits.bulkItems)}` : 'Dismiss all'}
                </button>
              </div>
            )}
          </div>
          <p className="lede small-lede">
            Noticed in conversations, not yet memory: nothing here is given to {audience} until you confirm it.
          </p>
        </>
      )}
      {list.error && <ErrorMessage onRetry={list.refresh}>{describeError(list.error)}</ErrorMessage>}
      <ul className="suggestion-list" data-testid="suggestion-list" aria-live="polite">
        {items.map((c) => (
          <SuggestionCard key={c.id} candidate={c} onDone={done} />
        ))}
      </ul>
      {more > 0 && (
        <p className="load-more">
          <button type="button" className="button small" onClick={() => setWanted(items.length + suggestionsPage)} data-testid="suggestions-more">
            Show {Math.min(more, suggestionsPage)} more ({more} not shown)
          </button>
        </p>
      )}
      {bulkError && <ErrorMessage testId="suggestions-bulk-error">{bulkError}</ErrorMessage>}
      {notice && (
        <p className="message ok" role="status" data-testid="suggestions-notice">
          {notice}{' '}
          {undoable && (
            <button type="button" className="link-button" onClick={() => void undo()} disabled={bulkBusy} data-testid="suggestions-undo">
              Undo
            </button>
          )}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setNotice(null)
              setUndoable(null)
            }}
          >
            OK
          </button>
        </p>
      )}
    </section>
  )
}

const readCandidates = (data: CandidatesResult): Page<Candidate> => connectionPage(data.memoryItems)

import { useState } from 'react'
import { useMutation } from 'urql'
import { conflictRevision, describeError } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { connectionPage, usePagedList } from '../api/pagination.ts'
import { graphql } from '../gql'
import type { MemoryHistoryQuery as MemoryHistoryResult } from '../gql/graphql.ts'
import { Link, paths } from '../router.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { TechnicalDetails } from '../ui/TechnicalDetails.tsx'
import { actionLabel, actorLabel, formatTime, kindLabel, useRereadItem, type MemoryItem } from './model.ts'

/** An item's revisions, newest first (also read for a stale proposal's base, in SuggestionCard). */
export const MemoryHistoryQuery = graphql(`
  query MemoryHistory($id: ID!, $first: Int, $after: String) {
    memoryItem(id: $id) {
      id
      revision
      revisions(first: $first, after: $after) {
        edges {
          cursor
          node {
            revision
            content
            key
            kind
            pinned
            expiresAt
            action
            actor
            actorTeammate {
              id
              name
            }
            runId
            basedOn
            createdAt
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`)

const RestoreMemoryRevisionMutation = graphql(`
  mutation RestoreMemoryRevision($input: RestoreMemoryRevisionInput!) {
    restoreMemoryRevision(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

const historyPageSize = 20

interface HistoryPanelProps {
  item: MemoryItem
  onRestored(item: MemoryItem): void
  onClose(): void
}

/**
 * The item's revisions, newest first: what each said, what produced it and who. Any earlier one can
 * be restored, which writes it again as a new revision based on the current one (R3). The history is
 * read again whenever the cache learns of a newer revision of the item (api/cache.ts).
 */
export function HistoryPanel({ item, onRestored, onClose }: HistoryPanelProps) {
  const limits = useLimits()
  const [wanted, setWanted] = useState(historyPageSize)
  const history = usePagedList({
    query: MemoryHistoryQuery,
    variables: (first, after) => ({ id: item.id, first, after }),
    wanted,
    pageSize: limits.pageSize,
    read: readRevisions,
  })
  const revisions = history.items
  const [message, setMessage] = useState<string | null>(null)
  const [{ fetching: restoring }, restore] = useMutation(RestoreMemoryRevisionMutation)
  const reread = useRereadItem()

  const restoreRevision = async (revision: number) => {
    setMessage(null)
    const result = await restore({ input: { id: item.id, revision, baseRevision: item.revision } })
    if (result.data) {
      onRestored(result.data.restoreMemoryRevision.item)
      return
    }
    const current = conflictRevision(result.error)
    if (current !== null) {
      setMessage('This memory changed in the meantime; it has been reloaded. Try again.')
      void reread(item.id)
    } else {
      setMessage(describeError(result.error))
    }
  }

  return (
    <section className="history" data-testid="history-panel" aria-label="History">
      <div className="history-head">
        <h4 className="history-title">History</h4>
        <button type="button" className="link-button" onClick={onClose} data-testid="history-close">
          Close
        </button>
      </div>
      {history.loading && <p className="muted small">Loading…</p>}
      {history.error && <ErrorMessage>{describeError(history.error)}</ErrorMessage>}
      {message && <ErrorMessage testId="history-error">{message}</ErrorMessage>}
      <ol className="revisions" data-testid="history-list" data-current-revision={item.revision}>
        {revisions.map((r) => (
          <li key={r.revision} className="revision" data-testid="history-revision" data-revision={r.revision} data-action={r.action}>
            <div className="revision-meta">
              <span className="badge subtle" data-testid="history-action">
                {actionLabel(r.action)}
              </span>
              <span className="muted small">
                by <RevisionAuthor revision={r} /> · {formatTime(r.createdAt)}
              </span>
              <span className="spacer" />
              {r.revision === item.revision ? (
                <span className="muted small">current</span>
              ) : (
                <button
                  type="button"
                  className="button small"
                  onClick={() => restoreRevision(r.revision)}
                  disabled={restoring}
                  aria-label={`Restore the version of ${formatTime(r.createdAt)}`}
                  data-testid="history-restore"
                >
                  Restore
                </button>
              )}
            </div>
            {r.key && <p className="revision-key">{r.key}</p>}
            <p className="revision-content" data-testid="history-content">
              {r.content}
            </p>
            <p className="muted small">
              {kindLabel(r.kind)}
              {r.pinned ? ' · pinned' : ''}
              {r.expiresAt ? ` · expires ${formatTime(r.expiresAt)}` : ''}
            </p>
          </li>
        ))}
      </ol>
      {revisions.length > 0 && (
        <TechnicalDetails inline testId="history-details">
          <ul className="details-list" data-testid="history-revision-numbers">
            {revisions.map((r) => (
              <li key={r.revision}>
                {r.revision === item.revision ? 'Current: ' : ''}revision {r.revision}, {actionLabel(r.action).toLowerCase()} {formatTime(r.createdAt)}
                {r.basedOn ? `, based on revision ${r.basedOn}` : ''}
              </li>
            ))}
          </ul>
        </TechnicalDetails>
      )}
      {history.hasMore && (
        <button
          type="button"
          className="button small"
          onClick={() => setWanted((n) => n + historyPageSize)}
          disabled={history.loadingMore}
          data-testid="history-more"
        >
          Older versions
        </button>
      )}
    </section>
  )
}

type Revision = NonNullable<MemoryHistoryResult['memoryItem']>['revisions']['edges'][number]['node']

/**
 * Who wrote a revision: you, or the teammate by name — with a link to the conversation turn whose
 * tool wrote it, when the revision names one.
 */
function RevisionAuthor({ revision }: { revision: Revision }) {
  const teammate = revision.actorTeammate
  if (!teammate) return <>{actorLabel(revision.actor)}</>
  return (
    <>
      <span data-testid="history-teammate">{teammate.name}</span>
      {revision.runId && (
        <>
          {' '}
          (
          <Link to={paths.run(teammate.id, revision.runId)} data-testid="history-run-link">
            see the conversation
          </Link>
          )
        </>
      )}
    </>
  )
}

const readRevisions = (data: MemoryHistoryResult) => (data.memoryItem ? connectionPage(data.memoryItem.revisions) : null)

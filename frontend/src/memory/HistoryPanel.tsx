import { useEffect, useRef, useState } from 'react'
import { useClient, useMutation, type CombinedError } from 'urql'
import { conflictRevision, describeError } from '../api/errors.ts'
import { MemoryHistoryQuery, RestoreMemoryRevisionMutation } from '../api/operations.ts'
import { useSerialRead } from '../api/serial.ts'
import type { MemoryHistoryQuery as MemoryHistoryResult } from '../gql/graphql.ts'
import { actionLabel, actorLabel, formatTime, kindLabel, type MemoryItem } from './model.ts'

type RevisionConnection = NonNullable<MemoryHistoryResult['memoryItem']>['revisions']
type Revision = RevisionConnection['edges'][number]['node']

const historyPageSize = 20

interface HistoryPanelProps {
  item: MemoryItem
  onRestored(item: MemoryItem): void
  onStale(): void
  onClose(): void
}

/**
 * The item's revisions, newest first: what each said, what produced it and who. Any earlier one can
 * be restored, which writes it again as a new revision based on the current one (R3).
 */
export function HistoryPanel({ item, onRestored, onStale, onClose }: HistoryPanelProps) {
  const client = useClient()
  const [revisions, setRevisions] = useState<Revision[]>([])
  const [next, setNext] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [loadError, setLoadError] = useState<CombinedError | undefined>()
  const [message, setMessage] = useState<string | null>(null)
  const [{ fetching: restoring }, restore] = useMutation(RestoreMemoryRevisionMutation)
  const pagesShown = useRef(1)

  // Re-read every page shown whenever the item moves to a new revision. Reads run one at a time
  // (useSerialRead), so the last one always starts after the last change.
  const load = useSerialRead(async () => {
    const all: Revision[] = []
    let after: string | null = null
    for (let i = 0; i < pagesShown.current; i++) {
      const result = await client
        .query(MemoryHistoryQuery, { id: item.id, first: historyPageSize, after }, { requestPolicy: 'network-only' })
        .toPromise()
      const conn: RevisionConnection | undefined = result.data?.memoryItem?.revisions
      if (!conn) {
        setLoadError(result.error)
        setLoading(false)
        return
      }
      all.push(...conn.edges.map((e) => e.node))
      after = conn.pageInfo.hasNextPage ? (conn.pageInfo.endCursor ?? null) : null
      if (!after) break
    }
    setRevisions(all)
    setNext(after)
    setLoadError(undefined)
    setLoading(false)
  })

  useEffect(() => load(), [load, item.revision])

  const restoreRevision = async (revision: number) => {
    setMessage(null)
    const result = await restore({ input: { id: item.id, revision, baseRevision: item.revision } })
    if (result.data) {
      onRestored(result.data.restoreMemoryRevision.item)
      return
    }
    const current = conflictRevision(result.error)
    if (current !== null) {
      setMessage(`This memory changed in the meantime (it is now at revision ${current}); it has been reloaded. Try again.`)
      onStale()
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
      {loading && <p className="muted small">Loading…</p>}
      {loadError && (
        <p className="message error" role="alert">
          {describeError(loadError)}
        </p>
      )}
      {message && (
        <p className="message error" role="alert" data-testid="history-error">
          {message}
        </p>
      )}
      <ol className="revisions" data-testid="history-list" data-current-revision={item.revision}>
        {revisions.map((r) => (
          <li key={r.revision} className="revision" data-testid="history-revision" data-revision={r.revision} data-action={r.action}>
            <div className="revision-meta">
              <span className="revision-number">revision {r.revision}</span>
              <span className="badge subtle" data-testid="history-action">
                {actionLabel(r.action)}
              </span>
              <span className="muted small">
                by {actorLabel(r.actor)} · {formatTime(r.createdAt)}
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
                  aria-label={`Restore revision ${r.revision}`}
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
              {r.basedOn ? ` · based on revision ${r.basedOn}` : ''}
            </p>
          </li>
        ))}
      </ol>
      {next && (
        <button
          type="button"
          className="button small"
          onClick={() => {
            pagesShown.current += 1
            load()
          }}
          data-testid="history-more"
        >
          Older revisions
        </button>
      )}
    </section>
  )
}

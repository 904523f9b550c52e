import { useEffect } from 'react'
import { useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import type { ContextState } from '../gql/graphql.ts'
import { kindLabel } from '../memory/model.ts'
import { DemoBadge, isDemo } from '../ui/demo.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { TechnicalDetails } from '../ui/TechnicalDetails.tsx'

const RunMemoryContextQuery = graphql(`
  query RunMemoryContext($id: ID!) {
    run(id: $id) {
      id
      memoryContext {
        position
        itemId
        revisionGiven
        currentRevision
        state
        truncated
        item {
          id
          scope
          content
          key
          kind
          expiresAt
        }
      }
    }
  }
`)

interface MemoryGivenPanelProps {
  runId: string
  teammateName: string
}

/**
 * What a run was given (P7): the items of its memory packet in order, each with what became of it
 * since — unchanged, changed, forgotten (its text is gone) or expired.
 * It is read again whenever the teammate's generation moves (generationChanged invalidates it in the
 * cache), so the badges follow edits live, and when an entry's expiry passes.
 */
export function MemoryGivenPanel({ runId, teammateName }: MemoryGivenPanelProps) {
  const [{ data, error }, reexecute] = useQuery({ query: RunMemoryContextQuery, variables: { id: runId }, requestPolicy: 'cache-and-network' })
  const entries = data?.run?.memoryContext ?? null

  // An entry turns EXPIRED when its time passes: read again then, rather than when the server's
  // expiry sweep moves the generation (up to 15 s later).
  useEffect(() => {
    const now = Date.now()
    const next = (entries ?? [])
      .filter((e) => e.state === 'UNCHANGED' || e.state === 'CHANGED')
      .map((e) => (e.item.expiresAt ? Date.parse(e.item.expiresAt) : Number.NaN))
      .filter((t) => t > now)
      .reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY)
    if (!Number.isFinite(next)) return
    const t = setTimeout(() => reexecute({ requestPolicy: 'network-only' }), Math.min(next - now + 250, 2 ** 31 - 1))
    return () => clearTimeout(t)
  }, [entries, reexecute])

  return (
    <div className="memory-given" data-testid="memory-given" data-state={entries ? 'ready' : 'loading'}>
      <p className="muted small" data-testid="memory-given-note">
        This is what {teammateName} was given for this reply, not what the model relied on.
      </p>
      {error && <ErrorMessage>{describeError(error)}</ErrorMessage>}
      {!entries && !error && <p className="muted small">Loading…</p>}
      {entries && entries.length === 0 && (
        <p className="muted small" data-testid="memory-given-empty">
          No memory was given for this reply: nothing matched and nothing was pinned.
        </p>
      )}
      {entries && entries.length > 0 && (
        <ol className="given-list">
          {entries.map((e) => (
            <li key={`${e.position}-${e.itemId}`} className="given-entry" data-testid="memory-given-entry" data-item-id={e.itemId} data-state={e.state}>
              <div className="given-meta">
                <StateBadge state={e.state} />
                {isDemo(e.item.content) && <DemoBadge />}
                <span className="muted small">
                  {kindLabel(e.item.kind)} · {e.item.scope === 'shared' ? 'About you' : `Only ${teammateName}`}
                  {e.truncated ? ' · cut to fit' : ''}
                </span>
              </div>
              {e.state === 'FORGOTTEN' ? (
                <p className="given-text muted" data-testid="memory-given-text">
                  <em>Forgotten since: its text is gone.</em>
                </p>
              ) : (
                <p className="given-text" data-testid="memory-given-text">
                  {e.item.key && <strong>{e.item.key}: </strong>}
                  {e.item.content}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {entries && entries.length > 0 && (
        <TechnicalDetails inline testId="memory-given-details">
          <ol className="details-list">
            {entries.map((e) => (
              <li key={`${e.position}-${e.itemId}`} data-testid="memory-given-revisions">
                Given at revision {e.revisionGiven}
                {e.state === 'CHANGED' ? `, now at revision ${e.currentRevision}` : ''}; scope {e.item.scope === 'shared' ? 'shared' : 'own'}
              </li>
            ))}
          </ol>
        </TechnicalDetails>
      )}
    </div>
  )
}

function StateBadge({ state }: { state: ContextState }) {
  const [label, className, title] = {
    UNCHANGED: ['Unchanged', 'state-unchanged', 'Still as it was given.'],
    CHANGED: ['Changed since', 'state-changed', 'Edited since the reply: the text below is the current one.'],
    FORGOTTEN: ['Forgotten', 'state-forgotten', 'You forgot it since the reply.'],
    EXPIRED: ['Expired', 'state-expired', 'Its expiry has passed: teammates are no longer given it.'],
  }[state]
  return (
    <span className={`badge ${className}`} title={title} data-testid="memory-given-state">
      {label}
    </span>
  )
}

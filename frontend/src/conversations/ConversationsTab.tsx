import { useEffect, useRef, useState } from 'react'
import { useClient, type CombinedError } from 'urql'
import { describeError } from '../api/errors.ts'
import { RunQuery, RunsQuery } from '../api/operations.ts'
import { useSerialRead } from '../api/serial.ts'
import { formatTime } from '../memory/model.ts'
import { RunCard, type Run } from './RunCard.tsx'
import { retryNote, useWaitingRetries, type WaitingRetry } from './retries.ts'

/** Runs per page (the API allows 1–100). */
const runsPageSize = 20
// How often the list is re-read while the page is visible: often while a turn is running or a retry
// waits, every few seconds otherwise. The API has no subscription for runs, so this is how a reply, a new
// turn or the retry's new run shows up without a reload.
const busyPollInterval = 2000
const idlePollInterval = 5000

interface ConversationsTabProps {
  teammate: { id: string; name: string }
  /** The teammate's generation as generationChanged last said; null until it has. */
  generation: string | null
  /** Changes whenever memory the teammate sees changed (its generation moved). */
  changeSignal: number
  /** The run to scroll to and mark (a lesson's "Open in Conversations"). */
  focusRunId?: string
}

/**
 * A teammate's turns, newest first: each with the user's message, the reply, its rating and
 * feedback, and the memory it was given (L1–L3, P7).
 */
export function ConversationsTab({ teammate, generation, changeSignal, focusRunId }: ConversationsTabProps) {
  const client = useClient()
  const [runs, setRuns] = useState<Run[]>([])
  const [loaded, setLoaded] = useState(false)
  const [hasMore, setHasMore] = useState(false)
  const [loadingMore, setLoadingMore] = useState(false)
  const [error, setError] = useState<CombinedError | undefined>()
  const [focusRun, setFocusRun] = useState<Run | null>(null)
  const waiting = useWaitingRetries(teammate.id)
  const shown = useRef(runsPageSize)

  // Re-reads the newest runs, as many as are shown (up to the API's page limit).
  const refresh = useSerialRead(async () => {
    const first = Math.min(100, shown.current)
    const result = await client.query(RunsQuery, { teammateId: teammate.id, first }, { requestPolicy: 'network-only' }).toPromise()
    setLoaded(true)
    if (!result.data) {
      setError(result.error)
      return
    }
    setError(undefined)
    const fresh = result.data.runs
    setRuns((old) => {
      // Older pages beyond what was re-read stay as they were.
      const ids = new Set(fresh.map((r) => r.id))
      const rest = old.length > fresh.length ? old.slice(fresh.length).filter((r) => !ids.has(r.id)) : []
      return [...fresh, ...rest]
    })
    if (shown.current <= 100) setHasMore(fresh.length === first)
  })

  const loadMore = async () => {
    const last = runs[runs.length - 1]
    if (!last) return
    setLoadingMore(true)
    const result = await client
      .query(RunsQuery, { teammateId: teammate.id, first: runsPageSize, before: last.id }, { requestPolicy: 'network-only' })
      .toPromise()
    setLoadingMore(false)
    if (!result.data) {
      setError(result.error)
      return
    }
    const page = result.data.runs
    shown.current += page.length
    setHasMore(page.length === runsPageSize)
    setRuns((old) => [...old, ...page.filter((r) => !old.some((o) => o.id === r.id))])
  }

  useEffect(() => refresh(), [refresh, changeSignal])

  const { settle } = waiting
  useEffect(() => settle(runs), [runs, settle])

  const busy = runs.some((r) => r.status === 'RUNNING') || waiting.retries.length > 0
  useEffect(() => {
    const t = setInterval(
      () => {
        if (document.visibilityState === 'visible') refresh()
      },
      busy ? busyPollInterval : idlePollInterval,
    )
    return () => clearInterval(t)
  }, [busy, refresh])

  // Coming back to the tab (another window, the phone unlocked) re-reads at once.
  useEffect(() => {
    const again = () => {
      if (document.visibilityState === 'visible') refresh()
    }
    document.addEventListener('visibilitychange', again)
    window.addEventListener('focus', again)
    return () => {
      document.removeEventListener('visibilitychange', again)
      window.removeEventListener('focus', again)
    }
  }, [refresh])

  // The run a lesson linked to: scrolled to when listed, read on its own when it is older.
  const focusListed = !!focusRunId && runs.some((r) => r.id === focusRunId)
  useEffect(() => {
    if (!focusRunId || !loaded) return
    if (focusListed) {
      document.getElementById(`run-${focusRunId}`)?.scrollIntoView({ block: 'center', behavior: 'instant' })
      return
    }
    let cancelled = false
    void client
      .query(RunQuery, { id: focusRunId }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        if (!cancelled && result.data?.run) setFocusRun(result.data.run)
      })
    return () => {
      cancelled = true
    }
  }, [client, focusRunId, focusListed, loaded])

  const changed = (patch: Partial<Run> & { id: string }) => {
    setRuns((rs) => rs.map((r) => (r.id === patch.id ? { ...r, ...patch } : r)))
    setFocusRun((r) => (r && r.id === patch.id ? { ...r, ...patch } : r))
  }

  const card = (run: Run, startsThread: boolean) => (
    <RunCard
      key={run.id}
      run={run}
      teammate={teammate}
      startsThread={startsThread}
      focused={run.id === focusRunId}
      waitingRetry={waiting.retries.find((r) => r.runId === run.id) ?? null}
      changeSignal={changeSignal}
      onChanged={changed}
      onRetryRequested={waiting.add}
    />
  )

  return (
    <section className="conversations" data-testid="conversations" data-state={loaded ? 'ready' : 'loading'} aria-label="Conversations">
      <div className="panel-head">
        <h2 className="panel-title">Conversations</h2>
        <span className="muted small">{loaded ? (runs.length === 1 ? '1 reply' : `${runs.length}${hasMore ? '+' : ''} replies`) : 'Loading…'}</span>
      </div>
      <p className="lede small-lede">
        {teammate.name}’s turns, newest first. Rate a reply to give feedback: after a thumbs down you can keep a lesson or
        ask for another try. “Memory given” shows what {teammate.name} was given for each reply.
      </p>

      {focusRun && focusRun.id === focusRunId && !focusListed && (
        <div className="focus-run" data-testid="focus-run">
          <p className="muted small">The reply you opened:</p>
          <ul className="run-list">{card(focusRun, false)}</ul>
        </div>
      )}

      {error && (
        <p className="message error" role="alert" data-testid="runs-error">
          {describeError(error)}{' '}
          <button type="button" className="link-button" onClick={refresh}>
            Try again
          </button>
        </p>
      )}

      {/* G7: the newest thread is the one the next message would continue, if its generation is still
          the teammate's. The generation comes from generationChanged, so this appears the moment
          memory changes, and goes once a run starts a fresh thread. */}
      <div aria-live="polite">
        {generation !== null && runs[0] && runs[0].thread.generation !== generation && (
          <p className="message warn" data-testid="thread-stale" data-thread-id={runs[0].thread.id}>
            <strong>Memory changed since this conversation started:</strong> the next message to {teammate.name} starts a
            fresh thread, so {teammate.name} doesn’t go on from what it was told before the change.
          </p>
        )}
      </div>

      {loaded && runs.length === 0 && waiting.retries.length === 0 && !error ? (
        <p className="empty" data-testid="runs-empty">
          No conversations yet. {teammate.name}’s replies appear here as soon as it runs.
        </p>
      ) : (
        <ul className="run-list" data-testid="runs-list">
          {[...waiting.retries].reverse().map((r) => (
            <PendingRetry key={r.messageId} retry={r} teammateName={teammate.name} original={runs.find((run) => run.id === r.runId) ?? null} />
          ))}
          {runs.map((run, i) => {
            const older = runs[i + 1]
            const startsThread = older ? older.thread.id !== run.thread.id : !hasMore
            return card(run, startsThread)
          })}
        </ul>
      )}

      {hasMore && (
        <div className="load-more">
          <button type="button" className="button" onClick={loadMore} disabled={loadingMore} data-testid="runs-more">
            {loadingMore ? 'Loading…' : 'Older conversations'}
          </button>
        </div>
      )}
    </section>
  )
}

/**
 * A "try again" the user asked for that no run has picked up yet (L3), where its reply will appear:
 * at the top, newest first. The user's credential can't list pending retries (pendingRetries is the
 * worker's), so these are the ones this browser tab asked for, kept until a run with the retry's
 * message is listed.
 */
function PendingRetry({ retry, teammateName, original }: { retry: WaitingRetry; teammateName: string; original: Run | null }) {
  return (
    <li className="card run pending" data-testid="retry-pending" data-message-id={retry.messageId} data-retry-of={retry.runId}>
      <div className="run-head">
        <span className="badge status-waiting">Waiting</span>
        <span className="badge subtle">Try again</span>
        <span className="muted small">
          asked {formatTime(retry.createdAt)}
          {original ? ` · redoes the reply of ${formatTime(original.createdAt)}` : ''}
        </span>
      </div>
      <div className="exchange">
        <p className="exchange-label">You</p>
        <p className="exchange-text" data-testid="retry-pending-note">
          {retry.note ?? retryNote(retry.prompt) ?? retry.prompt}
        </p>
        <p className="exchange-label">{teammateName}</p>
        <p className="exchange-text muted">
          Not started yet: {teammateName} will try again with your note the next time it runs, and the new reply takes this
          place.
        </p>
      </div>
    </li>
  )
}

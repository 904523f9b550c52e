import { useEffect, useState } from 'react'
import { useMutation, useQuery } from 'urql'
import { describeError, hasErrorCode } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { usePagedList } from '../api/pagination.ts'
import { graphql } from '../gql'
import type { RunsQuery as RunsResult } from '../gql/graphql.ts'
import { formatTime } from '../memory/model.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { RunCard, type Run } from './RunCard.tsx'
import { CancelRetryMutation, retryNote, useWaitingRetries, type WaitingRetry } from './retries.ts'

const RunsQuery = graphql(`
  query Runs($teammateId: ID!, $first: Int, $before: ID) {
    runs(teammateId: $teammateId, first: $first, before: $before) {
      ...RunFields
    }
  }
`)

// One run, as the cache holds it (also read by RunCard.test.tsx to show a run as the page does).
export const RunQuery = graphql(`
  query Run($id: ID!) {
    run(id: $id) {
      ...RunFields
    }
  }
`)

/** Runs per page. */
const runsPageSize = 20
// How often the list is re-read while the page is visible: often while a turn is running or a retry
// waits, every few seconds otherwise. The API has no subscription for runs, so this is how a reply, a new
// turn or the retry's new run shows up without a reload.
const busyPollInterval = 2000
const idlePollInterval = 5000

interface ConversationsTabProps {
  teammate: { id: string; name: string }
  /** The teammate's generation now (the cache's, which generationChanged keeps current). */
  generation: string
  /** The run to scroll to and mark (a lesson's "Open in Conversations"). */
  focusRunId?: string
}

/**
 * A teammate's turns, newest first: each with the user's message, the reply, its rating and
 * feedback, and the memory it was given (L1–L3, P7).
 */
export function ConversationsTab({ teammate, generation, focusRunId }: ConversationsTabProps) {
  const limits = useLimits()
  const [wanted, setWanted] = useState(runsPageSize)
  const list = usePagedList({
    query: RunsQuery,
    variables: (first, before) => ({ teammateId: teammate.id, first, before }),
    wanted,
    pageSize: limits.pageSize,
    read: readRuns,
  })
  const runs = list.items
  const loaded = !list.loading
  const { error, refresh } = list
  const waiting = useWaitingRetries(teammate.id)

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
  const [{ data: focusData }] = useQuery({ query: RunQuery, variables: { id: focusRunId ?? '' }, pause: !focusRunId || !loaded || focusListed })
  const focusRun = !focusListed && focusData?.run && focusData.run.id === focusRunId ? focusData.run : null
  useEffect(() => {
    if (focusRunId && focusListed) document.getElementById(`run-${focusRunId}`)?.scrollIntoView({ block: 'center', behavior: 'instant' })
  }, [focusRunId, focusListed])

  const card = (run: Run, startsThread: boolean) => (
    <RunCard
      key={run.id}
      run={run}
      teammate={teammate}
      startsThread={startsThread}
      focused={run.id === focusRunId}
      waitingRetry={waiting.retries.find((r) => r.runId === run.id) ?? null}
      onRetryRequested={waiting.add}
    />
  )

  return (
    <section className="conversations" data-testid="conversations" data-state={loaded ? 'ready' : 'loading'} aria-label="Conversations">
      <div className="panel-head">
        <h2 className="panel-title">Conversations</h2>
        <span className="muted small">{loaded ? (runs.length === 1 ? '1 reply' : `${runs.length}${list.hasMore ? '+' : ''} replies`) : 'Loading…'}</span>
      </div>
      <p className="lede small-lede">
        {teammate.name}’s turns, newest first. Rate a reply to give feedback: after a thumbs down you can keep a lesson or
        ask for another try. “Memory given” shows what {teammate.name} was given for each reply.
      </p>

      {focusRun && (
        <div className="focus-run" data-testid="focus-run">
          <p className="muted small">The reply you opened:</p>
          <ul className="run-list">{card(focusRun, false)}</ul>
        </div>
      )}

      {error && (
        <ErrorMessage onRetry={refresh} testId="runs-error">
          {describeError(error)}
        </ErrorMessage>
      )}

      {/* G7: the newest thread is the one the next message would continue, if its generation is still
          the teammate's. The generation comes from generationChanged, so this appears the moment
          memory changes, and goes once a run starts a fresh thread. */}
      <div aria-live="polite">
        {runs[0] && runs[0].thread.generation !== generation && (
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
            <PendingRetry
              key={r.messageId}
              retry={r}
              teammateName={teammate.name}
              original={runs.find((run) => run.id === r.runId) ?? null}
              onCancelled={waiting.remove}
              onStarted={refresh}
            />
          ))}
          {runs.map((run, i) => {
            const older = runs[i + 1]
            const startsThread = older ? older.thread.id !== run.thread.id : !list.hasMore
            return card(run, startsThread)
          })}
        </ul>
      )}

      {list.hasMore && (
        <div className="load-more">
          <button type="button" className="button" onClick={() => setWanted((n) => n + runsPageSize)} disabled={list.loadingMore} data-testid="runs-more">
            {list.loadingMore ? 'Loading…' : 'Older conversations'}
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
function PendingRetry({
  retry,
  teammateName,
  original,
  onCancelled,
  onStarted,
}: {
  retry: WaitingRetry
  teammateName: string
  original: Run | null
  /** The retry is withdrawn (or was already, from another tab): it leaves the list. */
  onCancelled(messageId: string): void
  /** A run has picked the retry up: the list is read again, which shows the run in its place. */
  onStarted(): void
}) {
  const [{ fetching }, cancelRetry] = useMutation(CancelRetryMutation)
  const [problem, setProblem] = useState<string | null>(null)
  const cancel = async () => {
    setProblem(null)
    const result = await cancelRetry({ input: { messageId: retry.messageId } })
    if (result.data || hasErrorCode(result.error, 'NOT_FOUND')) {
      onCancelled(retry.messageId)
    } else if (hasErrorCode(result.error, 'CONFLICT')) {
      setProblem(`Too late to cancel: ${teammateName} has started on it, and the new reply appears here.`)
      onStarted()
    } else {
      setProblem(describeError(result.error))
    }
  }
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
      <div className="feedback-row">
        <button
          type="button"
          className="button small"
          onClick={() => void cancel()}
          disabled={fetching}
          aria-label="Cancel this try again"
          data-testid="retry-cancel"
        >
          {fetching ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      {problem && <ErrorMessage testId="retry-cancel-error">{problem}</ErrorMessage>}
    </li>
  )
}

function readRuns(data: RunsResult, first: number) {
  const runs: Run[] = data.runs
  // A full last page may have more after it; the page after a list that ends there reads empty.
  const last = runs[runs.length - 1]
  return { items: runs, cursor: last && runs.length % first === 0 ? last.id : null }
}

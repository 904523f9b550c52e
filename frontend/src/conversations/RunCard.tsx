import { useId, useState } from 'react'
import { useMutation } from 'urql'
import { useCallError } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { graphql } from '../gql'
import type { Rating, RunFieldsFragment, RunStatus } from '../gql/graphql.ts'
import { formatTime } from '../memory/model.ts'
import { Link, paths } from '../router.tsx'
import { Disclosure } from '../ui/Disclosure.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { ThumbIcon } from '../ui/icons.tsx'
import { MemoryGivenPanel } from './MemoryGivenPanel.tsx'
import { MemoryUpdated } from './RunCardMemoryUpdated.tsx'
import { retryNote, type WaitingRetry } from './retries.ts'

export type Run = RunFieldsFragment

/** What a run card shows of a run (the cache keeps one record per run). */
export const RunFields = graphql(`
  fragment RunFields on Run {
    id
    status
    startedByUser
    createdAt
    endedAt
    cancelledAt
    userMessage
    retryNote
    retryOfRunId
    reply
    rating
    thread {
      id
      generation
    }
    memoryChanges {
      kind
      itemId
      scope
      waiting
      label
      at
    }
  }
`)

// Each answers with the run or the item it changed, which the cache records.
const RateRunMutation = graphql(`
  mutation RateRun($input: RateRunInput!) {
    rateRun(input: $input) {
      id
      rating
    }
  }
`)

const CancelRunMutation = graphql(`
  mutation CancelRun($input: CancelRunInput!) {
    cancelRun(input: $input) {
      ...RunFields
    }
  }
`)

const KeepLessonMutation = graphql(`
  mutation KeepLesson($input: KeepLessonInput!) {
    keepLesson(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

const RetryRunWithNoteMutation = graphql(`
  mutation RetryRunWithNote($input: RetryRunWithNoteInput!) {
    retryRunWithNote(input: $input) {
      messageId
      threadId
      retryOfRunId
      prompt
      note
      createdAt
    }
  }
`)

interface RunCardProps {
  run: Run
  teammate: { id: string; name: string }
  /** The run began a thread (the one before it, if shown, belongs to another). */
  startsThread: boolean
  /** The run the page was opened for (a lesson's link). */
  focused: boolean
  waitingRetry: WaitingRetry | null
  onRetryRequested(retry: WaitingRetry): void
}

const statusLabels: Record<RunStatus, string> = {
  RUNNING: 'Running',
  COMPLETED: 'Replied',
  FAILED: 'Failed',
  INTERRUPTED: 'Interrupted',
  CANCELLED: 'Cancelled',
}

/** The rating buttons under a reply. */
const thumbs: { rating: Rating; label: string; testId: string }[] = [
  { rating: 'UP', label: 'Helpful', testId: 'run-thumbs-up' },
  { rating: 'DOWN', label: 'Not helpful', testId: 'run-thumbs-down' },
]

/** Why a run has no reply, by its status. */
function noReply(status: RunStatus, name: string): string {
  switch (status) {
    case 'RUNNING':
      return `${name} is working on it…`
    case 'INTERRUPTED':
      return 'No reply: memory changed during the turn, so it was interrupted.'
    case 'CANCELLED':
      return 'No reply: you cancelled it.'
    case 'FAILED':
      return 'No reply: the turn failed (memory may have changed while it was starting).'
    default:
      return 'No reply.'
  }
}

/**
 * One turn of a teammate: the user's message, the reply, the rating (L1), the feedback that follows
 * a thumbs down — keep it as a lesson (L2) or try again with it (L3) — and the memory it was given
 * (P7). A running turn can be cancelled.
 */
export function RunCard({ run, teammate, startsThread, focused, waitingRetry, onRetryRequested }: RunCardProps) {
  const limits = useLimits()
  const [asking, setAsking] = useState(false)
  const [note, setNote] = useState('')
  const [kept, setKept] = useState(false)
  const { error, attempt } = useCallError()
  const [rateState, rateRun] = useMutation(RateRunMutation)
  const [cancelState, cancelRun] = useMutation(CancelRunMutation)
  const [lessonState, keepLesson] = useMutation(KeepLessonMutation)
  const [retryState, retryRun] = useMutation(RetryRunWithNoteMutation)
  const id = useId()
  const busy = rateState.fetching || lessonState.fetching || retryState.fetching
  // The API says which runs are retries and what the note was (Run.retryNote); the template
  // prefix is only a fallback for an older server.
  const retryText = run.retryNote ?? retryNote(run.userMessage)
  const isRetry = retryText !== null

  const rate = async (rating: Rating) => {
    const next = run.rating === rating ? null : rating // the same thumb again clears it
    if (!(await attempt(() => rateRun({ input: { runId: run.id, rating: next } })))) return
    if (next === 'DOWN') {
      setAsking(true)
      setKept(false)
    } else {
      setAsking(false)
    }
  }

  const cancel = () => attempt(() => cancelRun({ input: { runId: run.id } }))

  const lesson = async () => {
    if (!(await attempt(() => keepLesson({ input: { runId: run.id, note } })))) return
    setKept(true)
    setAsking(false)
    setNote('')
  }

  const retry = async () => {
    const data = await attempt(() => retryRun({ input: { runId: run.id, note } }))
    if (!data) return
    const r = data.retryRunWithNote
    onRetryRequested({ messageId: r.messageId, runId: run.id, prompt: r.prompt, note: r.note, createdAt: r.createdAt })
    setAsking(false)
    setNote('')
  }

  return (
    <li
      className={`card run${focused ? ' focused' : ''}`}
      id={`run-${run.id}`}
      data-testid="run"
      data-run-id={run.id}
      data-status={run.status}
      data-rating={run.rating ?? ''}
      aria-labelledby={`${id}-title`}
    >
      <div className="run-head">
        <span className={`badge status-${run.status.toLowerCase()}`} data-testid="run-status">
          {statusLabels[run.status]}
        </span>
        {isRetry && (
          <span className="badge subtle" title="You asked for this reply again, with a note." data-testid="run-retry">
            Try again
          </span>
        )}
        {startsThread && (
          <span
            className="badge subtle"
            title="A new conversation thread started here (memory had changed, or it was the first)."
            data-testid="run-new-thread"
          >
            New thread
          </span>
        )}
        <span className="muted small" id={`${id}-title`}>
          {formatTime(run.createdAt)}
          {!run.startedByUser && ' · started by the worker'}
        </span>
        <span className="spacer" />
        {run.status === 'RUNNING' && (
          <button type="button" className="button small" onClick={cancel} disabled={cancelState.fetching} data-testid="run-cancel">
            {cancelState.fetching ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </div>

      <div className="exchange">
        <p className="exchange-label">You</p>
        {/* L3: a retry's message is the user's note inside a template; the note is what the user said. */}
        <p className="exchange-text" data-testid="run-user-message" data-retry-note={isRetry ? 'true' : undefined}>
          {isRetry ? retryText : run.userMessage}
        </p>
        {isRetry && (
          <p className="muted small" data-testid="run-retry-of" data-retry-of={run.retryOfRunId ?? undefined}>
            Your note for another try at an earlier reply.
          </p>
        )}
        <p className="exchange-label">{teammate.name}</p>
        {run.reply ? (
          <p className="exchange-text reply" data-testid="run-reply">
            {run.reply}
          </p>
        ) : (
          <p className="exchange-text muted" data-testid="run-no-reply">
            {noReply(run.status, teammate.name)}
          </p>
        )}
      </div>
      <MemoryUpdated changes={run.memoryChanges} />

      {run.reply && (
        <div className="feedback-row" role="group" aria-label="Rate this reply">
          {thumbs.map((t) => (
            <button
              key={t.rating}
              type="button"
              className="button small thumb"
              aria-pressed={run.rating === t.rating}
              onClick={() => rate(t.rating)}
              disabled={busy}
              data-testid={t.testId}
            >
              <ThumbIcon down={t.rating === 'DOWN'} /> {t.label}
            </button>
          ))}
          {run.rating === 'DOWN' && !asking && (
            <button type="button" className="link-button small" onClick={() => setAsking(true)} data-testid="feedback-open">
              What should be done differently?
            </button>
          )}
        </div>
      )}

      {asking && (
        <form className="feedback-form" onSubmit={(e) => e.preventDefault()} data-testid="feedback-form" aria-label="What should be done differently?">
          <label htmlFor={`${id}-note`} className="field-label">
            What should be done differently?
          </label>
          <textarea
            id={`${id}-note`}
            rows={3}
            maxLength={limits.noteLength}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="e.g. Use bullet points and keep it under five lines."
            autoFocus
            data-testid="feedback-note"
          />
          <div className="actions compact">
            <button type="button" className="button primary small" onClick={lesson} disabled={busy || !note.trim()} data-testid="feedback-keep-lesson">
              {lessonState.fetching ? 'Saving…' : 'Keep as a lesson'}
            </button>
            <button type="button" className="button small" onClick={retry} disabled={busy || !note.trim()} data-testid="feedback-retry">
              {retryState.fetching ? 'Asking…' : 'Try again with this'}
            </button>
            <button type="button" className="link-button small" onClick={() => setAsking(false)} data-testid="feedback-close">
              Not now
            </button>
          </div>
          <p className="muted small">
            A lesson is kept in {teammate.name}’s memory for every future conversation; trying again only redoes this reply.
          </p>
        </form>
      )}

      {kept && (
        <p className="message ok" role="status" data-testid="feedback-lesson-kept">
          Kept as a lesson: {teammate.name} will be given it in every conversation.{' '}
          <Link to={paths.lessons(teammate.id)}>See lessons</Link>
        </p>
      )}
      {waitingRetry && (
        <p className="message info" role="status" data-testid="retry-waiting">
          Asked {teammate.name} to try again with your note. It waits at the top of the conversation until {teammate.name}{' '}
          picks it up; the new reply appears there.
        </p>
      )}
      {error && <ErrorMessage testId="run-error">{error}</ErrorMessage>}

      <div className="run-memory">
        <Disclosure label="Memory given" toggleTestId="run-memory-toggle">
          <MemoryGivenPanel runId={run.id} teammateName={teammate.name} />
        </Disclosure>
      </div>
    </li>
  )
}

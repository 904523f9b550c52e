import { useEffect, useRef } from 'react'
import { useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import type { LessonsQuery as LessonsResult } from '../gql/graphql.ts'
import { MemoryItemCard } from '../memory/MemoryItemCard.tsx'
import { useNowUntilNextExpiry } from '../memory/MemoryPanel.tsx'
import { formatTime } from '../memory/model.ts'
import { useLiveScope } from '../memory/useMemoryList.ts'
import { Link, lessonsAnchor, paths } from '../router.tsx'
import { Disclosure } from '../ui/Disclosure.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'

const LessonsQuery = graphql(`
  query Lessons($teammateId: ID!) {
    lessons(teammateId: $teammateId) {
      item {
        ...MemoryItemFields
      }
      run {
        id
        status
        createdAt
      }
    }
  }
`)

/** The exchange behind a lesson, read when its expander opens (not for every lesson of the list). */
const LessonRunQuery = graphql(`
  query LessonRun($id: ID!) {
    run(id: $id) {
      id
      userMessage
      reply
    }
  }
`)

type Lesson = LessonsResult['lessons'][number]
type LessonRun = NonNullable<Lesson['run']>

interface LessonsSectionProps {
  teammateId: string
  teammateName: string
}

/**
 * The teammate's lessons (L4): notes the user kept from thumbs-down feedback, each linked to the
 * reply that prompted it. Lessons are ordinary pinned items, so they are edited, pinned and
 * forgotten with the same card as the rest of memory; the list follows the teammate's scope live
 * (its events invalidate the cached lessons, api/cache.ts).
 */
export function LessonsSection({ teammateId, teammateName }: LessonsSectionProps) {
  const [{ data, error }, reexecute] = useQuery({ query: LessonsQuery, variables: { teammateId }, requestPolicy: 'cache-and-network' })
  useLiveScope({ teammateId })
  // A lesson forgotten leaves at once, before the list is read again.
  const lessons = (data?.lessons ?? []).filter((l) => l.item.status === 'ACTIVE')
  const loaded = !!data || !!error
  const now = useNowUntilNextExpiry(lessons.map((l) => l.item))
  // Opened from "See lessons" (the URL ends in #lessons): once the list is there, the section is
  // scrolled to and takes the focus, so keyboard and screen-reader users land on it too.
  const section = useRef<HTMLElement>(null)
  const arrived = useRef(false)
  useEffect(() => {
    if (!loaded || arrived.current || location.hash !== `#${lessonsAnchor}`) return
    arrived.current = true
    section.current?.focus({ preventScroll: true })
    section.current?.scrollIntoView({ block: 'start', behavior: 'instant' })
  }, [loaded])

  return (
    <section
      ref={section}
      id={lessonsAnchor}
      tabIndex={-1}
      className="lessons"
      data-testid="lessons-section"
      data-state={loaded ? 'ready' : 'loading'} aria-label="Lessons">
      <div className="panel-head">
        <h2 className="panel-title">Lessons</h2>
        <span className="muted small" data-testid="lessons-count">
          {loaded ? (lessons.length === 1 ? '1 lesson' : `${lessons.length} lessons`) : 'Loading…'}
        </span>
      </div>
      <p className="lede small-lede">
        Notes you kept from your feedback on replies. They are pinned, so they are given in every conversation.
      </p>
      {error && <ErrorMessage onRetry={() => reexecute({ requestPolicy: 'network-only' })}>{describeError(error)}</ErrorMessage>}
      {loaded && lessons.length === 0 && !error ? (
        <p className="muted lessons-empty" data-testid="lessons-empty">
          No lessons yet. When a reply misses the mark, give it a thumbs down in{' '}
          <Link to={paths.teammate(teammateId, 'conversations')}>Conversations</Link> and keep your note as a lesson.
        </p>
      ) : (
        <ul className="memory-list" data-testid="lessons-list">
          {lessons.map((l) => (
            <MemoryItemCard key={l.item.id} item={l.item} now={now}>
              <LessonSource run={l.run ?? null} teammateId={teammateId} teammateName={teammateName} />
            </MemoryItemCard>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The user's message and the reply behind a lesson, read when shown. */
function LessonExchange({ runId, createdAt, teammateName }: { runId: string; createdAt: string; teammateName: string }) {
  const [{ data, fetching, error }] = useQuery({ query: LessonRunQuery, variables: { id: runId }, requestPolicy: 'cache-and-network' })
  if (error) return <p className="message error">{describeError(error)}</p>
  const exchange = data?.run
  if (!exchange) return <p className="muted small">{fetching ? 'Loading the reply…' : 'This conversation is gone.'}</p>
  return (
    <>
      <p className="exchange-label">You asked · {formatTime(createdAt)}</p>
      <p className="exchange-text" data-testid="lesson-user-message">
        {exchange.userMessage}
      </p>
      <p className="exchange-label">{teammateName} replied</p>
      <p className="exchange-text" data-testid="lesson-reply-text">
        {exchange.reply ?? <span className="muted">No reply was given.</span>}
      </p>
    </>
  )
}

/** Where a lesson came from: an expander with the reply that prompted it and a link to it. */
function LessonSource({ run, teammateId, teammateName }: { run: LessonRun | null; teammateId: string; teammateName: string }) {
  if (!run) {
    return <p className="muted small lesson-source">Written directly, not from feedback on a reply.</p>
  }
  return (
    <div className="lesson-source" data-testid="lesson-source" data-run-id={run.id}>
      <Disclosure label="The reply that prompted it" className="lesson-reply" toggleTestId="lesson-reply-toggle" contentTestId="lesson-reply">
        <LessonExchange runId={run.id} createdAt={run.createdAt} teammateName={teammateName} />
        <Link to={paths.run(teammateId, run.id)} className="small" data-testid="lesson-run-link">
          Open in Conversations
        </Link>
      </Disclosure>
    </div>
  )
}

import { Link, paths } from '../router.tsx'
import type { Candidate } from './SuggestionsPanel.tsx'

/**
 * Where a suggestion came from: the sentence of your message a teammate got it from (or the quote
 * extraction found), when you wrote it, and a link to that conversation.
 */
export function SuggestionSource({ candidate }: { candidate: Candidate }) {
  const runId = candidate.sourceRunId ?? null
  const teammate = candidate.sourceTeammate ?? null
  if (!candidate.evidence && !(runId && teammate)) return null
  return (
    <blockquote className="evidence" data-testid="suggestion-evidence">
      {candidate.evidence ? (
        <>
          <span className="muted small">From your message {formatDay(candidate.createdAt)}:</span>{' '}
          <span data-testid="suggestion-evidence-text">“{candidate.evidence}”</span>
        </>
      ) : (
        <span className="muted small">From your conversation {formatDay(candidate.createdAt)}.</span>
      )}
      {runId && teammate && (
        <>
          {' '}
          <Link to={paths.run(teammate.id, runId)} className="small" data-testid="suggestion-run-link">
            See the conversation with {teammate.name}
          </Link>
        </>
      )}
    </blockquote>
  )
}

/**
 * Why the suggestion waits for you instead of being memory already (A8), in the server's plain
 * words — which may quote the words of your message that decided. Quiet, under the evidence; nothing
 * for a suggestion made before reasons were kept.
 */
export function WaitReason({ candidate }: { candidate: Candidate }) {
  if (!candidate.waitReason) return null
  return (
    <p className="wait-reason muted small" data-testid="suggestion-reason">
      <span className="wait-reason-label">Why it waits:</span> {candidate.waitReason}
    </p>
  )
}

/** "today", "yesterday", "on Tuesday" within a week, else "on 3 March". */
function formatDay(iso: string): string {
  const then = new Date(iso)
  const now = new Date()
  const days = Math.round((startOfDay(now) - startOfDay(then)) / 86_400_000)
  if (days <= 0) return 'today'
  if (days === 1) return 'yesterday'
  if (days < 7) return `on ${then.toLocaleDateString(undefined, { weekday: 'long' })}`
  return `on ${then.toLocaleDateString(undefined, { day: 'numeric', month: 'long' })}`
}

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime()
}

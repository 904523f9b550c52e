import { useEffect } from 'react'
import { Link, paths } from '../router.tsx'
import { formatDate, type MemoryItem } from './model.ts'

type Provenance = MemoryItem['provenance']

/**
 * Where an item came from, in words, on its card: "Saved by Ada when you said “…” — today",
 * "Confirmed by you from Ada's suggestion — yesterday", "Imported from a file", "Added by you". The
 * quote (your words the teammate's write came from) links to that conversation.
 */
export function ItemSource({ item, now }: { item: MemoryItem; now: number }) {
  const p = item.provenance
  const when = p.confirmedAt ?? p.at
  // A link to this item ("Memory updated" under a reply) ends in #memory-<id>: the card is scrolled to.
  useEffect(() => {
    if (location.hash === `#memory-${item.id}`) document.getElementById(`memory-${item.id}`)?.scrollIntoView({ block: 'center', behavior: 'instant' })
  }, [item.id])
  return (
    <p className="item-source muted small" data-testid="item-source" data-kind={p.kind}>
      <SourceWords p={p} /> — <time dateTime={when}>{dayInWords(when, now)}</time>
    </p>
  )
}

function SourceWords({ p }: { p: Provenance }) {
  const name = p.teammate?.name ?? 'a teammate'
  const conversation = p.teammate && p.runId ? paths.run(p.teammate.id, p.runId) : null
  const quote = p.quote ? (
    conversation ? (
      <Link to={conversation} data-testid="item-source-quote">
        “{p.quote}”
      </Link>
    ) : (
      <span data-testid="item-source-quote">“{p.quote}”</span>
    )
  ) : null
  const link = conversation && !quote && (
    <>
      {' '}
      (
      <Link to={conversation} data-testid="item-source-link">
        see the conversation
      </Link>
      )
    </>
  )
  switch (p.kind) {
    case 'SAVED_BY_TEAMMATE':
      return quote ? (
        <>
          Saved by {name} when you said {quote}
        </>
      ) : (
        <>
          Saved by {name} at your request{link}
        </>
      )
    case 'CONFIRMED_SUGGESTION':
      return (
        <>
          Confirmed by you from {p.teammate ? `${p.teammate.name}’s` : 'a teammate’s'} suggestion{quote ? <> (you said {quote})</> : link}
        </>
      )
    case 'SUGGESTED_BY_TEAMMATE':
      return (
        <>
          Suggested by {name}
          {quote ? <> when you said {quote}</> : link}
        </>
      )
    case 'FOUND_IN_CONVERSATION':
      return (
        <>
          Found in your conversation with {name}
          {quote ? <> (you said {quote})</> : link}
        </>
      )
    case 'IMPORTED':
      return <>Imported from a file</>
    case 'FROM_FEEDBACK':
      return <>Kept as a lesson from your feedback on a reply</>
    default:
      return <>Added by you</>
  }
}

/** "today", "yesterday", or the date. */
function dayInWords(iso: string, now: number): string {
  const day = (t: number) => new Date(new Date(t).toDateString()).getTime()
  const days = Math.round((day(now) - day(Date.parse(iso))) / 86_400_000)
  if (days <= 0) return 'today'
  if (days === 1) return 'yesterday'
  return formatDate(iso)
}

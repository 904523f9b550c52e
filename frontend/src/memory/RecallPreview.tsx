import { useId, useState, type FormEvent } from 'react'
import { useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import type { RecallList, RecallPreviewQuery as PreviewResult, VectorSearch } from '../gql/graphql.ts'
import { DemoBadge, isDemo } from '../ui/demo.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { kindLabel } from './model.ts'

const RecallPreviewQuery = graphql(`
  query RecallPreview($teammateId: ID!, $query: String!) {
    recallPreview(teammateId: $teammateId, query: $query) {
      memoryOff
      vectorSearch
      vectorReason
      leftOut {
        noSharedWord
        overBudget
        expired
        waiting
      }
      entries {
        header
        fullTextRank
        fullTextPosition
        bm25Score
        foundBy
        vectorDistance
        vectorPosition
        score
        truncated
        item {
          id
          scope
          kind
          key
          content
          pinned
        }
      }
    }
  }
`)

type Preview = PreviewResult['recallPreview']
type Entry = Preview['entries'][number]

interface Reason {
  kind: 'pinned' | 'words' | 'meaning' | 'shared'
  text: string
}

/** Why an entry is in the packet, in words. */
export function reasons(e: Entry, request: string): Reason[] {
  const out: Reason[] = []
  if (e.item.pinned) out.push({ kind: 'pinned', text: 'pinned, so always given' })
  if (e.fullTextPosition != null) {
    // Pinned items are always in the word list (P2), matched or not: for them only real matches count.
    const words = matchedWords(request, `${e.item.key ?? ''} ${e.item.content}`)
    if (words.length > 0) out.push({ kind: 'words', text: `matched ${words.map((w) => `‘${w}’`).join(', ')}` })
    else if (!e.item.pinned) out.push({ kind: 'words', text: 'matched words of your request' })
  }
  if (e.vectorPosition != null) out.push({ kind: 'meaning', text: 'similar meaning' })
  if (out.length === 0) out.push({ kind: 'words', text: 'matched your request' })
  if (e.item.scope === 'shared') out.push({ kind: 'shared', text: 'from About you, shared with every teammate' })
  return out
}

// Words too common to be why an item matched (the full-text search ignores them too).
const stopWords = new Set(
  'a an and are as at be by do for from has have i in is it me my of on or our so that the their this to was we what when where which who will with you your'.split(' '),
)

/**
 * The request's words that the text contains, as the user typed them: the same word, or one sharing
 * its stem ("papers" and "paper", "hiking" and "hike"), compared case-insensitively.
 */
export function matchedWords(request: string, text: string): string[] {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const stems = new Set(words(text).map(stem))
  const seen = new Set<string>()
  const out: string[] = []
  for (const w of words(request)) {
    if (stopWords.has(w) || seen.has(w)) continue
    seen.add(w)
    if (stems.has(stem(w))) out.push(w)
  }
  return out
}

function stem(w: string): string {
  return w.replace(/(ing|ed|es|s|e)$/u, '') || w
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

/**
 * What the packet left out and why, one sentence for each reason that applies (P2–P5, A2): the
 * memories that share no word with the request (the usual surprise: a preference such as "answers in
 * bullet points" is not given for "summarise this week's news" unless it is pinned), those that
 * matched but didn't fit, the expired ones and the suggestions still waiting.
 */
export function leftOutLines(l: Preview['leftOut']): string[] {
  const out: string[] = []
  if (!l) return out
  if (l.noSharedWord > 0) {
    out.push(
      `${count(l.noSharedWord, 'memory shares', 'memories share')} no word with this request, so ${l.noSharedWord === 1 ? 'it was' : 'they were'} left out — pin one to always give it.`,
    )
  }
  if (l.overBudget > 0) {
    out.push(
      `${count(l.overBudget, 'memory', 'memories')} matched but didn’t fit: a teammate is given at most 12 memories and 6,000 characters, pinned ones first.`,
    )
  }
  if (l.expired > 0) out.push(`${count(l.expired, 'memory has', 'memories have')} expired and ${l.expired === 1 ? 'is' : 'are'} no longer given.`)
  if (l.waiting > 0) {
    out.push(`${count(l.waiting, 'suggestion waits', 'suggestions wait')} for you: a suggestion is given only once you confirm it.`)
  }
  return out
}

// The lists that can find an entry, as the "found by" label names them.
const listLabels: Record<RecallList, string> = {
  PINNED: 'pinned',
  FULL_TEXT: 'full text (BM25)',
  VECTOR: 'vector',
}

const vectorLabels: Record<VectorSearch, string> = {
  NOT_CONFIGURED: 'Found by words only (embeddings are not configured).',
  USED: 'Found by words and by meaning (embeddings).',
  SKIPPED: 'Found by words only: the request has no words to search by meaning.',
  FAILED: 'Found by words only: the search by meaning failed this time.',
}

/**
 * "What would a teammate see for …": the memory packet a run of the teammate would get for a
 * request now (P1–P6), each entry with why it was chosen in plain words — pinned, the request's
 * words it matched, a similar meaning — and the raw places and scores folded away under "Scores".
 */
export function RecallPreview({ teammateId, teammateName }: { teammateId: string; teammateName: string }) {
  const [query, setQuery] = useState('')
  // The request last previewed: the packet is a snapshot of memory at the time it was asked for, so
  // it is read from the server each time, and asking the same again reads it again.
  const [asked, setAsked] = useState('')
  const [{ data, error, fetching, operation }, reexecute] = useQuery({
    query: RecallPreviewQuery,
    variables: { teammateId, query: asked },
    pause: asked === '',
    requestPolicy: 'network-only',
  })
  const preview: Preview | null = data?.recallPreview ?? null
  // The request the preview shown was read for (the next one may still be on its way).
  const shown = operation?.variables.query ?? asked
  const id = useId()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const q = query.trim()
    if (!q) return
    if (q === asked) reexecute({ requestPolicy: 'network-only' })
    else setAsked(q)
  }

  return (
    <section className="recall-preview" data-testid="recall-preview" aria-labelledby={`${id}-title`}>
      <h2 className="panel-title" id={`${id}-title`}>
        What would {teammateName} see for…
      </h2>
      <p className="lede small-lede">Type a request to see the memory {teammateName} would be given for it right now, and why.</p>
      <form className="inline-form-row" onSubmit={submit} role="search">
        <label htmlFor={`${id}-query`} className="visually-hidden">
          A request to {teammateName}
        </label>
        <input
          id={`${id}-query`}
          type="search"
          placeholder="e.g. plan my trip to Lisbon"
          maxLength={2000}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="recall-query"
        />
        <button type="submit" className="button" disabled={fetching || !query.trim()} data-testid="recall-submit">
          {fetching ? 'Looking…' : 'Preview'}
        </button>
      </form>
      {error && <ErrorMessage>{describeError(error)}</ErrorMessage>}
      {preview && (
        <div className="recall-result" data-testid="recall-result" data-query={shown}>
          <p className="muted small" data-testid="recall-vector">
            {vectorLabels[preview.vectorSearch]}
            {preview.vectorReason ? ` (${preview.vectorReason})` : ''}
          </p>
          {preview.memoryOff ? null : <LeftOut lines={leftOutLines(preview.leftOut)} />}
          {preview.memoryOff ? (
            <p className="empty" data-testid="recall-memory-off">
              Nothing would be given: Use memory is off for {teammateName}, so its runs are given no memory and are told so.
            </p>
          ) : preview.entries.length === 0 ? (
            <p className="empty" data-testid="recall-empty">
              Nothing would be given for this: no memory matches and nothing is pinned.
            </p>
          ) : (
            <ol className="recall-entries">
              {preview.entries.map((e, i) => (
                <li key={e.item.id} className="recall-entry" data-testid="recall-entry" data-item-id={e.item.id}>
                  <div className="recall-entry-head">
                    <span className="recall-place">{i + 1}</span>
                    <span className={`badge kind-${e.item.kind.toLowerCase()}`}>{kindLabel(e.item.kind)}</span>
                    {e.item.pinned && <span className="badge pin">Pinned</span>}
                    {isDemo(e.item.content) && <DemoBadge />}
                    <span className="muted small">{e.item.scope === 'shared' ? 'About you' : `Only ${teammateName}`}</span>
                    <span className="muted small" data-testid="recall-found-by">
                      found by {e.foundBy.map((l) => listLabels[l]).join(' and ')}
                    </span>
                  </div>
                  <p className="given-text">
                    {e.item.key && <strong>{e.item.key}: </strong>}
                    {e.item.content}
                    {e.truncated && <span className="muted small"> (cut to fit)</span>}
                  </p>
                  <p className="recall-why" data-testid="recall-why">
                    <span className="muted small">Why: </span>
                    {reasons(e, shown).map((r, j) => (
                      <span key={r.kind} className="recall-reason" data-reason={r.kind} data-testid="recall-reason">
                        {j > 0 && ', '}
                        {r.text}
                      </span>
                    ))}
                  </p>
                  <details className="recall-scores">
                    <summary>Scores</summary>
                    <dl className="recall-score-list">
                      <Score term="Words" testId="recall-fulltext">
                        {e.fullTextPosition != null
                          ? `#${e.fullTextPosition} (rank ${formatNumber(e.fullTextRank)}${e.bm25Score != null ? `, BM25 ${formatNumber(e.bm25Score)}` : ''})`
                          : 'no match'}
                      </Score>
                      <Score term="Meaning" testId="recall-vector-distance">
                        {e.vectorPosition != null ? `#${e.vectorPosition} (distance ${formatNumber(e.vectorDistance)})` : '—'}
                      </Score>
                      <Score term="Fused score" testId="recall-score">
                        {formatNumber(e.score)}
                      </Score>
                    </dl>
                  </details>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  )
}

/** What the packet left out, under the search mode; nothing when it left nothing out. */
function LeftOut({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null
  return (
    <div className="recall-left-out" data-testid="recall-left-out">
      <p className="small">
        <strong>Left out</strong>
      </p>
      <ul className="small">
        {lines.map((l) => (
          <li key={l} data-testid="recall-left-out-line">
            {l}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** One score of an entry: its name and its value. */
function Score({ term, testId, children }: { term: string; testId: string; children: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  )
}

function formatNumber(n: number | null | undefined): string {
  if (n == null) return '—'
  return n.toFixed(4).replace(/0+$/, '').replace(/\.$/, '')
}

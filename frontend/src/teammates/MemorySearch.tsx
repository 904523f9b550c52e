import { useEffect, useId, useState } from 'react'
import { useClient, type CombinedError } from 'urql'
import { describeError } from '../api/errors.ts'
import { SearchMemoryQuery } from '../api/operations.ts'
import type { SearchMemoryQuery as SearchResult } from '../gql/graphql.ts'
import { formatDate, kindLabel } from '../memory/model.ts'
import { Link, paths } from '../router.tsx'
import { DemoBadge, isDemo } from '../ui/demo.tsx'

type Found = SearchResult['searchMemory'][number]

/**
 * One search across all memory: shared memory (About you) and every teammate's, at once. Each result
 * says whose it is and links to where it is edited.
 */
export function MemorySearch() {
  const client = useClient()
  const [text, setText] = useState('')
  const [result, setResult] = useState<{ search: string; items: Found[] } | null>(null)
  const [failure, setFailure] = useState<{ search: string; error: CombinedError } | null>(null)
  const id = useId()
  const search = text.trim()

  useEffect(() => {
    if (search === '') return
    let cancelled = false
    const t = setTimeout(() => {
      void client
        .query(SearchMemoryQuery, { search }, { requestPolicy: 'network-only' })
        .toPromise()
        .then((r) => {
          if (cancelled) return
          setFailure(r.error ? { search, error: r.error } : null)
          if (r.data) setResult({ search, items: r.data.searchMemory })
        })
    }, 250)
    return () => {
      cancelled = true
      clearTimeout(t)
    }
  }, [client, search])

  const shown = result && result.search === search ? result : null
  const error = failure && failure.search === search ? failure.error : undefined
  return (
    <section className="memory-search" aria-labelledby={`${id}-title`} data-testid="memory-search-all">
      <h2 className="panel-title" id={`${id}-title`}>
        Search all memory
      </h2>
      <div className="field" role="search">
        <label htmlFor={`${id}-q`} className="field-label">
          Words in any teammate’s memory or in About you
        </label>
        <input
          id={`${id}-q`}
          type="search"
          placeholder="e.g. coffee"
          maxLength={500}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="search-all-input"
        />
      </div>
      {error && (
        <p className="message error" role="alert">
          {describeError(error)}
        </p>
      )}
      <div aria-live="polite">
        {shown && (
          <p className="muted small" data-testid="search-all-count" data-search={shown.search}>
            {shown.items.length === 0
              ? 'Nothing matches.'
              : shown.items.length === 1
                ? '1 memory matches.'
                : `${shown.items.length}${shown.items.length === 50 ? '+' : ''} memories match.`}
          </p>
        )}
      </div>
      {shown && shown.items.length > 0 && (
        <ul className="search-results" data-testid="search-all-results">
          {shown.items.map((item) => (
            <li key={item.id} className="card search-result" data-testid="search-all-result" data-item-id={item.id} data-scope={item.scope}>
              <div className="item-meta">
                <span className={`badge kind-${item.kind.toLowerCase()}`}>{kindLabel(item.kind)}</span>
                {item.pinned && <span className="badge pin">Pinned</span>}
                {isDemo(item.content) && <DemoBadge />}
                <span className="spacer" />
                <span className="muted small">{formatDate(item.updatedAt)}</span>
              </div>
              <p className="item-content">
                {item.key && <strong>{item.key}: </strong>}
                {item.content}
              </p>
              <p className="small">
                {item.teammate ? (
                  <Link to={paths.teammate(item.teammate.id)} data-testid="search-all-where">
                    {item.teammate.name}’s memory
                  </Link>
                ) : (
                  <Link to={paths.settings('about-you')} data-testid="search-all-where">
                    About you (shared with every teammate)
                  </Link>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

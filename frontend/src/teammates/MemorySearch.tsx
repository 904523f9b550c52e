import { useId, useState } from 'react'
import { useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { graphql } from '../gql'
import { useDebounced } from '../memory/MemoryPanel.tsx'
import { formatDate, kindLabel } from '../memory/model.ts'
import { Link, paths } from '../router.tsx'
import { DemoBadge, isDemo } from '../ui/demo.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { Field } from '../ui/Field.tsx'

// One search across shared memory and every teammate's (user only).
const SearchMemoryQuery = graphql(`
  query SearchMemory($search: String!) {
    searchMemory(search: $search, first: 50) {
      ...MemoryItemFields
      teammate {
        id
        name
      }
    }
  }
`)

/**
 * One search across all memory: shared memory (About you) and every teammate's, at once. Each result
 * says whose it is and links to where it is edited. Results are read from the server each time
 * (no page follows every scope's changes).
 */
export function MemorySearch() {
  const limits = useLimits()
  const [text, setText] = useState('')
  const id = useId()
  const search = text.trim()
  const debounced = useDebounced(search, 250)
  const [{ data, error, operation }] = useQuery({
    query: SearchMemoryQuery,
    variables: { search: debounced },
    pause: debounced === '',
    requestPolicy: 'network-only',
  })
  const shown = data && search !== '' && operation?.variables.search === search ? { search, items: data.searchMemory } : null
  return (
    <section className="memory-search" aria-labelledby={`${id}-title`} data-testid="memory-search-all">
      <h2 className="panel-title" id={`${id}-title`}>
        Search all memory
      </h2>
      <Field htmlFor={`${id}-q`} label="Words in any teammate’s memory or in About you" role="search">
        <input
          id={`${id}-q`}
          type="search"
          placeholder="e.g. coffee"
          maxLength={limits.searchLength}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="search-all-input"
        />
      </Field>
      {error && search !== '' && <ErrorMessage>{describeError(error)}</ErrorMessage>}
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

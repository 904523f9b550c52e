import { useEffect, useState } from 'react'
import { useClient, type CombinedError } from 'urql'
import { describeError } from '../api/errors.ts'
import { useLiveSubscription } from '../api/live.ts'
import { CandidateArrivedSubscription, CandidatesQuery, MemoryChangedSubscription } from '../api/operations.ts'
import { useSerialRead } from '../api/serial.ts'
import type { CandidateFieldsFragment, ScopeInput } from '../gql/graphql.ts'
import { SuggestionCard } from './SuggestionCard.tsx'

export type Candidate = CandidateFieldsFragment

interface SuggestionsPanelProps {
  scope: ScopeInput
  /** Who would be given the suggestions once confirmed ("Ada", "every teammate"). */
  audience: string
}

interface State {
  items: Candidate[]
  loaded: boolean
  error: CombinedError | undefined
}

/**
 * SuggestionsPanel lists the scope's candidates: what teammates or extraction think is worth
 * remembering, waiting for the user to confirm (optionally after editing) or dismiss (A2). New ones
 * arrive live through candidateArrived (A6); any change in the scope re-reads the list, so a
 * suggestion confirmed or dismissed elsewhere goes away here too. The section shows only while
 * something waits.
 */
export function SuggestionsPanel({ scope, audience }: SuggestionsPanelProps) {
  const client = useClient()
  const teammateId = scope.teammateId ?? null
  const [state, setState] = useState<State>({ items: [], loaded: false, error: undefined })
  const [notice, setNotice] = useState<string | null>(null)
  // Bumped on every re-read, so that cards re-read the items their proposals would change.
  const [tick, setTick] = useState(0)

  const refresh = useSerialRead(async () => {
    const result = await client.query(CandidatesQuery, { scope: { teammateId } }, { requestPolicy: 'network-only' }).toPromise()
    setTick((t) => t + 1)
    if (!result.data) {
      setState((s) => ({ ...s, loaded: true, error: result.error }))
      return
    }
    setState({ items: result.data.candidates, loaded: true, error: undefined })
  })

  useEffect(() => refresh(), [refresh])

  useLiveSubscription(
    CandidateArrivedSubscription,
    { scope: { teammateId } },
    {
      onData(data) {
        const arrived = data.candidateArrived
        setNotice(null)
        setState((s) => (s.items.some((i) => i.id === arrived.id) ? s : { ...s, items: [arrived, ...s.items] }))
      },
      onResync: refresh,
    },
  )
  useLiveSubscription(
    MemoryChangedSubscription,
    { scope: { teammateId } },
    { onData: refresh, onResync: refresh },
  )

  const done = (id: string, what: string) => {
    setState((s) => ({ ...s, items: s.items.filter((i) => i.id !== id) }))
    setNotice(what)
    refresh()
  }

  const count = state.items.length
  return (
    <section
      className="suggestions"
      data-testid="suggestions-panel"
      data-state={state.loaded ? 'ready' : 'loading'}
      data-count={count}
      aria-label="Suggestions"
      hidden={count === 0 && !notice && !state.error}
    >
      {count > 0 && (
        <>
          <div className="panel-head">
            <h2 className="panel-title">
              Suggestions <span className="count-pill">{count}</span>
            </h2>
          </div>
          <p className="lede small-lede">
            Noticed in conversations, not yet memory: nothing here is given to {audience} until you confirm it.
          </p>
        </>
      )}
      {state.error && (
        <p className="message error" role="alert">
          {describeError(state.error)}{' '}
          <button type="button" className="link-button" onClick={refresh}>
            Try again
          </button>
        </p>
      )}
      <ul className="suggestion-list" data-testid="suggestion-list" aria-live="polite">
        {state.items.map((c) => (
          <SuggestionCard key={c.id} candidate={c} tick={tick} onDone={done} onStale={refresh} />
        ))}
      </ul>
      {notice && (
        <p className="message ok" role="status" data-testid="suggestions-notice">
          {notice}{' '}
          <button type="button" className="link-button" onClick={() => setNotice(null)}>
            OK
          </button>
        </p>
      )}
    </section>
  )
}

import { createGraphiQLFetcher } from '@graphiql/toolkit'
import { GraphiQL } from 'graphiql'
import { createClient } from 'graphql-ws'
import { StrictMode, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import 'graphiql/graphiql.css'
import './graphiql.css'

const defaultQuery = `query {
  teammates {
    id
    name
    generation
  }
}
`

// The session is an HttpOnly cookie, which the browser sends on same-origin requests and websocket
// upgrades by itself, so nothing here handles a token.
const subscriptionUrl = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`

// One lazy client (protocol graphql-transport-ws) shared by every subscription; given only
// subscriptionUrl, the toolkit would open a new client per subscription.
const wsClient = createClient({ url: subscriptionUrl })

const fetcher = createGraphiQLFetcher({
  url: '/graphql',
  subscriptionUrl,
  wsClient,
  fetch: (input, init) => fetch(input, { ...init, credentials: 'same-origin' }),
})

const container = document.getElementById('graphiql')
if (!container) {
  throw new Error('graphiql.html has no #graphiql element')
}

// GraphiQL lays out its editor, variables and result side by side; below this width they don't fit.
const narrow = window.matchMedia('(max-width: 699px)')

/**
 * GraphiQL, or on a phone-sized screen a message saying it needs a wider one, with a way to open it
 * anyway (and back to the app).
 */
function Explorer() {
  const [isNarrow, setNarrow] = useState(narrow.matches)
  const [anyway, setAnyway] = useState(false)
  useEffect(() => {
    const change = () => setNarrow(narrow.matches)
    narrow.addEventListener('change', change)
    return () => narrow.removeEventListener('change', change)
  }, [])
  if (isNarrow && !anyway) {
    return (
      <main className="narrow-notice" data-testid="graphiql-narrow">
        <h1>GraphiQL needs a wider screen</h1>
        <p>
          The GraphQL explorer shows the query, its variables and the result side by side, which doesn’t fit on a phone. Open{' '}
          <strong>{location.host}/graphiql</strong> on a computer or tablet, or turn this device sideways.
        </p>
        <p className="narrow-actions">
          <button type="button" onClick={() => setAnyway(true)} data-testid="graphiql-open-anyway">
            Open it anyway
          </button>
          <a href="/">Back to Memory</a>
        </p>
      </main>
    )
  }
  return (
    <GraphiQL fetcher={fetcher} defaultQuery={defaultQuery}>
      <GraphiQL.Logo>
        <a className="graphiql-logo-link" href="/">
          Memory
        </a>{' '}
        GraphiQL
      </GraphiQL.Logo>
    </GraphiQL>
  )
}

createRoot(container).render(
  <StrictMode>
    <Explorer />
  </StrictMode>,
)

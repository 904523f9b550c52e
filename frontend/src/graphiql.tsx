import { createGraphiQLFetcher } from '@graphiql/toolkit'
import { GraphiQL } from 'graphiql'
import { createClient } from 'graphql-ws'
import { StrictMode } from 'react'
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

createRoot(container).render(
  <StrictMode>
    <GraphiQL fetcher={fetcher} defaultQuery={defaultQuery}>
      <GraphiQL.Logo>
        <a className="graphiql-logo-link" href="/">
          Memory
        </a>{' '}
        GraphiQL
      </GraphiQL.Logo>
    </GraphiQL>
  </StrictMode>,
)

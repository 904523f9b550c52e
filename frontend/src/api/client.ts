import { createClient as createWSClient } from 'graphql-ws'
import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange } from 'urql'
import { hasErrorCode } from './errors.ts'

// The server closes a websocket whose connection_init carries no valid credential with 4403
// (internal/auth.CloseForbidden).
const closeForbidden = 4403

/** The GraphQL client of the web app and the two connection events the screens react to. */
export interface Api {
  client: Client
  /** Calls listener when the server says the session cookie is missing or no longer valid. */
  onSessionLost(listener: () => void): () => void
  /**
   * Calls listener when the websocket came back after a drop: events may have been missed while it
   * was down, so live screens re-read what they show.
   */
  onReconnected(listener: () => void): () => void
}

function listenerSet() {
  const listeners = new Set<() => void>()
  return {
    add(listener: () => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    emit() {
      for (const listener of [...listeners]) listener()
    },
  }
}

/**
 * createApi builds the urql client: queries and mutations over same-origin HTTP POST, subscriptions
 * over one lazy graphql-ws connection (protocol graphql-transport-ws). Both authenticate with the
 * HttpOnly session cookie the login link set, which the browser sends by itself: no token is ever
 * handled by script.
 */
export function createApi(): Api {
  const sessionLost = listenerSet()
  const reconnected = listenerSet()

  const wsClient = createWSClient({
    url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`,
    lazy: true,
    // A live screen should come back on its own after a restart of the server, however long it
    // takes; graphql-ws waits with randomised exponential backoff between attempts.
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: (event) => !(isCloseEvent(event) && event.code === closeForbidden),
    on: {
      connected: (_socket, _payload, wasRetry) => {
        if (wasRetry) reconnected.emit()
      },
      closed: (event) => {
        if (isCloseEvent(event) && event.code === closeForbidden) sessionLost.emit()
      },
    },
  })

  const client = new Client({
    url: '/graphql',
    fetchOptions: { credentials: 'same-origin' },
    exchanges: [
      mapExchange({
        onResult(result) {
          if (hasErrorCode(result.error, 'UNAUTHENTICATED')) sessionLost.emit()
        },
      }),
      cacheExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? '' }
          return {
            subscribe(sink) {
              const unsubscribe = wsClient.subscribe(input, sink)
              return { unsubscribe }
            },
          }
        },
      }),
      fetchExchange,
    ],
  })

  return { client, onSessionLost: sessionLost.add, onReconnected: reconnected.add }
}

function isCloseEvent(value: unknown): value is CloseEvent {
  return typeof value === 'object' && value !== null && 'code' in value && 'reason' in value
}

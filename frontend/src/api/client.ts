import { cacheExchange } from '@urql/exchange-graphcache'
import { createClient as createWSClient } from 'graphql-ws'
import { Client, fetchExchange, mapExchange, subscriptionExchange } from 'urql'
import { cacheConfig } from './cache.ts'
import { hasErrorCode } from './errors.ts'
import { activeQueries, rereadExchange } from './freshness.ts'

// The server closes a websocket whose connection_init carries no valid credential with 4403
// (internal/auth.CloseForbidden).
const closeForbidden = 4403

/** The GraphQL client of the web app, the connection event the screens react to, and resync. */
export interface Api {
  client: Client
  /** Calls listener when the server says the session cookie is missing or no longer valid. */
  onSessionLost(listener: () => void): () => void
  /** Whether the server can be reached, for the offline banner. */
  connection: ConnectionStore
  /**
   * Reads every query shown again from the server: events may have been missed (a subscription had
   * to be started again). The client does it by itself when the websocket comes back after a drop.
   */
  resync(): void
  /**
   * Ends this browser's session on the server (POST /logout): the cookie stops working and the
   * server closes the websocket. Resolves once the server said so, and then tells the session
   * listeners; rejects, leaving the session as it was, when the server could not end it.
   */
  signOut(): Promise<void>
}

/**
 * What the app knows of its connection to the server: 'online'; 'down' when the websocket dropped
 * or a request could not reach the server (the app keeps trying); 'back' for a few seconds after it
 * came back.
 */
export type ConnectionState = 'online' | 'down' | 'back'

export interface ConnectionStore {
  get(): ConnectionState
  subscribe(listener: () => void): () => void
}

// How often the server's health is checked while it can't be reached, and how long "back" shows.
const healthCheckInterval = 2000
const backShownFor = 4000
// The longest wait between two websocket reconnection attempts, so that the page is live again
// soon after a long outage (graphql-ws doubles its wait without a bound).
const maxReconnectWait = 5000

/**
 * connectionStore tracks the websocket and HTTP requests. Either one failing marks the connection
 * down; while down, /healthz is asked every few seconds, and the first answer (or the websocket
 * connecting again) marks it back.
 */
function connectionStore() {
  const listeners = listenerSet()
  let state: ConnectionState = 'online'
  let probe: ReturnType<typeof setInterval> | undefined
  let backTimer: ReturnType<typeof setTimeout> | undefined
  const set = (next: ConnectionState) => {
    if (next === state) return
    state = next
    listeners.emit()
  }
  const up = () => {
    if (state !== 'down') return
    clearInterval(probe)
    probe = undefined
    set('back')
    clearTimeout(backTimer)
    backTimer = setTimeout(() => set('online'), backShownFor)
  }
  const down = () => {
    clearTimeout(backTimer)
    set('down')
    if (probe !== undefined) return
    probe = setInterval(() => {
      fetch('/healthz', { cache: 'no-store' }).then(
        (res) => {
          if (res.ok) up()
        },
        () => {},
      )
    }, healthCheckInterval)
  }
  window.addEventListener('offline', down)
  return {
    up,
    down,
    store: { get: () => state, subscribe: listeners.add } satisfies ConnectionStore,
  }
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
 * handled by script. What the app reads is kept in graphcache's normalised cache (cache.ts), so an
 * item, a teammate or a run is one entity however many screens show it.
 */
export function createApi(): Api {
  const sessionLost = listenerSet()
  const connection = connectionStore()
  const shown = activeQueries()

  const wsClient = createWSClient({
    url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`,
    lazy: true,
    // A live screen should come back on its own after a restart of the server, however long it
    // takes; graphql-ws waits with randomised exponential backoff between attempts.
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: (event) => !(isCloseEvent(event) && event.code === closeForbidden),
    retryWait: (retries) =>
      new Promise((resolve) => setTimeout(resolve, Math.min(maxReconnectWait, 1000 * 2 ** retries) + Math.random() * 500)),
    on: {
      // A retry means the connection was lost, however it closed.
      connecting: (isRetry) => {
        if (isRetry) connection.down()
      },
      connected: (_socket, _payload, wasRetry) => {
        connection.up()
        if (wasRetry) shown.resync()
      },
      closed: (event) => {
        if (isCloseEvent(event) && event.code === closeForbidden) sessionLost.emit()
        // The app closes its lazy socket with 1000 when nothing listens any more; anything else —
        // the server stopped, the network went — is a lost connection that graphql-ws retries.
        else if (!(isCloseEvent(event) && event.code === 1000)) connection.down()
      },
    },
  })

  const client = new Client({
    url: '/graphql',
    fetchOptions: { credentials: 'same-origin' },
    // A request that can't reach the server at all (fetch rejects) marks the connection down; any
    // answer marks it up.
    fetch: (input, init) =>
      fetch(input, init).then(
        (res) => {
          connection.up()
          return res
        },
        (err: unknown) => {
          connection.down()
          throw err
        },
      ),
    exchanges: [
      mapExchange({
        onResult(result) {
          if (hasErrorCode(result.error, 'UNAUTHENTICATED')) sessionLost.emit()
        },
      }),
      shown.exchange,
      cacheExchange(cacheConfig),
      rereadExchange,
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

  // A same-origin POST carries the cookie and the browser's Origin header, which the server's
  // cross-origin guard checks against its allowed origins.
  const signOut = async () => {
    let res: Response
    try {
      res = await fetch('/logout', { method: 'POST', credentials: 'same-origin', cache: 'no-store' })
    } catch {
      throw new Error('The server can’t be reached, so this browser is still signed in. Try again when it is back.')
    }
    if (!res.ok) throw new Error(`The server could not sign you out (status ${res.status}). Try again in a moment.`)
    sessionLost.emit()
  }

  return { client, onSessionLost: sessionLost.add, connection: connection.store, resync: shown.resync, signOut }
}

function isCloseEvent(value: unknown): value is CloseEvent {
  return typeof value === 'object' && value !== null && 'code' in value && 'reason' in value
}

import { cacheExchange } from '@urql/exchange-graphcache'
import { cleanup, render, type RenderResult } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Client, makeErrorResult, makeResult, Provider, type Exchange, type Operation } from 'urql'
import { afterEach } from 'vitest'
import { filter, fromPromise, mergeMap, pipe, share, takeUntil } from 'wonka'
import { cacheConfig } from '../api/cache.ts'
import type { Api, ConnectionState, ConnectionStore } from '../api/client.ts'
import { ApiContext } from '../api/context.ts'
import { LimitsContext, type Limits } from '../api/limits.ts'

// Component tests render a screen with the app's own GraphQL client — urql with the app's
// normalised cache (api/cache.ts) — whose transport is replaced by a fake server: each operation
// the screen sends is recorded and answered by the test's handler for that operation's name, as
// the API would answer it. Nothing else of the app is mocked.

afterEach(cleanup)

/** What the API answers: data, or GraphQL errors with their extensions (code, currentRevision …). */
export interface Answer {
  data?: unknown
  errors?: { message: string; extensions?: Record<string, unknown> }[]
  /** The request never reached the server (fetch rejected). */
  networkError?: Error
}

/** Answers one operation, given its variables; a promise holds the answer back until it resolves. */
export type Handler = (variables: Record<string, unknown>) => Answer | Promise<Answer>

/** One operation the screen sent. */
export interface Call {
  name: string
  kind: Operation['kind']
  variables: Record<string, unknown>
  requestPolicy: string
}

export interface FakeServer {
  client: Client
  /** Every operation sent, in order. */
  calls: Call[]
  /** The variables of each call of the named operation, in order. */
  called(name: string): Record<string, unknown>[]
  /**
   * The distinct variables the named query was sent with (urql may send a query twice as a screen
   * mounts, so queries are compared by what they asked for, not by how often).
   */
  queried(name: string): Record<string, unknown>[]
  /** Operations that had no handler (they were answered with an error). */
  unexpected: string[]
}

function operationName(op: Operation): string {
  for (const d of op.query.definitions) {
    if (d.kind === 'OperationDefinition') return d.name?.value ?? '(anonymous)'
  }
  return '(none)'
}

/** A fake API: the app's client and cache over a transport that answers with handlers. */
export function fakeServer(handlers: Record<string, Handler>): FakeServer {
  const calls: Call[] = []
  const unexpected: string[] = []
  const answer = async (op: Operation): Promise<Answer> => {
    const name = operationName(op)
    calls.push({ name, kind: op.kind, variables: op.variables as Record<string, unknown>, requestPolicy: op.context.requestPolicy })
    const handler = handlers[name]
    if (!handler) {
      unexpected.push(name)
      return { errors: [{ message: `no handler for ${name}`, extensions: { code: 'INTERNAL' } }] }
    }
    return handler(op.variables as Record<string, unknown>)
  }
  const transport: Exchange = () => (operations$) => {
    const shared = pipe(operations$, share)
    const teardowns = pipe(shared, filter((op) => op.kind === 'teardown'))
    return pipe(
      shared,
      filter((op) => op.kind !== 'teardown'),
      mergeMap((op) =>
        pipe(
          fromPromise(
            answer(op).then((a) => (a.networkError ? makeErrorResult(op, a.networkError) : makeResult(op, { data: a.data ?? null, errors: a.errors }))),
          ),
          takeUntil(pipe(teardowns, filter((t) => t.key === op.key))),
        ),
      ),
    )
  }
  const client = new Client({ url: '/graphql', exchanges: [cacheExchange(cacheConfig), transport] })
  const called = (name: string) => calls.filter((c) => c.name === name).map((c) => c.variables)
  const queried = (name: string) => [...new Set(called(name).map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v) as Record<string, unknown>)
  return { client, calls, called, queried, unexpected }
}

/** The API's limits, as the session query reads them. */
export const limits: Limits = {
  contentLength: 4000,
  noteLength: 2000,
  keyLength: 120,
  teammateNameLength: 120,
  searchLength: 500,
  messageLength: 8000,
  pageSize: 100,
  bulkItems: 100,
  requestBytes: 1_000_000,
}

/** A connection a test moves by hand: set('down'), then set('back') as the banner would. */
export function fakeConnection(): ConnectionStore & { set(state: ConnectionState): void } {
  let state: ConnectionState = 'online'
  const listeners = new Set<() => void>()
  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    set(next) {
      state = next
      for (const l of [...listeners]) l()
    },
  }
}

/** An answer that never came: the request could not reach the server. */
export const unreachable: Answer = { networkError: new TypeError('Failed to fetch') }

/**
 * Renders ui as the signed-in app does: the client, the Api beside it, and the limits; the
 * connection is always online unless the test passes its own.
 */
export function renderWithApi(ui: ReactNode, server: FakeServer, connection?: ConnectionStore): RenderResult {
  const api: Api = {
    client: server.client,
    onSessionLost: () => () => {},
    connection: connection ?? { get: () => 'online', subscribe: () => () => {} },
    resync: () => {},
    signOut: () => Promise.resolve(),
  }
  const wrap = (children: ReactNode) => (
    <Provider value={server.client}>
      <ApiContext.Provider value={api}>
        <LimitsContext.Provider value={limits}>{children}</LimitsContext.Provider>
      </ApiContext.Provider>
    </Provider>
  )
  const result = render(wrap(ui))
  return { ...result, rerender: (next: ReactNode) => result.rerender(wrap(next)) }
}

/** A promise and the function that resolves it: an answer held back while the test looks at the screen. */
export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** A GraphQL error answer with extensions.code (and more extensions, if given). */
export function errorAnswer(code: string, extensions: Record<string, unknown> = {}, message = code.toLowerCase()): Answer {
  return { errors: [{ message, extensions: { code, ...extensions } }] }
}

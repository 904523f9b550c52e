import { makeOperation, type Client, type Exchange, type Operation } from 'urql'
import { pipe, tap } from 'wonka'

// Two small exchanges around the normalised cache that keep what it holds from going stale when
// events are missed or overtaken. Subscriptions' updaters invalidate what a change affects, and the
// cache then reads it again; these cover the two cases where that alone is not enough.

/** Reads the query again from the server, whatever the cache holds. */
function reread(client: Client, operation: Operation) {
  client.reexecuteOperation(makeOperation('query', operation, { ...operation.context, requestPolicy: 'network-only' }))
}

/**
 * activeQueries tracks the queries the app shows right now (it sits before the cache, so it sees
 * every query a component executes, and each one's teardown). resync reads all of them again from
 * the server: after the websocket reconnected, or after a subscription the server ended had to be
 * started again, events may have been missed, so nothing the cache holds can be trusted.
 */
export function activeQueries() {
  const active = new Map<number, Operation>()
  let client: Client | null = null
  const exchange: Exchange = (input) => {
    client = input.client
    return (operations$) =>
      input.forward(
        pipe(
          operations$,
          tap((op) => {
            if (op.kind === 'query') active.set(op.key, op)
            else if (op.kind === 'teardown') active.delete(op.key)
          }),
        ),
      )
  }
  const resync = () => {
    if (!client) return
    for (const op of active.values()) reread(client, op)
  }
  return { exchange, resync }
}

/**
 * rereadExchange reads a query again when a subscription event or a mutation's answer arrived while
 * its request was on the way (it sits after the cache, so it sees the requests that go to the
 * server). The event's or the mutation's updater invalidates the query's data, but urql does not
 * send a query again while the same one is in flight, and the answer on its way may have been read
 * before the change: it is shown, then replaced by a read that starts after the change. (Two
 * mutations in a row — Undo bringing back several suggestions — each invalidate the list; the read
 * the first one started may not see the second.)
 */
export const rereadExchange: Exchange = ({ client, forward }) => {
  const inFlight = new Set<number>()
  const overtaken = new Set<number>()
  return (operations$) =>
    pipe(
      forward(
        pipe(
          operations$,
          tap((op) => {
            if (op.kind === 'query') inFlight.add(op.key)
            else if (op.kind === 'teardown') {
              inFlight.delete(op.key)
              overtaken.delete(op.key)
            }
          }),
        ),
      ),
      tap((result) => {
        const op = result.operation
        if (op.kind === 'subscription' || op.kind === 'mutation') {
          for (const key of inFlight) overtaken.add(key)
        } else if (op.kind === 'query' && !result.hasNext) {
          inFlight.delete(op.key)
          if (overtaken.delete(op.key)) reread(client, op)
        }
      }),
    )
}

import { useContext, useEffect, useRef } from 'react'
import { useClient, type AnyVariables, type TypedDocumentNode } from 'urql'
import { onEnd, pipe, subscribe } from 'wonka'
import { ApiContext } from './context.ts'

/** What useLiveSubscription calls. */
export interface LiveHandlers<Data> {
  /** Every event. */
  onData(data: Data): void
  /**
   * After the subscription had to be started again (the server completed it, or the websocket
   * reconnected): events may have been missed, so re-read whatever the events keep fresh.
   */
  onResync?(): void
}

// Waits between restarts of a subscription the server ended: 1 s, 2 s, 4 s … up to 30 s.
function restartDelay(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** attempt)
}

/**
 * useLiveSubscription keeps a GraphQL subscription open for as long as the component is mounted and
 * variables stay the same. Unlike urql's useSubscription it starts the subscription again when the
 * server ends it (the server completes a subscriber that fell behind, so that it re-reads) and
 * reports each restart and websocket reconnection through onResync.
 */
export function useLiveSubscription<Data, Variables extends AnyVariables>(
  query: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  handlers: LiveHandlers<Data>,
): void {
  const client = useClient()
  const api = useContext(ApiContext)
  const handlersRef = useRef(handlers)
  useEffect(() => {
    handlersRef.current = handlers
  })
  const key = JSON.stringify(variables)

  useEffect(() => {
    const vars = JSON.parse(key) as Variables
    let stopped = false
    let attempt = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    let current: { unsubscribe(): void } | undefined

    const start = (restarted: boolean) => {
      if (restarted) handlersRef.current.onResync?.()
      current = pipe(
        client.subscription(query, vars),
        onEnd(() => {
          if (stopped) return
          timer = setTimeout(() => start(true), restartDelay(attempt++))
        }),
        subscribe((result) => {
          if (result.data) {
            attempt = 0
            handlersRef.current.onData(result.data)
          }
        }),
      )
    }
    start(false)
    const offReconnected = api?.onReconnected(() => handlersRef.current.onResync?.())
    return () => {
      stopped = true
      clearTimeout(timer)
      current?.unsubscribe()
      offReconnected?.()
    }
  }, [client, api, query, key])
}

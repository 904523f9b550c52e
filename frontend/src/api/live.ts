import { useContext, useEffect, useState } from 'react'
import { useClient, type AnyVariables, type TypedDocumentNode } from 'urql'
import { onEnd, pipe, subscribe } from 'wonka'
import { ApiContext } from './context.ts'

// Waits between restarts of a subscription the server ended: 1 s, 2 s, 4 s … up to 30 s.
function restartDelay(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** attempt)
}

/**
 * useLiveSubscription keeps a GraphQL subscription open for as long as the component is mounted and
 * its variables stay the same. What an event changes is the cache's business (the updaters in
 * cache.ts write or invalidate what it affects), so every list and card on the page follows it.
 * Unlike urql's useSubscription it starts the subscription again when the server ends it (the
 * server completes a subscriber that fell behind), and then has every query shown read again, since
 * events may have been missed meanwhile. Components that follow the same subscription share it.
 *
 * It returns whether the subscription has delivered an event since the component mounted (the
 * generation subscription sends the current value first, so that says it is live).
 */
export function useLiveSubscription<Data, Variables extends AnyVariables>(query: TypedDocumentNode<Data, Variables>, variables: Variables): boolean {
  const client = useClient()
  const api = useContext(ApiContext)
  const key = JSON.stringify(variables)
  const [delivered, setDelivered] = useState<string | null>(null)

  useEffect(() => {
    const vars = JSON.parse(key) as Variables
    let stopped = false
    let attempt = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    let current: { unsubscribe(): void } | undefined

    const start = (restarted: boolean) => {
      if (restarted) api?.resync()
      current = pipe(
        client.subscription(query, vars),
        onEnd(() => {
          if (stopped) return
          timer = setTimeout(() => start(true), restartDelay(attempt++))
        }),
        subscribe((result) => {
          if (result.data) {
            attempt = 0
            setDelivered(key)
          }
        }),
      )
    }
    start(false)
    return () => {
      stopped = true
      clearTimeout(timer)
      current?.unsubscribe()
    }
  }, [client, api, query, key])

  return delivered === key
}

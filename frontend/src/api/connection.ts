import { useContext, useEffect, useRef } from 'react'
import { ApiContext } from './context.ts'

/**
 * Calls onBack each time the connection to the server comes back after it was lost (the banner's
 * "Connected again"): a card that said the server can't be reached stops saying so then.
 */
export function useWhenConnectionBack(onBack: () => void) {
  const api = useContext(ApiContext)
  const latest = useRef(onBack)
  useEffect(() => {
    latest.current = onBack
  })
  useEffect(() => {
    if (!api) return
    let was = api.connection.get()
    return api.connection.subscribe(() => {
      const now = api.connection.get()
      if (was === 'down' && now !== 'down') latest.current()
      was = now
    })
  }, [api])
}

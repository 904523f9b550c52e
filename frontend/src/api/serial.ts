import { useCallback, useEffect, useRef } from 'react'

/**
 * useSerialRead returns a function that runs read one call at a time: a call while a read is
 * running schedules exactly one more read after it, so the last read always starts after the last
 * call, and no two reads overlap.
 *
 * Overlapping reads are not just wasteful: urql shares an in-flight query with an identical one
 * started later (same document and variables), so the later read's promise can resolve with the
 * earlier read's answer — from before the change that prompted the later read. In series, every
 * read is a fresh request.
 */
export function useSerialRead(read: () => Promise<void>): () => void {
  const readRef = useRef(read)
  useEffect(() => {
    readRef.current = read
  })
  const state = useRef({ running: false, again: false })
  return useCallback(() => {
    const s = state.current
    if (s.running) {
      s.again = true
      return
    }
    s.running = true
    void (async () => {
      try {
        do {
          s.again = false
          await readRef.current()
        } while (s.again)
      } finally {
        s.running = false
      }
    })()
  }, [])
}

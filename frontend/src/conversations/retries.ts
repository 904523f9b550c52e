import { useCallback, useEffect, useState } from 'react'

/** A "try again" the user asked for (L3) that no run has picked up yet, as far as this tab knows. */
export interface WaitingRetry {
  /** The run whose reply is being redone. */
  runId: string
  /** The message the new run will get: a run whose user message is this picked the retry up. */
  prompt: string
  createdAt: string
}

// The API tells the user's credential nothing about retries waiting for the worker (pendingRetries
// is the worker's), so the tab remembers the ones it asked for, for as long as the browser tab
// lives, and drops each when a run with its prompt appears.
const storageKey = (teammateId: string) => `memory:waiting-retries:${teammateId}`

function load(teammateId: string): WaitingRetry[] {
  try {
    const raw = sessionStorage.getItem(storageKey(teammateId))
    const parsed: unknown = raw ? JSON.parse(raw) : []
    return Array.isArray(parsed) ? (parsed as WaitingRetry[]) : []
  } catch {
    return []
  }
}

function save(teammateId: string, retries: WaitingRetry[]) {
  try {
    if (retries.length === 0) sessionStorage.removeItem(storageKey(teammateId))
    else sessionStorage.setItem(storageKey(teammateId), JSON.stringify(retries))
  } catch {
    // Storage full or disabled: the note then lasts as long as the page.
  }
}

/**
 * useWaitingRetries keeps the teammate's waiting retries. settle drops those a listed run has
 * picked up: a run started after the retry was asked for, whose user message is its prompt.
 */
export function useWaitingRetries(teammateId: string) {
  const [retries, setRetries] = useState<WaitingRetry[]>(() => load(teammateId))
  useEffect(() => save(teammateId, retries), [teammateId, retries])

  const add = useCallback((r: WaitingRetry) => setRetries((rs) => [...rs.filter((x) => x.runId !== r.runId), r]), [])
  const settle = useCallback((runs: { userMessage: string; createdAt: string }[]) => {
    setRetries((rs) => {
      const left = rs.filter((r) => !runs.some((run) => run.userMessage === r.prompt && Date.parse(run.createdAt) >= Date.parse(r.createdAt) - 1000))
      return left.length === rs.length ? rs : left
    })
  }, [])
  return { retries, add, settle }
}

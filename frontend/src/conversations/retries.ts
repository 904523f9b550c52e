import { useCallback, useEffect, useState } from 'react'
import { graphql } from '../gql'

// The beginning of every retry's message (L3; docs/WORKER.md states the whole template): a run whose
// user message starts so redoes an earlier reply.
export const retryPromptPrefix = 'Please try again and give the complete new answer, not just the changes.'

/** Whether a run's user message is a retry's prompt, and the user's note in it. */
export function retryNote(userMessage: string): string | null {
  if (!userMessage.startsWith(retryPromptPrefix)) return null
  const note = userMessage.slice(retryPromptPrefix.length).replace(/^\s*Take this into account:\s*/, '')
  return note.trim() || null
}

/** A "try again" the user asked for (L3) that no run has picked up yet, as far as this tab knows. */
export interface WaitingRetry {
  /** The stored message the worker will start the retry's run with (RetryRequest.messageId). */
  messageId: string
  /** The run whose reply is being redone. */
  runId: string
  /** The message the new run will get: a run whose user message is this picked the retry up. */
  prompt: string
  /** The user's note as the user wrote it (RetryRequest.note); absent in entries saved by older versions. */
  note?: string
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
    return Array.isArray(parsed) ? (parsed as WaitingRetry[]).filter((r) => typeof r?.messageId === 'string') : []
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

  const add = useCallback((r: WaitingRetry) => setRetries((rs) => [...rs.filter((x) => x.messageId !== r.messageId), r]), [])
  const settle = useCallback((runs: ListedRun[]) => setRetries((rs) => stillWaiting(rs, runs)), [])
  const remove = useCallback((messageId: string) => setRetries((rs) => rs.filter((r) => r.messageId !== messageId)), [])
  return { retries, add, settle, remove }
}

/**
 * Withdraws a waiting retry (L3) before a run picks it up: NOT_FOUND when it is gone already
 * (withdrawn in another tab), CONFLICT when a run has picked it up.
 */
export const CancelRetryMutation = graphql(`
  mutation CancelRetry($input: CancelRetryInput!) {
    cancelRetry(input: $input) {
      messageId
    }
  }
`)

/** What settling needs of a listed run. */
export interface ListedRun {
  id: string
  userMessage: string
  createdAt: string
}

/**
 * The retries no listed run has picked up: a run picks up a retry when its user message is the
 * retry's prompt and it started after the retry was asked for, give or take a second. Each run picks
 * up one retry: two retries with the same note wait for two runs. When nothing was picked up it
 * returns retries itself, so that React keeps the state as it is.
 */
export function stillWaiting(retries: WaitingRetry[], runs: ListedRun[]): WaitingRetry[] {
  const taken = new Set<string>()
  const left = retries.filter((r) => {
    const run = runs.find(
      (x) => !taken.has(x.id) && x.userMessage === r.prompt && Date.parse(x.createdAt) >= Date.parse(r.createdAt) - 1000,
    )
    if (!run) return true
    taken.add(run.id)
    return false
  })
  return left.length === retries.length ? retries : left
}

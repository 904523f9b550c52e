import { describe, expect, it } from 'vitest'
import { retryNote, retryPromptPrefix, stillWaiting, type ListedRun, type WaitingRetry } from './retries.ts'

describe('retryNote', () => {
  it('is null for a message that is not a retry', () => {
    expect(retryNote('')).toBeNull()
    expect(retryNote('What is on my calendar?')).toBeNull()
    // The prefix must open the message, exactly.
    expect(retryNote(` ${retryPromptPrefix}`)).toBeNull()
    expect(retryNote(retryPromptPrefix.toLowerCase())).toBeNull()
    expect(retryNote(`Quote: ${retryPromptPrefix}`)).toBeNull()
  })

  it('is null for a retry without a note', () => {
    expect(retryNote(retryPromptPrefix)).toBeNull()
    expect(retryNote(`${retryPromptPrefix}\n\n`)).toBeNull()
    expect(retryNote(`${retryPromptPrefix} Take this into account: `)).toBeNull()
  })

  it('is the user note of a retry, without the template around it', () => {
    expect(retryNote(`${retryPromptPrefix} Take this into account: use metric units.`)).toBe('use metric units.')
    expect(retryNote(`${retryPromptPrefix}\n\nTake this into account:\nshorter, please\n`)).toBe('shorter, please')
  })

  it('keeps the note as written: Unicode, line breaks, long text', () => {
    expect(retryNote(`${retryPromptPrefix} Take this into account: « plus court » 🙏`)).toBe('« plus court » 🙏')
    expect(retryNote(`${retryPromptPrefix} Take this into account: first\nsecond`)).toBe('first\nsecond')
    const long = 'x'.repeat(20_000)
    expect(retryNote(`${retryPromptPrefix} Take this into account: ${long}`)).toBe(long)
    // Text after the prefix without the "Take this into account:" lead-in is the note too.
    expect(retryNote(`${retryPromptPrefix} be brief`)).toBe('be brief')
  })
})

describe('stillWaiting', () => {
  const prompt = `${retryPromptPrefix} Take this into account: shorter`
  const retry = (messageId: string, createdAt: string, p = prompt): WaitingRetry => ({ messageId, runId: 'run-0', prompt: p, createdAt })
  const run = (id: string, createdAt: string, userMessage = prompt): ListedRun => ({ id, userMessage, createdAt })

  it('keeps every retry, as the same array, when no run has its prompt', () => {
    const retries = [retry('m1', '2026-01-01T10:00:00Z')]
    expect(stillWaiting(retries, [])).toBe(retries)
    expect(stillWaiting(retries, [run('r1', '2026-01-01T10:00:05Z', 'another message')])).toBe(retries)
    expect(stillWaiting([], [run('r1', '2026-01-01T10:00:05Z')])).toEqual([])
  })

  it('drops a retry once a run with its prompt started after it', () => {
    const keep = retry('m2', '2026-01-01T10:00:00Z', `${retryPromptPrefix} Take this into account: longer`)
    expect(stillWaiting([retry('m1', '2026-01-01T10:00:00Z'), keep], [run('r1', '2026-01-01T10:00:05Z')])).toEqual([keep])
  })

  it('gives the clocks a second: a run up to one second older still counts, an older one does not', () => {
    const retries = [retry('m1', '2026-01-01T10:00:00.000Z')]
    expect(stillWaiting(retries, [run('r1', '2026-01-01T09:59:59.000Z')])).toEqual([])
    expect(stillWaiting(retries, [run('r1', '2026-01-01T09:59:58.999Z')])).toBe(retries)
  })

  it('lets each run pick up one retry: two retries with one prompt wait for two runs', () => {
    const retries = [retry('m1', '2026-01-01T10:00:00Z'), retry('m2', '2026-01-01T10:00:01Z')]
    expect(stillWaiting(retries, [run('r1', '2026-01-01T10:00:05Z')])).toEqual([retries[1]])
    expect(stillWaiting(retries, [run('r1', '2026-01-01T10:00:05Z'), run('r2', '2026-01-01T10:00:06Z')])).toEqual([])
  })
})

// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { RunFieldsFragment } from '../gql/graphql.ts'
import { run } from '../test/fixtures.ts'
import { errorAnswer, fakeServer, renderWithApi, type Handler } from '../test/fakeApi.tsx'
import { ConversationsTab } from './ConversationsTab.tsx'
import { retryPromptPrefix, type WaitingRetry } from './retries.ts'

const ada = { id: 'ada', name: 'Ada' }
const runAnswer = (over: Partial<RunFieldsFragment> = {}) => {
  const r = run(over)
  return { __typename: 'Run', ...r, thread: { __typename: 'Thread', ...r.thread } }
}
const waiting: WaitingRetry = {
  messageId: 'message-9',
  runId: 'run-1',
  prompt: `${retryPromptPrefix} Take this into account: shorter, please`,
  note: 'shorter, please',
  createdAt: '2025-06-01T12:00:00Z',
}
const storageKey = 'memory:waiting-retries:ada'

/** The Conversations tab of a tab that asked for one retry, which waits; cancelRetry answers as given. */
async function setup(cancelRetry: Handler) {
  sessionStorage.setItem(storageKey, JSON.stringify([waiting]))
  const server = fakeServer({ Runs: () => ({ data: { runs: [runAnswer()] } }), CancelRetry: cancelRetry })
  const user = userEvent.setup({ delay: null })
  renderWithApi(<ConversationsTab teammate={ada} generation="1:1:0" />, server)
  const pending = await screen.findByTestId('retry-pending')
  return { server, user, pending }
}

afterEach(() => sessionStorage.clear())

describe('a waiting retry', () => {
  it('is cancelled with its Cancel button: it leaves the conversation and the tab’s storage', async () => {
    const { server, user, pending } = await setup(() => ({ data: { cancelRetry: { __typename: 'RetryRequest', messageId: 'message-9' } } }))
    expect(within(pending).getByTestId('retry-pending-note').textContent).toBe('shorter, please')
    await user.click(within(pending).getByRole('button', { name: 'Cancel this try again' }))
    await waitFor(() => expect(screen.queryByTestId('retry-pending')).toBeNull())
    expect(server.called('CancelRetry')).toEqual([{ input: { messageId: 'message-9' } }])
    expect(screen.queryByTestId('retry-waiting')).toBeNull()
    expect(sessionStorage.getItem(storageKey)).toBeNull()
  })

  it('leaves the conversation when the server no longer has it (cancelled in another tab)', async () => {
    const { user, pending } = await setup(() => errorAnswer('NOT_FOUND'))
    await user.click(within(pending).getByRole('button', { name: 'Cancel this try again' }))
    await waitFor(() => expect(screen.queryByTestId('retry-pending')).toBeNull())
  })

  it('stays, saying it is too late, when a run has picked it up already', async () => {
    const { server, user, pending } = await setup(() => errorAnswer('CONFLICT'))
    const reads = server.calls.filter((c) => c.name === 'Runs').length
    await user.click(within(pending).getByRole('button', { name: 'Cancel this try again' }))
    expect((await within(pending).findByTestId('retry-cancel-error')).textContent).toMatch(/Too late to cancel: Ada has started on it/)
    expect(screen.getByTestId('retry-pending')).toBeTruthy()
    await waitFor(() => expect(server.calls.filter((c) => c.name === 'Runs').length).toBeGreaterThan(reads))
  })

  it('says why when the cancel fails otherwise, and stays', async () => {
    const { user, pending } = await setup(() => errorAnswer('INTERNAL'))
    await user.click(within(pending).getByRole('button', { name: 'Cancel this try again' }))
    expect((await within(pending).findByTestId('retry-cancel-error')).textContent).toMatch(/Something went wrong on the server/)
    expect(screen.getByTestId('retry-pending')).toBeTruthy()
  })
})

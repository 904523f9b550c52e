// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { CandidateFieldsFragment } from '../gql/graphql.ts'
import { candidate, memoryItem } from '../test/fixtures.ts'
import { errorAnswer, fakeServer, renderWithApi, type Answer, type Handler } from '../test/fakeApi.tsx'
import { CandidatesQuery, SuggestionsPanel } from './SuggestionsPanel.tsx'

const page = (items: CandidateFieldsFragment[]): Answer => ({
  data: {
    memoryItems: {
      __typename: 'MemoryItemConnection',
      totalCount: items.length,
      edges: items.map((node) => ({ __typename: 'MemoryItemEdge', node: { __typename: 'MemoryItem', ...node } })),
      pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: null },
    },
  },
})

const waitingItems = [candidate({ id: 'cand-1', content: 'Lives in Lyon.' }), candidate({ id: 'cand-2', content: 'Plays chess.' })]

// A fake API whose waiting suggestions are the ones not confirmed, as the real one's would be.
function setup(handlers: Record<string, Handler> = {}) {
  let waiting = waitingItems
  const arrive = (items: CandidateFieldsFragment[]) => (waiting = [...waiting, ...items])
  const server = fakeServer({
    Candidates: () => page(waiting),
    MemoryChanged: () => new Promise<Answer>(() => {}),
    ConfirmCandidates: () => {
      const confirmed = waiting.map((c) => memoryItem({ id: c.id, content: c.content, status: 'ACTIVE', revision: 2 }))
      waiting = []
      return { data: { confirmCandidates: { __typename: 'MemoryItemsPayload', items: confirmed } } }
    },
    UndoConfirmCandidates: (v) => {
      waiting = waitingItems
      const items = (v.input as { items: { id: string }[] }).items
      return {
        data: {
          undoConfirmCandidates: {
            __typename: 'MemoryItemsPayload',
            items: items.map((i) => ({ __typename: 'MemoryItem', id: i.id, scope: 'ada', status: 'CANDIDATE' })),
          },
        },
      }
    },
    ...handlers,
  })
  const user = userEvent.setup({ delay: null })
  renderWithApi(<SuggestionsPanel scope={{ teammateId: 'ada' }} audience="Ada" />, server)
  // The list read again, as a live event has it: the panel shows the cache's new answer.
  const reread = () => server.client.query(CandidatesQuery, server.called('Candidates')[0] as never, { requestPolicy: 'network-only' }).toPromise()
  return { server, user, arrive, reread }
}

describe('SuggestionsPanel, the result of Confirm all', () => {
  it('goes when a new suggestion arrives', async () => {
    const { user, arrive, reread } = setup()
    await user.click(await screen.findByTestId('suggestions-confirm-all'))
    expect((await screen.findByTestId('suggestions-notice')).textContent).toContain('Confirmed all 2 suggestions')
    await waitFor(() => expect(screen.queryAllByRole('listitem')).toHaveLength(0))
    await act(() => reread())
    expect(screen.getByTestId('suggestions-notice')).toBeTruthy()

    arrive([candidate({ id: 'cand-3', content: 'Runs on Sundays.' })])
    await act(() => reread())
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1))
    expect(screen.queryByTestId('suggestions-notice')).toBeNull()
  })
})

describe('SuggestionsPanel, Undo after Confirm all', () => {
  it('takes back the whole batch in one call, with the revision each confirmation answered', async () => {
    const { server, user } = setup()
    await user.click(await screen.findByTestId('suggestions-confirm-all'))
    const notice = await screen.findByTestId('suggestions-notice')
    expect(notice.textContent).toContain('Confirmed all 2 suggestions')
    await waitFor(() => expect(screen.queryAllByRole('listitem')).toHaveLength(0))

    await user.click(within(notice).getByTestId('suggestions-undo'))
    await waitFor(() => expect(screen.getByTestId('suggestions-notice').textContent).toContain('Undone: the 2 suggestions wait for you again.'))
    expect(server.called('UndoConfirmCandidates')).toEqual([
      {
        input: {
          items: [
            { id: 'cand-1', revision: 2 },
            { id: 'cand-2', revision: 2 },
          ],
        },
      },
    ])
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2))
    expect(screen.queryByTestId('suggestions-undo')).toBeNull()
    expect(server.unexpected).toEqual([])
  })

  it('says nothing was undone when a memory changed since', async () => {
    const { server, user } = setup({ UndoConfirmCandidates: () => errorAnswer('CONFLICT', { currentRevision: 3 }) })
    await user.click(await screen.findByTestId('suggestions-confirm-all'))
    await user.click(await screen.findByTestId('suggestions-undo'))
    expect((await screen.findByTestId('suggestions-bulk-error')).textContent).toContain('Nothing was undone: the memory changed after you confirmed it.')
    expect(screen.queryByTestId('suggestions-undo')).toBeNull()
    expect(server.called('UndoConfirmCandidates')).toHaveLength(1)
  })
})

describe('SuggestionsPanel, Undo after Confirm', () => {
  it('takes back the one confirmation', async () => {
    const { server, user } = setup({
      ConfirmCandidate: (v) => ({
        data: { confirmCandidate: { __typename: 'MemoryItemPayload', item: memoryItem({ id: (v.input as { id: string }).id, content: 'Lives in Lyon.', revision: 2 }) } },
      }),
    })
    const card = (await screen.findAllByRole('listitem'))[0]
    await user.click(within(card).getByRole('button', { name: 'Confirm' }))
    expect((await screen.findByTestId('suggestions-notice')).textContent).toContain('Confirmed: it is memory now.')
    await user.click(screen.getByTestId('suggestions-undo'))
    await waitFor(() => expect(screen.getByTestId('suggestions-notice').textContent).toContain('Undone: it waits for you again.'))
    expect(server.called('UndoConfirmCandidates')).toEqual([{ input: { items: [{ id: 'cand-1', revision: 2 }] } }])
  })
})

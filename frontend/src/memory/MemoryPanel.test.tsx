// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { memoryItem, type ItemAnswer } from '../test/fixtures.ts'
import { fakeServer, renderWithApi, type Answer } from '../test/fakeApi.tsx'
import { MemoryPanel } from './MemoryPanel.tsx'

const page = (items: ItemAnswer[]): Answer => ({
  data: {
    memoryItems: {
      __typename: 'MemoryItemConnection',
      totalCount: items.length,
      edges: items.map((node) => ({ __typename: 'MemoryItemEdge', cursor: node.id, node })),
      pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: null },
    },
  },
})

function setup(items: ItemAnswer[]) {
  const server = fakeServer({
    MemoryItems: () => page(items),
    MemoryChanged: () => new Promise<Answer>(() => {}),
  })
  renderWithApi(<MemoryPanel scope={{ teammateId: 'ada' }} heading="Ada’s memory" emptyHint="memory" />, server)
  return { server, user: userEvent.setup({ delay: null }) }
}

const contents = () => screen.queryAllByTestId('item-content').map((el) => el.textContent)

describe('MemoryPanel, expired memories', () => {
  const past = '2025-01-01T00:00:00Z'
  const items = [
    memoryItem({ id: 'old', key: 'trip', content: 'In Lyon this week.', pinned: true, expiresAt: past, expired: true }),
    memoryItem({ id: 'tea', key: 'tea', content: 'Likes green tea.' }),
  ]

  it('leaves them out, and out of the count, until Show expired', async () => {
    const { user } = setup(items)
    await waitFor(() => expect(contents()).toEqual(['Likes green tea.']))
    expect(screen.getByTestId('memory-count').textContent).toBe('1 memory')
    const toggle = screen.getByRole('checkbox', { name: 'Show expired (1)' })
    await user.click(toggle)
    expect(contents()).toEqual(['In Lyon this week.', 'Likes green tea.'])
    expect(screen.getByTestId('memory-count').textContent).toBe('2 memories')
    await user.click(toggle)
    expect(contents()).toEqual(['Likes green tea.'])
  })

  it('says so when every memory listed has expired', async () => {
    setup([items[0]])
    const empty = await screen.findByTestId('memory-empty')
    expect(empty.textContent).toBe('Only expired memories here: “Show expired” lists them.')
    expect(screen.getByTestId('memory-count').textContent).toBe('0 memories')
  })

  it('keeps one that expires while listed, marked expired', async () => {
    setup([memoryItem({ id: 'soon', content: 'Out today.', expiresAt: new Date(Date.now() + 300).toISOString() })])
    await waitFor(() => expect(contents()).toEqual(['Out today.']))
    await screen.findByTestId('item-expired', {}, { timeout: 3000 })
    expect(contents()).toEqual(['Out today.'])
    expect(screen.getByTestId('memory-count').textContent).toBe('1 memory')
  })

  it('shows no toggle when nothing has expired', async () => {
    setup([items[1]])
    await waitFor(() => expect(contents()).toEqual(['Likes green tea.']))
    expect(within(screen.getByTestId('memory-panel')).queryByRole('checkbox', { name: /Show expired/ })).toBeNull()
  })
})

describe('MemoryPanel, the count', () => {
  it('counts the lessons listed apart as memories too, as the teammate list does', async () => {
    const server = fakeServer({
      MemoryItems: () => page([memoryItem({ id: 'tea', key: 'tea', content: 'Likes green tea.' }), memoryItem({ id: 'lyon', key: 'city', content: 'Lives in Lyon.' })]),
      LessonCount: () => ({ data: { memoryItems: { __typename: 'MemoryItemConnection', totalCount: 1 } } }),
      MemoryChanged: () => new Promise<Answer>(() => {}),
    })
    renderWithApi(<MemoryPanel scope={{ teammateId: 'ada' }} heading="Ada’s memory" emptyHint="memory" kinds={['FACT', 'PREFERENCE', 'NOTE']} />, server)
    await waitFor(() => expect(screen.getByTestId('memory-count').textContent).toBe('3 memories, 1 of them a lesson'))
    expect(server.queried('LessonCount')).toEqual([{ scope: { teammateId: 'ada' } }])
  })

  it('says what matches, without the lessons, while filtered', async () => {
    const server = fakeServer({
      MemoryItems: () => page([memoryItem({ id: 'tea', key: 'tea', content: 'Likes green tea.' })]),
      LessonCount: () => ({ data: { memoryItems: { __typename: 'MemoryItemConnection', totalCount: 2 } } }),
      MemoryChanged: () => new Promise<Answer>(() => {}),
    })
    renderWithApi(<MemoryPanel scope={{ teammateId: 'ada' }} heading="Ada’s memory" emptyHint="memory" kinds={['FACT', 'PREFERENCE', 'NOTE']} />, server)
    await waitFor(() => expect(screen.getByTestId('memory-count').textContent).toBe('3 memories, 2 of them lessons'))
    await userEvent.setup({ delay: null }).type(screen.getByTestId('memory-search'), 'tea')
    await waitFor(() => expect(screen.getByTestId('memory-count').textContent).toBe('1 memory match'))
  })

  it('asks for no lesson count where lessons are listed with the rest (About you)', async () => {
    const { server } = setup([memoryItem({ id: 'tea', key: 'tea', content: 'Likes green tea.' })])
    await waitFor(() => expect(screen.getByTestId('memory-count').textContent).toBe('1 memory'))
    expect(server.called('LessonCount')).toEqual([])
  })
})

// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useQuery } from 'urql'
import { describe, expect, it, vi } from 'vitest'
import { memoryItem, provenance, type ItemAnswer } from '../test/fixtures.ts'
import { errorAnswer, fakeConnection, fakeServer, renderWithApi, unreachable, type Answer, type Handler } from '../test/fakeApi.tsx'
import { MemoryItemCard } from './MemoryItemCard.tsx'
import { MemoryItemQuery } from './model.ts'

const now = Date.parse('2025-06-01T12:00:00Z')

/** The card as a list shows it: with the item as the cache holds it now. */
function CardOfCachedItem({ id, onToggle }: { id: string; onToggle?(selected: boolean): void }) {
  const [{ data }] = useQuery({ query: MemoryItemQuery, variables: { id } })
  if (!data?.memoryItem) return <p>Loading…</p>
  return (
    <ul>
      <MemoryItemCard item={data.memoryItem} now={now} selection={onToggle ? { selected: false, onToggle } : undefined} />
    </ul>
  )
}

const saved = (name: string, item: ItemAnswer): Answer => ({ data: { [name]: { __typename: 'MemoryItemPayload', item } } })

async function setup(item: ItemAnswer, handlers: Record<string, Handler> = {}, onToggle?: (selected: boolean) => void) {
  let current = item
  const server = fakeServer({
    MemoryItem: () => ({ data: { memoryItem: current } }),
    ...handlers,
  })
  const user = userEvent.setup({ delay: null })
  const connection = fakeConnection()
  renderWithApi(<CardOfCachedItem id={item.id} onToggle={onToggle} />, server, connection)
  const card = await screen.findByRole('listitem')
  return { server, user, card, connection, setCurrent: (next: ItemAnswer) => (current = next) }
}

describe('MemoryItemCard', () => {
  it('shows the item: kind, key, text, when it was added, and buttons that name it', async () => {
    const { card } = await setup(memoryItem())
    expect(within(card).getByText('Preference')).toBeTruthy()
    expect(within(card).getByRole('heading', { name: 'coffee' })).toBeTruthy()
    expect(within(card).getByText('Drinks oat milk flat whites.')).toBeTruthy()
    expect(within(card).getByTestId('item-date').textContent).toMatch(/^Added (?!today)\S/)
    expect(within(card).queryByText('Pinned')).toBeNull()
    const actions = within(card).getByRole('group', { name: 'Actions' })
    expect(within(actions).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Edit ‘coffee’',
      'Pin ‘coffee’',
      'History of ‘coffee’',
      'Forget ‘coffee’',
    ])
  })

  it('names an item without a key by the start of its text', async () => {
    const { card } = await setup(memoryItem({ key: null, content: 'Takes the 8:12 train to work every weekday morning, except Fridays.' }))
    expect(within(card).queryByRole('heading')).toBeNull()
    expect(within(card).getByRole('button', { name: 'Pin ‘Takes the 8:12 train to work every weekd…’' })).toBeTruthy()
  })

  it('says how often it changed, in words, and no revision number', async () => {
    const { card } = await setup(memoryItem({ revision: 3, updatedAt: new Date(now).toISOString() }))
    expect(within(card).getByTestId('item-date').textContent).toBe('Changed 2 times, last today')
    expect(card.textContent).not.toMatch(/revision/i)
  })

  it('says on which day it last changed, when that was not today', async () => {
    const { card } = await setup(memoryItem({ revision: 2, updatedAt: '2025-05-02T10:00:00Z' }))
    expect(within(card).getByTestId('item-date').textContent).toMatch(/^Changed once, last (?!today)\S/)
  })

  it('says Added today for an item added today', async () => {
    const today = new Date(now).toISOString()
    const { card } = await setup(memoryItem({ createdAt: today, updatedAt: today }))
    expect(within(card).getByTestId('item-date').textContent).toBe('Added today')
  })

  it('says when it changed, and when it expires', async () => {
    const { card } = await setup(memoryItem({ updatedAt: '2025-05-02T10:00:00Z', expiresAt: '2025-07-01T00:00:00Z' }))
    expect(within(card).getByText(/^Changed /)).toBeTruthy()
    expect(within(card).getByText(/^Expires /)).toBeTruthy()
    expect(within(card).queryByText('Expired')).toBeNull()
    expect(card.className).not.toContain('expired')
  })

  it('says Confirmed, with the day, for a suggestion the user confirmed, unchanged since', async () => {
    const { card } = await setup(memoryItem({ lastAction: 'CONFIRM', revision: 2, updatedAt: new Date(now).toISOString() }))
    expect(within(card).getByTestId('item-date').textContent).toBe('Confirmed today')
    expect(within(card).queryByText(/^Changed /)).toBeNull()
  })

  it('says on which day an earlier confirmation was', async () => {
    const { card } = await setup(memoryItem({ lastAction: 'CONFIRM', revision: 2, updatedAt: '2025-05-02T10:00:00Z' }))
    expect(within(card).getByTestId('item-date').textContent).toMatch(/^Confirmed (?!today)\S/)
  })

  it('says when its expiry has passed', async () => {
    const { card } = await setup(memoryItem({ expiresAt: '2025-05-01T00:00:00Z' }))
    expect(within(card).getByText('Expired')).toBeTruthy()
    expect(within(card).queryByText(/^Expires /)).toBeNull()
    expect(card.className).toContain('expired')
  })

  it('pins it, and offers Undo for as long as the item is at the revision the pin made', async () => {
    const { server, user, card } = await setup(memoryItem({ revision: 1 }), {
      EditMemory: () => saved('editMemory', memoryItem({ revision: 2, pinned: true })),
      UndoMemoryEdit: () => saved('undoMemoryEdit', memoryItem({ revision: 3, pinned: false })),
    })
    expect(within(card).queryByRole('button', { name: /^Undo/ })).toBeNull()
    await user.click(within(card).getByRole('button', { name: 'Pin ‘coffee’' }))
    expect(await within(card).findByText('Pinned')).toBeTruthy()
    expect(server.called('EditMemory')).toEqual([{ input: { id: 'item-1', baseRevision: 1, pinned: true } }])
    expect(within(card).getByRole('button', { name: 'Unpin ‘coffee’' })).toBeTruthy()

    await user.click(within(card).getByRole('button', { name: 'Undo the last change to ‘coffee’' }))
    await waitFor(() => expect(within(card).queryByText('Pinned')).toBeNull())
    expect(server.called('UndoMemoryEdit')).toEqual([{ input: { id: 'item-1', revision: 2 } }])
    expect(within(card).queryByRole('button', { name: /^Undo/ })).toBeNull()
    expect(server.unexpected).toEqual([])
  })

  it('stops offering Undo once the item moved past the revision the pin made', async () => {
    const { server, user, card, setCurrent } = await setup(memoryItem({ revision: 1 }), {
      EditMemory: () => saved('editMemory', memoryItem({ revision: 2, pinned: true })),
    })
    await user.click(within(card).getByRole('button', { name: 'Pin ‘coffee’' }))
    expect(await within(card).findByRole('button', { name: 'Undo the last change to ‘coffee’' })).toBeTruthy()
    // Someone else edits it: the page reads the item again.
    setCurrent(memoryItem({ revision: 3, pinned: true, content: 'Drinks tea.' }))
    await server.client.query(MemoryItemQuery, { id: 'item-1' }, { requestPolicy: 'network-only' }).toPromise()
    expect(await within(card).findByText('Drinks tea.')).toBeTruthy()
    expect(within(card).queryByRole('button', { name: /^Undo/ })).toBeNull()
  })

  it('unpins a pinned item', async () => {
    const { server, user, card } = await setup(memoryItem({ revision: 6, pinned: true }), {
      EditMemory: () => saved('editMemory', memoryItem({ revision: 7, pinned: false })),
    })
    expect(within(card).getByText('Pinned')).toBeTruthy()
    expect(card.className).toContain('pinned')
    await user.click(within(card).getByRole('button', { name: 'Unpin ‘coffee’' }))
    await waitFor(() => expect(within(card).queryByText('Pinned')).toBeNull())
    expect(server.called('EditMemory')).toEqual([{ input: { id: 'item-1', baseRevision: 6, pinned: false } }])
  })

  it('reads the item again when a pin answers CONFLICT, and says nothing was saved', async () => {
    const { server, user, card, setCurrent } = await setup(memoryItem({ revision: 1 }), {
      EditMemory: () => {
        setCurrent(memoryItem({ revision: 5, content: 'Drinks tea.' }))
        return errorAnswer('CONFLICT', { currentRevision: 5 })
      },
    })
    await user.click(within(card).getByRole('button', { name: 'Pin ‘coffee’' }))
    expect((await within(card).findByRole('alert')).textContent).toBe(
      'This memory changed in the meantime; it has been reloaded, nothing was saved.',
    )
    expect(await within(card).findByText('Drinks tea.')).toBeTruthy()
    expect(card.dataset.revision).toBe('5')
    expect(server.calls.filter((c) => c.name === 'MemoryItem').map((c) => c.requestPolicy)).toContain('network-only')
    expect(within(card).queryByRole('button', { name: /^Undo/ })).toBeNull()
  })

  it('stops saying the server can’t be reached once the connection is back', async () => {
    const { user, card, connection } = await setup(memoryItem(), { EditMemory: () => unreachable })
    await user.click(within(card).getByRole('button', { name: 'Pin ‘coffee’' }))
    const error = await within(card).findByTestId('item-error')
    expect(error.textContent).toMatch(/The server can’t be reached/)
    act(() => connection.set('down'))
    expect(within(card).getByTestId('item-error')).toBeTruthy()
    act(() => connection.set('back'))
    await waitFor(() => expect(within(card).queryByTestId('item-error')).toBeNull())
  })

  it('stops saying the edit form’s save can’t reach the server once the connection is back, and keeps the draft', async () => {
    const { user, card, connection } = await setup(memoryItem(), {
      ForgottenBefore: () => ({ data: { forgottenBefore: false } }),
      EditMemory: () => unreachable,
    })
    await user.click(within(card).getByRole('button', { name: 'Edit ‘coffee’' }))
    const form = within(card).getByRole('form', { name: 'Edit memory' })
    await user.type(within(form).getByRole('textbox', { name: 'Content' }), ' Sometimes.')
    await user.click(within(form).getByRole('button', { name: 'Save' }))
    expect((await within(card).findByTestId('editor-error')).textContent).toMatch(/The server can’t be reached/)
    act(() => connection.set('down'))
    expect(within(card).getByTestId('editor-error')).toBeTruthy()
    act(() => connection.set('back'))
    await waitFor(() => expect(within(card).queryByTestId('editor-error')).toBeNull())
    expect((within(form).getByRole('textbox', { name: 'Content' }) as HTMLTextAreaElement).value).toMatch(/ Sometimes\.$/)
  })

  it('keeps the edit form’s error from the server when the connection comes back', async () => {
    const { user, card, connection } = await setup(memoryItem(), {
      ForgottenBefore: () => ({ data: { forgottenBefore: false } }),
      EditMemory: () => errorAnswer('INTERNAL'),
    })
    await user.click(within(card).getByRole('button', { name: 'Edit ‘coffee’' }))
    const form = within(card).getByRole('form', { name: 'Edit memory' })
    await user.type(within(form).getByRole('textbox', { name: 'Content' }), ' Sometimes.')
    await user.click(within(form).getByRole('button', { name: 'Save' }))
    await within(card).findByTestId('editor-error')
    act(() => connection.set('down'))
    act(() => connection.set('back'))
    expect(within(card).getByTestId('editor-error').textContent).toMatch(/Something went wrong on the server/)
  })

  it('keeps an error from the server when the connection comes back', async () => {
    const { user, card, connection } = await setup(memoryItem(), { EditMemory: () => errorAnswer('INTERNAL') })
    await user.click(within(card).getByRole('button', { name: 'Pin ‘coffee’' }))
    await within(card).findByTestId('item-error')
    act(() => connection.set('down'))
    act(() => connection.set('back'))
    expect(within(card).getByTestId('item-error').textContent).toMatch(/Something went wrong on the server/)
  })

  it('is edited in place, and the save can be undone', async () => {
    const { server, user, card } = await setup(memoryItem({ revision: 2 }), {
      ForgottenBefore: () => ({ data: { forgottenBefore: false } }),
      EditMemory: () => saved('editMemory', memoryItem({ revision: 3, content: 'Drinks oat milk cortados.' })),
    })
    await user.click(within(card).getByRole('button', { name: 'Edit ‘coffee’' }))
    const form = within(card).getByRole('form', { name: 'Edit memory' })
    expect(within(card).queryByRole('group', { name: 'Actions' })).toBeNull()
    const text = within(form).getByRole('textbox', { name: 'Content' })
    await user.clear(text)
    await user.type(text, 'Drinks oat milk cortados.')
    await user.click(within(form).getByRole('button', { name: 'Save' }))
    expect(await within(card).findByText('Drinks oat milk cortados.')).toBeTruthy()
    expect(within(card).queryByRole('form')).toBeNull()
    expect(server.called('EditMemory')).toEqual([{ input: { id: 'item-1', baseRevision: 2, content: 'Drinks oat milk cortados.' } }])
    expect(within(card).getByRole('button', { name: 'Undo the last change to ‘coffee’' })).toBeTruthy()
  })

  it('moves the focus to the conflict notice, an alert, when a save answers CONFLICT', async () => {
    const { user, card, setCurrent } = await setup(memoryItem({ revision: 2 }), {
      ForgottenBefore: () => ({ data: { forgottenBefore: false } }),
      EditMemory: () => {
        setCurrent(memoryItem({ revision: 4, content: 'Drinks tea.' }))
        return errorAnswer('CONFLICT', { currentRevision: 4 })
      },
    })
    await user.click(within(card).getByRole('button', { name: 'Edit ‘coffee’' }))
    const text = within(card).getByRole('textbox', { name: 'Content' })
    await user.type(text, ' Sometimes.')
    await user.click(within(card).getByRole('button', { name: 'Save' }))
    const notice = await within(card).findByTestId('conflict-notice')
    expect(notice.getAttribute('role')).toBe('alert')
    expect(notice.textContent).toMatch(/^This memory changed while you were editing it\./)
    await waitFor(() => expect(document.activeElement).toBe(notice))
    expect((within(card).getByTestId('conflict-mine') as HTMLTextAreaElement).value).toBe('Drinks oat milk flat whites. Sometimes.')
  })

  it('closes the editor on Cancel without saving', async () => {
    const { server, user, card } = await setup(memoryItem())
    await user.click(within(card).getByRole('button', { name: 'Edit ‘coffee’' }))
    await user.type(within(card).getByRole('textbox', { name: 'Content' }), ' Sometimes.')
    await user.click(within(card).getByRole('button', { name: 'Cancel' }))
    expect(within(card).queryByRole('form')).toBeNull()
    expect(within(card).getByText('Drinks oat milk flat whites.')).toBeTruthy()
    expect(server.called('EditMemory')).toEqual([])
  })

  it('opens and closes its history', async () => {
    const { server, user, card } = await setup(memoryItem({ revision: 2 }), {
      MemoryHistory: () => ({
        data: {
          memoryItem: {
            __typename: 'MemoryItem',
            id: 'item-1',
            revision: 2,
            revisions: {
              __typename: 'MemoryRevisionConnection',
              edges: [2, 1].map((r) => ({
                __typename: 'MemoryRevisionEdge',
                cursor: `c${r}`,
                node: {
                  __typename: 'MemoryRevision',
                  revision: r,
                  content: r === 2 ? 'Drinks oat milk flat whites.' : 'Drinks flat whites.',
                  key: 'coffee',
                  kind: 'PREFERENCE',
                  pinned: false,
                  expiresAt: null,
                  action: r === 2 ? 'EDIT' : 'CREATE',
                  actor: 'user',
                  actorTeammate: null,
                  runId: null,
                  basedOn: r === 2 ? 1 : null,
                  createdAt: '2025-03-01T09:30:00Z',
                },
              })),
              pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: 'c1' },
            },
          },
        },
      }),
    })
    const toggle = within(card).getByRole('button', { name: 'History of ‘coffee’' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await user.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const history = within(card).getByRole('region', { name: 'History' })
    expect(await within(history).findByText('Drinks flat whites.')).toBeTruthy()
    expect(within(history).getByText('current')).toBeTruthy()
    expect(within(history).getByRole('button', { name: /^Restore the version of \S/ })).toBeTruthy()
    // Revision numbers only under Technical details, folded.
    const details = within(history).getByTestId('history-details')
    expect(details.hasAttribute('open')).toBe(false)
    expect(within(details).getByText('Technical details')).toBeTruthy()
    expect(within(details).getByTestId('history-revision-numbers').textContent).toContain('based on revision 1')
    const rest = history.cloneNode(true) as HTMLElement
    rest.querySelector('[data-testid="history-details"]')?.remove()
    expect(rest.textContent).not.toMatch(/revision/i)
    expect(server.queried('MemoryHistory')).toEqual([{ id: 'item-1', first: 20, after: null }])
    await user.click(toggle)
    expect(within(card).queryByRole('region', { name: 'History' })).toBeNull()
  })

  it('asks before forgetting it', async () => {
    const { server, user, card } = await setup(memoryItem(), {
      ForgetInfo: () => ({ data: { copies: [] } }),
    })
    await user.click(within(card).getByRole('button', { name: 'Forget ‘coffee’' }))
    expect(await screen.findByRole('heading', { name: 'Forget this memory?' })).toBeTruthy()
    expect(server.called('ForgetMemory')).toEqual([])
  })

  it('has a checkbox for bulk actions when the list selects', async () => {
    const onToggle = vi.fn()
    const { user, card } = await setup(memoryItem(), {}, onToggle)
    await user.click(within(card).getByRole('checkbox', { name: 'Select ‘coffee’' }))
    expect(onToggle).toHaveBeenCalledWith(true)
  })
})

describe('MemoryItemCard, where the item came from', () => {
  const teammate = { id: 'ada', name: 'Ada' }

  it('says which teammate saved it and when, quoting your words with a link to the conversation', async () => {
    const { card } = await setup(
      memoryItem({
        source: 'TEAMMATE',
        provenance: provenance({ kind: 'SAVED_BY_TEAMMATE', teammate, runId: 'run-7', quote: 'Please remember my locker code is 3310', at: '2025-06-01T08:00:00Z' }),
      }),
    )
    const source = within(card).getByTestId('item-source')
    expect(source.textContent).toBe('Saved by Ada when you said “Please remember my locker code is 3310” — today')
    expect(within(source).getByRole('link').getAttribute('href')).toBe('/teammates/ada/conversations?run=run-7')
  })

  it('says you confirmed a teammate’s suggestion, on which day', async () => {
    const { card } = await setup(
      memoryItem({
        source: 'TEAMMATE',
        provenance: provenance({ kind: 'CONFIRMED_SUGGESTION', teammate, runId: 'run-7', at: '2025-05-20T08:00:00Z', confirmedAt: '2025-05-31T08:00:00Z' }),
      }),
    )
    const source = within(card).getByTestId('item-source')
    expect(source.textContent).toBe('Confirmed by you from Ada’s suggestion (see the conversation) — yesterday')
    expect(within(source).getByRole('link', { name: 'see the conversation' }).getAttribute('href')).toBe('/teammates/ada/conversations?run=run-7')
  })

  it('names no teammate and links nothing when none is known', async () => {
    const { card } = await setup(memoryItem({ source: 'TEAMMATE', provenance: provenance({ kind: 'SAVED_BY_TEAMMATE', at: '2025-06-01T08:00:00Z' }) }))
    const source = within(card).getByTestId('item-source')
    expect(source.textContent).toBe('Saved by a teammate at your request — today')
    expect(within(source).queryByRole('link')).toBeNull()
  })

  it('says an import or your own item plainly', async () => {
    const imported = await setup(memoryItem({ source: 'IMPORT', provenance: provenance({ kind: 'IMPORTED', at: '2025-06-01T08:00:00Z' }) }))
    expect(within(imported.card).getByTestId('item-source').textContent).toBe('Imported from a file — today')
  })

  it('names the teammate in its history, with a link to the turn that wrote it', async () => {
    const { user, card } = await setup(memoryItem({ revision: 1 }), {
      MemoryHistory: () => ({
        data: {
          memoryItem: {
            __typename: 'MemoryItem',
            id: 'item-1',
            revision: 1,
            revisions: {
              __typename: 'MemoryRevisionConnection',
              edges: [
                {
                  __typename: 'MemoryRevisionEdge',
                  cursor: 'c1',
                  node: {
                    __typename: 'MemoryRevision',
                    revision: 1,
                    content: 'Drinks oat milk flat whites.',
                    key: 'coffee',
                    kind: 'PREFERENCE',
                    pinned: false,
                    expiresAt: null,
                    action: 'CREATE',
                    actor: 'teammate:ada',
                    actorTeammate: { __typename: 'Teammate', ...teammate },
                    runId: 'run-7',
                    basedOn: null,
                    createdAt: '2025-03-01T09:30:00Z',
                  },
                },
              ],
              pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: 'c1' },
            },
          },
        },
      }),
    })
    await user.click(within(card).getByTestId('item-history'))
    const panel = await within(card).findByTestId('history-panel')
    const revision = await within(panel).findByTestId('history-revision')
    expect(within(revision).getByTestId('history-teammate').textContent).toBe('Ada')
    expect(revision.textContent).not.toContain('a teammate')
    expect(within(revision).getByTestId('history-run-link').getAttribute('href')).toBe('/teammates/ada/conversations?run=run-7')
  })
})

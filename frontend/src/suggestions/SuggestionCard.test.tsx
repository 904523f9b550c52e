// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { candidate, memoryItem } from '../test/fixtures.ts'
import { deferred, errorAnswer, fakeServer, renderWithApi, type Answer, type Handler } from '../test/fakeApi.tsx'
import { SuggestionCard } from './SuggestionCard.tsx'
import type { Candidate } from './SuggestionsPanel.tsx'

const payload = (item: object): Answer => ({ data: { confirmCandidate: { __typename: 'MemoryItemPayload', item } } })
const dismissed = (id: string): Answer => ({
  data: { dismissCandidate: { __typename: 'MemoryItemPayload', item: { __typename: 'MemoryItem', id, scope: 'ada', status: 'DISMISSED' } } },
})

function setup(c: Candidate, handlers: Record<string, Handler> = {}) {
  const server = fakeServer({
    ConfirmCandidate: (v) => payload(memoryItem({ id: (v.input as { id: string }).id, content: c.content })),
    DismissCandidate: (v) => dismissed((v.input as { id: string }).id),
    ...handlers,
  })
  const onDone = vi.fn()
  const user = userEvent.setup({ delay: null })
  renderWithApi(<SuggestionCard candidate={c} onDone={onDone} />, server)
  return { server, onDone, user }
}

describe('SuggestionCard, a new memory', () => {
  it('shows the suggestion, where it came from and why it waits', () => {
    setup(
      candidate({
        evidence: 'I moved to Lyon last spring.',
        waitReason: 'The teammate wasn’t sure it should be remembered.',
        sourceRunId: 'run-7',
        sourceTeammate: { id: 'ada', name: 'Ada' },
        timesSuggested: 3,
      }),
    )
    const card = screen.getByRole('listitem')
    expect(within(card).getByText('Lives in Lyon.')).toBeTruthy()
    expect(within(card).getByText('Fact')).toBeTruthy()
    expect(within(card).getByText('New memory')).toBeTruthy()
    expect(within(card).getByText('Suggested 3 times')).toBeTruthy()
    expect(within(card).getByText(/^Suggested by a teammate ·/)).toBeTruthy()
    expect(within(card).getByText('From your message today:')).toBeTruthy()
    expect(within(card).getByText('“I moved to Lyon last spring.”')).toBeTruthy()
    const link = within(card).getByRole('link', { name: 'See the conversation with Ada' })
    expect(link.getAttribute('href')).toBe('/teammates/ada/conversations?run=run-7')
    expect(within(card).getByText('Why it waits:').parentElement?.textContent).toBe('Why it waits: The teammate wasn’t sure it should be remembered.')
  })

  it('quotes the evidence without a link when no conversation is known, and links a conversation without a quote', () => {
    setup(candidate({ id: 'cand-a', evidence: 'I moved to Lyon.', createdAt: '2020-03-03T12:00:00Z' }))
    setup(candidate({ id: 'cand-b', sourceRunId: 'run-8', sourceTeammate: { id: 'ada', name: 'Ada' } }))
    const [quoted, linked] = screen.getAllByRole('listitem')
    expect(within(quoted).getByText('“I moved to Lyon.”')).toBeTruthy()
    expect(within(quoted).getByText(/^From your message on \S/)).toBeTruthy()
    expect(within(quoted).queryByRole('link')).toBeNull()
    expect(within(linked).getByText('From your conversation today.')).toBeTruthy()
    expect(within(linked).getByRole('link', { name: 'See the conversation with Ada' })).toBeTruthy()
  })

  it('shows no evidence, reason or count it doesn’t have', () => {
    setup(candidate({ source: 'EXTRACTION' }))
    expect(screen.queryByText(/From your/)).toBeNull()
    expect(screen.queryByText('Why it waits:')).toBeNull()
    expect(screen.queryByText(/Suggested \d+ times/)).toBeNull()
    expect(screen.getByText(/^Found by automatic extraction ·/)).toBeTruthy()
  })

  it('confirms it as suggested', async () => {
    const { server, onDone, user } = setup(candidate())
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('cand-1', 'Confirmed: it is memory now.', { kind: 'confirm', revision: 1 }))
    expect(server.called('ConfirmCandidate')).toEqual([{ input: { id: 'cand-1', content: null, kind: null, key: null } }])
    expect(server.called('ForgottenBefore')).toEqual([])
    expect(server.unexpected).toEqual([])
  })

  it('says Saving… and takes no second click while the confirm is on its way', async () => {
    const answer = deferred<Answer>()
    const { server, onDone, user } = setup(candidate(), { ConfirmCandidate: () => answer.promise })
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    const saving = await screen.findByRole('button', { name: 'Saving…' })
    expect((saving as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Dismiss' }) as HTMLButtonElement).disabled).toBe(true)
    answer.resolve(payload(memoryItem({ id: 'cand-1' })))
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1))
    expect(server.called('ConfirmCandidate')).toHaveLength(1)
  })

  it('confirms it with the user’s text, kind and key', async () => {
    const { server, onDone, user } = setup(candidate(), { ForgottenBefore: () => ({ data: { forgottenBefore: false } }) })
    await user.click(screen.getByRole('button', { name: 'Edit' }))
    const text = screen.getByRole('textbox', { name: 'Text to remember' })
    expect((text as HTMLTextAreaElement).value).toBe('Lives in Lyon.')
    // While editing, the text shows only in the editor.
    expect(screen.queryByText('Lives in Lyon.', { selector: 'p' })).toBeNull()
    await user.clear(text)
    await user.type(text, 'Lives in Lyon, near the Croix-Rousse.')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'PREFERENCE')
    const key = screen.getByRole('textbox', { name: /^Key/ }) as HTMLInputElement
    await user.type(key, ' home ')
    expect(key.value).toBe(' home ')
    await user.click(screen.getByRole('button', { name: 'Confirm with my changes' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('cand-1', 'Confirmed: it is memory now.', { kind: 'confirm', revision: 1 }))
    expect(server.called('ForgottenBefore')).toEqual([{ scope: { teammateId: 'ada' }, content: 'Lives in Lyon, near the Croix-Rousse.' }])
    expect(server.called('ConfirmCandidate')).toEqual([
      { input: { id: 'cand-1', content: 'Lives in Lyon, near the Croix-Rousse.', kind: 'PREFERENCE', key: 'home' } },
    ])
  })

  it('drops every change when the edit is cancelled', async () => {
    const { server, onDone, user } = setup(candidate())
    await user.click(screen.getByRole('button', { name: 'Edit' }))
    await user.type(screen.getByRole('textbox', { name: 'Text to remember' }), ' And Paris.')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'NOTE')
    await user.click(screen.getByRole('button', { name: 'Cancel edit' }))
    expect(screen.queryByRole('textbox')).toBeNull()
    expect(screen.getByText('Lives in Lyon.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(onDone).toHaveBeenCalled())
    expect(server.called('ConfirmCandidate')).toEqual([{ input: { id: 'cand-1', content: null, kind: null, key: null } }])
  })

  it('asks again before confirming a text the user asked to forget before', async () => {
    const { server, onDone, user } = setup(candidate(), { ForgottenBefore: () => ({ data: { forgottenBefore: true } }) })
    await user.click(screen.getByRole('button', { name: 'Edit' }))
    await user.type(screen.getByRole('textbox', { name: 'Text to remember' }), ' Again.')
    await user.click(screen.getByRole('button', { name: 'Confirm with my changes' }))
    const warning = await screen.findByRole('alert')
    expect(warning.textContent).toContain('You asked to forget this before. Save it again?')
    expect(screen.queryByRole('button', { name: /^Confirm/ })).toBeNull()
    expect(server.called('ConfirmCandidate')).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Save it again' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('cand-1', 'Confirmed: it is memory now.', { kind: 'confirm', revision: 1 }))
    expect(server.called('ConfirmCandidate')).toEqual([{ input: { id: 'cand-1', content: 'Lives in Lyon. Again.', kind: null, key: null } }])
  })

  it('can’t be confirmed with an empty text', async () => {
    const { user } = setup(candidate())
    await user.click(screen.getByRole('button', { name: 'Edit' }))
    await user.clear(screen.getByRole('textbox', { name: 'Text to remember' }))
    expect((screen.getByRole('button', { name: 'Confirm with my changes' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('dismisses it', async () => {
    const { server, onDone, user } = setup(candidate())
    await user.click(screen.getByRole('button', { name: 'Dismiss' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('cand-1', 'Dismissed: it won’t be remembered.', { kind: 'dismiss' }))
    expect(server.called('DismissCandidate')).toEqual([{ input: { id: 'cand-1' } }])
    expect(server.called('ConfirmCandidate')).toEqual([])
  })

  it('says what went wrong when the confirm fails, and stays', async () => {
    const { onDone, user } = setup(candidate(), { ConfirmCandidate: () => errorAnswer('INTERNAL') })
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('Something went wrong on the server. Try again in a moment.')
    expect(onDone).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeTruthy()
  })
})

describe('SuggestionCard, a proposal to change a memory', () => {
  const proposal = (over: Partial<Candidate> = {}) =>
    candidate({
      id: 'cand-2',
      kind: 'PREFERENCE',
      content: 'Drinks oat milk cappuccinos.',
      targetItemId: 'item-1',
      targetRevision: 3,
      ...over,
    })
  const target = (over = {}) => memoryItem({ id: 'item-1', revision: 3, content: 'Drinks oat milk flat whites.', ...over })
  const itemAnswer = (item: object): Answer => ({ data: { memoryItem: item } })

  it('shows the change as a word diff against the memory as it is', async () => {
    const { server } = setup(proposal(), { MemoryItem: () => itemAnswer(target()) })
    expect(screen.getByText('Loading the memory it would change…')).toBeTruthy()
    const diff = await screen.findByTestId('suggestion-diff')
    expect(screen.getByText('Change to a memory')).toBeTruthy()
    expect(screen.getByText(/Proposed change to what you confirmed/)).toBeTruthy()
    expect([...diff.querySelectorAll('del')].map((d) => d.textContent)).toEqual(['[removed: flat whites.]'])
    expect([...diff.querySelectorAll('ins')].map((d) => d.textContent)).toEqual(['[added: cappuccinos.]'])
    expect(screen.queryByRole('alert')).toBeNull()
    expect(server.queried('MemoryItem')).toEqual([{ id: 'item-1' }])
  })

  it('confirms the change', async () => {
    const { server, onDone, user } = setup(proposal(), {
      MemoryItem: () => itemAnswer(target()),
      ConfirmCandidate: () => payload(target({ revision: 4, content: 'Drinks oat milk cappuccinos.' })),
    })
    const confirm = screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement
    // Not before the memory it would change is read.
    expect(confirm.disabled).toBe(true)
    await waitFor(() => expect(confirm.disabled).toBe(false))
    await user.click(confirm)
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('cand-2', 'Change applied to the memory.', { kind: 'confirm', revision: 4 }))
    expect(server.called('ConfirmCandidate')).toEqual([{ input: { id: 'cand-2', content: null, kind: null, key: null } }])
  })

  it('says when the memory is gone, and only lets it be dismissed', async () => {
    setup(proposal(), { MemoryItem: () => itemAnswer(target({ status: 'FORGOTTEN' })) })
    expect((await screen.findByTestId('suggestion-target-gone')).textContent).toBe(
      'The memory this would change no longer exists (it was forgotten). Dismiss the suggestion.',
    )
    expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Edit' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Dismiss' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('shows a stale proposal beside the current version, and applies it to that version', async () => {
    const { server, onDone, user } = setup(proposal(), {
      MemoryItem: () => itemAnswer(target({ revision: 4, content: 'Drinks black coffee now.' })),
      MemoryHistory: () => ({ data: { memoryItem: history('item-1', 4, [[4, 'Drinks black coffee now.'], [3, 'Drinks oat milk flat whites.']]) } }),
      EditMemory: () => ({ data: { editMemory: { __typename: 'MemoryItemPayload', item: target({ revision: 5, content: 'Drinks oat milk cappuccinos.' }) } } }),
    })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('This memory changed after the suggestion was made')
    expect(alert.textContent).toContain('so it can’t be confirmed as it is')
    // The revision numbers only under Technical details, folded.
    const details = within(alert).getByText('Technical details').closest('details')!
    expect(details.hasAttribute('open')).toBe(false)
    expect(details.textContent).toContain('The suggestion was made for revision 3; the memory is now at revision 4.')
    expect(screen.getByTestId('suggestion-compare').textContent).not.toMatch(/revision/i)
    expect(screen.getByTestId('suggestion-conflict-current').textContent).toBe('Drinks black coffee now.')
    expect(screen.getByTestId('suggestion-conflict-proposed').textContent).toBe('Drinks oat milk cappuccinos.')
    // What the teammate changed in the version it saw, read from the history.
    expect((await screen.findByTestId('suggestion-conflict-base')).textContent).toMatch(/^What it changed in the earlier version: /)
    expect(server.queried('MemoryHistory')).toEqual([{ id: 'item-1', first: 2 }])
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull()

    await user.click(screen.getByRole('button', { name: 'Apply to the current version' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('cand-2', 'Change applied to the current version of the memory.'))
    expect(server.called('EditMemory')).toEqual([{ input: { id: 'item-1', baseRevision: 4, content: 'Drinks oat milk cappuccinos.' } }])
    // Its own text settles the proposal: nothing to dismiss.
    expect(server.called('DismissCandidate')).toEqual([])
    expect(server.called('ConfirmCandidate')).toEqual([])
  })

  it('dismisses a stale proposal applied with the user’s own text', async () => {
    const { server, onDone, user } = setup(proposal(), {
      MemoryItem: () => itemAnswer(target({ revision: 4 })),
      MemoryHistory: () => ({ data: { memoryItem: history('item-1', 4, [[4, 'Drinks oat milk flat whites.'], [3, 'Drinks oat milk flat whites.']]) } }),
      EditMemory: () => ({ data: { editMemory: { __typename: 'MemoryItemPayload', item: target({ revision: 5 }) } } }),
    })
    await user.click(await screen.findByRole('button', { name: 'Edit' }))
    await user.type(screen.getByRole('textbox', { name: 'The new text' }), ' Sometimes.')
    expect(screen.getByText('Proposed, with your changes')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Apply to the current version' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('cand-2', 'Change applied to the current version of the memory.'))
    expect(server.called('EditMemory')).toEqual([{ input: { id: 'item-1', baseRevision: 4, content: 'Drinks oat milk cappuccinos. Sometimes.' } }])
    expect(server.called('DismissCandidate')).toEqual([{ input: { id: 'cand-2' } }])
  })

  it('reads the memory again when the confirm answers CONFLICT, and compares', async () => {
    let revision = 3
    const { server, onDone, user } = setup(proposal(), {
      MemoryItem: () => itemAnswer(target({ revision, content: revision === 3 ? 'Drinks oat milk flat whites.' : 'Drinks tea.' })),
      MemoryHistory: () => ({ data: { memoryItem: history('item-1', 4, [[4, 'Drinks tea.'], [3, 'Drinks oat milk flat whites.']]) } }),
      ConfirmCandidate: () => {
        revision = 4
        return errorAnswer('CONFLICT', { currentRevision: 4 })
      },
    })
    await waitFor(() => expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(false))
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByRole('button', { name: 'Apply to the current version' })).toBeTruthy()
    expect(screen.getByTestId('suggestion-conflict-current').textContent).toBe('Drinks tea.')
    expect(onDone).not.toHaveBeenCalled()
    // The second read of the item went to the server, past the cache.
    expect(server.calls.filter((c) => c.name === 'MemoryItem').map((c) => c.requestPolicy)).toContain('network-only')
  })
})

describe('SuggestionCard, a proposal to forget a memory', () => {
  const forget = () => candidate({ id: 'cand-3', content: '', targetItemId: 'item-1', targetRevision: 2, proposesForget: true, waitReason: 'You didn’t clearly ask.' })

  it('shows the memory, what forgetting does, and offers Keep it first', async () => {
    setup(forget(), { MemoryItem: () => ({ data: { memoryItem: memoryItem({ revision: 2 }) } }) })
    expect(await screen.findByText('Drinks oat milk flat whites.')).toBeTruthy()
    expect(screen.getByText('Forget a memory')).toBeTruthy()
    expect(screen.getByText(/Forgetting erases it from memory/)).toBeTruthy()
    expect(screen.getByText('Why it waits:')).toBeTruthy()
    const buttons = screen.getAllByRole('button').map((b) => b.textContent)
    expect(buttons).toEqual(['Keep it', 'Forget it'])
  })

  it('forgets it, or keeps it', async () => {
    const { server, onDone, user } = setup(forget(), {
      MemoryItem: () => ({ data: { memoryItem: memoryItem({ revision: 2 }) } }),
      ConfirmCandidate: () => payload(memoryItem({ revision: 3, status: 'FORGOTTEN' })),
    })
    await user.click(await screen.findByRole('button', { name: 'Forget it' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('cand-3', 'Forgotten, as the teammate proposed.'))
    expect(server.called('ConfirmCandidate')).toEqual([{ input: { id: 'cand-3', content: null, kind: null, key: null } }])

    await user.click(screen.getByRole('button', { name: 'Keep it' }))
    await waitFor(() => expect(onDone).toHaveBeenLastCalledWith('cand-3', 'Kept: the memory stays as it is.', { kind: 'dismiss' }))
  })

  it('can only be kept once the memory changed', async () => {
    setup(forget(), { MemoryItem: () => ({ data: { memoryItem: memoryItem({ revision: 5 }) } }) })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/^This memory changed after the teammate proposed forgetting it\./)
    // The revision numbers only under Technical details.
    const details = within(alert).getByText('Technical details').closest('details')!
    expect(details.hasAttribute('open')).toBe(false)
    expect(details.textContent).toContain('Proposed for revision 2; the memory is now at revision 5.')
    expect(screen.queryByRole('button', { name: 'Forget it' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Keep it' })).toBeTruthy()
  })
})

/** An item's history page as MemoryHistory answers it, newest first. */
function history(id: string, revision: number, revisions: [number, string][]) {
  return {
    __typename: 'MemoryItem',
    id,
    revision,
    revisions: {
      __typename: 'MemoryRevisionConnection',
      edges: revisions.map(([r, content]) => ({
        __typename: 'MemoryRevisionEdge',
        cursor: `c${r}`,
        node: {
          __typename: 'MemoryRevision',
          revision: r,
          content,
          key: 'coffee',
          kind: 'PREFERENCE',
          pinned: false,
          expiresAt: null,
          action: r === 1 ? 'CREATE' : 'EDIT',
          actor: 'user',
          actorTeammate: null,
          runId: null,
          basedOn: r === 1 ? null : r - 1,
          createdAt: '2025-03-01T09:30:00Z',
        },
      })),
      pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: `c${revisions[revisions.length - 1][0]}` },
    },
  }
}

// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useQuery } from 'urql'
import { describe, expect, it, vi } from 'vitest'
import type { RunFieldsFragment } from '../gql/graphql.ts'
import { memoryItem, run } from '../test/fixtures.ts'
import { deferred, errorAnswer, fakeServer, renderWithApi, type Answer, type Handler } from '../test/fakeApi.tsx'
import { RunQuery } from './ConversationsTab.tsx'
import { RunCard } from './RunCard.tsx'
import type { WaitingRetry } from './retries.ts'

const ada = { id: 'ada', name: 'Ada' }

type RunAnswer = RunFieldsFragment & { __typename: 'Run' }
const runAnswer = (over: Partial<RunFieldsFragment> = {}): RunAnswer => {
  const r = run(over)
  return { __typename: 'Run', ...r, thread: { __typename: 'Thread', ...r.thread } } as RunAnswer
}

/** The card as the conversation shows it: with the run as the cache holds it now. */
function CardOfCachedRun(props: { id: string; waitingRetry?: WaitingRetry | null; onRetryRequested?(retry: WaitingRetry): void }) {
  const [{ data }] = useQuery({ query: RunQuery, variables: { id: props.id } })
  if (!data?.run) return <p>Loading…</p>
  return (
    <ul>
      <RunCard
        run={data.run}
        teammate={ada}
        startsThread={false}
        focused={false}
        waitingRetry={props.waitingRetry ?? null}
        onRetryRequested={props.onRetryRequested ?? (() => {})}
      />
    </ul>
  )
}

async function setup(r: RunAnswer, handlers: Record<string, Handler> = {}, props: { waitingRetry?: WaitingRetry } = {}) {
  const server = fakeServer({
    Run: () => ({ data: { run: r } }),
    RateRun: (v) => {
      const { runId, rating } = v.input as { runId: string; rating: string | null }
      return { data: { rateRun: { __typename: 'Run', id: runId, rating } } }
    },
    ...handlers,
  })
  const onRetryRequested = vi.fn()
  const user = userEvent.setup({ delay: null })
  renderWithApi(<CardOfCachedRun id={r.id} onRetryRequested={onRetryRequested} {...props} />, server)
  // The card is the first list item; the "Memory updated" line lists more inside it.
  const [card] = await screen.findAllByRole('listitem')
  return { server, user, card, onRetryRequested }
}

const thumb = (card: HTMLElement, name: 'Helpful' | 'Not helpful') => within(card).getByRole('button', { name })

describe('RunCard', () => {
  it('shows the message, the reply and the rating buttons', async () => {
    const { card } = await setup(runAnswer())
    expect(within(card).getByText('Replied')).toBeTruthy()
    expect(within(card).getByText('You').nextElementSibling?.textContent).toBe('What should I cook tonight?')
    expect(within(card).getByText('Ada').nextElementSibling?.textContent).toBe('A mushroom risotto.')
    expect(within(card).getByRole('group', { name: 'Rate this reply' })).toBeTruthy()
    expect(thumb(card, 'Helpful').getAttribute('aria-pressed')).toBe('false')
    expect(thumb(card, 'Not helpful').getAttribute('aria-pressed')).toBe('false')
    expect(within(card).queryByRole('button', { name: 'Cancel' })).toBeNull()
    expect(within(card).queryByText(/started by the worker/)).toBeNull()
  })

  it('rates a reply helpful, and clears the rating with the same thumb', async () => {
    const { server, user, card } = await setup(runAnswer())
    await user.click(thumb(card, 'Helpful'))
    await waitFor(() => expect(thumb(card, 'Helpful').getAttribute('aria-pressed')).toBe('true'))
    expect(within(card).queryByRole('form')).toBeNull()
    await user.click(thumb(card, 'Helpful'))
    await waitFor(() => expect(thumb(card, 'Helpful').getAttribute('aria-pressed')).toBe('false'))
    expect(server.called('RateRun')).toEqual([{ input: { runId: 'run-1', rating: 'UP' } }, { input: { runId: 'run-1', rating: null } }])
  })

  it('asks what should be done differently after a thumbs down, and keeps the note as a lesson', async () => {
    const { server, user, card } = await setup(runAnswer(), {
      KeepLesson: () => ({ data: { keepLesson: { __typename: 'MemoryItemPayload', item: memoryItem({ id: 'lesson-1', kind: 'LESSON', content: 'Use bullet points.' }) } } }),
    })
    await user.click(thumb(card, 'Not helpful'))
    const form = await within(card).findByRole('form', { name: 'What should be done differently?' })
    const keep = within(form).getByRole('button', { name: 'Keep as a lesson' }) as HTMLButtonElement
    expect(keep.disabled).toBe(true)
    await user.type(within(form).getByRole('textbox', { name: 'What should be done differently?' }), 'Use bullet points.')
    expect(keep.disabled).toBe(false)
    await user.click(keep)
    const kept = await within(card).findByRole('status')
    expect(kept.textContent).toBe('Kept as a lesson: Ada will be given it in every conversation. See lessons')
    expect(within(kept).getByRole('link', { name: 'See lessons' }).getAttribute('href')).toBe('/teammates/ada#lessons')
    expect(within(card).queryByRole('form')).toBeNull()
    expect(server.called('RateRun')).toEqual([{ input: { runId: 'run-1', rating: 'DOWN' } }])
    expect(server.called('KeepLesson')).toEqual([{ input: { runId: 'run-1', note: 'Use bullet points.' } }])
    expect(server.unexpected).toEqual([])
  })

  it('asks for another try with the note', async () => {
    const { server, user, card, onRetryRequested } = await setup(runAnswer({ rating: 'DOWN' }), {
      RetryRunWithNote: () => ({
        data: {
          retryRunWithNote: {
            __typename: 'RetryRequest',
            messageId: 'msg-9',
            threadId: 'thread-1',
            retryOfRunId: 'run-1',
            prompt: 'Try again: Shorter, please.',
            note: 'Shorter, please.',
            createdAt: '2025-03-01T10:00:00Z',
          },
        },
      }),
    })
    // A reply rated down earlier: the question is a link until the user opens it.
    expect(within(card).queryByRole('form')).toBeNull()
    await user.click(within(card).getByRole('button', { name: 'What should be done differently?' }))
    await user.type(within(card).getByRole('textbox', { name: 'What should be done differently?' }), 'Shorter, please.')
    await user.click(within(card).getByRole('button', { name: 'Try again with this' }))
    await waitFor(() =>
      expect(onRetryRequested).toHaveBeenCalledWith({
        messageId: 'msg-9',
        runId: 'run-1',
        prompt: 'Try again: Shorter, please.',
        note: 'Shorter, please.',
        createdAt: '2025-03-01T10:00:00Z',
      }),
    )
    expect(server.called('RetryRunWithNote')).toEqual([{ input: { runId: 'run-1', note: 'Shorter, please.' } }])
    expect(within(card).queryByRole('form')).toBeNull()
    expect(server.called('RateRun')).toEqual([])
  })

  it('closes the feedback form on Not now', async () => {
    const { server, user, card } = await setup(runAnswer())
    await user.click(thumb(card, 'Not helpful'))
    await user.click(await within(card).findByRole('button', { name: 'Not now' }))
    expect(within(card).queryByRole('form')).toBeNull()
    expect(within(card).getByRole('button', { name: 'What should be done differently?' })).toBeTruthy()
    expect(server.called('KeepLesson')).toEqual([])
  })

  it('says why a rating failed', async () => {
    const { user, card } = await setup(runAnswer(), { RateRun: () => errorAnswer('FORBIDDEN') })
    await user.click(thumb(card, 'Helpful'))
    expect((await within(card).findByRole('alert')).textContent).toBe('This isn’t allowed with your sign-in.')
    expect(thumb(card, 'Helpful').getAttribute('aria-pressed')).toBe('false')
  })

  it('shows a running turn, which can be cancelled', async () => {
    const answer = deferred<Answer>()
    const { server, user, card } = await setup(runAnswer({ status: 'RUNNING', reply: null, endedAt: null, startedByUser: false }), {
      CancelRun: () => answer.promise,
    })
    expect(within(card).getByText('Running')).toBeTruthy()
    expect(within(card).getByText('Ada is working on it…')).toBeTruthy()
    expect(within(card).getByText(/· started by the worker/)).toBeTruthy()
    expect(within(card).queryByRole('group', { name: 'Rate this reply' })).toBeNull()
    await user.click(within(card).getByRole('button', { name: 'Cancel' }))
    expect((within(card).getByRole('button', { name: 'Cancelling…' }) as HTMLButtonElement).disabled).toBe(true)
    answer.resolve({ data: { cancelRun: runAnswer({ status: 'CANCELLED', reply: null, startedByUser: false, cancelledAt: '2025-03-01T09:31:00Z' }) } })
    expect(await within(card).findByText('No reply: you cancelled it.')).toBeTruthy()
    expect(within(card).getByText('Cancelled')).toBeTruthy()
    expect(within(card).queryByRole('button', { name: /^Cancel/ })).toBeNull()
    expect(server.called('CancelRun')).toEqual([{ input: { runId: 'run-1' } }])
  })

  it('shows the user’s note, not the template, for a retry', async () => {
    const { card } = await setup(
      runAnswer({ userMessage: 'Please answer again, taking this into account: Shorter, please.', retryNote: 'Shorter, please.', retryOfRunId: 'run-0' }),
    )
    expect(within(card).getByText('Try again')).toBeTruthy()
    expect(within(card).getByText('You').nextElementSibling?.textContent).toBe('Shorter, please.')
    expect(within(card).getByText('Your note for another try at an earlier reply.')).toBeTruthy()
  })

  it('says a requested retry waits for the teammate', async () => {
    const { card } = await setup(runAnswer({ rating: 'DOWN' }), {}, {
      waitingRetry: { messageId: 'msg-9', runId: 'run-1', prompt: 'p', note: 'Shorter, please.', createdAt: '2025-03-01T10:00:00Z' },
    })
    expect(within(card).getByRole('status').textContent).toMatch(/^Asked Ada to try again with your note\./)
  })

  it('shows the memory the turn was given, and what became of it', async () => {
    const entry = (position: number, state: string, currentRevision: number, content: string) => ({
      __typename: 'MemoryContextEntry',
      position,
      itemId: `item-${position}`,
      revisionGiven: 1,
      currentRevision,
      state,
      truncated: false,
      item: { __typename: 'MemoryItem', id: `item-${position}`, scope: 'ada', content, key: null, kind: 'FACT', expiresAt: null },
    })
    const { server, user, card } = await setup(runAnswer(), {
      RunMemoryContext: () => ({
        data: {
          run: {
            __typename: 'Run',
            id: 'run-1',
            memoryContext: [entry(1, 'UNCHANGED', 1, 'Lives in Lyon.'), entry(2, 'CHANGED', 3, 'Is vegetarian.'), entry(3, 'FORGOTTEN', 2, '')],
          },
        },
      }),
    })
    expect(within(card).queryByText('Lives in Lyon.')).toBeNull()
    await user.click(within(card).getByRole('button', { name: /Memory given/ }))
    expect(await within(card).findByText('Lives in Lyon.')).toBeTruthy()
    expect(within(card).getByText('Unchanged')).toBeTruthy()
    expect(within(card).getByText('Changed since')).toBeTruthy()
    // Whose memory it is, in words; revision numbers and scope names only under Technical details.
    expect(within(card).getAllByText('Fact · Only Ada')).toHaveLength(3)
    const details = within(card).getByTestId('memory-given-details')
    expect(details.hasAttribute('open')).toBe(false)
    expect(within(details).getAllByTestId('memory-given-revisions').map((e) => e.textContent)).toEqual([
      'Given at revision 1; scope own',
      'Given at revision 1, now at revision 3; scope own',
      'Given at revision 1; scope own',
    ])
    const given = within(card).getByTestId('memory-given').cloneNode(true) as HTMLElement
    given.querySelector('[data-testid="memory-given-details"]')?.remove()
    expect(given.textContent).not.toMatch(/revision|\bown\b/)
    expect(within(card).getByText('Forgotten since: its text is gone.')).toBeTruthy()
    expect(server.queried('RunMemoryContext')).toEqual([{ id: 'run-1' }])
  })
})

describe('RunCard, the “Memory updated” line', () => {
  const change = (over: Partial<RunFieldsFragment['memoryChanges'][number]>) =>
    ({
      __typename: 'RunMemoryChange',
      kind: 'SAVED',
      itemId: 'item-1',
      scope: 'ada',
      waiting: false,
      label: 'locker code',
      at: '2025-03-01T09:31:00Z',
      ...over,
    }) as RunFieldsFragment['memoryChanges'][number]

  it('lists what the turn saved, suggested, proposed and forgot, each linked, and never quotes a forgotten memory', async () => {
    const { card } = await setup(
      runAnswer({
        memoryChanges: [
          change({}),
          change({ kind: 'SUGGESTED', itemId: 'cand-1', scope: 'shared', waiting: true, label: 'Has a gym locker' }),
          change({ kind: 'PROPOSED_FORGET', itemId: 'cand-2', waiting: true, label: null }),
          change({ kind: 'FORGOT', itemId: 'item-9', label: null }),
          change({ kind: 'FORGOT', itemId: 'item-8', label: null }),
        ],
      }),
    )
    const line = within(card).getByTestId('run-memory-updated')
    expect(line.textContent).toMatch(/^Memory updated:/)
    const entries = within(line).getAllByTestId('run-memory-change')
    expect(entries.map((e) => e.textContent)).toEqual([
      'saved “locker code”',
      'suggested “Has a gym locker” — waiting for you',
      'proposed forgetting a memory — waiting for you',
      'forgot 2 memories',
    ])
    expect(within(entries[0]).getByRole('link').getAttribute('href')).toBe('/teammates/ada#memory-item-1')
    expect(within(entries[1]).getByRole('link').getAttribute('href')).toBe('/settings/about-you#memory-cand-1')
    expect(within(entries[3]).queryByRole('link')).toBeNull()
  })

  it('says a memory forgotten since was saved, without its words or a link', async () => {
    const { card } = await setup(runAnswer({ memoryChanges: [change({ label: null })] }))
    const entry = within(card).getByTestId('run-memory-change')
    expect(entry.textContent).toBe('saved a memory that was forgotten since')
    expect(within(entry).queryByRole('link')).toBeNull()
  })

  it('says nothing when the turn left memory alone', async () => {
    const { card } = await setup(runAnswer())
    expect(within(card).queryByTestId('run-memory-updated')).toBeNull()
  })
})

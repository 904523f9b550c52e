// @vitest-environment happy-dom
import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeServer, renderWithApi, type Answer } from '../test/fakeApi.tsx'
import { memoryItem } from '../test/fixtures.ts'
import { WaitingSummary } from '../teammates/WaitingSummary.tsx'
import { useAboutYouWaiting, WaitingBadge } from './AboutYouWaiting.tsx'

const count = (totalCount: number): Answer => ({
  data: { memoryItems: { __typename: 'MemoryItemConnection', totalCount } },
})

function Probe() {
  return <WaitingBadge count={useAboutYouWaiting()} testId="badge" />
}

describe('About-you suggestions waiting', () => {
  it('shows no badge while none waits, and the count as soon as a shared suggestion arrives', async () => {
    let waiting = 0
    let arrive: (a: Answer) => void = () => {}
    const server = fakeServer({
      AboutYouWaiting: () => count(waiting),
      MemoryChanged: () => new Promise<Answer>((resolve) => (arrive = resolve)),
    })
    renderWithApi(<Probe />, server)
    await waitFor(() => expect(server.called('AboutYouWaiting').length).toBeGreaterThan(0))
    expect(server.queried('MemoryChanged')).toEqual([{ scope: { teammateId: null } }])
    expect(screen.queryByTestId('badge')).toBeNull()

    // A teammate suggests a memory about the user: the shared scope's event makes the count read again.
    waiting = 2
    arrive({
      data: {
        memoryChanged: {
          __typename: 'MemoryChange',
          scope: 'shared',
          itemId: 'cand-9',
          revision: 1,
          action: 'CREATE',
          status: 'CANDIDATE',
          item: memoryItem({ id: 'cand-9', scope: 'shared', status: 'CANDIDATE' }),
        },
      },
    })
    const badge = await screen.findByTestId('badge')
    expect(badge.dataset.count).toBe('2')
    expect(badge.textContent).toBe('22 suggestions waiting')
    expect(server.unexpected).toEqual([])
  })

  it('says 1 suggestion, not 1 suggestions', () => {
    render(<WaitingBadge count={1} testId="one" />)
    expect(screen.getByTestId('one').textContent).toBe('11 suggestion waiting')
  })
})

describe('WaitingSummary', () => {
  it('adds About you to the teammates’ suggestions', () => {
    renderWithApi(<WaitingSummary aboutYou={2} teammates={3} />, fakeServer({}))
    const line = screen.getByTestId('waiting-summary')
    expect(line.textContent).toBe('5 suggestions waiting for you to confirm or dismiss: 2 in About you, 3 with your teammates below.')
    expect(screen.getByTestId('waiting-summary-about-you').getAttribute('href')).toBe('/settings/about-you')
  })

  it('names only what waits, and nothing when nothing does', () => {
    const { rerender } = renderWithApi(<WaitingSummary aboutYou={0} teammates={1} />, fakeServer({}))
    expect(screen.getByTestId('waiting-summary').textContent).toBe('1 suggestion waiting for you to confirm or dismiss: 1 with your teammates below.')
    rerender(<WaitingSummary aboutYou={0} teammates={0} />)
    expect(screen.queryByTestId('waiting-summary')).toBeNull()
  })
})

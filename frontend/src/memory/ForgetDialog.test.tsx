// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeServer, renderWithApi } from '../test/fakeApi.tsx'
import { ForgetDialog } from './ForgetDialog.tsx'

function setup(purged: boolean) {
  const server = fakeServer({
    ForgetInfo: () => ({
      data: {
        copies: [
          { __typename: 'MemoryItem', id: 'copy-1', scope: 'shared', status: 'ACTIVE', key: null, content: 'Allergic to peanuts!', teammate: null },
          { __typename: 'MemoryItem', id: 'copy-2', scope: 'bob', status: 'CANDIDATE', key: null, content: 'allergic to peanuts', teammate: { __typename: 'Teammate', id: 'bob', name: 'Bob' } },
        ],
        erasure: { __typename: 'Erasure', purged, purgeDelaySeconds: purged ? 30 : null },
      },
    }),
  })
  renderWithApi(<ForgetDialog item={{ id: 'item-1', key: 'allergy', content: 'Allergic to peanuts' }} onForgotten={() => {}} onClose={() => {}} />, server)
}

/** What the dialog says with Technical details folded (their content left out). */
function mainText(): string {
  const dialog = screen.getByTestId('forget-dialog').cloneNode(true) as HTMLElement
  for (const d of dialog.querySelectorAll('details')) {
    for (const child of [...d.children]) if (child.tagName !== 'SUMMARY') child.remove()
  }
  return dialog.textContent ?? ''
}

describe('ForgetDialog', () => {
  it('says plainly what is erased and that it can’t be undone; the storage facts are folded', async () => {
    setup(true)
    const storage = await screen.findByTestId('forget-storage')
    const main = mainText()
    expect(main).toContain('This text and its key, from every saved version in the history and from search.')
    expect(main).toContain('This can’t be undone.')
    expect(main).toContain('Technical details')
    for (const jargon of ['embedding', 'index', 'row versions', 'statistics', 'write-ahead log']) expect(main).not.toContain(jargon)

    const details = screen.getByTestId('forget-details')
    expect(details.hasAttribute('open')).toBe(false)
    expect(details.contains(storage)).toBe(true)
    expect(details.textContent).toContain('Every embedding made from it is deleted')
    expect(storage.textContent).toContain('old row versions, statistics and the write-ahead log')
  })

  it('names the copies by whose memory they are: About you, or only one teammate', async () => {
    setup(false)
    const copies = await screen.findByTestId('forget-copies')
    expect(within(copies).getByText(/— About you/)).toBeTruthy()
    expect(within(copies).getByText(/— only Bob, a suggestion/)).toBeTruthy()
    expect(copies.textContent).not.toMatch(/shared memory/i)
    expect((await screen.findByTestId('forget-storage')).textContent).toContain('DATABASE_URL')
  })
})

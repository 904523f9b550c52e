// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fakeServer, renderWithApi } from '../test/fakeApi.tsx'
import { memoryItem } from '../test/fixtures.ts'
import { CreateMemoryForm, preferencePinnedHint } from './CreateMemoryForm.tsx'

function setup() {
  const server = fakeServer({
    ForgottenBefore: () => ({ data: { forgottenBefore: false } }),
    CreateMemory: (v) => {
      const input = v.input as { kind: string; pinned: boolean; content: string }
      return {
        data: {
          createMemory: {
            __typename: 'MemoryItemPayload',
            item: memoryItem({ id: 'new', kind: input.kind as 'FACT', pinned: input.pinned, content: input.content }),
          },
        },
      }
    },
  })
  let closed = 0
  renderWithApi(<CreateMemoryForm scope={{ teammateId: 'ada' }} onClose={() => closed++} />, server)
  return { server, user: userEvent.setup({ delay: null }), closed: () => closed }
}

const pinnedBox = () => screen.getByTestId('create-pinned') as HTMLInputElement

describe('CreateMemoryForm, a preference', () => {
  it('is pinned by default, and says why', async () => {
    const { server, user, closed } = setup()
    expect(pinnedBox().checked).toBe(false)
    expect(screen.queryByTestId('create-pinned-why')).toBeNull()
    await user.selectOptions(screen.getByTestId('create-kind'), 'PREFERENCE')
    expect(pinnedBox().checked).toBe(true)
    expect(screen.getByTestId('create-pinned-why').textContent).toBe(preferencePinnedHint)
    await user.type(screen.getByTestId('create-content'), 'Prefers answers in bullet points')
    await user.click(screen.getByTestId('create-submit'))
    await waitFor(() => expect(closed()).toBe(1))
    expect(server.called('CreateMemory')[0]).toMatchObject({ input: { kind: 'PREFERENCE', pinned: true } })
  })

  it('can be unpinned, and stays so when the kind changes', async () => {
    const { server, user, closed } = setup()
    await user.selectOptions(screen.getByTestId('create-kind'), 'PREFERENCE')
    await user.click(pinnedBox())
    expect(pinnedBox().checked).toBe(false)
    await user.selectOptions(screen.getByTestId('create-kind'), 'FACT')
    await user.selectOptions(screen.getByTestId('create-kind'), 'PREFERENCE')
    expect(pinnedBox().checked).toBe(false)
    await user.type(screen.getByTestId('create-content'), 'Prefers metric units')
    await user.click(screen.getByTestId('create-submit'))
    await waitFor(() => expect(closed()).toBe(1))
    expect(server.called('CreateMemory')[0]).toMatchObject({ input: { kind: 'PREFERENCE', pinned: false } })
  })

  it('leaves other kinds unpinned', async () => {
    const { user } = setup()
    for (const kind of ['FACT', 'NOTE', 'LESSON']) {
      await user.selectOptions(screen.getByTestId('create-kind'), kind)
      expect(pinnedBox().checked).toBe(false)
    }
  })
})

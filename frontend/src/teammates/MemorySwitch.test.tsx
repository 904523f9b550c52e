// @vitest-environment happy-dom
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fakeServer, renderWithApi, type Answer } from '../test/fakeApi.tsx'
import { MemorySwitch, MemorySwitchMarker } from './MemorySwitch.tsx'

const ada = { id: 'tm-ada', name: 'Ada', useMemory: true, saveMemory: true }

const switched = (variables: Record<string, unknown>): Answer => {
  const input = variables.input as { useMemory?: boolean; saveMemory?: boolean }
  return {
    data: {
      setMemorySwitch: {
        __typename: 'SetMemorySwitchPayload',
        teammate: { __typename: 'Teammate', id: 'tm-ada', useMemory: input.useMemory ?? true, saveMemory: input.saveMemory ?? true },
      },
    },
  }
}

describe('MemorySwitch', () => {
  it('shows two labelled toggles, on, each explained in one line', () => {
    renderWithApi(<MemorySwitch teammate={ada} />, fakeServer({}))
    const use = screen.getByRole('switch', { name: /Use memory/ })
    const save = screen.getByRole('switch', { name: /Save to memory/ })
    expect((use as HTMLInputElement).checked).toBe(true)
    expect((save as HTMLInputElement).checked).toBe(true)
    expect(use.getAttribute('aria-describedby')).toBe(screen.getByTestId('switch-use-memory-hint').id)
    expect(screen.getByTestId('switch-use-memory-hint').textContent).toContain('is given what it remembers')
    expect(screen.getByTestId('switch-save-memory-hint').textContent).toContain('waits for you as a suggestion')
  })

  it('says what off means', () => {
    renderWithApi(<MemorySwitch teammate={{ ...ada, useMemory: false, saveMemory: false }} />, fakeServer({}))
    expect((screen.getByTestId('switch-use-memory') as HTMLInputElement).checked).toBe(false)
    expect(screen.getByTestId('switch-use-memory-hint').textContent).toBe(
      'Off: Ada is given no memory, not even pinned items, and is told memory is off.',
    )
    expect(screen.getByTestId('switch-save-memory-hint').textContent).toContain('even when you asked for it')
  })

  it('sends one setting at a time', async () => {
    const server = fakeServer({ SetMemorySwitch: switched })
    renderWithApi(<MemorySwitch teammate={ada} />, server)
    const user = userEvent.setup({ delay: null })
    await user.click(screen.getByTestId('switch-save-memory'))
    await waitFor(() => expect(server.called('SetMemorySwitch')).toEqual([{ input: { teammateId: 'tm-ada', saveMemory: false } }]))
    await user.click(screen.getByTestId('switch-use-memory'))
    await waitFor(() => expect(server.called('SetMemorySwitch')).toHaveLength(2))
    expect(server.called('SetMemorySwitch')[1]).toEqual({ input: { teammateId: 'tm-ada', useMemory: false } })
  })

  it('shows a refusal and keeps the setting the server holds', async () => {
    const server = fakeServer({
      SetMemorySwitch: () => ({ errors: [{ message: 'this credential may not do that', extensions: { code: 'FORBIDDEN' } }] }),
    })
    renderWithApi(<MemorySwitch teammate={ada} />, server)
    await userEvent.setup({ delay: null }).click(screen.getByTestId('switch-use-memory'))
    expect(await screen.findByTestId('memory-switch-error')).toBeTruthy()
    expect((screen.getByTestId('switch-use-memory') as HTMLInputElement).checked).toBe(true)
  })
})

describe('MemorySwitchMarker', () => {
  it('marks memory off and not saving, each alone or both, and nothing when both are on', () => {
    const { rerender, container } = render(<MemorySwitchMarker useMemory={false} saveMemory={false} />)
    expect(screen.getByTestId('teammate-memory-off').textContent).toBe('memory off')
    expect(screen.getByTestId('teammate-not-saving').textContent).toBe('not saving')
    rerender(<MemorySwitchMarker useMemory={false} saveMemory />)
    expect(screen.queryByTestId('teammate-not-saving')).toBeNull()
    rerender(<MemorySwitchMarker useMemory saveMemory={false} />)
    expect(screen.queryByTestId('teammate-memory-off')).toBeNull()
    expect(screen.getByTestId('teammate-not-saving').textContent).toBe('not saving')
    rerender(<MemorySwitchMarker useMemory saveMemory />)
    expect(container.textContent).toBe('')
  })
})

// @vitest-environment happy-dom
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { errorAnswer, fakeServer, renderWithApi } from '../test/fakeApi.tsx'
import { TransferSection } from './TransferSection.tsx'

const exportFile = (kind: string) =>
  new File(
    [JSON.stringify({ format: 'memory-export', version: 1, items: [{ kind: 'fact', content: 'A' }, { kind, content: 'B' }] })],
    'memory.json',
    { type: 'application/json' },
  )

describe('TransferSection, import', () => {
  it('says what is wrong with the file in the server’s words: the item counted from 1, no path into the JSON', async () => {
    const server = fakeServer({
      // As the API answers a file whose second item has an unknown kind (internal/memory import errors).
      ImportMemory: () => errorAnswer('BAD_USER_INPUT', { field: 'data.items[1].kind' }, 'Item 2: kind must be fact, preference, lesson or note'),
    })
    renderWithApi(<TransferSection scope={{ teammateId: 'ada' }} whose="Ada’s memory" />, server)
    await userEvent.setup({ delay: null }).upload(screen.getByTestId('import-file'), exportFile('rumour'))
    const error = await screen.findByTestId('import-error')
    expect(error.textContent).toBe('Nothing was imported from memory.json. Item 2: kind must be fact, preference, lesson or note.')
    expect(error.textContent).not.toContain('data.items')
    expect(server.called('ImportMemory')).toHaveLength(1)
  })

  it('names About you as the place it imports into', async () => {
    const server = fakeServer({
      ImportMemory: () => ({ data: { importMemory: { __typename: 'ImportMemoryPayload', items: [{ __typename: 'MemoryItem', id: 'i1' }, { __typename: 'MemoryItem', id: 'i2' }], unchanged: 0 } } }),
    })
    renderWithApi(<TransferSection scope={{ teammateId: null }} whose="About you" />, server)
    expect(screen.getByText(/Adds the file’s memories to About you;/)).toBeTruthy()
    await userEvent.setup({ delay: null }).upload(screen.getByTestId('import-file'), exportFile('fact'))
    expect((await screen.findByTestId('import-done')).textContent).toBe('Imported 2 memories from memory.json into About you.')
  })
})

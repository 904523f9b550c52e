// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeServer, renderWithApi, type Answer } from '../test/fakeApi.tsx'
import { ConnectAgent, NewTeammateNextStep, agentSnippets } from './ConnectAgent.tsx'

const ada = { id: 'tm-ada', name: 'Ada' }

const start = (memories: number, runs: number): Answer => ({
  data: {
    memoryItems: { __typename: 'MemoryItemConnection', totalCount: memories },
    runs: Array.from({ length: runs }, (_, i) => ({ __typename: 'Run', id: `run-${i}` })),
  },
})

function page(memories = 0, runs = 0) {
  const server = fakeServer({ TeammateStart: () => start(memories, runs) })
  renderWithApi(
    <>
      <NewTeammateNextStep teammate={ada} />
      <ConnectAgent teammate={ada} />
    </>,
    server,
  )
  return { server, user: userEvent.setup({ delay: null }) }
}

describe('agentSnippets', () => {
  it('fills in the id, and the address only when it is not the default', () => {
    const local = agentSnippets('tm-1', 'http://127.0.0.1:8080')
    expect(local.run).toMatch(/^go run \.\/cmd\/worker play -teammate "tm-1" -message "Your message" -mcp \\\n {2}-agent 'claude -p --mcp-config \.mcp\.json --allowedTools "mcp__memory"'$/)
    expect(JSON.parse(local.claude)).toEqual({
      mcpServers: { memory: { type: 'http', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer ${MEMORY_RUN_TOKEN}' } } },
    })
    expect(local.codex).toBe('[mcp_servers.memory]\nurl = "http://127.0.0.1:8080/mcp"\nbearer_token_env_var = "MEMORY_RUN_TOKEN"')
    const other = agentSnippets('tm-1', 'https://memory.example:9000')
    expect(other.run.startsWith('MEMORY_API_URL=https://memory.example:9000 go run ./cmd/worker play -teammate "tm-1"')).toBe(true)
    expect(other.any).toBe('https://memory.example:9000/mcp')
  })
})

describe('ConnectAgent', () => {
  afterEach(() => vi.restoreAllMocks())

  it('is folded at first, and copies the id', async () => {
    const { user } = page(1, 0)
    // userEvent.setup puts its own clipboard on navigator.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    expect(screen.queryByTestId('connect-agent')).toBeNull()
    await user.click(screen.getByRole('button', { name: /Connect an agent/ }))
    expect(screen.getByTestId('connect-agent-id').textContent).toBe('tm-ada')
    expect(screen.getByTestId('connect-agent-run').textContent).toContain('-teammate "tm-ada"')
    await user.click(screen.getByTestId('connect-agent-copy'))
    expect(writeText).toHaveBeenCalledWith('tm-ada')
    expect(screen.getByTestId('connect-agent-copied').textContent).toBe('Copied.')
  })

  it('says to copy by hand when the clipboard refuses', async () => {
    const { user } = page(1, 0)
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    await user.click(screen.getByRole('button', { name: /Connect an agent/ }))
    await user.click(screen.getByTestId('connect-agent-copy'))
    await waitFor(() => expect(screen.getByTestId('connect-agent-copied').textContent).toMatch(/copy it by hand/))
  })

  it('is the next step of a new teammate, which opens it', async () => {
    const { user } = page(0, 0)
    const next = await screen.findByTestId('teammate-next-step')
    await user.click(next.querySelector('button')!)
    expect(screen.getByTestId('connect-agent')).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByTestId('connect-agent-toggle'))
  })

  it('says no next step once the teammate has a memory or a conversation', async () => {
    const { server } = page(0, 1)
    await waitFor(() => expect(server.called('TeammateStart').length).toBeGreaterThan(0))
    await new Promise((r) => setTimeout(r, 20))
    expect(screen.queryByTestId('teammate-next-step')).toBeNull()
  })
})

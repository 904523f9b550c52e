import { useState } from 'react'
import { useQuery } from 'urql'
import { graphql } from '../gql'
import { Disclosure } from '../ui/Disclosure.tsx'

/** Whether the teammate has anything yet: one memory, one conversation. */
const TeammateStartQuery = graphql(`
  query TeammateStart($scope: ScopeInput!, $teammateId: ID!) {
    memoryItems(scope: $scope, first: 1) {
      totalCount
    }
    runs(teammateId: $teammateId, first: 1) {
      id
    }
  }
`)

/** The id of the box that holds the panel, which the new teammate's next-step note opens. */
export const connectAgentId = 'connect-agent'

// The API's address the worker and cmd/worker's MCP relay use when MEMORY_API_URL is not set.
const defaultApiUrl = 'http://127.0.0.1:8080'

/** The snippets of docs/MCP.md and docs/WORKER.md, with this teammate's id and this server's address. */
export function agentSnippets(teammateId: string, apiUrl: string) {
  const env = apiUrl === defaultApiUrl ? '' : `MEMORY_API_URL=${apiUrl} `
  return {
    run:
      `${env}go run ./cmd/worker play -teammate "${teammateId}" -message "Your message" -mcp \\\n` +
      `  -agent 'claude -p --mcp-config .mcp.json --allowedTools "mcp__memory"'`,
    claude: JSON.stringify(
      { mcpServers: { memory: { type: 'http', url: `${apiUrl}/mcp`, headers: { Authorization: 'Bearer ${MEMORY_RUN_TOKEN}' } } } },
      null,
      2,
    ),
    codex: `[mcp_servers.memory]\nurl = "${apiUrl}/mcp"\nbearer_token_env_var = "MEMORY_RUN_TOKEN"`,
    any: `${apiUrl}/mcp`,
  }
}

/**
 * How to connect an agent (Codex, Claude Code, any MCP client) to this teammate, folded away: the
 * teammate's id, to copy, and what to run. The agent never connects by itself: the worker starts a
 * run for the teammate and hands the agent that run's token, which reaches the memory tools for that
 * run only (docs/MCP.md, docs/WORKER.md).
 */
export function ConnectAgent({ teammate }: { teammate: { id: string; name: string } }) {
  const s = agentSnippets(teammate.id, location.origin)
  return (
    <div className="connect-agent" id={connectAgentId}>
      <Disclosure label="Connect an agent" className="connect-agent-body" toggleTestId="connect-agent-toggle" contentTestId="connect-agent">
        <p className="small">
          An agent — Claude Code, Codex or any MCP client — reaches {teammate.name}’s memory through a <em>run</em>: the worker starts
          one for a message, gives the agent the memory and a token for that run, and the agent calls the memory tools over MCP
          with it until the run ends.
        </p>
        <CopyId id={teammate.id} />
        <p className="small">
          <strong>1. Start a run</strong> from the repository, with the server running (the worker reads its token from{' '}
          <code>.data/worker-token</code>). This one runs Claude Code with the file of step 2 and completes the run with its reply:
        </p>
        <pre className="snippet" data-testid="connect-agent-run">
          {s.run}
        </pre>
        <p className="small">
          <strong>2. Point the agent at the memory tools.</strong> The worker gives the agent <code>MEMORY_RUN_TOKEN</code>; the
          token, not the id, says whose memory it is.
        </p>
        <p className="small">Claude Code, in <code>.mcp.json</code>:</p>
        <pre className="snippet" data-testid="connect-agent-claude">
          {s.claude}
        </pre>
        <p className="small">
          Codex, in <code>~/.codex/config.toml</code>:
        </p>
        <pre className="snippet" data-testid="connect-agent-codex">
          {s.codex}
        </pre>
        <p className="small">
          Any MCP client: Streamable HTTP at <code>{s.any}</code> with the header <code>Authorization: Bearer $MEMORY_RUN_TOKEN</code>,
          or the stdio command <code>worker mcp</code> with <code>MEMORY_RUN_TOKEN</code> in its environment. Without{' '}
          <code>-agent</code>, <code>worker play -mcp</code> prints the address and the token for you to use by hand. More in
          docs/MCP.md and docs/WORKER.md.
        </p>
      </Disclosure>
    </div>
  )
}

/** The teammate's id with a Copy button; where the clipboard can't be written, says to copy it by hand. */
function CopyId({ id }: { id: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard')
      await navigator.clipboard.writeText(id)
      setCopied('yes')
    } catch {
      setCopied('no')
    }
  }
  return (
    <p className="small copy-id">
      Teammate id: <code data-testid="connect-agent-id">{id}</code>{' '}
      <button type="button" className="button small" onClick={() => void copy()} data-testid="connect-agent-copy">
        Copy
      </button>{' '}
      <span role="status" className="muted" data-testid="connect-agent-copied">
        {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Copying isn’t available here: select the id and copy it by hand.' : ''}
      </span>
    </p>
  )
}

/** Opens the Connect an agent panel and moves the focus to it. */
function openConnectAgent() {
  const toggle = document.querySelector<HTMLButtonElement>(`#${connectAgentId} button.disclosure`)
  if (!toggle) return
  if (toggle.getAttribute('aria-expanded') !== 'true') toggle.click()
  toggle.focus()
  toggle.scrollIntoView({ block: 'start', behavior: 'instant' })
}

/**
 * The next step on a new teammate's page — no memory, no conversation yet: connect an agent. It shows
 * once both are known to be empty.
 */
export function NewTeammateNextStep({ teammate }: { teammate: { id: string; name: string } }) {
  const [{ data }] = useQuery({
    query: TeammateStartQuery,
    variables: { scope: { teammateId: teammate.id }, teammateId: teammate.id },
    requestPolicy: 'cache-and-network',
  })
  if (!data || data.memoryItems.totalCount > 0 || data.runs.length > 0) return null
  return (
    <p className="message info" data-testid="teammate-next-step">
      <strong>Next step:</strong> {teammate.name} has no memory and no conversations yet.{' '}
      <button type="button" className="link-button" onClick={openConnectAgent}>
        Connect an agent
      </button>{' '}
      to start its first conversation.
    </p>
  )
}

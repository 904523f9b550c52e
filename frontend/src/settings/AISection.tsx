import { useEffect, type ReactNode } from 'react'
import { useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'

const AIStatusQuery = graphql(`
  query AIStatus {
    aiStatus {
      embeddings
      embeddingModel
      embeddingDimensions
      embeddingHost
      embedded
      embeddable
      extraction
      extractionModel
      extractionHost
      requestsToday
      dailyRequestLimit
    }
  }
`)

// While re-embedding is under way the progress is re-read this often.
const progressInterval = 5000

/**
 * Settings → AI (I1–I5): whether embeddings and extraction are on, with which model, and — in plain
 * words — what is sent to which host; today's AI requests against the daily limit; re-embedding
 * progress. With nothing configured it says that memory works fully without AI.
 */
export function AISection() {
  const [{ data, error, fetching }, reexecute] = useQuery({ query: AIStatusQuery, requestPolicy: 'network-only' })
  const status = data?.aiStatus
  const reembedding = !!status && status.embeddings && status.embedded < status.embeddable

  useEffect(() => {
    if (!reembedding) return
    const t = setInterval(() => reexecute({ requestPolicy: 'network-only' }), progressInterval)
    return () => clearInterval(t)
  }, [reembedding, reexecute])

  if (!status) {
    return (
      <div data-testid="ai-section" data-state="loading">
        {error ? (
          <ErrorMessage>{describeError(error)}</ErrorMessage>
        ) : (
          <p className="muted">{fetching ? 'Loading…' : ''}</p>
        )}
      </div>
    )
  }

  const off = status.dailyRequestLimit === 0
  const none = !status.embeddings && !status.extraction
  return (
    <div className="ai-section" data-testid="ai-section" data-state="ready">
      <p className="lede">
        Memory can use an AI service for two optional things: finding related memories by meaning (embeddings), and
        suggesting memories from your messages (extraction). Neither is needed.
      </p>

      {none && (
        <div className="card ai-none" data-testid="ai-none">
          <h2 className="panel-title">No AI is configured</h2>
          <p>
            <strong>Memory works fully without AI.</strong> Teammates are given memory found by its words, pinned memory
            always comes first, and suggestions come only from teammates’ own tools. Nothing is sent to any AI service.
          </p>
          <p className="muted small">
            To turn either on, set <code>MEMORY_EMBEDDING_URL</code> and <code>MEMORY_EMBEDDING_MODEL</code>, or{' '}
            <code>MEMORY_EXTRACTION_URL</code> and <code>MEMORY_EXTRACTION_MODEL</code>, with <code>MEMORY_AI_API_KEY</code>,
            and restart the server (docs/CONFIGURATION.md lists every setting).
          </p>
        </div>
      )}

      <div className="ai-grid">
        <AIFeature feature="embeddings" title="Embeddings" on={status.embeddings}>
          {status.embeddings ? (
            <>
              <p data-testid="ai-embeddings-sent">
                <strong>The text of your memories is sent to {status.embeddingHost ?? 'the configured service'}</strong> —
                each new or edited memory, and the words of each request when a teammate recalls memory — to find related
                memories by meaning.
              </p>
              <dl className="facts">
                <dt>Model</dt>
                <dd>
                  <code>{status.embeddingModel}</code>
                  {status.embeddingDimensions ? ` · ${status.embeddingDimensions} dimensions` : ''}
                </dd>
                <dt>Embedded</dt>
                <dd data-testid="ai-progress">
                  {status.embedded} of {status.embeddable} {status.embeddable === 1 ? 'memory' : 'memories'}
                  {reembedding ? ' — re-embedding is under way' : ''}
                  <progress max={Math.max(1, status.embeddable)} value={status.embedded} aria-label="Memories embedded" />
                </dd>
              </dl>
            </>
          ) : (
            <p className="muted" data-testid="ai-embeddings-sent">
              Not configured: memory text is not sent anywhere. Teammates get memory found by its words.
            </p>
          )}
        </AIFeature>

        <AIFeature feature="extraction" title="Extraction" on={status.extraction}>
          {status.extraction ? (
            <>
              <p data-testid="ai-extraction-sent">
                <strong>Your messages to teammates are sent to {status.extractionHost ?? 'the configured service'}</strong>{' '}
                after each reply, to suggest things worth remembering. Suggestions still wait for you to confirm them.
              </p>
              <dl className="facts">
                <dt>Model</dt>
                <dd>
                  <code>{status.extractionModel}</code>
                </dd>
              </dl>
            </>
          ) : (
            <p className="muted" data-testid="ai-extraction-sent">
              Not configured: your messages are not sent anywhere. Suggestions come only from teammates.
            </p>
          )}
        </AIFeature>
      </div>

      <section className="card ai-usage" data-testid="ai-usage" aria-labelledby="ai-usage-title">
        <h2 className="panel-title" id="ai-usage-title">
          Today’s use
        </h2>
        {off ? (
          <p data-testid="ai-usage-text">The daily limit is 0, so memory AI is off: no requests are made.</p>
        ) : (
          <>
            <p data-testid="ai-usage-text">
              {status.requestsToday} of {status.dailyRequestLimit} AI requests used today (the count restarts at midnight UTC).
              When the limit is reached, memory keeps working with word search alone.
            </p>
            <progress max={status.dailyRequestLimit} value={Math.min(status.requestsToday, status.dailyRequestLimit)} aria-label="AI requests used today" />
          </>
        )}
      </section>
    </div>
  )
}

interface AIFeatureProps {
  /** embeddings or extraction: the card's test ids and title id start with ai-<feature>. */
  feature: string
  title: string
  on: boolean
  /** What is sent where, or that nothing is. */
  children: ReactNode
}

/** The card of one optional AI feature: its name, whether it is on, and what it sends. */
function AIFeature({ feature, title, on, children }: AIFeatureProps) {
  return (
    <section className="card ai-feature" data-testid={`ai-${feature}`} data-on={on} aria-labelledby={`ai-${feature}-title`}>
      <div className="ai-feature-head">
        <h2 className="panel-title" id={`ai-${feature}-title`}>
          {title}
        </h2>
        <span className={`badge ${on ? 'state-unchanged' : 'subtle'}`} data-testid={`ai-${feature}-status`}>
          {on ? 'On' : 'Not configured'}
        </span>
      </div>
      {children}
    </section>
  )
}

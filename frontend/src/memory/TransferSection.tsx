import { useId, useRef, useState, type ChangeEvent } from 'react'
import { useMutation } from 'urql'
import { describeError } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { graphql } from '../gql'
import type { ScopeInput } from '../gql/graphql.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'

// What the import wrote is read by the scope's lists, which the mutation's updater invalidates.
const ImportMemoryMutation = graphql(`
  mutation ImportMemory($input: ImportMemoryInput!) {
    importMemory(input: $input) {
      items {
        id
      }
      unchanged
    }
  }
`)

interface TransferSectionProps {
  scope: ScopeInput
  /** Whose memory this is, for the sentences ("Ada's memory", "About you"). */
  whose: string
}

/**
 * Export and import of one scope's memory. Export is an ordinary download of GET /export (the
 * session cookie goes with it), as JSON — complete, and what import reads — or as Markdown to read.
 * Import reads a JSON export chosen with the file picker; the server checks all of it first and
 * writes every item or none, so an error names what is wrong and nothing is half-imported.
 */
export function TransferSection({ scope, whose }: TransferSectionProps) {
  const limits = useLimits()
  const [withHistory, setWithHistory] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [{ fetching }, importMemory] = useMutation(ImportMemoryMutation)
  const fileInput = useRef<HTMLInputElement>(null)
  const id = useId()
  const scopeParam = scope.teammateId ?? 'shared'
  const href = (format: 'json' | 'markdown') =>
    `/export?scope=${encodeURIComponent(scopeParam)}&format=${format}${withHistory ? '&revisions=true' : ''}`

  const chosen = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = '' // choosing the same file again is a new choice
    setProblem(null)
    setDone(null)
    if (!file) return
    // The API's request limit bounds what an import can send.
    if (file.size > limits.requestBytes) {
      setProblem(`${file.name} is too big to import: ${Math.ceil(file.size / 1024)} KiB, and at most ${Math.floor(limits.requestBytes / 1024).toLocaleString('en')} KiB fit.`)
      return
    }
    const data = await file.text()
    try {
      JSON.parse(data)
    } catch {
      setProblem(`${file.name} isn’t a memory export: it isn’t JSON. Choose a file exported here as JSON (Markdown exports can’t be imported).`)
      return
    }
    const result = await importMemory({ input: { scope: { teammateId: scope.teammateId ?? null }, format: 'JSON', data } })
    if (!result.data) {
      setProblem(`Nothing was imported from ${file.name}. ${describeError(result.error)}`)
      return
    }
    const { items, unchanged } = result.data.importMemory
    const written = items.length === 1 ? '1 memory' : `${items.length} memories`
    setDone(
      `Imported ${written} from ${file.name} into ${whose}.` +
        (unchanged > 0 ? ` ${unchanged === 1 ? '1 was' : `${unchanged} were`} already there and left as they were.` : ''),
    )
  }

  return (
    <section className="transfer card" aria-labelledby={`${id}-title`} data-testid="transfer-section">
      <h2 className="panel-title" id={`${id}-title`}>
        Export and import
      </h2>
      <p className="small muted">
        A copy of {whose} as a file: active memories with their kind, key, pin and expiry. Forgotten memories and suggestions
        are never in it.
      </p>
      <div className="transfer-row">
        <a className="button small" href={href('json')} download data-testid="export-json">
          Export as JSON
        </a>
        <a className="button small" href={href('markdown')} download data-testid="export-markdown">
          Export as Markdown
        </a>
        <label className="check small">
          <input type="checkbox" checked={withHistory} onChange={(e) => setWithHistory(e.target.checked)} data-testid="export-history" />
          with every earlier version
        </label>
      </div>
      <div className="transfer-row">
        <input
          id={`${id}-file`}
          ref={fileInput}
          className="visually-hidden"
          type="file"
          accept="application/json,.json"
          onChange={(e) => void chosen(e)}
          disabled={fetching}
          aria-describedby={`${id}-import-help`}
          data-testid="import-file"
        />
        <label htmlFor={`${id}-file`} className="button small" data-testid="import-label">
          {fetching ? 'Importing…' : 'Import a JSON export…'}
        </label>
        <span className="small muted" id={`${id}-import-help`}>
          Adds the file’s memories to {whose}; all of them, or none if anything in the file is wrong.
        </span>
      </div>
      <div aria-live="polite">
        {problem && <ErrorMessage testId="import-error">{problem}</ErrorMessage>}
        {done && (
          <p className="message ok" data-testid="import-done">
            {done}
          </p>
        )}
      </div>
    </section>
  )
}

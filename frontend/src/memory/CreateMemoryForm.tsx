import { useId, useState, type FormEvent } from 'react'
import { useMutation } from 'urql'
import { describeError } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { graphql } from '../gql'
import type { MemoryKind, ScopeInput } from '../gql/graphql.ts'
import { ForgottenWarning, useForgottenGuard } from './ForgottenWarning.tsx'
import { fromLocalInput, memoryKinds } from './model.ts'

const CreateMemoryMutation = graphql(`
  mutation CreateMemory($input: CreateMemoryInput!) {
    createMemory(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

interface CreateMemoryFormProps {
  scope: ScopeInput
  /** The item was saved (the scope's lists read it), or the user cancelled. */
  onClose(): void
}

/** The form that adds an item to a scope; a text forgotten before is saved only after a warning (F3). */
export function CreateMemoryForm({ scope, onClose }: CreateMemoryFormProps) {
  const limits = useLimits()
  const [content, setContent] = useState('')
  const [key, setKey] = useState('')
  const [kind, setKind] = useState<MemoryKind>('FACT')
  const [pinned, setPinned] = useState(false)
  const [expires, setExpires] = useState('')
  const [{ fetching, error }, createMemory] = useMutation(CreateMemoryMutation)
  const guard = useForgottenGuard(scope)
  const [checkError, setCheckError] = useState<string | null>(null)
  const id = useId()

  const submit = async (e?: FormEvent, confirmed = false) => {
    e?.preventDefault()
    if (!content.trim()) return
    setCheckError(null)
    const check = await guard.check(content, confirmed)
    if (check.verdict === 'warn') return
    if (check.verdict === 'error') {
      setCheckError(describeError(check.error))
      return
    }
    const result = await createMemory({
      input: {
        scope: { teammateId: scope.teammateId ?? null },
        content,
        key: key.trim() || null,
        kind,
        pinned,
        expiresAt: fromLocalInput(expires),
      },
    })
    if (result.data) onClose()
  }

  return (
    <form className="card form" onSubmit={submit} data-testid="memory-create-form" aria-label="New memory">
      <div className="field">
        <label htmlFor={`${id}-content`} className="field-label">
          What should be remembered
        </label>
        <textarea
          id={`${id}-content`}
          rows={3}
          required
          maxLength={limits.contentLength}
          value={content}
          onChange={(e) => {
            setContent(e.target.value)
            guard.reset()
          }}
          autoFocus
          data-testid="create-content"
        />
      </div>
      <div className="form-row">
        <div className="field grow">
          <label htmlFor={`${id}-key`} className="field-label">
            Key <span className="muted">(optional short label)</span>
          </label>
          <input
            id={`${id}-key`}
            type="text"
            maxLength={limits.keyLength}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            data-testid="create-key"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-kind`} className="field-label">
            Kind
          </label>
          <select
            id={`${id}-kind`}
            value={kind}
            onChange={(e) => setKind(e.target.value as MemoryKind)}
            data-testid="create-kind"
          >
            {memoryKinds.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-expires`} className="field-label">
            Expires <span className="muted">(optional)</span>
          </label>
          <input
            id={`${id}-expires`}
            type="datetime-local"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            data-testid="create-expires"
          />
        </div>
      </div>
      <label className="check">
        <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} data-testid="create-pinned" />
        Pinned <span className="muted">— always given to teammates, first</span>
      </label>
      {(error || checkError) && (
        <p className="message error" role="alert" data-testid="create-error">
          {checkError ?? describeError(error)}
        </p>
      )}
      {guard.warnedText === content ? (
        <ForgottenWarning busy={fetching} onConfirm={() => void submit(undefined, true)} onCancel={guard.reset} />
      ) : (
        <div className="actions">
          <button type="submit" className="button primary" disabled={fetching || guard.checking || !content.trim()} data-testid="create-submit">
            {fetching || guard.checking ? 'Saving…' : 'Save memory'}
          </button>
          <button type="button" className="button" onClick={onClose} data-testid="create-cancel">
            Cancel
          </button>
        </div>
      )}
    </form>
  )
}

import { useId, useState, type FormEvent } from 'react'
import { useMutation } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import type { MemoryKind, ScopeInput } from '../gql/graphql.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { Field } from '../ui/Field.tsx'
import { ForgottenWarning, useForgottenGuard } from './ForgottenWarning.tsx'
import { ContentArea, KeyField, KindField } from './MemoryFields.tsx'
import { fromLocalInput } from './model.ts'

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

/** Whether a new item of kind is pinned unless the user says otherwise, as the API decides. */
export function pinnedByDefault(kind: MemoryKind): boolean {
  return kind === 'PREFERENCE'
}

/** Why the form pins a preference, under its Pinned box. */
export const preferencePinnedHint = 'Preferences are pinned so they apply to every request — unpin to give it only when it matches.'

/** The form that adds an item to a scope; a text forgotten before is saved only after a warning (F3). */
export function CreateMemoryForm({ scope, onClose }: CreateMemoryFormProps) {
  const [content, setContent] = useState('')
  const [key, setKey] = useState('')
  const [kind, setKind] = useState<MemoryKind>('FACT')
  // Pinned follows the kind (a preference is pinned by default) until the user ticks or unticks it.
  const [pinnedChoice, setPinnedChoice] = useState<boolean | null>(null)
  const pinned = pinnedChoice ?? pinnedByDefault(kind)
  const [expires, setExpires] = useState('')
  const [{ fetching, error }, createMemory] = useMutation(CreateMemoryMutation)
  const guard = useForgottenGuard(scope)
  const [checkError, setCheckError] = useState<string | null>(null)
  const id = useId()

  const submit = async (e?: FormEvent, confirmed = false) => {
    e?.preventDefault()
    if (!content.trim()) return
    setCheckError(null)
    if (!(await guard.allows(content, confirmed, setCheckError))) return
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
      <Field htmlFor={`${id}-content`} label="What should be remembered">
        <ContentArea id={`${id}-content`} rows={3} required value={content} onChange={setContent} guard={guard} autoFocus testId="create-content" />
      </Field>
      <div className="form-row">
        <KeyField id={`${id}-key`} hint="optional short label" value={key} onChange={setKey} testId="create-key" />
        <KindField id={`${id}-kind`} value={kind} onChange={setKind} testId="create-kind" />
        <Field htmlFor={`${id}-expires`} label="Expires" hint="optional">
          <input
            id={`${id}-expires`}
            type="datetime-local"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            data-testid="create-expires"
          />
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={pinned} onChange={(e) => setPinnedChoice(e.target.checked)} data-testid="create-pinned" />
        Pinned <span className="muted">— always given to teammates, first</span>
      </label>
      {kind === 'PREFERENCE' && (
        <p className="muted small" data-testid="create-pinned-why">
          {preferencePinnedHint}
        </p>
      )}
      {(error || checkError) && <ErrorMessage testId="create-error">{checkError ?? describeError(error)}</ErrorMessage>}
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

import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useMutation, type CombinedError } from 'urql'
import { useWhenConnectionBack } from '../api/connection.ts'
import { conflictRevision, describeError, hasErrorCode, isNetworkError } from '../api/errors.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { TechnicalDetails } from '../ui/TechnicalDetails.tsx'
import { Field } from '../ui/Field.tsx'
import { ForgottenWarning, useForgottenGuard } from './ForgottenWarning.tsx'
import { ContentArea, KeyField, KindField, textRows } from './MemoryFields.tsx'
import {
  EditMemoryMutation,
  draftChanges,
  draftOf,
  formatTime,
  kindLabel,
  scopeInputOf,
  useRereadItem,
  type MemoryDraft,
  type MemoryItem,
} from './model.ts'

interface MemoryEditorProps {
  /** The item as the list shows it now (it may move on while the editor is open). */
  item: MemoryItem
  onSaved(item: MemoryItem): void
  onClose(): void
}

/**
 * MemoryEditor edits an item in place, based on the revision it was opened at (R2). When the save
 * answers CONFLICT, the user's unsaved text stays where it is and the newer version is shown beside
 * it (R4) — the item as the cache holds it, read again at once and kept current by the scope's
 * events — with "Use mine" (the user's changes, saved on top of the current revision) and "Discard
 * mine". Changing the text to one the user asked to forget before needs a second confirmation (F3).
 */
export function MemoryEditor({ item, onSaved, onClose }: MemoryEditorProps) {
  const reread = useRereadItem()
  const [base] = useState(() => ({ revision: item.revision, draft: draftOf(item) }))
  const [draft, setDraft] = useState<MemoryDraft>(base.draft)
  const [conflict, setConflict] = useState(false)
  // Counts the conflicts shown, so that each one (a second "Use mine" may meet another) moves the focus.
  const [conflicts, setConflicts] = useState(0)
  const notice = useRef<HTMLParagraphElement>(null)
  const current = conflict ? item : null
  const [error, setError] = useState<string | null>(null)
  // The error says the server can't be reached: it goes when the connection comes back.
  const [errorIsNetwork, setErrorIsNetwork] = useState(false)
  useWhenConnectionBack(() => {
    if (errorIsNetwork) setError(null)
  })
  const say = (text: string | null, network = false) => {
    setError(text)
    setErrorIsNetwork(network)
  }
  const failed = (err: CombinedError | undefined) => say(describeError(err), isNetworkError(err))
  const [{ fetching }, editMemory] = useMutation(EditMemoryMutation)
  const [loadingCurrent, setLoadingCurrent] = useState(false)
  const guard = useForgottenGuard(scopeInputOf(item.scope))
  const id = useId()

  const set = <K extends keyof MemoryDraft>(field: K, value: MemoryDraft[K]) => setDraft((d) => ({ ...d, [field]: value }))
  const changes = draftChanges(base.draft, draft)
  const changed = Object.keys(changes).length > 0

  // On conflict: read the item as it is now and show it beside the user's version.
  const showConflict = async () => {
    setLoadingCurrent(true)
    await reread(item.id)
    setLoadingCurrent(false)
    say(null)
    setConflict(true)
    setConflicts((n) => n + 1)
  }
  // The conflict view replaces the form whose Save had the focus: the focus goes to its notice, which
  // is also announced (role="alert"), so the user hears what happened and reads on from there.
  useEffect(() => {
    if (conflicts > 0) notice.current?.focus()
  }, [conflicts])

  const save = async (e?: FormEvent, confirmed = false) => {
    e?.preventDefault()
    if (!changed) return
    if (changes.content !== undefined && !(await guard.allows(changes.content, confirmed, say))) return
    const result = await editMemory({ input: { id: item.id, baseRevision: base.revision, ...changes } })
    if (result.data) onSaved(result.data.editMemory.item)
    else if (hasErrorCode(result.error, 'CONFLICT')) await showConflict()
    else failed(result.error)
  }

  // The user's changes applied to the current version: the content as the user has it, and of the
  // other fields only those the user changed.
  const mineOnTop = (now: MemoryItem): MemoryDraft => {
    const theirs = draftOf(now)
    const pick = <K extends keyof MemoryDraft>(field: K) => (draft[field] !== base.draft[field] ? draft[field] : theirs[field])
    return { content: draft.content, key: pick('key'), kind: pick('kind'), expires: pick('expires') }
  }

  const useMine = async () => {
    if (!current) return
    const mine = draftChanges(draftOf(current), mineOnTop(current))
    if (Object.keys(mine).length === 0) {
      onClose() // the current version already says what the user wrote
      return
    }
    const result = await editMemory({ input: { id: item.id, baseRevision: current.revision, ...mine } })
    if (result.data) onSaved(result.data.editMemory.item)
    else if (conflictRevision(result.error) !== null) await showConflict()
    else failed(result.error)
  }

  if (current) {
    return (
      <div className="conflict" data-testid="conflict-view" role="group" aria-labelledby={`${id}-conflict-title`}>
        <p className="message warn conflict-notice" id={`${id}-conflict-title`} role="alert" tabIndex={-1} ref={notice} data-testid="conflict-notice">
          <strong>This memory changed while you were editing it.</strong> Your text is kept below; compare it with the
          current version, then keep yours or discard it.
        </p>
        <div className="conflict-columns">
          <div className="conflict-side">
            <label htmlFor={`${id}-mine`} className="conflict-label">
              Your unsaved version
            </label>
            <ContentArea
              id={`${id}-mine`}
              rows={textRows(draft.content, 12)}
              value={draft.content}
              onChange={(text) => set('content', text)}
              guard={guard}
              testId="conflict-mine"
            />
            <ChangedFields base={base.draft} draft={draft} />
          </div>
          <div className="conflict-side theirs">
            <span className="conflict-label">
              Current version
              <span className="muted small"> · changed {formatTime(current.updatedAt)}</span>
            </span>
            {current.key && <p className="item-key">{current.key}</p>}
            <p className="item-content theirs-content" data-testid="conflict-theirs">
              {current.content}
            </p>
            <p className="muted small">{kindLabel(current.kind)}{current.pinned ? ' · pinned' : ''}</p>
            <TechnicalDetails inline>
              <p>
                Current: <span data-testid="conflict-current-revision">revision {current.revision}</span>; you were editing
                revision {base.revision}.
              </p>
            </TechnicalDetails>
          </div>
        </div>
        {error && <ErrorMessage testId="editor-error">{error}</ErrorMessage>}
        <div className="actions">
          <button type="button" className="button primary" onClick={useMine} disabled={fetching || loadingCurrent || !draft.content.trim()} data-testid="conflict-use-mine">
            {fetching ? 'Saving…' : 'Use mine'}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={fetching} data-testid="conflict-discard">
            Discard mine
          </button>
        </div>
      </div>
    )
  }

  return (
    <form className="editor" onSubmit={save} data-testid="item-editor" aria-label="Edit memory">
      <Field htmlFor={`${id}-content`} label="Content">
        <ContentArea
          id={`${id}-content`}
          rows={textRows(draft.content, 12)}
          required
          value={draft.content}
          onChange={(text) => set('content', text)}
          guard={guard}
          autoFocus
          testId="editor-content"
        />
      </Field>
      <div className="form-row">
        <KeyField id={`${id}-key`} value={draft.key} onChange={(key) => set('key', key)} testId="editor-key" />
        <KindField id={`${id}-kind`} value={draft.kind} onChange={(kind) => set('kind', kind)} testId="editor-kind" />
        <Field htmlFor={`${id}-expires`} label="Expires">
          <div className="inline">
            <input
              id={`${id}-expires`}
              type="datetime-local"
              value={draft.expires}
              onChange={(e) => set('expires', e.target.value)}
              data-testid="editor-expires"
            />
            {draft.expires && (
              <button type="button" className="link-button" onClick={() => set('expires', '')} data-testid="editor-clear-expiry">
                Never
              </button>
            )}
          </div>
        </Field>
      </div>
      {error && <ErrorMessage testId="editor-error">{error}</ErrorMessage>}
      {guard.warnedText !== null && guard.warnedText === changes.content ? (
        <ForgottenWarning busy={fetching} onConfirm={() => void save(undefined, true)} onCancel={guard.reset} />
      ) : (
        <div className="actions">
          <button
            type="submit"
            className="button primary"
            disabled={fetching || loadingCurrent || guard.checking || !changed || !draft.content.trim()}
            data-testid="editor-save"
          >
            {fetching || loadingCurrent || guard.checking ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={fetching} data-testid="editor-cancel">
            Cancel
          </button>
        </div>
      )}
      {/* Below the buttons, so that its arrival never moves them under the user's pointer. */}
      {item.revision !== base.revision && (
        <p className="message warn" role="status" data-testid="editor-stale">
          This memory changed elsewhere while you were editing it. If you save, you will see both versions and choose.
        </p>
      )}
    </form>
  )
}

/** The fields other than the content that the user changed, in words. */
function ChangedFields({ base, draft }: { base: MemoryDraft; draft: MemoryDraft }) {
  const lines: string[] = []
  if (draft.key.trim() !== base.key.trim()) lines.push(draft.key.trim() ? `key “${draft.key.trim()}”` : 'no key')
  if (draft.kind !== base.kind) lines.push(`kind ${kindLabel(draft.kind)}`)
  if (draft.expires !== base.expires) lines.push(draft.expires ? `expires ${formatTime(new Date(draft.expires).toISOString())}` : 'no expiry')
  if (lines.length === 0) return null
  return <p className="muted small">Also yours: {lines.join(', ')}.</p>
}

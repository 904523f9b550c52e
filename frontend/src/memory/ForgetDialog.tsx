import { useId } from 'react'
import { useMutation } from 'urql'
import { describeError } from '../api/errors.ts'
import { ForgetMemoryMutation } from '../api/operations.ts'
import { Dialog } from '../ui/Dialog.tsx'
import type { MemoryItem } from './model.ts'

interface ForgetDialogProps {
  item: Pick<MemoryItem, 'id' | 'content' | 'key'>
  onForgotten(id: string): void
  onClose(): void
}

/**
 * The confirmation before forgetting an item (F1, F6): it says exactly what is erased — the text and
 * key from every saved version and every embedding, and suggestions to change it, at once — and what
 * is not: the original conversations, replies already given, and backups.
 */
export function ForgetDialog({ item, onForgotten, onClose }: ForgetDialogProps) {
  const [{ fetching, error }, forgetMemory] = useMutation(ForgetMemoryMutation)
  const titleId = useId()

  const forget = async () => {
    const result = await forgetMemory({ input: { id: item.id } })
    if (result.data) onForgotten(item.id)
  }

  return (
    <Dialog title="Forget this memory?" titleId={titleId} onClose={onClose} testId="forget-dialog">
      <blockquote className="forget-quote" data-testid="forget-quote">
        {item.key && <strong className="forget-key">{item.key}</strong>}
        <span>{item.content}</span>
      </blockquote>

      <div className="forget-facts" data-testid="forget-explanation">
        <section>
          <h3 className="forget-heading">Erased now, for good</h3>
          <ul>
            <li>This text and its key, from every saved version in the history.</li>
            <li>Every embedding made from it (the index used to find related memories).</li>
            <li>Suggestions to change it, and suggestions with the same text.</li>
          </ul>
          <p className="small">It leaves memory immediately: no teammate is given it from now on.</p>
        </section>
        <section>
          <h3 className="forget-heading">Not erased</h3>
          <ul>
            <li>The original conversations it came from.</li>
            <li>Replies teammates already gave.</li>
            <li>Backups of the database.</li>
          </ul>
        </section>
      </div>
      <p className="muted small">If you save the same text again later, you will be asked to confirm first.</p>

      {error && (
        <p className="message error" role="alert" data-testid="forget-error">
          {describeError(error)}
        </p>
      )}
      <div className="actions dialog-actions">
        <button type="button" className="button danger" onClick={forget} disabled={fetching} data-testid="forget-confirm">
          {fetching ? 'Forgetting…' : 'Forget'}
        </button>
        <button type="button" className="button" onClick={onClose} disabled={fetching} autoFocus data-testid="forget-cancel">
          Cancel
        </button>
      </div>
    </Dialog>
  )
}

import { ForgottenWarning } from '../memory/ForgottenWarning.tsx'

interface SuggestionActionsProps {
  busy: boolean
  /** The forgotten-text warning (F3) for the edited text: it shows in place of the buttons. */
  warned: boolean
  onWarningConfirm(): void
  onWarningCancel(): void
  editing: boolean
  /** Edit can be started (not when the item a proposal would change is gone). */
  canEdit: boolean
  onEdit(): void
  onCancelEdit(): void
  onDismiss(): void
  /** Once a proposal is stale: the revision it would be applied to; null otherwise (Confirm shows). */
  applyRevision: number | null
  canApply: boolean
  applying: boolean
  onApply(): void
  canConfirm: boolean
  confirming: boolean
  onConfirm(): void
}

/**
 * The buttons of a suggestion card: Confirm (or, once a proposal is stale, Apply to the current
 * revision), Edit or Cancel edit, and Dismiss; while the edited text was forgotten before, the
 * warning that asks to save it again instead.
 */
export function SuggestionActions(props: SuggestionActionsProps) {
  const { busy, editing } = props
  if (props.warned) return <ForgottenWarning busy={busy} onConfirm={props.onWarningConfirm} onCancel={props.onWarningCancel} />

  // Beside the confirm (or, once stale, the apply) button. A target that is gone can't be edited.
  const editAndDismiss = (
    <>
      {editing ? (
        <button type="button" className="button small" onClick={props.onCancelEdit} disabled={busy} data-testid="suggestion-edit-cancel">
          Cancel edit
        </button>
      ) : (
        <button type="button" className="button small" onClick={props.onEdit} disabled={busy || !props.canEdit} data-testid="suggestion-edit">
          Edit
        </button>
      )}
      <button type="button" className="button small" onClick={props.onDismiss} disabled={busy} data-testid="suggestion-dismiss">
        Dismiss
      </button>
    </>
  )

  if (props.applyRevision !== null) {
    return (
      <div className="actions compact">
        <button
          type="button"
          className="button primary small"
          onClick={props.onApply}
          disabled={busy || !props.canApply}
          data-testid="suggestion-apply-current"
          data-base-revision={props.applyRevision}
        >
          {props.applying ? 'Saving…' : 'Apply to the current version'}
        </button>
        {editAndDismiss}
      </div>
    )
  }
  return (
    <div className="actions compact">
      <button type="button" className="button primary small" onClick={props.onConfirm} disabled={busy || !props.canConfirm} data-testid="suggestion-confirm">
        {props.confirming ? 'Saving…' : editing ? 'Confirm with my changes' : 'Confirm'}
      </button>
      {editAndDismiss}
    </div>
  )
}

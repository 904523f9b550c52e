import type { MemoryKind } from '../gql/graphql.ts'
import type { ForgottenGuard } from '../memory/ForgottenWarning.tsx'
import { ContentArea, KeyField, KindField, textRows } from '../memory/MemoryFields.tsx'
import { Field } from '../ui/Field.tsx'

interface SuggestionEditorProps {
  /** The card's id prefix, for the fields' ids. */
  id: string
  /** The suggestion proposes a change to an item (its text is "the new text"). */
  proposal: boolean
  text: string
  onText(text: string): void
  kind: MemoryKind
  onKind(kind: MemoryKind): void
  itemKey: string
  onKey(key: string): void
  /** The forgotten-text check of the confirm (F3): a changed text drops its warning. */
  guard: Pick<ForgottenGuard, 'reset'>
}

/** The form that edits a suggestion before it is confirmed: its text, kind and key. */
export function SuggestionEditor({ id, proposal, text, onText, kind, onKind, itemKey, onKey, guard }: SuggestionEditorProps) {
  return (
    <Field htmlFor={`${id}-edit`} label={proposal ? 'The new text' : 'Text to remember'} className="suggestion-editor">
      <ContentArea id={`${id}-edit`} rows={textRows(text, 10)} value={text} onChange={onText} guard={guard} autoFocus testId="suggestion-edit-content" />
      <div className="form-row">
        <KindField id={`${id}-kind`} value={kind} onChange={onKind} testId="suggestion-edit-kind" />
        <KeyField
          id={`${id}-key`}
          hint="optional"
          placeholder="A short label, e.g. coffee"
          value={itemKey}
          onChange={onKey}
          testId="suggestion-edit-key"
        />
      </div>
    </Field>
  )
}

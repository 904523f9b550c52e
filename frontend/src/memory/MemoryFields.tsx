import { useLimits } from '../api/limits.ts'
import type { MemoryKind } from '../gql/graphql.ts'
import { Field } from '../ui/Field.tsx'
import type { ForgottenGuard } from './ForgottenWarning.tsx'
import { memoryKinds } from './model.ts'

/** The options of a kind select: every kind, or only those given, in the app's order. */
export function KindOptions({ kinds }: { kinds?: MemoryKind[] }) {
  const choices = kinds ? memoryKinds.filter((k) => kinds.includes(k.value)) : memoryKinds
  return choices.map((k) => (
    <option key={k.value} value={k.value}>
      {k.label}
    </option>
  ))
}

interface KindFieldProps {
  id: string
  value: MemoryKind
  onChange(kind: MemoryKind): void
  testId: string
}

/** The Kind field of a form that writes an item (new, edited, a suggestion confirmed). */
export function KindField({ id, value, onChange, testId }: KindFieldProps) {
  return (
    <Field htmlFor={id} label="Kind">
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as MemoryKind)} data-testid={testId}>
        <KindOptions />
      </select>
    </Field>
  )
}

interface KeyFieldProps {
  id: string
  /** Said after "Key", muted ("optional"). */
  hint?: string
  placeholder?: string
  value: string
  onChange(key: string): void
  testId: string
}

/** The Key field of a form that writes an item: a short label, at most as long as the API takes. */
export function KeyField({ id, hint, placeholder, value, onChange, testId }: KeyFieldProps) {
  const limits = useLimits()
  return (
    <Field htmlFor={id} label="Key" hint={hint} className="grow">
      <input
        id={id}
        type="text"
        maxLength={limits.keyLength}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </Field>
  )
}

interface ContentAreaProps {
  id: string
  rows: number
  value: string
  onChange(content: string): void
  /** The forgotten-text check of the form's save (F3): a changed text drops its warning. */
  guard: Pick<ForgottenGuard, 'reset'>
  required?: boolean
  autoFocus?: boolean
  testId: string
}

/** The text area of an item's text, which takes at most as many characters as the API does. */
export function ContentArea({ id, rows, value, onChange, guard, required, autoFocus, testId }: ContentAreaProps) {
  const limits = useLimits()
  return (
    <textarea
      id={id}
      rows={rows}
      required={required}
      maxLength={limits.contentLength}
      value={value}
      onChange={(e) => {
        onChange(e.target.value)
        guard.reset()
      }}
      autoFocus={autoFocus}
      data-testid={testId}
    />
  )
}

/** How many rows a text area shows for text: a line more than it has, from 3 up to most. */
export function textRows(text: string, most: number): number {
  return Math.min(most, Math.max(3, text.split('\n').length + 1))
}

import { useId, useRef, useState, type ReactNode, type RefObject } from 'react'
import { useLimits } from '../api/limits.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { problemAttributes, problemId } from '../ui/Field.tsx'
import { teammateNameProblem } from './name.ts'

/** What useTeammateName gives besides the input's ref. */
export interface TeammateName {
  name: string
  setName(name: string): void
  /** What is wrong with the name, once it is to be said (null: nothing, or not yet). */
  shownProblem: string | null
  /** Records a try to send the name; false, with the focus put on the input, when it is wrong. */
  ready(): boolean
  /** Empties the form, as it was before any try. */
  clear(): void
}

/**
 * The state of a form's teammate name (add, rename), and the ref of its input (TeammateNameField's):
 * what is wrong with a name is said at once while one is typed, and for an empty one after a try to
 * send it.
 */
export function useTeammateName(initial: string): [TeammateName, RefObject<HTMLInputElement>] {
  const limits = useLimits()
  const [name, setName] = useState(initial)
  const [tried, setTried] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const problem = teammateNameProblem(name, limits.teammateNameLength)
  const shownProblem = problem && (tried || name.trim() !== '') ? problem : null
  const ready = () => {
    setTried(true)
    if (problem) input.current?.focus()
    return problem === null
  }
  const clear = () => {
    setName('')
    setTried(false)
  }
  return [{ name, setName, shownProblem, ready, clear }, input]
}

interface TeammateNameFieldProps {
  label: string
  field: TeammateName
  input: RefObject<HTMLInputElement>
  placeholder?: string
  /** The form opened to change this name: the input takes the focus, with the name selected. */
  focusAtOnce?: boolean
  /** The user changed the name. */
  onEdit?(): void
  /** The input's test id is testId-input, the problem's testId-problem. */
  testId: string
  /** The form's buttons, beside the input. */
  children: ReactNode
}

/**
 * The name input of a form that adds or renames a teammate: its label, the input beside the form's
 * buttons, and under them what is wrong with the name, which the input is described by.
 */
export function TeammateNameField({ label, field, input, placeholder, focusAtOnce, onEdit, testId, children }: TeammateNameFieldProps) {
  const id = useId()
  const problem = field.shownProblem
  return (
    <>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="inline-form-row">
        <input
          id={id}
          ref={input}
          type="text"
          placeholder={placeholder}
          value={field.name}
          onChange={(e) => {
            field.setName(e.target.value)
            onEdit?.()
          }}
          onFocus={focusAtOnce ? (e) => e.target.select() : undefined}
          autoFocus={focusAtOnce}
          {...problemAttributes(id, problem)}
          data-testid={`${testId}-input`}
        />
        {children}
      </div>
      {problem && (
        <ErrorMessage id={problemId(id)} testId={`${testId}-problem`}>
          {problem}
        </ErrorMessage>
      )}
    </>
  )
}

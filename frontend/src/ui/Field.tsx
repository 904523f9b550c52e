import type { ReactNode } from 'react'

interface FieldProps {
  /** The id of the control inside, which the label names. */
  htmlFor: string
  label: string
  /** Said after the label, muted and in brackets ("optional"). */
  hint?: string
  /** More classes beside field: grow (the field takes the row's free width) or the caller's own. */
  className?: string
  /** search, on a search box's field. */
  role?: 'search'
  /** The control, and anything that goes under it. */
  children: ReactNode
}

/** A labelled form field: the label above its control, as every form of the app lays them out. */
export function Field({ htmlFor, label, hint, className, role, children }: FieldProps) {
  return (
    <div className={className ? `field ${className}` : 'field'} role={role}>
      <label htmlFor={htmlFor} className="field-label">
        {label}
        {hint && (
          <>
            {' '}
            <span className="muted">({hint})</span>
          </>
        )}
      </label>
      {children}
    </div>
  )
}

/**
 * The attributes that tie an input to what is wrong with it, said in an ErrorMessage whose id is
 * problemId(inputId), while there is a problem; without one the input is described by describedBy.
 */
export function problemAttributes(inputId: string, problem: string | null, describedBy?: string) {
  return {
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? problemId(inputId) : describedBy,
  }
}

/** The id of the message that says what is wrong with the input inputId. */
export function problemId(inputId: string): string {
  return `${inputId}-problem`
}

import type { ReactNode } from 'react'

interface ErasureFactsProps {
  /** The list items of what goes now, for good. */
  erased: ReactNode
  /** Said under them (all or none, when it leaves memory). */
  erasedNote?: ReactNode
  /** The list items of what stays. */
  kept: ReactNode
  testId?: string
}

/**
 * What a forget or a delete erases and what it does not (F1, F6), side by side, as every
 * confirmation of one says it.
 */
export function ErasureFacts({ erased, erasedNote, kept, testId }: ErasureFactsProps) {
  return (
    <div className="forget-facts" data-testid={testId}>
      <section>
        <h3 className="forget-heading">Erased now, for good</h3>
        <ul>{erased}</ul>
        {erasedNote && <p className="small">{erasedNote}</p>}
      </section>
      <section>
        <h3 className="forget-heading">Not erased</h3>
        <ul>{kept}</ul>
      </section>
    </div>
  )
}

import type { ReactNode } from 'react'

interface TechnicalDetailsProps {
  children: ReactNode
  /** Inside a card or a message: a smaller gap above, instead of the page's. */
  inline?: boolean
  testId?: string
}

/**
 * Technical details, folded away: revision numbers, scope names and generations, which the main text
 * says in words ("Changed 2 times", "Only Ada", "About you"). The content is in the page while
 * folded (a test or a screen reader's search finds it), but shows only once opened.
 */
export function TechnicalDetails({ children, inline, testId }: TechnicalDetailsProps) {
  return (
    <details className={`details-panel${inline ? ' inline' : ''}`} data-testid={testId}>
      <summary>Technical details</summary>
      {children}
    </details>
  )
}

import type { ReactNode } from 'react'

interface ErrorMessageProps {
  children: ReactNode
  /** Offers "Try again" after the message, for a read that failed. */
  onRetry?(): void
  id?: string
  /** More classes beside message error. */
  className?: string
  testId?: string
}

/** What went wrong, said where it happened and announced at once (role="alert"). */
export function ErrorMessage({ children, onRetry, id, className, testId }: ErrorMessageProps) {
  return (
    <p className={className ? `message error ${className}` : 'message error'} id={id} role="alert" data-testid={testId}>
      {children}
      {onRetry && (
        <>
          {' '}
          <button type="button" className="link-button" onClick={onRetry}>
            Try again
          </button>
        </>
      )}
    </p>
  )
}

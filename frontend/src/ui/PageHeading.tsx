import { useEffect, useRef, type ReactNode } from 'react'

/**
 * The page's h1, which takes the focus when the page opens so that keyboard and screen-reader users
 * land on the new screen after in-app navigation; it also names the document.
 */
export function PageHeading({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${title} · Memory`
  }, [title])
  useEffect(() => {
    ref.current?.focus({ preventScroll: true })
  }, [])
  return (
    <h1 className="page-title" tabIndex={-1} ref={ref} data-testid={testId}>
      {children ?? title}
    </h1>
  )
}

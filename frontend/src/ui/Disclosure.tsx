import { useId, useState, type ReactNode } from 'react'

interface DisclosureProps {
  /** What the button says; a ▸ before it turns ▾ while the content shows. */
  label: ReactNode
  /** The content, mounted only while it shows (what it reads is read when it opens). */
  children: ReactNode
  /** Classes of the content's box. */
  className?: string
  toggleTestId?: string
  contentTestId?: string
}

/** A button that shows and hides the content under it, closed at first. */
export function Disclosure({ label, children, className, toggleTestId, contentTestId }: DisclosureProps) {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    <>
      <button
        type="button"
        className="disclosure"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        data-testid={toggleTestId}
      >
        <span className="disclosure-mark" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {label}
      </button>
      {open && (
        <div className={className} id={id} data-testid={contentTestId}>
          {children}
        </div>
      )}
    </>
  )
}

import { useEffect, useRef, type ReactNode } from 'react'

interface DialogProps {
  /** The dialog's heading; it also names the dialog for assistive technology. */
  title: string
  titleId: string
  onClose(): void
  children: ReactNode
  testId?: string
}

/**
 * Dialog is a modal <dialog>: the browser keeps the focus inside it, makes the page behind inert,
 * and closes it with Escape (reported through onClose). It opens when mounted; the caller unmounts
 * it to close it.
 */
export function Dialog({ title, titleId, onClose, children, testId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const onCloseRef = useRef(onClose)
  useEffect(() => {
    onCloseRef.current = onClose
  })
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    // Where the focus was, so that it goes back there when the dialog closes.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog.showModal()
    const cancel = (e: Event) => {
      e.preventDefault()
      onCloseRef.current()
    }
    dialog.addEventListener('cancel', cancel)
    return () => {
      dialog.removeEventListener('cancel', cancel)
      if (dialog.open) dialog.close()
      opener?.focus({ preventScroll: true })
    }
  }, [])
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} data-testid={testId}>
      <h2 className="dialog-title" id={titleId}>
        {title}
      </h2>
      {children}
    </dialog>
  )
}

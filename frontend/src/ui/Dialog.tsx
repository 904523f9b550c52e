import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'

interface DialogProps {
  /** The dialog's heading; it also names the dialog for assistive technology. */
  title: string
  titleId: string
  onClose(): void
  children: ReactNode
  testId?: string
}

// What can take the keyboard focus inside the dialog.
const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * Dialog is a modal <dialog>: the page behind it is inert, Escape closes it (reported through
 * onClose), and Tab and Shift+Tab go round its own controls instead of leaving it for the browser's
 * toolbar. It opens with the focus on the control marked data-autofocus, if any (Cancel, in a
 * confirmation). When it closes the focus goes back to where it was when it opened (the button that
 * opened it). It opens when mounted; the caller unmounts it to close it.
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
    // showModal focuses the first control, which is the destructive one in a confirmation: the
    // control marked data-autofocus (Cancel) takes the focus instead. React's autoFocus can't do it, as
    // it runs while the dialog is still closed.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus()
    const cancel = (e: Event) => {
      e.preventDefault()
      onCloseRef.current()
    }
    // The browser may close the dialog itself (Escape pressed twice without a click in between skips
    // the cancel event): that is a close too.
    const closed = () => onCloseRef.current()
    dialog.addEventListener('cancel', cancel)
    dialog.addEventListener('close', closed)
    return () => {
      dialog.removeEventListener('cancel', cancel)
      dialog.removeEventListener('close', closed)
      if (dialog.open) dialog.close()
      opener?.focus({ preventScroll: true })
    }
  }, [])

  const keepFocusInside = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab' || !ref.current) return
    const controls = [...ref.current.querySelectorAll<HTMLElement>(focusable)].filter((el) => el.getClientRects().length > 0)
    if (controls.length === 0) return
    const first = controls[0]
    const last = controls[controls.length - 1]
    const active = document.activeElement
    if (e.shiftKey && (active === first || !ref.current.contains(active))) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && (active === last || !ref.current.contains(active))) {
      e.preventDefault()
      first.focus()
    }
  }

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} aria-modal="true" onKeyDown={keepFocusInside} data-testid={testId}>
      <h2 className="dialog-title" id={titleId}>
        {title}
      </h2>
      {children}
    </dialog>
  )
}

interface ConfirmButtonsProps {
  /** What the destructive button says ("Forget"), and while its call runs ("Forgetting…"). */
  label: string
  busyLabel: string
  /** The call runs: both buttons wait. */
  busy: boolean
  onConfirm(): void
  onCancel(): void
  /** The buttons' test ids are testId-confirm and testId-cancel. */
  testId: string
}

/**
 * The buttons of a confirmation dialog: the destructive action, then Cancel, which has the focus when
 * the dialog opens (data-autofocus).
 */
export function ConfirmButtons({ label, busyLabel, busy, onConfirm, onCancel, testId }: ConfirmButtonsProps) {
  return (
    <div className="actions dialog-actions">
      <button type="button" className="button danger" onClick={onConfirm} disabled={busy} data-testid={`${testId}-confirm`}>
        {busy ? busyLabel : label}
      </button>
      <button type="button" className="button" onClick={onCancel} disabled={busy} data-autofocus data-testid={`${testId}-cancel`}>
        Cancel
      </button>
    </div>
  )
}

import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'

/** What useInPlaceForm gives: whether the form is open, and how to open and close it. */
export interface InPlaceForm<T extends HTMLElement> {
  open: boolean
  show(): void
  /** Closes the form and gives the keyboard focus back to the opener once it is on the page again. */
  close(): void
  /** The ref of the button that opens the form (it is rendered while the form is closed). */
  opener: RefObject<T>
}

/**
 * A form that opens in place of what a button shows (an editor, a rename form). When it closes, the
 * keyboard focus goes back to that button: the close is remembered in a ref, and an effect focuses the
 * button after the render that brought it back. Destructure the result: the React Compiler's lint
 * takes every property of an object that holds a ref for a ref, and would refuse `form.open`.
 */
export function useInPlaceForm<T extends HTMLElement = HTMLButtonElement>(): InPlaceForm<T> {
  const [open, setOpen] = useState(false)
  const opener = useRef<T>(null)
  const returnFocus = useRef(false)
  useEffect(() => {
    if (!open && returnFocus.current) {
      returnFocus.current = false
      opener.current?.focus()
    }
  }, [open])
  const show = useCallback(() => setOpen(true), [])
  const close = useCallback(() => {
    returnFocus.current = true
    setOpen(false)
  }, [])
  return { open, show, close, opener }
}

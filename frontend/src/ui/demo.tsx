import { useState } from 'react'

// The demo (internal/demo) that a brand-new embedded database starts with marks what it writes by
// putting "(demo)" — or "(demo lesson)", "(demo suggestion)" — in teammates' names and memory texts.
// The app has no other sign of it, so it labels by that mark: a "Demo" badge on each such row and a
// notice where demo teammates are listed.

const demoMark = /\(demo(?: [a-z]+)?\)/i

/** Whether a name or text carries the demo's mark. */
export function isDemo(text: string | null | undefined): boolean {
  return !!text && demoMark.test(text)
}

/** The badge on a demo row. */
export function DemoBadge() {
  return (
    <span className="badge demo" title="Example data loaded on this server’s first start" data-testid="demo-badge">
      Demo
    </span>
  )
}

const demoDismissedKey = 'memory.demoNoticeDismissed'

/**
 * Whether the user dismissed the demo notices (remembered in this browser), and the function that
 * dismisses them. One dismissal hides the notice on the teammate list and on the demo teammates' pages.
 */
export function useDemoNotice(): [shown: boolean, dismiss: () => void] {
  const [dismissed, setDismissed] = useState(() => {
    try {
      return localStorage.getItem(demoDismissedKey) === '1'
    } catch {
      return false
    }
  })
  const dismiss = () => {
    setDismissed(true)
    try {
      localStorage.setItem(demoDismissedKey, '1')
    } catch {
      // Private mode without storage: dismissed until the page is reloaded.
    }
  }
  return [!dismissed, dismiss]
}

/** The button that dismisses a demo notice. */
export function DemoNoticeDismiss({ onDismiss }: { onDismiss(): void }) {
  return (
    <button type="button" className="link-button demo-dismiss" onClick={onDismiss} aria-label="Hide the demo notice" data-testid="demo-notice-dismiss">
      Hide
    </button>
  )
}

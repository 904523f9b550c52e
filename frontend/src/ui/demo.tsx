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

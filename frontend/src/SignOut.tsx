import { useState } from 'react'
import type { Api } from './api/client.ts'

/**
 * SignOut ends the session on the server; the session gate then shows the sign-in page. A failure
 * (the server could not end it) is said next to the button, and the app stays signed in.
 */
export function SignOut({ api }: { api: Api }) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const signOut = async () => {
    setBusy(true)
    setProblem(null)
    try {
      await api.signOut()
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err))
      setBusy(false)
    }
  }
  return (
    <div className="signout">
      <button type="button" className="button small signout-button" onClick={() => void signOut()} disabled={busy} data-testid="sign-out">
        {busy ? 'Signing out…' : 'Sign out'}
      </button>
      {problem && (
        <p className="signout-problem" role="alert" data-testid="sign-out-problem">
          {problem}
        </p>
      )}
    </div>
  )
}

import { useEffect, useId, useState, type FormEvent } from 'react'
import { useClient } from 'urql'
import { describeError, hasErrorCode } from './api/errors.ts'
import { graphql } from './gql'
import { ErrorMessage } from './ui/ErrorMessage.tsx'
import { problemAttributes, problemId } from './ui/Field.tsx'

// Asks the server whether a pasted token is the user's, before the login link is opened with it:
// candidates takes the user's credential only, so a worker's token answers FORBIDDEN and a wrong one
// UNAUTHENTICATED. The token travels as a bearer header, never in a URL until it is known to work.
const UserTokenProbeQuery = graphql(`
  query UserTokenProbe {
    candidates(scope: { teammateId: null }) {
      id
    }
  }
`)

/**
 * Shown when the browser has no valid session cookie. The server prints a login link at start;
 * opening it sets the cookie. Pasting the user token here does the same, for when the terminal output
 * is gone: the token is first tried as a bearer token, so that a wrong one is explained here in
 * plain words, and only a working one is sent to the login link.
 */
export function LoginRequired() {
  const client = useClient()
  const [token, setToken] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [checking, setChecking] = useState(false)
  // The server answers a login link with a wrong token with this page (status 401) at /login.
  const [badLink] = useState(() => window.location.pathname === '/login')
  const id = useId()
  useEffect(() => {
    // The wrong token stays out of the address bar and the history.
    if (badLink) window.history.replaceState(null, '', '/')
  }, [badLink])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const t = token.trim()
    if (!t) {
      setProblem('Paste the user token first.')
      return
    }
    setChecking(true)
    setProblem(null)
    const result = await client
      .query(UserTokenProbeQuery, {}, { requestPolicy: 'network-only', fetchOptions: { headers: { Authorization: `Bearer ${t}` } } })
      .toPromise()
    setChecking(false)
    if (result.data) {
      window.location.assign(`/login?token=${encodeURIComponent(t)}`)
    } else if (hasErrorCode(result.error, 'UNAUTHENTICATED')) {
      setProblem('That token doesn’t work on this server. Copy the user token again, whole, from the file named above.')
    } else if (hasErrorCode(result.error, 'FORBIDDEN')) {
      setProblem('That is the worker’s token, not yours. Paste the user token (the file user-token, not worker-token).')
    } else {
      setProblem(describeError(result.error))
    }
  }

  return (
    <main className="splash" data-testid="app-root">
      <div className="card narrow" data-testid="login-required">
        <h1 className="page-title">Sign in to Memory</h1>
        {badLink && (
          <ErrorMessage testId="login-link-invalid">
            That login link isn’t valid on this server: its token is wrong or from another installation.
          </ErrorMessage>
        )}
        <p>
          <strong>Open the login link the server printed at start.</strong> It looks like{' '}
          <code data-testid="login-example">{window.location.origin}/login?token=mu_…</code> and signs this browser in.
        </p>
        {/* The page is shown to anyone who can reach the server, before any credential, so the
            server doesn't tell it where its files are: the hint names the file, the setting that
            places it and the default, and the server's start-up output names the real path. */}
        <p className="muted" id={`${id}-hint`}>
          Lost it? The token is in the file <code>user-token</code> in the server’s data directory (the one{' '}
          <code>MEMORY_DATA_DIR</code> names, <code>.data</code> by default), or in <code>MEMORY_USER_TOKEN</code> if that is set.
          Paste it here:
        </p>
        <form method="get" action="/login" className="inline-form" onSubmit={submit} noValidate>
          <label htmlFor={id} className="visually-hidden">
            User token
          </label>
          <input
            id={id}
            name="token"
            type="password"
            autoComplete="off"
            placeholder="mu_…"
            value={token}
            onChange={(e) => {
              setToken(e.target.value)
              setProblem(null)
            }}
            {...problemAttributes(id, problem, `${id}-hint`)}
            data-testid="login-token"
          />
          <button type="submit" className="button primary" disabled={checking} data-testid="login-submit">
            {checking ? 'Checking…' : 'Sign in'}
          </button>
        </form>
        {problem && (
          <ErrorMessage id={problemId(id)} testId="login-problem">
            {problem}
          </ErrorMessage>
        )}
      </div>
    </main>
  )
}

import { useId } from 'react'

/**
 * Shown when the browser has no valid session cookie. The server prints a login link at start;
 * opening it sets the cookie. Pasting the user token here does the same thing (the form is a plain
 * GET to that link), for when the terminal output is gone.
 */
export function LoginRequired() {
  const id = useId()
  return (
    <main className="splash" data-testid="app-root">
      <div className="card narrow" data-testid="login-required">
        <h1 className="page-title">Sign in to Memory</h1>
        <p>
          <strong>Open the login link the server printed at start.</strong> It looks like{' '}
          <code>http://127.0.0.1:8080/login?token=mu_…</code> and signs this browser in.
        </p>
        <p className="muted">
          Lost it? The token is in the server’s data directory (<code>.data/user-token</code> by default, or{' '}
          <code>MEMORY_USER_TOKEN</code>). Paste it here:
        </p>
        <form method="get" action="/login" className="inline-form">
          <label htmlFor={id} className="visually-hidden">
            User token
          </label>
          <input id={id} name="token" type="password" autoComplete="off" placeholder="mu_…" required data-testid="login-token" />
          <button type="submit" className="button primary" data-testid="login-submit">
            Sign in
          </button>
        </form>
      </div>
    </main>
  )
}

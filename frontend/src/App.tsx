import { useEffect, useState } from 'react'
import { Provider, useQuery } from 'urql'
import type { Api } from './api/client.ts'
import { ApiContext } from './api/context.ts'
import { describeError, hasErrorCode } from './api/errors.ts'
import { LimitsContext } from './api/limits.ts'
import { graphql } from './gql'
import { LoginRequired } from './LoginRequired.tsx'
import { Link, paths, useRoute, type Route } from './router.tsx'
import { useAboutYouWaiting, WaitingBadge } from './settings/AboutYouWaiting.tsx'
import { SettingsPage } from './settings/SettingsPage.tsx'
import { SignOut } from './SignOut.tsx'
import { TeammatePage } from './teammates/TeammatePage.tsx'
import { TeammatesPage } from './teammates/TeammatesPage.tsx'
import { ConnectionBanner } from './ui/ConnectionBanner.tsx'
import { PageHeading } from './ui/PageHeading.tsx'

/** The web app: the session check, the frame (header and navigation) and the current screen. */
export function App({ api }: { api: Api }) {
  return (
    <Provider value={api.client}>
      <ApiContext.Provider value={api}>
        <SessionGate api={api} />
      </ApiContext.Provider>
    </Provider>
  )
}

// The first query: it tells whether the browser is signed in, and reads the API's limits, which
// every form checks its input against before it sends it.
const SessionQuery = graphql(`
  query Session {
    limits {
      ...LimitsFields
    }
  }
`)

/**
 * SessionGate shows the app only to a signed-in browser. The first query tells: without the session
 * cookie the API answers UNAUTHENTICATED, and the login screen explains where the login link is.
 * Any later UNAUTHENTICATED answer (the token changed, the cookie was cleared) comes back here.
 */
function SessionGate({ api }: { api: Api }) {
  const [{ data, error, fetching }, reexecute] = useQuery({ query: SessionQuery })
  const [lost, setLost] = useState(false)
  useEffect(() => api.onSessionLost(() => setLost(true)), [api])

  if (lost || hasErrorCode(error, 'UNAUTHENTICATED')) return <LoginRequired />
  if (!data) {
    return (
      <main className="splash" data-testid="app-root" aria-busy={fetching}>
        {error ? (
          <div className="card narrow" role="alert" data-testid="app-error">
            <h1 className="page-title">Memory</h1>
            <p>{describeError(error)}</p>
            <button type="button" className="button primary" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
              Try again
            </button>
          </div>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </main>
    )
  }
  return (
    <LimitsContext.Provider value={data.limits}>
      <Frame api={api} />
    </LimitsContext.Provider>
  )
}

function Frame({ api }: { api: Api }) {
  const route = useRoute()
  const aboutYouWaiting = useAboutYouWaiting()
  return (
    <div className="frame" data-testid="app-root">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link to={paths.teammates()} className="brand">
            Memory
          </Link>
          <nav className="topnav" aria-label="Main">
            <Link to={paths.teammates()} aria-current={route.page === 'teammates' || route.page === 'teammate' ? 'page' : undefined} data-testid="nav-teammates">
              Teammates
            </Link>
            <Link to={paths.settings('about-you')} aria-current={route.page === 'settings' ? 'page' : undefined} data-testid="nav-settings">
              Settings
              <WaitingBadge count={aboutYouWaiting} testId="nav-settings-waiting" />
            </Link>
          </nav>
          <SignOut api={api} />
        </div>
      </header>
      <ConnectionBanner />
      <main id="main" className="page">
        <Screen route={route} />
      </main>
      <footer className="footer">
        <p>
          Memory keeps what your AI teammates have learned. Developers: the GraphQL API has a{' '}
          <a href="/graphiql" data-testid="nav-graphiql">
            GraphiQL
          </a>{' '}
          explorer.
        </p>
      </footer>
    </div>
  )
}

function Screen({ route }: { route: Route }) {
  switch (route.page) {
    case 'teammates':
      return <TeammatesPage />
    case 'teammate':
      // Keyed by id: another teammate starts with fresh state (generation baseline, filters).
      return <TeammatePage key={route.teammateId} teammateId={route.teammateId} tab={route.tab} runId={route.runId} />
    case 'settings':
      return <SettingsPage section={route.section} />
    case 'login-link-invalid':
      return <LoginLinkInvalid />
    case 'not-found':
      return (
        <div data-testid="not-found">
          <PageHeading title="Not found" />
          <p>
            There is no page here. <Link to={paths.teammates()}>Go to your teammates</Link>.
          </p>
        </div>
      )
  }
}

/**
 * A login link the server refused, opened in a browser that has a session already: the session
 * still works, so the page says so rather than "Not found", and takes the wrong token out of the
 * address bar and the history.
 */
function LoginLinkInvalid() {
  useEffect(() => {
    if (window.location.search) window.history.replaceState(null, '', window.location.pathname)
  }, [])
  return (
    <div data-testid="login-link-refused">
      <PageHeading title="Sign-in link not valid" />
      <p role="status">
        This sign-in link is not valid or has expired — you are still signed in as this server’s user, in this browser.
      </p>
      <p>
        <Link to={paths.teammates()} data-testid="login-link-home">
          Go to your teammates
        </Link>
      </p>
    </div>
  )
}

// Landing is the whole web app for now: it says what Memory is and points at GraphiQL until the
// memory screens arrive.
export function Landing() {
  return (
    <main className="landing" data-testid="app-root">
      <h1 className="landing-title">Memory</h1>
      <p className="landing-lede">
        Memory keeps what your AI teammates learn, shared with all of them or private to one, so
        every conversation starts from what they already know.
      </p>
      <p>
        <a className="landing-link" href="/graphiql" data-testid="graphiql-link">
          Open GraphiQL
        </a>
      </p>
      <p className="landing-note">
        The screens for browsing and editing memory in the browser are coming; until then, the
        GraphQL API is the way in.
      </p>
    </main>
  )
}

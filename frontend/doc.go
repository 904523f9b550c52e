// Package frontend owns the browser side of Memory as the Go binary ships it: the Vite build in
// dist/ (the web app and GraphiQL) embedded into the binary, and the http.Handler that serves it
// with the right content types, cache headers and SPA fallback.
//
// The sources live next to this file (index.html, graphiql.html, src/); `make frontend` builds them
// into dist/. The app's GraphQL operations are typed by GraphQL Code Generator from the API's schema
// (../graph/*.graphqls) into src/gql/, which is committed; `make codegen` refreshes it. Nothing the
// pages load comes from another origin, so the app works offline.
//
// It must not know about GraphQL, sessions or authentication: the server mounts Handler beside
// /graphql and the login routes, which are not its business. It must not fall back to index.html
// for paths that name a file, so a missing asset is a 404 and not HTML served as JavaScript.
package frontend

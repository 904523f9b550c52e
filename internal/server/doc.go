// Package server assembles the HTTP surface of cmd/api: the GraphQL endpoint (POST JSON, GET queries,
// graphql-transport-ws over gorilla/websocket), GraphiQL and the web app, the login URL, /healthz and
// /readyz. It owns transport concerns — limits, origins, cookies, request logging, one shared execution
// for equivalent websocket subscriptions (fanout.go), the request metrics (metrics.go) — and no
// domain rules.
package server

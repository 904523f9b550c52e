// Package mcpserver offers a teammate's memory tools to any MCP client (RULES §5: "MCP for one
// run"), with the official Go SDK. The tools — remember, remember_about_user, update_memory,
// forget_memory, search_memory, search_history — and the resource memory://packet call the same
// domain methods as the GraphQL run-credential operations (memory.Tools: Remember and the
// rest), so every rule holds exactly as it does there: the scope comes from the run (S1, S2), a
// save is confirmed only when the user's message asks for it (A1–A5), and each call checks the
// run's generation first and interrupts a run whose memory changed (G5).
//
// Handler serves it as Streamable HTTP for cmd/api's /mcp, behind the API's own authentication:
// every HTTP request carries the run token as its Bearer credential and is authenticated on its
// own, so the server keeps no sessions (stateless) and any API process can answer any request.
// cmd/worker's "mcp" command serves the same tools over stdio by relaying to that endpoint (see
// Relay), so there is one definition of the tools and one place where credentials are checked.
package mcpserver

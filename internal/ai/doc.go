// Package ai talks to OpenAI-compatible endpoints for the optional AI of RULES I1–I5: embeddings
// (POST {base}/embeddings) and structured chat completions (POST {base}/chat/completions with a
// strict json_schema response format), and it owns the daily request budget (memory_ai_usage, I4).
// It is the client and the budget only: internal/wire turns a configuration into the memory
// service's options and the job runner's handlers, and aifake is the tests' loopback endpoint.
//
// Every request reserves one unit of the budget first: a Client can't be built without a Budget,
// and there is no path to the network that skips Reserve. The key (MEMORY_AI_API_KEY) is sent as a
// bearer token and is never logged.
//
// It must never put a request or response body into an error or a log line: bodies carry memory
// text or the user's messages (F5). Errors say which endpoint, the HTTP status and, at most, the
// provider's short error code. It holds no memory rules: what to embed or extract, and whether a
// result may still be stored, is internal/memory's business (which must not import this package).
package ai

// Package auth turns what a client presents — an Authorization header, the web app's session cookie,
// or a websocket connection_init payload — into a memory.Credential on the request context. It
// decides who is calling, not what they may do: the schema's @auth directive and the memory service
// decide that.
package auth

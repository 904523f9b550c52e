package mcpserver

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Messages of the refusals of a message that is not one JSON-RPC request the server takes. Like
// refuse's, they start with BAD_USER_INPUT, never quote the message (it may hold memory text, F5),
// and say that nothing was done.
const (
	msgNotJSON  = "BAD_USER_INPUT: the message is not valid JSON; nothing was done"
	msgBatch    = "BAD_USER_INPUT: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one request per message; nothing was done"
	msgNotOne   = "BAD_USER_INPUT: a message must be one JSON-RPC 2.0 object; nothing was done"
	msgBadID    = "BAD_USER_INPUT: a request's id must be a string or an integer; nothing was done"
	msgNotRPC20 = `BAD_USER_INPUT: not a JSON-RPC 2.0 message ("jsonrpc": "2.0" with a method, or a response with an id); nothing was done`
	msgNoID     = "BAD_USER_INPUT: a request needs an id, a string or an integer (null is none); nothing was done"
	msgNotifyID = "BAD_USER_INPUT: a notification has no id; nothing was done"
	msgNoMethod = "BAD_USER_INPUT: no such method (the server takes initialize, ping, tools/list, tools/call, resources/list, resources/read …); nothing was done"
)

// requestMethods and notificationMethods are the methods an MCP server takes from a client (the
// go-sdk's serverMethodInfos, v1.8.0): screen refuses the others, and each with or without an id
// as it should have, so that the SDK — which answers those over HTTP with plain text and drops them
// over stdio — never sees them.
var (
	requestMethods = map[string]bool{
		"initialize": true, "ping": true, "tools/list": true, "tools/call": true,
		"resources/list": true, "resources/templates/list": true, "resources/read": true,
		"resources/subscribe": true, "resources/unsubscribe": true, "subscriptions/listen": true,
		"prompts/list": true, "prompts/get": true, "completion/complete": true,
		"logging/setLevel": true, "server/discover": true,
	}
	notificationMethods = map[string]bool{
		"notifications/initialized": true, "notifications/cancelled": true,
		"notifications/progress": true, "notifications/roots/list_changed": true,
	}
)

// maxExactID is the largest integer id answered with the same id: the SDK reads ids as float64.
const maxExactID = 1 << 53

// refusal is the JSON-RPC error a message is answered with instead of being handled.
type refusal struct {
	// id is the message's id, or the zero ID (answered as null) when it can't be read.
	id      jsonrpc.ID
	code    int64
	message string
	// notification marks the refusal of a notification of a method the server doesn't take: HTTP
	// answers it (the POST needs an answer), stdio doesn't (JSON-RPC 2.0 §4.1: a notification is
	// never answered).
	notification bool
}

// screen decodes data as one JSON-RPC 2.0 message — a request, a notification or a response — or
// says how to refuse it (JSON-RPC 2.0 §5: -32700 for what isn't JSON, -32600 for what isn't a
// valid message, with a null id where the id can't be read). A batch is refused whole, whatever the
// protocol version: current MCP versions removed batching, and one batch would otherwise run all
// its requests at once. The SDK's own decoding would end a stdio session at the first
// such line and answer HTTP with plain text; this answers each with an error a client can match.
func screen(data []byte) (jsonrpc.Message, *refusal) {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		return nil, &refusal{code: jsonrpc.CodeParseError, message: msgNotJSON}
	}
	switch data[0] {
	case '[':
		return nil, &refusal{code: jsonrpc.CodeInvalidRequest, message: msgBatch}
	case '{':
	default:
		return nil, &refusal{code: jsonrpc.CodeInvalidRequest, message: msgNotOne}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, &refusal{code: jsonrpc.CodeInvalidRequest, message: msgNotOne}
	}
	id, ok := readID(fields["id"])
	if !ok {
		return nil, &refusal{code: jsonrpc.CodeInvalidRequest, message: msgBadID}
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, &refusal{id: id, code: jsonrpc.CodeInvalidRequest, message: msgNotRPC20}
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		return msg, screenMethod(req)
	}
	return msg, nil
}

// screenMethod refuses a request of a method the server doesn't take (-32601 with its id), a
// request without an id or with id null (-32600, id null: JSON-RPC 2.0 §5 — the SDK reads both as
// a notification, and a client waiting for the answer would wait forever), and a notification with
// an id. Only a notification of a method the server doesn't take goes unanswered over stdio.
func screenMethod(req *jsonrpc.Request) *refusal {
	switch {
	case requestMethods[req.Method] && !req.ID.IsValid():
		return &refusal{code: jsonrpc.CodeInvalidRequest, message: msgNoID}
	case requestMethods[req.Method]:
		return nil
	case notificationMethods[req.Method] && req.ID.IsValid():
		return &refusal{id: req.ID, code: jsonrpc.CodeInvalidRequest, message: msgNotifyID}
	case notificationMethods[req.Method]:
		return nil
	case req.ID.IsValid():
		return &refusal{id: req.ID, code: jsonrpc.CodeMethodNotFound, message: msgNoMethod}
	case strings.HasPrefix(req.Method, "notifications/"):
		return &refusal{code: jsonrpc.CodeMethodNotFound, message: msgNoMethod, notification: true}
	}
	// No id and a method that is neither: a request without its id.
	return &refusal{code: jsonrpc.CodeInvalidRequest, message: msgNoID}
}

// readID reads a message's id: absent or null (the zero ID), a string, or an integer the SDK keeps
// exactly. An object, an array, a boolean or a fraction is no id (ok false).
func readID(raw json.RawMessage) (jsonrpc.ID, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return jsonrpc.ID{}, true
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(s)
		return id, err == nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n > maxExactID || n < -maxExactID {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(float64(n)) // exact below maxExactID
		return id, err == nil
	}
	return jsonrpc.ID{}, false
}

// encode is the error response: {"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}, with
// "id": null when the id couldn't be read (the SDK's encoder would leave the id out).
func (r *refusal) encode() []byte {
	data, err := json.Marshal(struct {
		JSONRPC string        `json:"jsonrpc"`
		ID      any           `json:"id"`
		Error   jsonrpc.Error `json:"error"`
	}{"2.0", r.id.Raw(), jsonrpc.Error{Code: r.code, Message: r.message}})
	if err != nil {
		panic("mcpserver: encode a refusal: " + err.Error()) // strings and numbers always encode
	}
	return data
}

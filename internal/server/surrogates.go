package server

import (
	"encoding/json"
	"errors"

	"github.com/open-bot/memory/internal/escapes"
)

// errLoneSurrogate: the text escapes a UTF-16 surrogate that has no partner ("\ud800", or GraphQL's
// "\u{D800}"). JSON and GraphQL decoders turn it into U+FFFD, so the text saved would not be the
// text sent; it is refused whole, like invalid UTF-8.
var errLoneSurrogate = errors.New("the request holds a lone UTF-16 surrogate escape (like \\ud800), which is not text")

// checkSurrogates refuses a JSON request body (or websocket message) that escapes a lone
// surrogate, in any JSON string or in the GraphQL query it carries (whose own escapes are inside a
// JSON string).
func checkSurrogates(body []byte) error {
	if escapes.LoneSurrogate(string(body)) {
		return errLoneSurrogate
	}
	// The GraphQL query is text inside a JSON string: its escapes are only visible once decoded.
	var req struct {
		Query   string `json:"query"`
		Payload struct {
			Query string `json:"query"`
		} `json:"payload"`
	}
	if json.Unmarshal(body, &req) == nil && (escapes.LoneSurrogate(req.Query) || escapes.LoneSurrogate(req.Payload.Query)) {
		return errLoneSurrogate
	}
	return nil
}

package server

import (
	"encoding/json"
	"errors"
)

// errLoneSurrogate: the text escapes a UTF-16 surrogate that has no partner ("\ud800"). JSON and
// GraphQL decoders turn it into U+FFFD, so the text saved would not be the text sent; it is refused
// whole, like invalid UTF-8.
var errLoneSurrogate = errors.New("the request holds a lone UTF-16 surrogate escape (like \\ud800), which is not text")

// checkSurrogates refuses a JSON request body (or websocket message) that escapes a lone
// surrogate, in any JSON string or in the GraphQL query it carries (whose own escapes are inside a
// JSON string).
func checkSurrogates(body []byte) error {
	if loneSurrogate(string(body)) {
		return errLoneSurrogate
	}
	// The GraphQL query is text inside a JSON string: its escapes are only visible once decoded.
	var req struct {
		Query   string `json:"query"`
		Payload struct {
			Query string `json:"query"`
		} `json:"payload"`
	}
	if json.Unmarshal(body, &req) == nil && (loneSurrogate(req.Query) || loneSurrogate(req.Payload.Query)) {
		return errLoneSurrogate
	}
	return nil
}

// loneSurrogate reports a \uXXXX escape of a surrogate that isn't a high one followed directly by
// an escaped low one. A backslash escaped by another ("\\u…") is no escape.
func loneSurrogate(s string) bool {
	pendingHigh := false
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			if pendingHigh {
				return true
			}
			continue
		}
		if i+1 < len(s) && s[i+1] != 'u' {
			if pendingHigh {
				return true
			}
			i++ // an escaped character, "\\" included
			continue
		}
		r, ok := hex4(s, i+2)
		if !ok {
			if pendingHigh {
				return true
			}
			continue
		}
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			if pendingHigh {
				return true
			}
			pendingHigh = true
		case r >= 0xDC00 && r <= 0xDFFF:
			if !pendingHigh {
				return true
			}
			pendingHigh = false
		default:
			if pendingHigh {
				return true
			}
		}
		i += 5
	}
	return pendingHigh
}

func hex4(s string, at int) (rune, bool) {
	if at+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | (c - '0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | (c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | (c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

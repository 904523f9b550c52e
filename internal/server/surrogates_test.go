package server

import "testing"

// The GraphQL query is checked once decoded from its JSON string; a literal backslash-u in a
// variable's text (an escaped backslash) is text, and passes.
func TestCheckSurrogates(t *testing.T) {
	for _, body := range []string{
		`{"query":"{ a(s: \"\\ud800\") }"}`,
		`{"query":"{ a(s: \"\\u{D800}\") }"}`,
		`{"type":"subscribe","payload":{"query":"subscription { a(s: \"\\udc00\") }"}}`,
	} {
		if checkSurrogates([]byte(body)) == nil {
			t.Errorf("a lone surrogate escape in the GraphQL text passed: %s", body)
		}
	}
	if err := checkSurrogates([]byte(`{"query":"{ a(s: \"\\ud83c\\udf75\") }","variables":{"c":"\\ud800 is text"}}`)); err != nil {
		t.Errorf("a proper pair in the query and a literal backslash-u in a variable were refused: %v", err)
	}
}

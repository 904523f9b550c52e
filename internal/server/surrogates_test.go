package server

import "testing"

func TestLoneSurrogate(t *testing.T) {
	for s, want := range map[string]bool{
		`"tea"`:                             false,
		`"\ud83c\udf75 tea"`:                false, // 🍵, a proper pair
		`"\\ud800"`:                         false, // an escaped backslash, then the letters u d 8 0 0
		`"\u00e9"`:                          false,
		`"\ud800"`:                          true,
		`"\udc00"`:                          true,
		`"\ud800x"`:                         true,
		`"\ud800\u0041"`:                    true,
		`"\udc00\ud800"`:                    true,
		`"\ud800\ud800\udc00"`:              true,
		`"\\\ud800"`:                        true, // an escaped backslash, then a real escape
		`"\ud83c\udf75\ud83c"`:              true,
		`"\uZZZZ \ud83c\udf75"`:             false,
		`{"a":"\ud83c","b":"x"}`:            true,
		`{"query":"{ a(s: \"\\ud800\") }"}`: false, // level 1 sees an escaped backslash only
	} {
		if got := loneSurrogate(s); got != want {
			t.Errorf("loneSurrogate(%s) = %v, want %v", s, got, want)
		}
	}
	if checkSurrogates([]byte(`{"query":"{ a(s: \"\\ud800\") }"}`)) == nil {
		t.Error("a lone surrogate escape in the GraphQL query text passed")
	}
	if err := checkSurrogates([]byte(`{"query":"{ a(s: \"\\ud83c\\udf75\") }","variables":{"c":"\\ud800 is text"}}`)); err != nil {
		t.Errorf("a proper pair in the query and a literal backslash-u in a variable were refused: %v", err)
	}
}

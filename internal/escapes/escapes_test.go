package escapes

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
		// GraphQL's braced escapes name one code point: a surrogate there is always alone.
		`"\u{1F375} tea"`:        false,
		`"\u{e9}"`:               false,
		`"\u{D800}"`:             true,
		`"\u{dfff}"`:             true,
		`"\u{0000D800}"`:         true,
		`"\ud83c\u{DF75}"`:       true, // half a pair, then a braced escape: not a pair
		`"\\u{D800}"`:            false,
		`"\u{}"`:                 false, // not an escape (the parser refuses it)
		`"\u{D800"`:              false, // unterminated: not an escape either
		`"\u{110000000D800}"`:    false, // past every code point: no surrogate
		`"\u{FFFFFFFFFFFFFFFF}"`: false,
	} {
		if got := LoneSurrogate(s); got != want {
			t.Errorf("LoneSurrogate(%s) = %v, want %v", s, got, want)
		}
	}
}

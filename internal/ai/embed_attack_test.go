package ai_test

// Black-box attacks on Client.Embed's reading of an embeddings response (base64 strings and arrays of
// numbers), from the rules alone: a well-formed vector in either form decodes to the same float32
// values bit for bit; anything malformed is an *ai.Error ("bad response" or "dimension mismatch"),
// never a panic, never a partial result, never the input text in the message.

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/ai"
	"github.com/open-bot/memory/internal/ai/aifake"
)

// b64 is v as little-endian float32 values in standard, padded base64.
func b64(v ...float32) string { return aifake.Encode(v, "base64").(string) }

// b64Bits is the raw float32 bit patterns bits in standard, padded base64.
func b64Bits(bits ...uint32) string {
	raw := make([]byte, 0, 4*len(bits))
	for _, b := range bits {
		raw = binary.LittleEndian.AppendUint32(raw, b)
	}
	return base64.StdEncoding.EncodeToString(raw)
}

// q is s as a JSON string literal.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// arr is v as a JSON array of numbers, each formatted by format.
func arr(format func(float32) string, v ...float32) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = format(x)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func short32(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }

// two is a response holding e0 for index 0 and e1 for index 1 (raw JSON values).
func two(e0, e1 string) string {
	return `{"object":"list","data":[{"object":"embedding","index":0,"embedding":` + e0 + `},{"object":"embedding","index":1,"embedding":` + e1 + `}]}`
}

// embedAttack sends inputs (secret first) to an endpoint answering body, and returns what Embed
// returned, turning a panic into a test failure.
func embedAttack(t *testing.T, b *ai.Budget, name, body string, dims int, inputs []string) (vecs [][]float32, err error) {
	t.Helper()
	f := aifake.New(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) { _, _ = io.WriteString(w, body) })
	c := newClient(t, f, b)
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: Embed panicked: %v", name, r)
				err = fmt.Errorf("panic")
			}
		}()
		vecs, err = c.Embed(t.Context(), "m", dims, inputs)
	}()
	if assert.Len(t, f.Bodies, 1, name) {
		assert.Equal(t, "base64", f.Bodies[0]["encoding_format"], "%s: every request asks for base64", name)
	}
	return vecs, err
}

// assertBad checks the rules for a malformed response.
func assertBad(t *testing.T, name string, vecs [][]float32, err error) {
	t.Helper()
	if !assert.Error(t, err, "%s: must be refused, got %v", name, vecs) {
		return
	}
	assert.Nil(t, vecs, "%s: no partial result", name)
	var e *ai.Error
	if assert.ErrorAs(t, err, &e, name) {
		assert.Contains(t, []string{"bad response", "dimension mismatch"}, e.Code, name)
		assert.Equal(t, "embeddings", e.Endpoint, name)
	}
	assert.NotContains(t, err.Error(), "4711", name)
	assert.NotContains(t, err.Error(), secret, name)
}

// assertBits checks got equals want bit for bit (so -0 and 0 differ, and NaN would be caught).
func assertBits(t *testing.T, name string, want, got [][]float32) {
	t.Helper()
	if !assert.Len(t, got, len(want), name) {
		return
	}
	for i := range want {
		if !assert.Len(t, got[i], len(want[i]), "%s: vector %d", name, i) {
			continue
		}
		for d := range want[i] {
			assert.Equal(t, math.Float32bits(want[i][d]), math.Float32bits(got[i][d]),
				"%s: vector %d dimension %d: want %g got %g", name, i, d, want[i][d], got[i][d])
		}
	}
}

var negZero = float32(math.Copysign(0, -1))

// TestEmbedAttackWellFormed: responses the rules say must be read, in either form, bit for bit.
func TestEmbedAttackWellFormed(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1000)
	sub := math.Float32frombits(0x00000001)  // smallest subnormal
	sub2 := math.Float32frombits(0x807fffff) // largest negative subnormal
	// A vector whose standard encoding holds '+' and '/', for the escaped "\/" case.
	slashy := []float32{math.Float32frombits(0x3ffbffbf), math.Float32frombits(0xbffffbfb), 1}
	require.Contains(t, b64(slashy...), "/")
	escSlash := strings.ReplaceAll(q(b64(slashy...)), "/", `\/`)
	one := b64(1, 2)
	// "\u0041" etc.: every character of the string written as a \u escape — the same string once
	// the JSON is read.
	var allEsc strings.Builder
	allEsc.WriteByte('"')
	for _, r := range b64(0.5, -0.25) {
		fmt.Fprintf(&allEsc, `\u%04x`, r)
	}
	allEsc.WriteByte('"')

	for _, tc := range []struct {
		name string
		body string
		dims int
		want [][]float32
	}{
		{"negative zero base64", two(q(b64(negZero, 1)), q(b64(1, negZero))), 2, [][]float32{{negZero, 1}, {1, negZero}}},
		{"negative zero array", two(`[-0,1]`, `[1,-0.0]`), 2, [][]float32{{negZero, 1}, {1, negZero}}},
		{"subnormals base64", two(q(b64(sub, 1)), q(b64(sub2, 1))), 2, [][]float32{{sub, 1}, {sub2, 1}}},
		{"subnormals array", two(arr(short32, sub, 1), arr(short32, sub2, 1)), 2, [][]float32{{sub, 1}, {sub2, 1}}},
		{"float32 max base64", two(q(b64(math.MaxFloat32, -math.MaxFloat32)), q(b64(1, 1))), 2, [][]float32{{math.MaxFloat32, -math.MaxFloat32}, {1, 1}}},
		{"float32 max array", two(`[3.4028235e38,-3.4028234663852886e+38]`, `[1,1]`), 2, [][]float32{{math.MaxFloat32, -math.MaxFloat32}, {1, 1}}},
		{"beyond half precision base64", two(q(b64(1e5, -1e5)), q(b64(3e38, -3e38))), 2, [][]float32{{1e5, -1e5}, {3e38, -3e38}}},
		{"beyond half precision array", two(`[1e5,-100000]`, `[3e38,-3E+38]`), 2, [][]float32{{1e5, -1e5}, {3e38, -3e38}}},
		{"one base64 one array", two(q(b64(0.1, 0.2)), `[0.1,0.2]`), 2, [][]float32{{0.1, 0.2}, {0.1, 0.2}}},
		{"one array one base64", two(`[0.3,-7]`, q(b64(0.3, -7))), 2, [][]float32{{0.3, -7}, {0.3, -7}}},
		{"json \\u escapes in the string", two(allEsc.String(), q(one)), 2, [][]float32{{0.5, -0.25}, {1, 2}}},
		{"json \\/ escape in the string", two(escSlash, q(b64(1, 2, 3))), 3, [][]float32{slashy, {1, 2, 3}}},
		{"extra unknown fields", `{"object":"list","usage":{"prompt_tokens":3,"total_tokens":3},"model":"m","id":"x","data":[` +
			`{"object":"embedding","index":1,"embedding":` + q(one) + `,"extra":{"nested":[1,{"a":null}]},"logprobs":null},` +
			`{"index":0,"embedding":[1,2],"object":"embedding","score":"high"}]}`, 2, [][]float32{{1, 2}, {1, 2}}},
		{"dims 0 takes the answer's own size", two(q(b64(1, 2, 3, 4, 5)), `[5,4,3,2,1]`), 0, [][]float32{{1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}}},
		{"exponent spellings", two(`[1E2,1e+2,1.0e2,100.000,0e0,1]`, `[-0.0e-0,2,3,4,5,6]`), 6, [][]float32{{100, 100, 100, 100, 0, 1}, {negZero, 2, 3, 4, 5, 6}}},
		{"whitespace around the JSON values", "{ \"data\" : [ { \"index\" : 1 , \"embedding\" : [ 1 , 2 ] } ,\n\t{ \"index\" : 0 , \"embedding\" : \"" + one + "\" } ] }\n", 2, [][]float32{{1, 2}, {1, 2}}},
	} {
		vecs, err := embedAttack(t, b, tc.name, tc.body, tc.dims, []string{secret, "b"})
		if assert.NoError(t, err, tc.name) {
			assertBits(t, tc.name, tc.want, vecs)
		}
	}
}

// TestEmbedAttackRandomBitsBothForms: random finite float32 bit patterns (normal, subnormal, ±0,
// huge), base64 and as arrays of numbers spelt several ways an endpoint might spell them, all decode
// to the same bits.
func TestEmbedAttackRandomBitsBothForms(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1000)
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 257
	v := make([]float32, 0, n)
	for len(v) < n {
		x := math.Float32frombits(rng.Uint32())
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			continue
		}
		if len(v)%7 == 0 { // many subnormals
			x = math.Float32frombits(rng.Uint32() & 0x807fffff)
		}
		v = append(v, x)
	}
	v[0], v[1], v[2], v[3] = 0, negZero, math.MaxFloat32, math.SmallestNonzeroFloat32
	want := [][]float32{v, v}
	spellings := map[string]func(float32) string{
		"shortest float32":   short32,
		"shortest float64":   func(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 64) },
		"%.9g":               func(x float32) string { return strconv.FormatFloat(float64(x), 'g', 9, 64) },
		"%.17g":              func(x float32) string { return strconv.FormatFloat(float64(x), 'g', 17, 64) },
		"%E":                 func(x float32) string { return strconv.FormatFloat(float64(x), 'E', -1, 32) },
		"exact decimal (%f)": func(x float32) string { return strconv.FormatFloat(float64(x), 'f', -1, 64) },
		"go json []float32":  nil,
	}
	for name, spell := range spellings {
		var a string
		if spell == nil {
			raw, err := json.Marshal(v)
			require.NoError(t, err)
			a = string(raw)
		} else {
			a = arr(spell, v...)
		}
		vecs, err := embedAttack(t, b, "array "+name, two(a, q(b64(v...))), n, []string{secret, "b"})
		if assert.NoError(t, err, name) {
			assertBits(t, "array "+name+" vs base64", want, vecs)
		}
	}
}

// TestEmbedAttackMalformed: every malformed response is an *ai.Error, no vectors, no input text.
func TestEmbedAttackMalformed(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1000)
	ok := q(b64(1, 2))
	urlVec := []float32{math.Float32frombits(0x3ffbffbf), math.Float32frombits(0xbffffbfb), 1}
	std := b64(urlVec...)
	urlSafe := strings.NewReplacer("+", "-", "/", "_").Replace(std)
	require.NotEqual(t, std, urlSafe, "the vector's encoding holds + or /")
	rawURL := base64.RawURLEncoding.EncodeToString([]byte(mustDecode(t, std)))
	ok3 := q(b64(1, 2, 3))
	unpadded := base64.RawStdEncoding.EncodeToString([]byte(mustDecode(t, b64(1, 2)))) // 8 bytes: 11 characters, no '='
	require.NotEqual(t, b64(1, 2), unpadded)
	mid := func(s, ins string) string { return s[:4] + ins + s[4:] }
	huge := b64(append([]float32{1}, make([]float32, 1<<20-1)...)...) // 4 MiB of vector

	for _, tc := range []struct {
		name string
		body string
		dims int
	}{
		// Not valid standard base64.
		{"url-safe alphabet", two(q(urlSafe), ok3), 3},
		{"url-safe alphabet without padding", two(q(rawURL), ok3), 3},
		{"missing padding", two(q(unpadded), ok), 2},
		{"newline inside (json \\n)", two(q(mid(b64(1, 2), "\n")), ok), 2},
		{"CRLF inside", two(q(mid(b64(1, 2), "\r\n")), ok), 2},
		{"trailing newline", two(q(b64(1, 2)+"\n"), ok), 2},
		{"space inside", two(q(mid(b64(1, 2), " ")), ok), 2},
		{"tab inside", two(q(mid(b64(1, 2), "\t")), ok), 2},
		{"leading space", two(q(" "+b64(1, 2)), ok), 2},
		{"padding in the middle", two(q(b64(1)+b64(2)), ok), 2},
		{"non-alphabet character", two(q(strings.Replace(b64(1, 2), "A", "é", 1)), ok), 2},
		{"NUL inside", two(`"AAAA\u0000AAAAAAA="`, ok), 2},
		{"a string holding JSON", two(`"[1,2]"`, ok), 2},
		{"a string holding a number", two(`"1"`, ok), 2},
		// Valid base64, wrong bytes.
		{"empty string", two(`""`, ok), 2},
		{"empty string, dims 0", two(`""`, `""`), 0},
		{"3 bytes", two(q(base64.StdEncoding.EncodeToString([]byte{0, 0, 0x80})), ok), 0},
		{"9 bytes", two(q(base64.StdEncoding.EncodeToString(make([]byte, 9))), ok), 0},
		{"5 bytes", two(q(base64.StdEncoding.EncodeToString([]byte{0, 0, 0x80, 0x3f, 0})), ok), 0},
		{"quiet NaN", two(q(b64Bits(0x7fc00000, 0x3f800000)), ok), 2},
		{"signalling NaN", two(q(b64Bits(0x3f800000, 0x7f800001)), ok), 2},
		{"negative NaN", two(ok, q(b64Bits(0xffffffff, 0x3f800000))), 2},
		{"+Inf", two(q(b64Bits(0x3f800000, 0x7f800000)), ok), 2},
		{"-Inf", two(ok, q(b64Bits(0xff800000, 0x3f800000))), 2},
		{"huge length vs dims 2", two(q(huge), ok), 2},
		{"dimension different from asked, base64", two(ok, ok), 3},
		{"dimension different from asked, array", two(`[1,2]`, `[1,2]`), 3},
		{"mixed sizes base64, dims 0", two(ok, ok3), 0},
		{"mixed sizes base64 and array, dims 0", two(ok, `[1,2,3]`), 0},
		// Other JSON types for "embedding".
		{"null", two(`null`, ok), 2},
		{"object", two(`{}`, ok), 2},
		{"object with data", two(`{"0":1,"1":2}`, ok), 2},
		{"true", two(`true`, ok), 2},
		{"number", two(`1`, ok), 2},
		{"nested array", two(`[[1,2]]`, ok), 0},
		{"nested arrays of the asked size", two(`[[1],[2]]`, ok), 2},
		{"strings in the array", two(`["1","2"]`, ok), 2},
		{"base64 strings in the array", two(`[`+ok+`]`, ok), 0},
		{"null in the array", two(`[1,null]`, ok), 2},
		{"only nulls in the array", two(`[null,null]`, ok), 2},
		{"null first in the array, base64 other", two(ok, `[null,2]`), 2},
		{"boolean in the array", two(`[1,true]`, ok), 2},
		{"object in the array", two(`[1,{}]`, ok), 2},
		{"empty array", two(`[]`, ok), 0},
		{"empty array, dims 2", two(`[]`, ok), 2},
		{"both empty arrays, dims 0", two(`[]`, `[]`), 0},
		{"1e39 in the array", two(`[1e39,1]`, ok), 2},
		{"-1e39 in the array", two(`[1,-1e39]`, ok), 2},
		{"3.5e38 in the array", two(`[3.5e38,1]`, ok), 2},
		{"1e309 in the array", two(`[1e309,1]`, ok), 2},
		{"NaN token in the array", two(`[NaN,1]`, ok), 2},
		{"Infinity token in the array", two(`[Infinity,1]`, ok), 2},
		{"hex number in the array", two(`[0x1,1]`, ok), 2},
		{"missing embedding", `{"data":[{"index":0},{"index":1,"embedding":` + ok + `}]}`, 2},
		// Counts and indices.
		{"index out of range", `{"data":[{"index":0,"embedding":` + ok + `},{"index":2,"embedding":` + ok + `}]}`, 2},
		{"negative index", `{"data":[{"index":-1,"embedding":` + ok + `},{"index":1,"embedding":` + ok + `}]}`, 2},
		{"index as string", `{"data":[{"index":"0","embedding":` + ok + `},{"index":1,"embedding":` + ok + `}]}`, 2},
		{"fractional index", `{"data":[{"index":0.5,"embedding":` + ok + `},{"index":1,"embedding":` + ok + `}]}`, 2},
		{"huge index", `{"data":[{"index":0,"embedding":` + ok + `},{"index":9223372036854775807,"embedding":` + ok + `}]}`, 2},
		{"index 2^64", `{"data":[{"index":0,"embedding":` + ok + `},{"index":18446744073709551617,"embedding":` + ok + `}]}`, 2},
		{"missing indices", `{"data":[{"embedding":` + ok + `},{"embedding":` + ok + `}]}`, 2},
		{"duplicate index, base64 and array", `{"data":[{"index":1,"embedding":` + ok + `},{"index":1,"embedding":[1,2]}]}`, 2},
		{"too many vectors", `{"data":[{"index":0,"embedding":` + ok + `},{"index":1,"embedding":` + ok + `},{"index":2,"embedding":` + ok + `}]}`, 2},
		{"one vector for two inputs", `{"data":[{"index":1,"embedding":` + ok + `}]}`, 2},
		{"no data", `{"object":"list"}`, 2},
		{"data null", `{"data":null}`, 2},
		{"data empty", `{"data":[]}`, 2},
		{"data object", `{"data":{"index":0,"embedding":` + ok + `}}`, 2},
		{"data holds null", `{"data":[null,{"index":1,"embedding":` + ok + `}]}`, 2},
		{"top-level array", `[{"index":0,"embedding":` + ok + `},{"index":1,"embedding":` + ok + `}]`, 2},
		{"truncated JSON", two(ok, ok)[:40], 2},
		{"trailing garbage", two(ok, ok) + `}`, 2},
		{"two JSON documents", two(ok, ok) + two(ok, ok), 2},
		{"empty body", ``, 2},
	} {
		vecs, err := embedAttack(t, b, tc.name, tc.body, tc.dims, []string{secret, "b"})
		assertBad(t, tc.name, vecs, err)
	}
}

func mustDecode(t *testing.T, s string) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(s)
	require.NoError(t, err)
	return string(raw)
}

// TestEmbedAttackDuplicateKeys: a datum with two "embedding" keys. Which one counts is not the
// rules' business, but a malformed one must never come back as a vector: the answer is an error, or
// the well-formed value.
func TestEmbedAttackDuplicateKeys(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1000)
	nan := q(b64Bits(0x7fc00000, 0x3f800000))
	good := q(b64(1, 2))
	for _, tc := range []struct {
		name   string
		first  string
		second string
		bad    bool // both readings are malformed or the last is
	}{
		{"malformed then well-formed (base64)", nan, good, false},
		{"malformed then well-formed (array)", `[1,null]`, `[1,2]`, false},
		{"well-formed then NaN", good, nan, true},
		{"well-formed then null", `[1,2]`, `null`, true},
		{"well-formed then wrong size", good, q(b64(1, 2, 3)), true},
		{"array then base64 of the same values", `[1,2]`, good, false},
	} {
		body := `{"data":[{"index":0,"embedding":` + tc.first + `,"embedding":` + tc.second + `},{"index":1,"embedding":` + good + `}]}`
		vecs, err := embedAttack(t, b, tc.name, body, 2, []string{secret, "b"})
		if tc.bad || err != nil {
			assertBad(t, tc.name, vecs, err)
			continue
		}
		assertBits(t, tc.name, [][]float32{{1, 2}, {1, 2}}, vecs)
	}
}

// TestEmbedAttackNonCanonicalPadBits: "AACAPwAAgD9=" differs from the canonical "AACAPwAAgD8=" only
// in the unused low bits of its last character. Refusing it is fine; reading it must give the same
// values as the canonical string, never anything else.
func TestEmbedAttackNonCanonicalPadBits(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1000)
	require.Equal(t, "AACAPwAAgD8=", b64(1, 1))
	body := two(`"AACAPwAAgD9="`, q(b64(1, 1)))
	vecs, err := embedAttack(t, b, "non-canonical pad bits", body, 2, []string{secret, "b"})
	if err != nil {
		assertBad(t, "non-canonical pad bits", vecs, err)
		return
	}
	assertBits(t, "non-canonical pad bits", [][]float32{{1, 1}, {1, 1}}, vecs)
}

// TestEmbedAttackArrayDecimalRoundsOnce: 1.00000005960464477550 lies just above the midpoint of
// float32 1 and its successor, so its nearest float32 is 1+2^-23; parsed as a float64 first it
// becomes the midpoint exactly and then rounds to even, 1. An array of numbers is decimal text; its
// float32 value is the nearest one.
func TestEmbedAttackArrayDecimalRoundsOnce(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1000)
	next := math.Nextafter32(1, 2)
	body := two(`[1.00000005960464477550,1]`, q(b64(next, 1)))
	vecs, err := embedAttack(t, b, "double rounding", body, 2, []string{secret, "b"})
	require.NoError(t, err)
	assertBits(t, "double rounding: array vs base64", [][]float32{{next, 1}, {next, 1}}, vecs)
}

// TestEmbedAttackSingleInputNoIndex: one input, one datum without an index: the index defaults to
// nothing the rules allow; what matters is that it's read as index 0 or refused, not misplaced.
func TestEmbedAttackSingleInputNoIndex(t *testing.T) {
	t.Parallel()
	b, _ := newBudget(t, 1000)
	vecs, err := embedAttack(t, b, "single no index", `{"data":[{"embedding":[1,2]}]}`, 2, []string{secret})
	if err != nil {
		assertBad(t, "single no index", vecs, err)
		return
	}
	assertBits(t, "single no index", [][]float32{{1, 2}}, vecs)
}

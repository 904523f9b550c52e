package main_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/memory"
)

// The worker's run preparation honours the memory switch: with both settings off, play shows the
// packet as the note that memory is off, a search answers MEMORY_OFF without counting as a failed
// call, and a save the user asked for waits as a suggestion because saving is off.
func TestPlayWithMemoryOff(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tm := c.teammate(t)
	c.api.Must(t, apitest.UserToken, `mutation($t: ID) { createMemory(input: {scope: {teammateId: $t}, content: "I like green tea", pinned: true}) { item { id } } }`,
		map[string]any{"t": tm}, &struct{}{})
	c.api.Must(t, apitest.UserToken, `mutation($t: ID!) { setMemorySwitch(input: {teammateId: $t, useMemory: false, saveMemory: false}) { teammate { id } } }`,
		map[string]any{"t": tm}, &struct{}{})

	cmd := exec.Command(workerBinary(t), "play", "-teammate", tm, "-message", "Please remember that I like black coffee.")
	cmd.Env = c.env()
	cmd.Stdin = strings.NewReader("search tea\nremember I like black coffee\ncomplete Noted.\n")
	out, err := cmd.CombinedOutput()
	text := string(out)
	require.NoError(t, err, "MEMORY_OFF is an answer, not a failed call: %s", text)
	assert.Contains(t, text, "memory packet (memory is off for this teammate):\n"+memory.MemoryOffNote+"\n")
	assert.NotContains(t, text, "green tea", "not even a pinned item is given")
	assert.Contains(t, text, "error: MEMORY_OFF")
	assert.Contains(t, text, "(reason: saving_off)")
	assert.Contains(t, text, "run completed")
}

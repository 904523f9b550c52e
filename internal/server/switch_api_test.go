package server_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A change of a teammate's memory switch reaches every open page live: teammatesChanged says
// SWITCHED and carries the teammate with its settings as they are now, which is what a second
// browser's cache writes.
func TestMemorySwitchIsAnnouncedLive(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.teammate("Ada")
	ws := w.api.MustDialWS(t, nil)
	require.NoError(t, ws.Init(map[string]any{"authorization": "Bearer " + user}))
	require.NoError(t, ws.Subscribe("1", `subscription { teammatesChanged { teammateId change teammate { id useMemory saveMemory } } }`, nil))

	// The subscription registers after the subscribe message and says nothing first: the change is
	// made again until its event arrives.
	stop := repeatUntilStopped(t.Context(), func(ctx context.Context, _ int) error {
		return w.api.Call(ctx, user, `mutation($t: ID!) { setMemorySwitch(input: {teammateId: $t, useMemory: false}) { teammate { id } } }`,
			map[string]any{"t": tm}, nil)
	})
	var got struct {
		TeammatesChanged struct {
			TeammateID string
			Change     string
			Teammate   *struct {
				ID                    string
				UseMemory, SaveMemory bool
			}
		}
	}
	// The teammate's own CREATED may still be on its way when the subscription starts: events
	// before the switch's are skipped.
	for range 5 {
		ws.Next(t, "1", &got)
		if got.TeammatesChanged.Change == "SWITCHED" {
			break
		}
	}
	require.NoError(t, stop())
	change := got.TeammatesChanged
	assert.Equal(t, tm, change.TeammateID)
	assert.Equal(t, "SWITCHED", change.Change)
	require.NotNil(t, change.Teammate)
	assert.False(t, change.Teammate.UseMemory)
	assert.True(t, change.Teammate.SaveMemory)
}

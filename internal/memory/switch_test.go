package memory_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/intent"
)

func (f fixture) setSwitch(t *testing.T, tm string, use, save *bool) memory.Teammate {
	t.Helper()
	got, err := f.svc.SetMemorySwitch(user, memory.SetMemorySwitchInput{TeammateID: tm, UseMemory: use, SaveMemory: save})
	require.NoError(t, err)
	return got
}

// A new teammate uses and saves memory; the switch changes one setting at a time, is read back on
// the teammate, and changes no generation.
func TestMemorySwitchDefaultsAndChanges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Switcher")
	got, err := f.svc.Teammate(user, tm)
	require.NoError(t, err)
	assert.Equal(t, memory.Switches{UseMemory: true, SaveMemory: true}, got.Switches)

	before := f.generation(t, tm)
	got = f.setSwitch(t, tm, ptr(false), nil)
	assert.Equal(t, memory.Switches{UseMemory: false, SaveMemory: true}, got.Switches)
	got = f.setSwitch(t, tm, nil, ptr(false))
	assert.Equal(t, memory.Switches{UseMemory: false, SaveMemory: false}, got.Switches)
	got, err = f.svc.Teammate(user, tm)
	require.NoError(t, err)
	assert.Equal(t, memory.Switches{UseMemory: false, SaveMemory: false}, got.Switches)
	assert.Equal(t, before, f.generation(t, tm), "a switch is no memory change")
}

// Only the user turns the switch (RULES §4); bad input is typed and changes nothing.
func TestMemorySwitchRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Guarded")
	run := f.startRun(t, tm, "hello")
	_, err := f.svc.SetMemorySwitch(asRun(t, f, run.Token), memory.SetMemorySwitchInput{TeammateID: tm, UseMemory: ptr(false)})
	assert.ErrorIs(t, err, memory.ErrForbidden, "a run credential")
	_, err = f.svc.SetMemorySwitch(worker, memory.SetMemorySwitchInput{TeammateID: tm, UseMemory: ptr(false)})
	assert.ErrorIs(t, err, memory.ErrForbidden, "the worker")
	_, err = f.svc.SetMemorySwitch(user, memory.SetMemorySwitchInput{TeammateID: tm})
	assert.Equal(t, memory.CodeBadUserInput, memory.Classify(err).Code, "no setting given")
	_, err = f.svc.SetMemorySwitch(user, memory.SetMemorySwitchInput{TeammateID: "nope", UseMemory: ptr(false)})
	assert.Equal(t, "teammateId", memory.Classify(err).Field)
	_, err = f.svc.SetMemorySwitch(user, memory.SetMemorySwitchInput{
		TeammateID: "7c1f7e51-0000-4000-8000-000000000000", UseMemory: ptr(false)})
	assert.ErrorIs(t, err, memory.ErrNotFound)
	got, err := f.svc.Teammate(user, tm)
	require.NoError(t, err)
	assert.Equal(t, memory.Switches{UseMemory: true, SaveMemory: true}, got.Switches)
}

// "Use memory" off: the run's packet holds nothing — not even a pinned item — and says memory is
// off; the preview and the packet resource say the same; the search tools answer MEMORY_OFF, not an
// empty list. Turned on again, the next run is given memory.
func TestMemoryOffGivesAnEmptyPacketAndRefusesSearch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Forgetful")
	_, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "always answer in French", Pinned: true})
	require.NoError(t, err)
	f.create(t, &tm, "my bike is green")

	on := f.startRun(t, tm, "what colour is my bike?")
	require.False(t, on.Packet.MemoryOff)
	require.Len(t, on.Packet.Entries, 2, "pinned and matching, while memory is on")

	f.setSwitch(t, tm, ptr(false), nil)
	off := f.startRun(t, tm, "what colour is my bike?")
	assert.True(t, off.Packet.MemoryOff)
	assert.Empty(t, off.Packet.Entries, "nothing recalled, pinned items included")
	assert.Equal(t, memory.MemoryOffNote, off.Packet.Text)
	assert.NotContains(t, off.Packet.Text, "bike")

	preview, err := f.svc.RecallPreview(user, tm, "bike")
	require.NoError(t, err)
	assert.True(t, preview.MemoryOff)
	assert.Empty(t, preview.Entries)

	ctx := asRun(t, f, off.Token)
	text, err := f.svc.Tools().RunPacket(ctx)
	require.NoError(t, err)
	assert.Equal(t, memory.MemoryOffNote, text)
	_, err = f.svc.Tools().SearchMemory(ctx, "bike")
	require.ErrorIs(t, err, memory.ErrMemoryOff)
	assert.Equal(t, memory.CodeMemoryOff, memory.Classify(err).Code)
	_, err = f.svc.Tools().SearchHistory(ctx, "bike")
	require.ErrorIs(t, err, memory.ErrMemoryOff)

	f.setSwitch(t, tm, ptr(true), nil)
	items, err := f.svc.Tools().SearchMemory(ctx, "bike")
	require.NoError(t, err)
	assert.Len(t, items, 1)
	again := f.startRun(t, tm, "what colour is my bike?")
	assert.False(t, again.Packet.MemoryOff)
	assert.Len(t, again.Packet.Entries, 2)
}

// "Save to memory" off: a save, an update and a forget the user asked for in so many words all wait
// for the user (reason saving_off) instead of being applied; no generation moves; the user can
// still confirm them.
func TestSavingOffMakesEveryWriteWait(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Careful")
	kept := f.create(t, &tm, "my bike is green")
	f.setSwitch(t, tm, nil, ptr(false))
	gen := f.generation(t, tm)

	save := f.startRun(t, tm, "Please remember that my car is red")
	res, err := f.svc.Tools().Remember(asRun(t, f, save.Token), memory.RememberInput{Content: "my car is red"})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome, res.Message)
	assert.Equal(t, intent.ReasonSavingOff, res.Reason)
	assert.Contains(t, res.Message, `"Save to memory" is off`)
	require.NotNil(t, res.Item)
	assert.Equal(t, memory.StatusCandidate, res.Item.Status)
	suggestion := *res.Item

	update := f.startRun(t, tm, "Update my bike is green to my bike is blue")
	res, err = f.svc.Tools().UpdateMemoryOf(asRun(t, f, update.Token), kept.ID, kept.Revision, "my bike is blue")
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome, res.Message)
	assert.Equal(t, intent.ReasonSavingOff, res.Reason)
	require.NotNil(t, res.Item)
	assert.Equal(t, kept.ID, *res.Item.TargetItemID)

	forget := f.startRun(t, tm, "Forget that my bike is green")
	res, err = f.svc.Tools().ForgetMemoryOf(asRun(t, f, forget.Token), kept.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome, res.Message)
	assert.Equal(t, intent.ReasonSavingOff, res.Reason)

	still, err := f.svc.Item(user, kept.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.StatusActive, still.Status)
	assert.Equal(t, "my bike is green", still.Content)
	assert.Equal(t, gen, f.generation(t, tm), "nothing was applied")

	waiting, err := f.svc.Item(user, suggestion.ID)
	require.NoError(t, err)
	require.NotNil(t, waiting.WaitReason)
	assert.Equal(t, intent.ReasonSavingOff, *waiting.WaitReason)
	confirmed, err := f.svc.ConfirmCandidate(user, memory.ConfirmInput{ID: suggestion.ID})
	require.NoError(t, err, "the user decides")
	assert.Equal(t, memory.StatusActive, confirmed.Status)

	// With saving on again, the same kind of request is saved.
	f.setSwitch(t, tm, nil, ptr(true))
	again := f.startRun(t, tm, "Please remember that my boat is white")
	res, err = f.svc.Tools().Remember(asRun(t, f, again.Token), memory.RememberInput{Content: "my boat is white"})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSaved, res.Outcome, res.Message)
}

// The switch and a teammate's write are ordered, with the change injected in the write's
// transaction window: a switch-off started after the write read "on" waits until the write has
// committed (so the user never sees "off" while a write it governs can still go through), and one
// committed before the write's transaction makes it wait for the user.
func TestSavingOffRacesAWrite(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Racer")

	// Off in the window, after the write read the switch: the change waits for the write.
	run := f.startRun(t, tm, "Please remember that my car is red")
	done := make(chan error, 1)
	var waited bool
	f.svc.SetAfterSwitchCheck(func() {
		f.svc.SetAfterSwitchCheck(nil)
		go func() {
			_, err := f.svc.SetMemorySwitch(user, memory.SetMemorySwitchInput{TeammateID: tm, SaveMemory: ptr(false)})
			done <- err
		}()
		waited = apitest.WaitUntil(10*time.Second, func() bool { return lockWaiters(t, f.pool) > 0 })
		select {
		case err := <-done:
			done <- err
			waited = false // the switch changed while the write could still go through
		default:
		}
	})
	res, err := f.svc.Tools().Remember(asRun(t, f, run.Token), memory.RememberInput{Content: "my car is red"})
	require.NoError(t, err)
	require.NoError(t, <-done)
	assert.True(t, waited, "the switch-off waited for the write under way")
	assert.Equal(t, memory.OutcomeSaved, res.Outcome, "the write read the switch on")

	// Every write after the change waits for the user.
	later := f.startRun(t, tm, "Please remember that my boat is white")
	res, err = f.svc.Tools().Remember(asRun(t, f, later.Token), memory.RememberInput{Content: "my boat is white"})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome)
	assert.Equal(t, intent.ReasonSavingOff, res.Reason)

	// Off committed just before the write's transaction (after its credential was checked).
	f.setSwitch(t, tm, nil, ptr(true))
	third := f.startRun(t, tm, "Please remember that my kite is yellow")
	f.svc.SetBeforeToolWrite(func() {
		f.svc.SetBeforeToolWrite(nil)
		f.setSwitch(t, tm, nil, ptr(false))
	})
	res, err = f.svc.Tools().Remember(asRun(t, f, third.Token), memory.RememberInput{Content: "my kite is yellow"})
	require.NoError(t, err)
	assert.Equal(t, memory.OutcomeSuggested, res.Outcome)
	assert.Equal(t, intent.ReasonSavingOff, res.Reason)
}

// A teammate's export carries its switch; an import into a teammate restores it, and an export
// written before the switch existed (no memorySwitch) imports with both on.
func TestMemorySwitchExportImport(t *testing.T) {
	t.Parallel()
	f := setup(t)
	from := f.teammate(t, "Exported")
	f.create(t, &from, "my bike is green")
	f.setSwitch(t, from, ptr(false), ptr(false))

	out, err := f.svc.ExportMemory(user, memory.ExportOptions{Scope: memory.Scope{TeammateID: &from}, Format: memory.ExportJSON})
	require.NoError(t, err)
	var file memory.ExportFile
	require.NoError(t, json.Unmarshal(out.Data, &file))
	require.NotNil(t, file.MemorySwitch)
	assert.Equal(t, memory.ExportSwitch{UseMemory: false, SaveMemory: false}, *file.MemorySwitch)

	to := f.teammate(t, "Imported")
	_, err = f.svc.ImportMemory(user, memory.ImportInput{Scope: memory.Scope{TeammateID: &to}, Format: memory.ExportJSON, Data: string(out.Data)})
	require.NoError(t, err)
	got, err := f.svc.Teammate(user, to)
	require.NoError(t, err)
	assert.Equal(t, memory.Switches{UseMemory: false, SaveMemory: false}, got.Switches)

	// An older file of a teammate, without the field: both on again.
	file.MemorySwitch = nil
	file.Items = file.Items[:0]
	old, err := json.Marshal(file)
	require.NoError(t, err)
	_, err = f.svc.ImportMemory(user, memory.ImportInput{Scope: memory.Scope{TeammateID: &to}, Format: memory.ExportJSON, Data: string(old)})
	require.NoError(t, err)
	got, err = f.svc.Teammate(user, to)
	require.NoError(t, err)
	assert.Equal(t, memory.Switches{UseMemory: true, SaveMemory: true}, got.Switches)

	// Shared memory has no switch, and its file changes none.
	shared, err := f.svc.ExportMemory(user, memory.ExportOptions{Format: memory.ExportJSON})
	require.NoError(t, err)
	assert.NotContains(t, string(shared.Data), "memorySwitch")
	f.setSwitch(t, to, ptr(false), nil)
	_, err = f.svc.ImportMemory(user, memory.ImportInput{Scope: memory.Scope{TeammateID: &to}, Format: memory.ExportJSON, Data: string(shared.Data)})
	require.NoError(t, err)
	got, err = f.svc.Teammate(user, to)
	require.NoError(t, err)
	assert.False(t, got.Switches.UseMemory)
}

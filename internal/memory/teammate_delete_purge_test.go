package memory_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// F7 where the service owns the cluster: a teammate's deletion makes a purge due, and that purge
// leaves none of the teammate's texts in any file of the data directory — its items' contents and
// keys and their revisions (memory_items, memory_revisions, memory_terms), its suggestions, its
// user messages and its replies (messages, with their search vectors and the messages_search
// index), its name — nor in the WAL. The purge follows the deletion itself (the forgotten items
// leave with the teammate, so PurgeDue can't go by them), and it rewrites `messages` too. Another
// teammate's texts, written the same way, stay in the files: the search can fail.
func TestDeleteTeammateIsPurgedFromTheDataDirectory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, dataDir, pool := privateCluster(t)
	f := fixture{svc: memory.NewService(pool, slog.New(slog.DiscardHandler)), pool: pool}

	type texts struct{ name, key, item, revision, suggestion, message, reply string }
	write := func(who string) texts {
		m := func(what string) string { return markerPrefix(t) + "-" + what }
		x := texts{name: m("name"), key: m("key"), item: m("item"), revision: m("revision"), suggestion: m("suggestion"),
			message: m("message"), reply: m("reply")}
		tm := f.teammate(t, who+" "+x.name)
		it, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Key: ptr("locker " + x.key),
			Content: "Locker code " + x.item})
		require.NoError(t, err)
		_, err = f.svc.EditMemory(user, memory.EditInput{ID: it.ID, BaseRevision: 1, Content: ptr("Locker code " + x.revision)})
		require.NoError(t, err)
		run := f.startRun(t, tm, "Hello, my chat is about "+x.message+" today.")
		asTeammate := asRun(t, f, run.Token)
		res, err := f.svc.Tools().Remember(asTeammate, memory.RememberInput{Content: "Has a badge " + x.suggestion})
		require.NoError(t, err)
		require.Equal(t, memory.OutcomeSuggested, res.Outcome)
		_, err = f.svc.Tools().CompleteRun(asTeammate, "My reply mentions "+x.reply+" once.")
		require.NoError(t, err)
		return x
	}
	gone, kept := write("Gone"), write("Kept")
	each := func(x texts) map[string]string {
		return map[string]string{"name": x.name, "key": x.key, "item": x.item, "revision": x.revision,
			"suggestion": x.suggestion, "message": x.message, "reply": x.reply}
	}

	teammates, err := f.svc.Teammates(user)
	require.NoError(t, err)
	var goneID string
	for _, tm := range teammates {
		if tm.Name == "Gone "+gone.name {
			goneID = tm.ID
		}
	}
	require.NotEmpty(t, goneID)
	_, err = f.svc.DeleteTeammate(user, goneID)
	require.NoError(t, err)

	// Before the purge the files hold every text: the delete only removes rows.
	for _, q := range []string{`VACUUM`, `CHECKPOINT`} {
		_, err = pool.Exec(ctx, q)
		require.NoError(t, err)
	}
	before := filesWithEach(t, dataDir, each(gone))
	for what := range each(gone) {
		require.NotEmpty(t, before[what], "before the purge, the files hold the deleted teammate's %s", what)
	}

	due, err := f.svc.Background().PurgeDue(ctx)
	require.NoError(t, err)
	assert.True(t, due, "a purge is due after a deletion")
	report, err := f.svc.Background().Purge(ctx)
	require.NoError(t, err)
	t.Logf("purge after a deletion: tables %v, statistics %v, WAL %v", report.Tables, report.Statistics, report.WAL)

	// filesWithEach ignores case, so the lower-case lexemes of the search vectors count too.
	markers := map[string]string{}
	for what, text := range each(gone) {
		markers["gone "+what] = text
	}
	for what, text := range each(kept) {
		markers["kept "+what] = text
	}
	after := filesWithEach(t, dataDir, markers)
	for what := range each(gone) {
		assert.Empty(t, after["gone "+what], "files that still hold the deleted teammate's %s", what)
	}
	for what := range each(kept) {
		assert.NotEmpty(t, after["kept "+what], "the other teammate's %s must still be in the files", what)
	}
	due, err = f.svc.Background().PurgeDue(ctx)
	require.NoError(t, err)
	assert.False(t, due, "the purge covered the deletion")
}

package memory_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

func TestForgetErasesEveryRevision(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Forgetful")
	const marker = "QUOKKA-4411"
	item, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm}, Content: "first " + marker, Key: ptr("key " + marker), Pinned: true})
	require.NoError(t, err)
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr("second " + marker)})
	require.NoError(t, err)
	_, err = f.pool.Exec(context.Background(), `INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES ($1, 2, 'm', 3, '[1,2,3]')`, item.ID)
	require.NoError(t, err)
	_, err = f.pool.Exec(context.Background(), `INSERT INTO memory_jobs (kind, item_id, revision) VALUES ('embed', $1, 2)`, item.ID)
	require.NoError(t, err)
	genBefore := f.generation(t, tm)
	listen := listenEvents(t, f.pool)

	forgotten, err := f.svc.ForgetMemory(user, item.ID)
	require.NoError(t, err)
	assert.Equal(t, memory.StatusForgotten, forgotten.Status)
	assert.Empty(t, forgotten.Content)
	assert.Nil(t, forgotten.Key)
	assert.Equal(t, 3, forgotten.Revision, "forgetting is a revision too (R1)")
	assert.NotEqual(t, genBefore, f.generation(t, tm), "G1: forgetting active memory bumps the generation")
	e := listen.next(t)
	assert.Equal(t, memory.Event{Scope: tm, ItemID: item.ID, Revision: 3, Action: "forget", Status: "forgotten", Generation: true}, e)

	var withMarker, embeddings, pending, tombstones int
	require.NoError(t, f.pool.QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM memory_revisions WHERE content LIKE '%' || $2 || '%' OR key LIKE '%' || $2 || '%')
		     + (SELECT count(*) FROM memory_items WHERE content LIKE '%' || $2 || '%' OR key LIKE '%' || $2 || '%'),
		       (SELECT count(*) FROM memory_embeddings WHERE item_id = $1),
		       (SELECT count(*) FROM memory_jobs WHERE item_id = $1 AND status = 'pending'),
		       (SELECT count(*) FROM memory_tombstones WHERE item_id = $1)`, item.ID, marker).
		Scan(&withMarker, &embeddings, &pending, &tombstones))
	assert.Zero(t, withMarker, "F1: no revision keeps the text")
	assert.Zero(t, embeddings, "F1: no embedding survives")
	assert.Zero(t, pending, "F2: pending jobs are cancelled")
	assert.Equal(t, 2, tombstones, "F3: one content-free hash per distinct text")

	_, err = f.svc.ForgetMemory(user, item.ID)
	assert.ErrorIs(t, err, memory.ErrNotFound, "a forgotten item can't be forgotten again")
	_, err = f.svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 3, Content: ptr("back")})
	assert.ErrorIs(t, err, memory.ErrNotFound, "nor edited back to life")
	_, err = f.svc.ForgetMemory(memory.WithCredential(context.Background(), memory.Credential{Kind: memory.CredentialWorker}), item.ID)
	assert.ErrorIs(t, err, memory.ErrForbidden)
}

package memory

// SQL of the memory package, in one place. Every value is a parameter; nothing is interpolated.

const itemColumns = `id::text, teammate_id::text, scope, kind, key, content, status, pinned, revision,
	source, evidence, source_run_id::text, target_item_id::text, target_revision, proposes_forget,
	times_suggested, resolution, expires_at, created_at, updated_at, forgotten_at`

const revisionColumns = `item_id::text, revision, content, key, kind, pinned, expires_at, action, actor,
	based_on, run_id::text, created_at`

const (
	// qScopeLock takes the scope's lock (R1): every change to a scope's memory holds it until commit.
	qScopeLock = `SELECT generation FROM memory_generations WHERE scope = $1 FOR UPDATE`

	qGenerationBump = `UPDATE memory_generations SET generation = generation + 1, updated_at = now() WHERE scope = $1`

	// An item's scope never changes, so it can be read before the scope's lock is taken.
	qItemScope = `SELECT scope FROM memory_items WHERE id = $1`

	// qItemScopeLock takes the lock of the item $1's scope (R1) in one round trip; no row: no such item.
	qItemScopeLock = `SELECT scope FROM memory_generations WHERE scope = (` + qItemScope + `) FOR UPDATE`

	qItemForUpdate = `SELECT ` + itemColumns + ` FROM memory_items WHERE id = $1 FOR UPDATE`

	qItemGet = `SELECT ` + itemColumns + ` FROM memory_items WHERE id = $1`

	qItemInsert = `
		INSERT INTO memory_items (teammate_id, kind, key, content, status, pinned, source, evidence,
		                          source_run_id, source_message_id, target_item_id, target_revision,
		                          expires_at, content_hash, proposes_forget)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
		RETURNING ` + itemColumns

	qItemRevise = `
		UPDATE memory_items
		   SET revision = $2, content = $3, key = $4, kind = $5, pinned = $6, expires_at = $7,
		       content_hash = $8, status = $9, updated_at = now()
		 WHERE id = $1
		RETURNING ` + itemColumns

	qRevisionInsert = `
		INSERT INTO memory_revisions (item_id, revision, content, key, kind, pinned, expires_at, action,
		                              actor, based_on, run_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`

	qRevisionGet = `SELECT ` + revisionColumns + ` FROM memory_revisions WHERE item_id = $1 AND revision = $2`

	// Newest first, keyset-paginated on the revision number.
	qRevisionsPage = `
		SELECT ` + revisionColumns + ` FROM memory_revisions
		 WHERE item_id = $1 AND ($2::int IS NULL OR revision < $2)
		 ORDER BY revision DESC LIMIT $3`

	// The item list filter: $1 scope, $2 status, $3 kind or NULL, $4 search words or NULL, $5 the same
	// as an ILIKE pattern (so partial words match too), $6 the kinds to keep or NULL.
	itemFilter = `scope = $1 AND status = $2 AND ($3::text IS NULL OR kind = $3)
		AND ($6::text[] IS NULL OR kind = ANY($6::text[]))
		AND ($4::text IS NULL OR search @@ plainto_tsquery('english', $4) OR content ILIKE $5 OR key ILIKE $5)`

	// Pinned first, then most recently changed; the keyset ($7, $8, $9) is the last row of the previous page.
	qItemsPage = `
		SELECT ` + itemColumns + ` FROM memory_items
		 WHERE ` + itemFilter + `
		   AND ($7::boolean IS NULL OR (pinned, updated_at, id) < ($7, $8, $9::uuid))
		 ORDER BY pinned DESC, updated_at DESC, memory_items.id DESC
		 LIMIT $10`

	qItemsCount = `SELECT count(*) FROM memory_items WHERE ` + itemFilter

	qScopeExists = `SELECT EXISTS (SELECT 1 FROM memory_generations WHERE scope = $1)`

	qRunTeammates = `SELECT id::text, teammate_id::text FROM runs WHERE id = ANY($1::uuid[])`

	// qExpirySweep records, per scope, how many active items have expired, and announces every scope
	// whose number changed. Several API processes may sweep at once: the row update decides which one
	// announces.
	qExpirySweep = `
		WITH counts AS (
			SELECT g.scope,
			       (SELECT count(*) FROM memory_items i
			         WHERE i.scope = g.scope AND i.status = 'active' AND i.expires_at <= now())::int AS n
			  FROM memory_generations g
		), changed AS (
			UPDATE memory_generations g SET expired_seen = c.n, updated_at = now()
			  FROM counts c
			 WHERE g.scope = c.scope AND g.expired_seen <> c.n
			RETURNING g.scope
		)
		SELECT scope, pg_notify($1, json_build_object('scope', scope, 'gen', true)::text)::text FROM changed`
)

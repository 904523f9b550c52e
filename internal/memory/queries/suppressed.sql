-- name: SuppressedInsert :one
-- A suggestion the tombstones suppressed (F3; suppressed.go): the run is told it was suggested.
INSERT INTO memory_suppressed (scope, run_id, keyed_hash, target_item_id, sealed)
VALUES (@scope, @run_id::uuid, @keyed_hash, sqlc.narg(target_item_id)::uuid, @sealed)
RETURNING id, run_id, sealed, times_suggested, created_at, updated_at;

-- name: SuppressedMerge :one
-- Counts a suppressed suggestion again, as ItemSuggestionMerge counts a waiting one: the one of the
-- scope with the keyed hash and the target (NULL for a new memory) that still "waits". It waits for
-- the run that made it; for other runs, while a visible suggestion of its run still waits, or — when
-- its run made no visible suggestion — until the user settles a suggestion of its scope (suppressed.go
-- says why). No row: none waits.
UPDATE memory_suppressed SET times_suggested = times_suggested + 1, updated_at = now()
 WHERE id = (SELECT w.id FROM memory_suppressed w
              WHERE w.scope = @scope AND w.keyed_hash = @keyed_hash
                AND w.target_item_id IS NOT DISTINCT FROM sqlc.narg(target_item_id)::uuid
                AND (w.run_id = @run_id::uuid
                     OR EXISTS (SELECT 1 FROM memory_items i WHERE i.source_run_id = w.run_id AND i.status = 'candidate')
                     OR (NOT EXISTS (SELECT 1 FROM memory_items i
                                      WHERE i.source_run_id = w.run_id AND i.source = 'teammate'
                                        AND i.status IN ('candidate', 'dismissed'))
                         AND NOT EXISTS (SELECT 1 FROM memory_revisions r JOIN memory_items i ON i.id = r.item_id
                                          WHERE i.scope = w.scope AND r.actor = 'user'
                                            AND r.action IN ('confirm', 'dismiss') AND r.created_at >= w.created_at)))
              ORDER BY w.run_id = @run_id::uuid DESC, w.created_at, w.id
              LIMIT 1)
RETURNING id, run_id, sealed, times_suggested, created_at, updated_at;

-- name: SuppressedScope :one
-- The scope of a suppressed suggestion's id: a run that names it is answered as for a suggestion.
SELECT scope FROM memory_suppressed WHERE id = @id;

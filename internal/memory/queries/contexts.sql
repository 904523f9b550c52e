-- name: ContextsDeleteOfRun :exec
DELETE FROM memory_contexts WHERE run_id = @run_id;

-- name: ContextsPacketOfRun :many
-- What the run was given (P7), in packet order: each item at the revision given, from its saved
-- revision, with the item's scope and status now.
SELECT i.id, i.scope, i.status, r.revision, r.kind, r.key, r.content
  FROM memory_contexts c
  JOIN memory_items i ON i.id = c.item_id
  JOIN memory_revisions r ON r.item_id = c.item_id AND r.revision = c.revision
 WHERE c.run_id = @run_id
 ORDER BY c.position;

-- name: ProvenanceConfirmations :many
-- For each of ids, when the user confirmed it from the suggestion it was: the earliest "confirm"
-- revision by the user that names the item's own source run (a proposal applied to the item names
-- the proposal's run instead).
SELECT r.item_id, min(r.created_at)::timestamptz AS confirmed_at
  FROM memory_revisions r JOIN memory_items i ON i.id = r.item_id
 WHERE r.item_id = ANY(@ids::uuid[]) AND r.action = 'confirm' AND r.actor = 'user'
   AND r.run_id IS NOT DISTINCT FROM i.source_run_id
 GROUP BY r.item_id;

-- name: RunMemoryChanges :many
-- What the teammates' tools of runs wrote, oldest first: every revision a teammate's run wrote, with
-- what the item is now. Never the text of a forgotten item: its content is already blank (F1).
SELECT r.run_id::uuid AS run_id, r.item_id, r.action, i.scope, i.status, i.proposes_forget,
       i.target_item_id, i.key, i.content, r.created_at,
       EXISTS (SELECT 1 FROM memory_revisions c
                WHERE c.item_id = r.item_id AND c.action = 'confirm' AND c.actor = 'user'
                  AND c.run_id = r.run_id) AS confirmed
  FROM memory_revisions r JOIN memory_items i ON i.id = r.item_id
 WHERE r.run_id = ANY(@run_ids::uuid[]) AND r.actor LIKE 'teammate:%'
   AND r.action IN ('create', 'correct', 'forget')
 ORDER BY r.created_at, r.item_id, r.revision;

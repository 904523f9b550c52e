-- name: RevisionInsert :exec
INSERT INTO memory_revisions (item_id, revision, content, key, kind, pinned, expires_at, action, actor, based_on, run_id)
VALUES (@item_id, @revision, @content, @key, @kind, @pinned, @expires_at, @action, @actor, @based_on, @run_id);

-- name: RevisionImport :exec
INSERT INTO memory_revisions (item_id, revision, content, key, kind, pinned, expires_at, action, actor, based_on,
                              created_at)
VALUES (@item_id, @revision, @content, @key, @kind, @pinned, @expires_at, @action, 'import', @based_on, @created_at);

-- name: RevisionGet :one
SELECT * FROM memory_revisions WHERE item_id = @item_id AND revision = @revision;

-- name: RevisionsList :many
-- Newest first, keyset-paginated on the revision number (before: exclusive, or NULL for the first page).
SELECT * FROM memory_revisions
 WHERE item_id = @item_id AND (sqlc.narg(before)::int IS NULL OR revision < sqlc.narg(before))
 ORDER BY revision DESC LIMIT @max_rows::int;

-- name: RevisionsOfItems :many
SELECT * FROM memory_revisions WHERE item_id = ANY(@item_ids::uuid[]) ORDER BY item_id, revision;

-- name: RevisionTexts :many
-- Every text the item's revisions hold.
SELECT content FROM memory_revisions WHERE item_id = @item_id AND content <> '';

-- name: RevisionsBlank :exec
-- F1: the revisions of a forgotten item keep no text.
UPDATE memory_revisions SET content = '', key = NULL WHERE item_id = @item_id;

-- name: RevisionsCurrentActions :many
-- The action of each item's current revision.
SELECT r.item_id, r.action FROM memory_revisions r
  JOIN memory_items i ON i.id = r.item_id AND i.revision = r.revision
 WHERE i.id = ANY(@item_ids::uuid[]);

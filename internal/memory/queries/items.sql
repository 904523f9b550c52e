-- name: ItemGet :one
-- Every statement of this file that returns items returns these columns, in this order: the
-- item's row (itemRow in items.go).
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items WHERE id = @id;

-- name: ItemGetForUpdate :one
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items WHERE id = @id FOR UPDATE;

-- name: ItemsGetForUpdate :many
-- In id order, so that two bulk operations lock rows in the same order.
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items WHERE id = ANY(@ids::uuid[]) ORDER BY id FOR UPDATE;

-- name: ItemInsert :one
INSERT INTO memory_items (teammate_id, kind, key, content, status, pinned, source, evidence, wait_reason, wait_words,
                          source_run_id, source_message_id, target_item_id, target_revision, expires_at,
                          content_hash, proposes_forget)
VALUES (@teammate_id, @kind, @key, @content, @status, @pinned, @source, @evidence, @wait_reason, @wait_words,
        @source_run_id, @source_message_id, @target_item_id, @target_revision, @expires_at, @content_hash,
        @proposes_forget)
RETURNING id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at;

-- name: ItemRevise :one
-- The item's next revision becomes current (the revision row is written beside it).
UPDATE memory_items
   SET revision = @revision, content = @content, key = @key, kind = @kind, pinned = @pinned,
       expires_at = @expires_at, content_hash = @content_hash, status = @status, updated_at = now()
 WHERE id = @id
RETURNING id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at;

-- name: ItemSettle :one
-- A suggestion that no longer waits: settled as resolution, at its next revision.
UPDATE memory_items SET status = 'dismissed', resolution = @resolution::text, revision = @revision, updated_at = now()
 WHERE id = @id
RETURNING id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at;

-- name: ItemUndismiss :one
UPDATE memory_items SET status = 'candidate', resolution = NULL, revision = @revision, updated_at = now()
 WHERE id = @id
RETURNING id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at;

-- name: ItemUnconfirmProposal :one
-- A confirmed proposal waits again, at its next revision, based on its target's revision target_revision.
UPDATE memory_items SET status = 'candidate', resolution = NULL, revision = @revision,
       target_revision = @target_revision::int, updated_at = now()
 WHERE id = @id
RETURNING id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at;

-- name: ItemSuggestionMerge :one
-- Counts a suggestion again: the one waiting in the scope with the text hash and the target
-- (NULL for a new memory). No row: none waits.
UPDATE memory_items SET times_suggested = times_suggested + 1, updated_at = now()
 WHERE id = (SELECT w.id FROM memory_items w
              WHERE w.scope = @scope AND w.status = 'candidate' AND w.content_hash = @content_hash
                AND w.target_item_id IS NOT DISTINCT FROM sqlc.narg(target_item_id)::uuid AND NOT w.proposes_forget
              LIMIT 1)
RETURNING id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at;

-- name: ItemForget :one
-- F1: the item keeps no text, key, evidence (nor the words of the user's message that made it wait)
-- or hash.
UPDATE memory_items
   SET status = 'forgotten', content = '', key = NULL, evidence = NULL, wait_words = NULL, content_hash = NULL,
       pinned = false, revision = @revision, forgotten_at = now(), updated_at = now()
 WHERE id = @id
RETURNING id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at;

-- name: ItemImport :one
INSERT INTO memory_items (id, teammate_id, kind, key, content, status, pinned, source, revision, expires_at,
                          content_hash, created_at, updated_at)
VALUES (@id, @teammate_id, @kind, @key, @content, 'active', @pinned, 'import', @revision, @expires_at,
        @content_hash, @created_at, @updated_at)
RETURNING id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at;

-- name: ItemsList :many
-- A page of one scope's items with status: of kind (or any), of kinds (or any), matching words
-- (full text) or containing pattern (an ILIKE pattern, so partial words match too). Pinned first,
-- then most recently changed; the keyset after_* is the last row of the previous page.
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items
 WHERE scope = @scope AND status = @status AND (sqlc.narg(kind)::text IS NULL OR kind = sqlc.narg(kind))
   AND (sqlc.narg(kinds)::text[] IS NULL OR kind = ANY(sqlc.narg(kinds)::text[]))
   AND (sqlc.narg(words)::text IS NULL OR search @@ plainto_tsquery('english', sqlc.narg(words))
        OR content ILIKE sqlc.narg(pattern)::text OR key ILIKE sqlc.narg(pattern)::text)
   AND (sqlc.narg(after_pinned)::boolean IS NULL
        OR (pinned, updated_at, id) < (sqlc.narg(after_pinned), sqlc.narg(after_updated)::timestamptz, sqlc.narg(after_id)::uuid))
 ORDER BY pinned DESC, updated_at DESC, memory_items.id DESC
 LIMIT @max_rows::int;

-- name: ItemsCount :one
-- How many items ItemsList's filter matches across all pages.
SELECT count(*) FROM memory_items
 WHERE scope = @scope AND status = @status AND (sqlc.narg(kind)::text IS NULL OR kind = sqlc.narg(kind))
   AND (sqlc.narg(kinds)::text[] IS NULL OR kind = ANY(sqlc.narg(kinds)::text[]))
   AND (sqlc.narg(words)::text IS NULL OR search @@ plainto_tsquery('english', sqlc.narg(words))
        OR content ILIKE sqlc.narg(pattern)::text OR key ILIKE sqlc.narg(pattern)::text);

-- name: ItemsSearchAll :many
-- Active items of every scope matching words (English stemming) or containing pattern (ILIKE) in
-- the content or key: shared first, then by teammate, pinned first, then most recently changed.
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items
 WHERE status = 'active'
   AND (search @@ plainto_tsquery('english', @words) OR content ILIKE @pattern::text OR key ILIKE @pattern::text)
 ORDER BY (scope = 'shared') DESC, pinned DESC, updated_at DESC, id DESC
 LIMIT @max_rows::int;

-- name: ItemsSearchVisible :many
-- The teammate's visible active, unexpired items matching words or containing pattern, best first.
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items
 WHERE memory_visible(scope, status, expires_at, @teammate_id::text)
   AND (search @@ plainto_tsquery('english', @words) OR content ILIKE @pattern::text OR key ILIKE @pattern::text)
 ORDER BY pinned DESC, ts_rank_cd(search, plainto_tsquery('english', @words)) DESC, updated_at DESC
 LIMIT @max_rows::int;

-- name: ItemsCopies :many
-- Live items, none of ids, whose text hash is one of hashes. A forget proposal has no text of its own
-- and is not a copy.
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items
 WHERE id <> ALL(@ids::uuid[]) AND status IN ('active', 'candidate', 'dismissed') AND NOT proposes_forget
   AND content_hash = ANY(@hashes::bytea[])
 ORDER BY status = 'active' DESC, scope, updated_at DESC, id
 LIMIT @max_rows::int;

-- name: ItemsProposalsApplied :many
-- The waiting proposals to change the item whose text it now holds.
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items
 WHERE target_item_id = @item_id::uuid AND status = 'candidate' AND NOT proposes_forget AND content_hash = @content_hash
   FOR UPDATE;

-- name: ItemProposalsAppliedCount :one
-- How many proposals ItemsProposalsApplied would find, queued with the write that may apply them
-- so that the common case (none) costs no round trip of its own. The item id is returned too, so
-- that sqlc makes a row a queued statement can fill.
SELECT count(*)::int AS waiting, @item_id::uuid AS item_id
  FROM memory_items
 WHERE target_item_id = @item_id::uuid AND status = 'candidate' AND NOT proposes_forget AND content_hash = @content_hash;

-- name: ItemsExport :many
-- Active items only: forgotten items, suggestions and dismissed suggestions are never exported.
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items
 WHERE scope = @scope AND status = 'active' ORDER BY created_at, id LIMIT @max_rows::int;

-- name: ItemScope :one
-- An item's scope never changes, so it can be read before the scope's lock is taken.
SELECT scope FROM memory_items WHERE id = @id;

-- name: ItemsScopes :many
SELECT id, scope FROM memory_items WHERE id = ANY(@ids::uuid[]);

-- name: ItemsDistinctScopes :many
SELECT DISTINCT scope FROM memory_items WHERE id = ANY(@ids::uuid[]);

-- name: ItemsWaiting :many
-- The suggestions waiting in the scope, oldest first: confirm-all applies them in the order they arrived.
SELECT id FROM memory_items WHERE scope = @scope AND status = 'candidate'
 ORDER BY created_at, id LIMIT @max_rows::int;

-- name: ItemsOfTeammate :many
SELECT id FROM memory_items
 WHERE teammate_id = @teammate_id::uuid AND status <> 'forgotten' ORDER BY created_at, id;

-- name: ItemsProposalsOf :many
-- Proposals to change the item carry its (new) text, and suggestions of the scope with the same
-- text as any of its revisions carry that text: waiting or dismissed, they are forgotten with it
-- (F3: a candidate whose text is tombstoned is dropped; F5: no trace in the database).
SELECT id FROM memory_items
 WHERE status IN ('candidate', 'dismissed')
   AND (target_item_id = @item_id::uuid OR (scope = @scope AND content_hash = ANY(@hashes::bytea[])));

-- name: ItemActiveTextExists :one
SELECT EXISTS (SELECT 1 FROM memory_items WHERE scope = @scope AND status = 'active' AND content_hash = @content_hash);

-- name: ItemKnownTextExists :one
-- The text is an active item or a waiting suggestion of the scope.
SELECT EXISTS (SELECT 1 FROM memory_items
                WHERE scope = @scope AND content_hash = @content_hash AND status IN ('active', 'candidate'));

-- name: ItemSameSuggestionWaiting :one
-- The same text waits in the scope as another suggestion (suggestions of one text are one card:
-- migration 000008).
SELECT EXISTS (SELECT 1 FROM memory_items
                WHERE scope = @scope AND status = 'candidate' AND content_hash = @content_hash AND id <> @id);

-- name: ItemForgetProposalWaiting :one
-- A proposal to forget the item (A5) waits for the user.
SELECT EXISTS (SELECT 1 FROM memory_items
                WHERE target_item_id = @item_id::uuid AND proposes_forget AND status = 'candidate');

-- name: ItemsSuggestedByRun :one
-- The suggestions a run made, settled or not (its budget), the ones the tombstones suppressed
-- included (F3: they count as any other).
SELECT ((SELECT count(*) FROM memory_items
          WHERE source_run_id = @run_id::uuid AND source = 'teammate' AND status IN ('candidate', 'dismissed'))
        + (SELECT count(*) FROM memory_suppressed WHERE run_id = @run_id::uuid))::int AS made;

-- name: ItemsActiveHashes :many
SELECT content_hash::bytea FROM memory_items
 WHERE scope = @scope AND status = 'active' AND content_hash IS NOT NULL;

-- name: ItemsLiveTexts :many
SELECT id, content FROM memory_items WHERE status <> 'forgotten' AND content <> '';

-- name: ItemHashSet :exec
UPDATE memory_items SET content_hash = @content_hash WHERE id = @id;

-- name: ExportSize :one
-- What an export of the scope's active items (ItemsExport) holds, read before the rows are: how many
-- items and how many bytes of text (contents and keys) they hold, and with_revisions, the same of
-- their revisions (ExportMemory's bound).
SELECT count(*)::int AS items,
       coalesce(sum(octet_length(i.content) + coalesce(octet_length(i.key), 0)), 0)::bigint AS item_bytes,
       coalesce(sum(r.revisions), 0)::bigint AS revisions,
       coalesce(sum(r.bytes), 0)::bigint AS revision_bytes
  FROM memory_items i
  LEFT JOIN LATERAL (
       SELECT count(*) AS revisions, sum(octet_length(v.content) + coalesce(octet_length(v.key), 0)) AS bytes
         FROM memory_revisions v
        WHERE v.item_id = i.id AND @with_revisions::bool) r ON true
 WHERE i.scope = @scope AND i.status = 'active';

-- name: ItemsGetByIDs :many
-- In the order of ids.
SELECT id, teammate_id, scope, kind, key, content, status, pinned, revision, source, evidence, wait_reason,
       wait_words, source_run_id, target_item_id, target_revision, proposes_forget, times_suggested, resolution,
       expires_at, created_at, updated_at, forgotten_at
  FROM memory_items WHERE id = ANY(@ids::uuid[]) ORDER BY array_position(@ids::uuid[], id);

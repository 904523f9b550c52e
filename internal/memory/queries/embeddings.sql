-- name: EmbeddingsDelete :exec
DELETE FROM memory_embeddings WHERE item_id = @item_id;

-- name: EmbeddingSource :one
-- What an embed job needs: the item's state and text, whether the revision has a vector by the
-- model (of dimensions; 0: any) already, and whether an earlier revision with the same key and
-- content has one to copy.
SELECT i.status, i.revision, i.key, i.content,
       EXISTS (SELECT 1 FROM memory_embeddings e
                WHERE e.item_id = i.id AND e.revision = @revision AND e.model = @model
                  AND (@dimensions::int = 0 OR e.dimensions = @dimensions)) AS embedded,
       EXISTS (SELECT 1 FROM memory_embeddings e
                 JOIN memory_revisions r ON r.item_id = e.item_id AND r.revision = e.revision
                WHERE e.item_id = i.id AND e.revision <> @revision AND e.model = @model
                  AND (@dimensions::int = 0 OR e.dimensions = @dimensions)
                  AND r.content = i.content AND r.key IS NOT DISTINCT FROM i.key) AS reusable
  FROM memory_items i WHERE i.id = @item_id;

-- name: EmbeddingStore :exec
-- Stores a vector (a float4[], cast to pgvector's type); one of another size for the same model (the dimensions
-- setting changed) is replaced.
INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
VALUES (@item_id, @revision, @model, @dimensions, (@embedding::real[])::vector)
ON CONFLICT (item_id, revision, model) DO UPDATE
   SET dimensions = EXCLUDED.dimensions, embedding = EXCLUDED.embedding, created_at = now()
 WHERE memory_embeddings.dimensions <> EXCLUDED.dimensions;

-- name: EmbeddingReuse :exec
-- Copies the vector of an earlier revision with the same key and content (a pin, an expiry change,
-- a restore): no AI request for text that was embedded already.
INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
SELECT e.item_id, @revision, e.model, e.dimensions, e.embedding
  FROM memory_embeddings e
  JOIN memory_revisions r ON r.item_id = e.item_id AND r.revision = e.revision
  JOIN memory_revisions cur ON cur.item_id = e.item_id AND cur.revision = @revision
 WHERE e.item_id = @item_id AND e.revision <> @revision AND e.model = @model
   AND (@dimensions::int = 0 OR e.dimensions = @dimensions)
   AND r.content = cur.content AND r.key IS NOT DISTINCT FROM cur.key
 ORDER BY e.revision DESC
 LIMIT 1
ON CONFLICT (item_id, revision, model) DO UPDATE
   SET dimensions = EXCLUDED.dimensions, embedding = EXCLUDED.embedding, created_at = now()
 WHERE memory_embeddings.dimensions <> EXCLUDED.dimensions;

-- name: EmbeddingsMissing :many
-- The active items without a vector of their current revision by the model (of dimensions; 0: any).
SELECT i.id, i.revision FROM memory_items i
 WHERE i.status = 'active'
   AND NOT EXISTS (SELECT 1 FROM memory_embeddings e
                    WHERE e.item_id = i.id AND e.revision = i.revision AND e.model = @model
                      AND (@dimensions::int = 0 OR e.dimensions = @dimensions))
 ORDER BY i.pinned DESC, i.updated_at DESC, i.id;

-- name: EmbeddingsProgress :one
-- The active items with a vector of their current revision by the model, and all of them.
SELECT count(*) FILTER (WHERE EXISTS (
           SELECT 1 FROM memory_embeddings e
            WHERE e.item_id = i.id AND e.revision = i.revision AND e.model = @model
              AND (@dimensions::int = 0 OR e.dimensions = @dimensions)))::int AS embedded,
       count(*)::int AS total
  FROM memory_items i WHERE i.status = 'active';

-- name: EmbeddingsReembedLock :exec
-- One re-embed pass at a time across processes (cmd/api and cmd/worker both run it at start).
SELECT pg_advisory_xact_lock(hashtext('memory_reembed_active'));

-- name: EmbeddingsDelete :exec
DELETE FROM memory_embeddings WHERE item_id = @item_id;

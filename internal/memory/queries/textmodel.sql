-- name: TextModelGetForUpdate :one
SELECT version FROM memory_text_model FOR UPDATE;

-- name: TextModelSet :exec
UPDATE memory_text_model SET version = @version;

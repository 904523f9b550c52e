-- name: SuppressionInsert :exec
-- Suppresses extraction from the item's source message (F4).
INSERT INTO memory_suppressions (message_id)
SELECT source_message_id FROM memory_items WHERE id = @item_id AND source_message_id IS NOT NULL
ON CONFLICT DO NOTHING;

-- name: SuppressionExists :one
SELECT EXISTS (SELECT 1 FROM memory_suppressions WHERE message_id = @message_id);

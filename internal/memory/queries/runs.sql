-- name: RunsTeammates :many
SELECT id, teammate_id FROM runs WHERE id = ANY(@ids::uuid[]);

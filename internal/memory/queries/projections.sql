-- name: LessonUpsert :exec
-- The lessons row of an active lesson item (RULES §2's compatibility projection).
INSERT INTO lessons (item_id, teammate_id, run_id, content, updated_at)
VALUES (@item_id, @teammate_id, @run_id, @content, now())
ON CONFLICT (item_id) DO UPDATE SET content = EXCLUDED.content, run_id = EXCLUDED.run_id, updated_at = now();

-- name: LessonDelete :exec
DELETE FROM lessons WHERE item_id = @item_id;

-- name: LessonsOfTeammate :many
-- Most recently changed first.
SELECT item_id, run_id FROM lessons WHERE teammate_id = @teammate_id::uuid ORDER BY updated_at DESC LIMIT 200;

-- name: AboutMeItems :many
-- What settings.about_me renders: the active, unexpired shared facts and preferences.
SELECT kind, key, content FROM memory_items
 WHERE memory_visible(scope, status, expires_at, NULL) AND kind IN ('fact', 'preference')
 ORDER BY kind, pinned DESC, created_at, id;

-- name: AboutMeSet :exec
UPDATE settings SET about_me = @about_me, updated_at = now() WHERE about_me IS DISTINCT FROM @about_me;

-- name: AboutMeGet :one
SELECT about_me FROM settings;

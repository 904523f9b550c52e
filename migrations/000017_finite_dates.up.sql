-- Dates the API shows are finite. PostgreSQL's timestamptz holds 'infinity' and '-infinity', which
-- no Go time.Time can: pgx refuses to scan them, so one such date in a row would make every listing
-- that reads the row fail — the user couldn't even reach the item to forget it. No code writes
-- them; these checks keep SQL from doing so. Rows that hold one already are repaired first: an
-- infinite expiry becomes none (infinity: never) or 1970 (-infinity: long expired), any other
-- infinite date becomes now.
UPDATE memory_items SET expires_at = CASE WHEN expires_at = 'infinity' THEN NULL ELSE timestamptz '1970-01-01 00:00:00+00' END
 WHERE NOT isfinite(expires_at);
UPDATE memory_items SET created_at = now() WHERE NOT isfinite(created_at);
UPDATE memory_items SET updated_at = now() WHERE NOT isfinite(updated_at);
UPDATE memory_items SET forgotten_at = now() WHERE NOT isfinite(forgotten_at);
UPDATE memory_revisions SET expires_at = CASE WHEN expires_at = 'infinity' THEN NULL ELSE timestamptz '1970-01-01 00:00:00+00' END
 WHERE NOT isfinite(expires_at);
UPDATE memory_revisions SET created_at = now() WHERE NOT isfinite(created_at);
UPDATE teammates SET created_at = now() WHERE NOT isfinite(created_at);
UPDATE bot_threads SET created_at = now() WHERE NOT isfinite(created_at);
UPDATE runs SET created_at = now() WHERE NOT isfinite(created_at);
UPDATE runs SET ended_at = now() WHERE NOT isfinite(ended_at);
UPDATE runs SET cancelled_at = now() WHERE NOT isfinite(cancelled_at);
UPDATE messages SET created_at = now() WHERE NOT isfinite(created_at);

ALTER TABLE memory_items
    ADD CONSTRAINT memory_items_finite_dates CHECK (
        isfinite(created_at) AND isfinite(updated_at) AND isfinite(expires_at) AND isfinite(forgotten_at));
ALTER TABLE memory_revisions
    ADD CONSTRAINT memory_revisions_finite_dates CHECK (isfinite(created_at) AND isfinite(expires_at));
ALTER TABLE teammates ADD CONSTRAINT teammates_finite_dates CHECK (isfinite(created_at));
ALTER TABLE bot_threads ADD CONSTRAINT bot_threads_finite_dates CHECK (isfinite(created_at));
ALTER TABLE runs
    ADD CONSTRAINT runs_finite_dates CHECK (isfinite(created_at) AND isfinite(ended_at) AND isfinite(cancelled_at));
ALTER TABLE messages ADD CONSTRAINT messages_finite_dates CHECK (isfinite(created_at));

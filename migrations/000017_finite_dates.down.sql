ALTER TABLE messages DROP CONSTRAINT messages_finite_dates;
ALTER TABLE runs DROP CONSTRAINT runs_finite_dates;
ALTER TABLE bot_threads DROP CONSTRAINT bot_threads_finite_dates;
ALTER TABLE teammates DROP CONSTRAINT teammates_finite_dates;
ALTER TABLE memory_revisions DROP CONSTRAINT memory_revisions_finite_dates;
ALTER TABLE memory_items DROP CONSTRAINT memory_items_finite_dates;

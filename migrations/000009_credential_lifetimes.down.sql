DROP INDEX runs_running;
ALTER TABLE runs DROP COLUMN last_active_at;
DROP TABLE web_sessions;

-- lossy: every web session (web_sessions: whoever was signed in signs in again) and when each run
-- was last active (runs.last_active_at): migrating up again sets it to the time of that migration,
-- so an idle run's idle timeout starts over.
--
-- Reverses 000009_credential_lifetimes.up.sql.
DROP INDEX runs_running;
ALTER TABLE runs DROP COLUMN last_active_at;
DROP TABLE web_sessions;

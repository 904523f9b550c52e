-- Credentials that end.

-- Web sessions: one row per login, deleted by logout, ignored once expired (the sweeper deletes
-- those). The key is HMAC-SHA256(user token, session id): the table alone can't be replayed as a
-- cookie, and a new user token ends every session.
CREATE TABLE web_sessions (
    key        bytea PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX web_sessions_expires ON web_sessions (expires_at);

-- When a run's token was last used (at most every few minutes, to spare writes): a run idle for
-- longer than MEMORY_RUN_IDLE_TIMEOUT is interrupted and its token stops working.
ALTER TABLE runs ADD COLUMN last_active_at timestamptz NOT NULL DEFAULT now();
-- The sweeper looks at running runs only. The index doesn't hold last_active_at, so touching it
-- stays a HOT update.
CREATE INDEX runs_running ON runs (created_at) WHERE status = 'running';

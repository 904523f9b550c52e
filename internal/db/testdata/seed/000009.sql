-- A web session, and a running run that was active a while ago.
INSERT INTO web_sessions (key, expires_at) VALUES (sha256('session'::bytea), now() + interval '30 days');
UPDATE runs SET last_active_at = now() - interval '5 minutes' WHERE status = 'running';

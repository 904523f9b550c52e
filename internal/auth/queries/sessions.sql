-- name: SessionInsert :exec
INSERT INTO web_sessions (key, expires_at) VALUES (@key, now() + @ttl::interval);

-- name: SessionValid :one
SELECT EXISTS (SELECT 1 FROM web_sessions WHERE key = @key AND expires_at > now());

-- name: SessionDelete :exec
DELETE FROM web_sessions WHERE key = @key;

-- name: SessionsPurgeExpired :execrows
DELETE FROM web_sessions WHERE expires_at <= now();

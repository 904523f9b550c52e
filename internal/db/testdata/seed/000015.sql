-- A teammate deletion since the last purge.
INSERT INTO memory_deletions (deleted_at) VALUES (now());

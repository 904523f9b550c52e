-- The user's key and a run's.
INSERT INTO idempotency_keys (owner, key_hash, operation, fingerprint, item_ids, expires_at) VALUES
    ('user', sha256('key 1'::bytea), 'createMemory', sha256('input 1'::bytea),
     ARRAY['e0000000-0000-4000-8000-000000000002']::uuid[], now() + interval '1 day');
INSERT INTO idempotency_keys (owner, run_id, key_hash, operation, fingerprint, outcome, reason, message, expires_at)
VALUES ('c0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000002', sha256('key 2'::bytea),
        'toolRemember', sha256('input 2'::bytea), 'waiting', 'taken_back', 'Saved as a suggestion.',
        now() + interval '1 day');

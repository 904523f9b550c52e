-- A forget already copied to the ledger file and a teammate deletion not yet copied.
INSERT INTO memory_forget_ledger (kind, item_id, scope, actor, hashes, written_at) VALUES
    ('forget', 'e0000000-0000-4000-8000-000000000005', 'a0000000-0000-4000-8000-000000000001', 'user',
     ARRAY[sha256('keyed hash of a forgotten text'::bytea)], now());
INSERT INTO memory_forget_ledger (kind, teammate_id) VALUES ('delete-teammate', 'a0000000-0000-4000-8000-000000000003');

-- A suggestion of a forgotten text that the run was answered for.
INSERT INTO memory_suppressed (scope, run_id, keyed_hash, sealed) VALUES
    ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001',
     sha256('keyed hash of a suppressed text'::bytea), decode(repeat('00', 4096), 'hex'));

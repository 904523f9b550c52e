-- Rows for every table of migration 000001 (TestDownsStepByStep seeds each version after migrating up
-- to it). Ada (…01) has a thread, a finished run (…01) and a running one (…02); the items are a fact,
-- a pinned shared note, a lesson, a waiting suggestion, a forgotten item, a dismissed suggestion and
-- a proposed change of the fact.
INSERT INTO teammates (id, name) VALUES
    ('a0000000-0000-4000-8000-000000000001', 'Ada'),
    ('a0000000-0000-4000-8000-000000000002', 'Bo');
UPDATE memory_generations SET generation = 3 WHERE scope = 'shared';

INSERT INTO bot_threads (id, teammate_id, generation) VALUES
    ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', '3:0:0');
INSERT INTO runs (id, teammate_id, thread_id, status, generation, rating, ended_at) VALUES
    ('c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001',
     'b0000000-0000-4000-8000-000000000001', 'completed', '3:0:0', 'up', now());
INSERT INTO runs (id, teammate_id, thread_id, generation, token_hash) VALUES
    ('c0000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001',
     'b0000000-0000-4000-8000-000000000001', '3:0:0', sha256('run credential'::bytea));
INSERT INTO messages (id, thread_id, run_id, role, content) VALUES
    ('d0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001',
     'c0000000-0000-4000-8000-000000000001', 'user', 'I keep bees in the garden. Remember that.'),
    ('d0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000001',
     'c0000000-0000-4000-8000-000000000001', 'assistant', 'Noted: you keep bees.');

INSERT INTO memory_items (id, teammate_id, kind, key, content, status, pinned, revision, source, evidence,
                          source_run_id, source_message_id, content_hash, forgotten_at) VALUES
    ('e0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'fact', 'hobby',
     'Keeps bees in the garden', 'active', false, 1, 'teammate', 'I keep bees in the garden',
     'c0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000001',
     sha256('keeps bees in the garden'::bytea), NULL),
    ('e0000000-0000-4000-8000-000000000002', NULL, 'note', NULL,
     'The office plants need water on Fridays', 'active', true, 1, 'user', NULL, NULL, NULL,
     sha256('the office plants need water on fridays'::bytea), NULL),
    ('e0000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001', 'lesson', NULL,
     'Answer in short sentences', 'active', false, 1, 'feedback', NULL,
     'c0000000-0000-4000-8000-000000000001', NULL, sha256('answer in short sentences'::bytea), NULL),
    ('e0000000-0000-4000-8000-000000000004', 'a0000000-0000-4000-8000-000000000001', 'preference', NULL,
     'Likes green tea', 'candidate', false, 1, 'extraction', 'green tea, please',
     'c0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000001',
     sha256('likes green tea'::bytea), NULL),
    ('e0000000-0000-4000-8000-000000000005', 'a0000000-0000-4000-8000-000000000001', 'fact', NULL,
     '', 'forgotten', false, 2, 'user', NULL, NULL, NULL, NULL, now()),
    ('e0000000-0000-4000-8000-000000000006', 'a0000000-0000-4000-8000-000000000002', 'fact', NULL,
     'Dislikes jazz', 'dismissed', false, 1, 'teammate', NULL, NULL, NULL, sha256('dislikes jazz'::bytea), NULL);
INSERT INTO memory_items (id, teammate_id, kind, content, status, source, target_item_id, target_revision,
                          source_run_id, content_hash) VALUES
    ('e0000000-0000-4000-8000-000000000007', 'a0000000-0000-4000-8000-000000000001', 'fact',
     'Keeps bees and hens in the garden', 'candidate', 'teammate', 'e0000000-0000-4000-8000-000000000001', 1,
     'c0000000-0000-4000-8000-000000000001', sha256('keeps bees and hens in the garden'::bytea));

INSERT INTO memory_revisions (item_id, revision, content, key, kind, pinned, action, actor, based_on, run_id) VALUES
    ('e0000000-0000-4000-8000-000000000001', 1, 'Keeps bees in the garden', 'hobby', 'fact', false, 'create',
     'teammate:a0000000-0000-4000-8000-000000000001', NULL, 'c0000000-0000-4000-8000-000000000001'),
    ('e0000000-0000-4000-8000-000000000002', 1, 'The office plants need water on Fridays', NULL, 'note', true,
     'create', 'user', NULL, NULL),
    ('e0000000-0000-4000-8000-000000000003', 1, 'Answer in short sentences', NULL, 'lesson', false, 'create',
     'user', NULL, NULL),
    ('e0000000-0000-4000-8000-000000000004', 1, 'Likes green tea', NULL, 'preference', false, 'create',
     'extraction', NULL, 'c0000000-0000-4000-8000-000000000001'),
    ('e0000000-0000-4000-8000-000000000005', 1, '', NULL, 'fact', false, 'create', 'user', NULL, NULL),
    ('e0000000-0000-4000-8000-000000000005', 2, '', NULL, 'fact', false, 'forget', 'user', 1, NULL),
    ('e0000000-0000-4000-8000-000000000006', 1, 'Dislikes jazz', NULL, 'fact', false, 'create',
     'teammate:a0000000-0000-4000-8000-000000000002', NULL, NULL),
    ('e0000000-0000-4000-8000-000000000007', 1, 'Keeps bees and hens in the garden', NULL, 'fact', false,
     'create', 'teammate:a0000000-0000-4000-8000-000000000001', NULL, 'c0000000-0000-4000-8000-000000000001');

INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES
    ('e0000000-0000-4000-8000-000000000001', 1, 'test-embedding', 3, '[0.1,0.2,0.3]');
INSERT INTO memory_contexts (run_id, item_id, revision, position, truncated) VALUES
    ('c0000000-0000-4000-8000-000000000001', 'e0000000-0000-4000-8000-000000000001', 1, 1, false),
    ('c0000000-0000-4000-8000-000000000001', 'e0000000-0000-4000-8000-000000000002', 1, 2, true);
INSERT INTO memory_jobs (kind, item_id, revision, status) VALUES
    ('embed', 'e0000000-0000-4000-8000-000000000001', 1, 'done');
INSERT INTO memory_jobs (kind, run_id) VALUES ('extract', 'c0000000-0000-4000-8000-000000000001');
INSERT INTO memory_tombstones (scope, content_hash, item_id) VALUES
    ('a0000000-0000-4000-8000-000000000001', sha256('my alarm code is 1234'::bytea),
     'e0000000-0000-4000-8000-000000000005');
INSERT INTO memory_suppressions (message_id) VALUES ('d0000000-0000-4000-8000-000000000002');
INSERT INTO memory_imports (teammate_id, outcome, content_hash, item_id) VALUES
    ('a0000000-0000-4000-8000-000000000001', 'imported', sha256('# Memory of Ada'::bytea),
     'e0000000-0000-4000-8000-000000000001'),
    ('a0000000-0000-4000-8000-000000000002', 'absent', NULL, NULL);
INSERT INTO memory_ai_usage (day, requests) VALUES ('2025-06-01', 12);
INSERT INTO lessons (item_id, teammate_id, run_id, content) VALUES
    ('e0000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001',
     'c0000000-0000-4000-8000-000000000001', 'Answer in short sentences');
UPDATE settings SET about_me = 'I live in Lisbon and keep bees.';

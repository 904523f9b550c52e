-- A lesson in the shared scope (its lessons row has no teammate: 000004's down deletes it) and a retry
-- waiting for its run.
INSERT INTO memory_items (id, teammate_id, kind, content, status, source, content_hash) VALUES
    ('e0000000-0000-4000-8000-000000000008', NULL, 'lesson', 'Check the calendar before answering', 'active',
     'user', sha256('check the calendar before answering'::bytea));
INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor) VALUES
    ('e0000000-0000-4000-8000-000000000008', 1, 'Check the calendar before answering', 'lesson', false,
     'create', 'user');
INSERT INTO lessons (item_id, teammate_id, content) VALUES
    ('e0000000-0000-4000-8000-000000000008', NULL, 'Check the calendar before answering');
INSERT INTO messages (id, thread_id, role, content, redo_of_run_id) VALUES
    ('d0000000-0000-4000-8000-000000000003', 'b0000000-0000-4000-8000-000000000001', 'user',
     'Try that again, please.', 'c0000000-0000-4000-8000-000000000001');

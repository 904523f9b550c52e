-- A proposed forget of Ada's fact (000006's down deletes it and its revision), and the text model the
-- API records after rehashing.
UPDATE memory_text_model SET version = 4;
INSERT INTO memory_items (id, teammate_id, kind, content, status, source, target_item_id, target_revision,
                          proposes_forget, source_run_id) VALUES
    ('e0000000-0000-4000-8000-000000000009', 'a0000000-0000-4000-8000-000000000001', 'fact', '', 'candidate',
     'teammate', 'e0000000-0000-4000-8000-000000000001', 1, true, 'c0000000-0000-4000-8000-000000000001');
INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor, run_id) VALUES
    ('e0000000-0000-4000-8000-000000000009', 1, '', 'fact', false, 'create',
     'teammate:a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001');

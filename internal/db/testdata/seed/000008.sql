-- A suggestion made three times, a dismissal with its revision, and a proposed change of the shared
-- note settled as applied (000008's down deletes the dismiss and resolve revisions).
UPDATE memory_items SET times_suggested = 3 WHERE id = 'e0000000-0000-4000-8000-000000000004';
UPDATE memory_items SET revision = 2 WHERE id = 'e0000000-0000-4000-8000-000000000006';
INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor, based_on) VALUES
    ('e0000000-0000-4000-8000-000000000006', 2, 'Dislikes jazz', 'fact', false, 'dismiss', 'user', 1);
INSERT INTO memory_items (id, teammate_id, kind, content, status, source, target_item_id, target_revision,
                          resolution, revision, content_hash) VALUES
    ('e0000000-0000-4000-8000-000000000010', NULL, 'note', 'The office plants need water on Fridays and Tuesdays',
     'dismissed', 'teammate', 'e0000000-0000-4000-8000-000000000002', 1, 'applied', 2,
     sha256('the office plants need water on fridays and tuesdays'::bytea));
INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor, based_on) VALUES
    ('e0000000-0000-4000-8000-000000000010', 1, 'The office plants need water on Fridays and Tuesdays', 'note',
     false, 'create', 'teammate:a0000000-0000-4000-8000-000000000001', NULL),
    ('e0000000-0000-4000-8000-000000000010', 2, 'The office plants need water on Fridays and Tuesdays', 'note',
     false, 'resolve', 'user', 1);

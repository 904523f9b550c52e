-- An item written through the term triggers, with an expiry; the items before it got their terms from
-- the migration itself.
INSERT INTO memory_items (id, teammate_id, kind, content, status, source, expires_at, content_hash) VALUES
    ('e0000000-0000-4000-8000-000000000011', 'a0000000-0000-4000-8000-000000000002', 'preference',
     'Prefers tea over coffee in the morning', 'active', 'user', now() + interval '1 year',
     sha256('prefers tea over coffee in the morning'::bytea));
INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor) VALUES
    ('e0000000-0000-4000-8000-000000000011', 1, 'Prefers tea over coffee in the morning', 'preference', false,
     'create', 'user');

-- When a teammate was last deleted (memory.Service.DeleteTeammate, RULES F7), for the purge of the
-- embedded cluster (memory.Background.Purge). A deletion takes its items, revisions, terms,
-- embeddings, runs and messages away with their rows, so no forgotten item is left for PurgeDue to
-- find, yet their text is still in the tables' files and the WAL: a deletion after the last purge
-- makes one due, and that purge rewrites the conversation tables too. It holds a time only — no id,
-- no name.
CREATE TABLE memory_deletions (
    singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    deleted_at timestamptz NOT NULL
);

-- The forget ledger (RULES F8): one content-free row per forgotten item and per deleted teammate,
-- written in the forget's own transaction. The API copies each row to the ledger file beside the
-- backups (memory.Background.LedgerUnwritten, internal/backup.Ledger) and marks it written; after a
-- restore, every file entry this database doesn't hold — a forget made after the backup — is
-- applied again (memory.Background.Replay). It holds ids, the keyed tombstone hashes the forget
-- wrote (HMACs under the installation's key, as memory_tombstones holds) and times: never text.
-- No foreign keys: an entry outlives the item and the teammate it names.
CREATE TABLE memory_forget_ledger (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    at              timestamptz NOT NULL DEFAULT clock_timestamp(),
    kind            text NOT NULL CHECK (kind IN ('forget', 'delete-teammate')),
    item_id         uuid,
    scope           text,
    actor           text,
    hashes          bytea[] NOT NULL DEFAULT '{}',
    teammate_id     uuid,
    written_at      timestamptz,
    CHECK (kind = 'forget' AND item_id IS NOT NULL AND scope IS NOT NULL AND actor IS NOT NULL
        OR kind = 'delete-teammate' AND teammate_id IS NOT NULL)
);
CREATE INDEX memory_forget_ledger_unwritten ON memory_forget_ledger (seq) WHERE written_at IS NULL;

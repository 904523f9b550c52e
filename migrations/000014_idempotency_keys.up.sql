-- Idempotency keys: a create or a teammate's tool write that carries a key records its answer here,
-- in the transaction of the write itself, so a retry of a write whose answer was lost (an
-- UNAVAILABLE after the commit) gets the first answer instead of writing again.
--
-- Nothing here is text a client wrote (RULES F5): the client's key and the request's input are kept
-- only as HMAC-SHA-256 under the installation's tombstone key (memory/idempotency.go), which is not
-- in the database, so a dump can't be searched for a forgotten text; the answer is ids, an outcome
-- code, the judge's reason code and the tool's fixed sentence (which never quotes memory).
CREATE TABLE idempotency_keys (
    -- Whose key it is: 'user', or the id of the run whose credential sent it. A credential reads
    -- its own keys' answers only.
    owner       text NOT NULL,
    -- A run's keys go with the run (and the teammate, whose runs are deleted with it).
    run_id      uuid REFERENCES runs (id) ON DELETE CASCADE,
    key_hash    bytea NOT NULL CHECK (octet_length(key_hash) = 32),
    -- The operation the key was first used for (createMemory, toolRemember …) and the HMAC of its
    -- input: the same key with another operation or input is refused.
    operation   text NOT NULL CHECK (operation ~ '^[a-zA-Z]+$'),
    fingerprint bytea NOT NULL CHECK (octet_length(fingerprint) = 32),
    -- The first answer: the items written (createMemory: one; importMemory: the file's, in order;
    -- a tool: none or one), the teammate created, a tool's outcome, reason code, sentence and
    -- adoption, an import's count of items left out.
    item_ids    uuid[] NOT NULL DEFAULT '{}',
    teammate_id uuid,
    outcome     text CHECK (outcome ~ '^[a-z]+$'),
    reason      text CHECK (char_length(reason) BETWEEN 1 AND 40 AND reason ~ '^[a-z_]+$'),
    message     text CHECK (char_length(message) BETWEEN 1 AND 1000),
    adopted     boolean NOT NULL DEFAULT false,
    unchanged   integer NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- A day after the write; the sweeper deletes expired keys, and an expired key is free again.
    expires_at  timestamptz NOT NULL,
    PRIMARY KEY (owner, key_hash),
    CHECK ((owner = 'user' AND run_id IS NULL) OR owner = run_id::text)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
CREATE INDEX idempotency_keys_run ON idempotency_keys (run_id) WHERE run_id IS NOT NULL;

-- The whole model of RULES §2. Memory text lives only in memory_items, memory_revisions, lessons and
-- settings.about_me (the projections), and the conversation tables; everything else holds ids, hashes
-- and counters (F5).

-- pgvector must be available; on a managed database a superuser may have to create it beforehand.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE teammates (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name       text NOT NULL CHECK (char_length(btrim(name)) BETWEEN 1 AND 120),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per scope: 'shared', or a teammate's id. The row is the scope's lock (R1) and its counter (G1).
CREATE TABLE memory_generations (
    scope       text PRIMARY KEY,
    teammate_id uuid UNIQUE REFERENCES teammates (id) ON DELETE CASCADE,
    generation  bigint NOT NULL DEFAULT 0 CHECK (generation >= 0),
    -- Items of this scope already known to be expired; the expiry sweep bumps events when it grows (G7).
    expired_seen integer NOT NULL DEFAULT 0 CHECK (expired_seen >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (scope = coalesce(teammate_id::text, 'shared'))
);
INSERT INTO memory_generations (scope) VALUES ('shared');

-- A teammate's scope exists as soon as the teammate does.
CREATE FUNCTION memory_generations_for_teammate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_generations (scope, teammate_id) VALUES (NEW.id::text, NEW.id);
    RETURN NEW;
END $$;
CREATE TRIGGER teammates_generation AFTER INSERT ON teammates
    FOR EACH ROW EXECUTE FUNCTION memory_generations_for_teammate();

-- Conversation side (minimal; owned here because memory needs it).
CREATE TABLE bot_threads (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    teammate_id uuid NOT NULL REFERENCES teammates (id) ON DELETE CASCADE,
    generation  text NOT NULL CHECK (generation ~ '^[0-9]+:[0-9]+:[0-9]+$'),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bot_threads_teammate ON bot_threads (teammate_id, created_at DESC);

CREATE TABLE runs (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    teammate_id     uuid NOT NULL REFERENCES teammates (id) ON DELETE CASCADE,
    thread_id       uuid NOT NULL REFERENCES bot_threads (id) ON DELETE CASCADE,
    status          text NOT NULL DEFAULT 'running'
                    CHECK (status IN ('running', 'completed', 'failed', 'interrupted', 'cancelled')),
    started_by_user boolean NOT NULL DEFAULT true,
    -- The generation the run adopted (G2 string); checked before every tool call (G5).
    generation      text NOT NULL CHECK (generation ~ '^[0-9]+:[0-9]+:[0-9]+$'),
    -- sha256 of the run credential; cleared when the run ends so the credential stops working.
    token_hash      bytea UNIQUE,
    rating          text CHECK (rating IN ('up', 'down')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    ended_at        timestamptz,
    cancelled_at    timestamptz,
    CHECK ((status = 'running') = (ended_at IS NULL)),
    CHECK (status = 'running' OR token_hash IS NULL),
    CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))
);
CREATE INDEX runs_thread ON runs (thread_id, created_at);
CREATE INDEX runs_teammate ON runs (teammate_id, created_at DESC);

CREATE TABLE messages (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    thread_id      uuid NOT NULL REFERENCES bot_threads (id) ON DELETE CASCADE,
    run_id         uuid REFERENCES runs (id) ON DELETE CASCADE,
    role           text NOT NULL CHECK (role IN ('user', 'assistant')),
    content        text NOT NULL,
    redo_of_run_id uuid REFERENCES runs (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    search         tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED
);
CREATE INDEX messages_thread ON messages (thread_id, created_at);
CREATE INDEX messages_run ON messages (run_id);
CREATE INDEX messages_search ON messages USING gin (search);

CREATE TABLE memory_items (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- NULL means the shared scope; scope is the same thing as text, for the generation row and headers.
    teammate_id       uuid REFERENCES teammates (id) ON DELETE CASCADE,
    scope             text NOT NULL GENERATED ALWAYS AS (coalesce(teammate_id::text, 'shared')) STORED
                      REFERENCES memory_generations (scope),
    kind              text NOT NULL CHECK (kind IN ('fact', 'preference', 'lesson', 'note')),
    key               text CHECK (char_length(key) BETWEEN 1 AND 120),
    content           text NOT NULL CHECK (char_length(content) <= 4000),
    status            text NOT NULL CHECK (status IN ('active', 'candidate', 'dismissed', 'forgotten')),
    pinned            boolean NOT NULL DEFAULT false,
    revision          integer NOT NULL DEFAULT 1 CHECK (revision >= 1),
    source            text NOT NULL CHECK (source IN ('user', 'teammate', 'extraction', 'import', 'feedback')),
    evidence          text CHECK (char_length(evidence) <= 4000),
    source_run_id     uuid REFERENCES runs (id) ON DELETE SET NULL,
    source_message_id uuid REFERENCES messages (id) ON DELETE SET NULL,
    target_item_id    uuid REFERENCES memory_items (id) ON DELETE CASCADE,
    target_revision   integer CHECK (target_revision >= 1),
    expires_at        timestamptz,
    -- sha256 of the normalised content (the tombstone comparison, F3); NULL once forgotten.
    content_hash      bytea,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    forgotten_at      timestamptz,
    search            tsvector NOT NULL
                      GENERATED ALWAYS AS (to_tsvector('english', content || ' ' || coalesce(key, ''))) STORED,
    CHECK ((status = 'forgotten') = (forgotten_at IS NOT NULL)),
    CHECK (status = 'forgotten' OR char_length(content) >= 1),
    CHECK (status <> 'forgotten' OR (content = '' AND key IS NULL AND evidence IS NULL AND content_hash IS NULL)),
    CHECK ((target_item_id IS NULL) = (target_revision IS NULL)),
    CHECK (target_item_id IS NULL OR target_item_id <> id)
);
CREATE INDEX memory_items_list ON memory_items (scope, status, pinned DESC, updated_at DESC, id DESC);
CREATE INDEX memory_items_recall ON memory_items (scope) WHERE status = 'active';
CREATE INDEX memory_items_search ON memory_items USING gin (search);
CREATE INDEX memory_items_expiry ON memory_items (scope, expires_at) WHERE status = 'active' AND expires_at IS NOT NULL;
CREATE INDEX memory_items_target ON memory_items (target_item_id) WHERE target_item_id IS NOT NULL;
CREATE INDEX memory_items_source_run ON memory_items (source_run_id) WHERE source_run_id IS NOT NULL;

CREATE TABLE memory_revisions (
    item_id    uuid NOT NULL REFERENCES memory_items (id) ON DELETE CASCADE,
    revision   integer NOT NULL CHECK (revision >= 1),
    content    text NOT NULL CHECK (char_length(content) <= 4000),
    key        text CHECK (char_length(key) BETWEEN 1 AND 120),
    kind       text NOT NULL CHECK (kind IN ('fact', 'preference', 'lesson', 'note')),
    pinned     boolean NOT NULL,
    expires_at timestamptz,
    action     text NOT NULL
               CHECK (action IN ('create', 'edit', 'correct', 'restore', 'undo', 'confirm', 'pin', 'forget')),
    actor      text NOT NULL
               CHECK (actor IN ('user', 'extraction', 'import') OR actor ~ '^teammate:[0-9a-f-]{36}$'),
    based_on   integer CHECK (based_on >= 1 AND based_on < revision),
    run_id     uuid REFERENCES runs (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, revision)
);

CREATE TABLE memory_embeddings (
    item_id    uuid NOT NULL,
    revision   integer NOT NULL,
    model      text NOT NULL CHECK (char_length(model) BETWEEN 1 AND 200),
    dimensions integer NOT NULL CHECK (dimensions BETWEEN 1 AND 16000),
    embedding  vector NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, revision, model),
    FOREIGN KEY (item_id, revision) REFERENCES memory_revisions (item_id, revision) ON DELETE CASCADE,
    CHECK (vector_dims(embedding) = dimensions)
);

CREATE TABLE memory_contexts (
    run_id    uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    item_id   uuid NOT NULL REFERENCES memory_items (id) ON DELETE CASCADE,
    revision  integer NOT NULL CHECK (revision >= 1),
    position  integer NOT NULL CHECK (position >= 1),
    truncated boolean NOT NULL DEFAULT false,
    PRIMARY KEY (run_id, position),
    UNIQUE (run_id, item_id)
);
CREATE INDEX memory_contexts_item ON memory_contexts (item_id);

-- Jobs reference items, revisions and runs; never memory text (F5).
CREATE TABLE memory_jobs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind        text NOT NULL CHECK (kind IN ('embed', 'extract')),
    item_id     uuid REFERENCES memory_items (id) ON DELETE CASCADE,
    revision    integer CHECK (revision >= 1),
    run_id      uuid REFERENCES runs (id) ON DELETE CASCADE,
    status      text NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
    attempts    integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    run_after   timestamptz NOT NULL DEFAULT now(),
    lease_until timestamptz,
    locked_by   text CHECK (char_length(locked_by) <= 200),
    last_error  text CHECK (char_length(last_error) <= 500),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (kind <> 'embed' OR (item_id IS NOT NULL AND revision IS NOT NULL)),
    CHECK (kind <> 'extract' OR run_id IS NOT NULL),
    CHECK ((status = 'running') = (lease_until IS NOT NULL))
);
CREATE INDEX memory_jobs_ready ON memory_jobs (run_after, id) WHERE status = 'pending';
CREATE INDEX memory_jobs_leased ON memory_jobs (lease_until) WHERE status = 'running';
CREATE INDEX memory_jobs_item ON memory_jobs (item_id) WHERE status IN ('pending', 'running');
CREATE INDEX memory_jobs_run ON memory_jobs (run_id) WHERE run_id IS NOT NULL;

-- Content-free: hashes of every forgotten revision's normalised text (F3).
CREATE TABLE memory_tombstones (
    scope        text NOT NULL REFERENCES memory_generations (scope) ON DELETE CASCADE,
    content_hash bytea NOT NULL CHECK (octet_length(content_hash) = 32),
    item_id      uuid REFERENCES memory_items (id) ON DELETE SET NULL,
    forgotten_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, content_hash)
);

-- Source messages whose automatic extraction is suppressed (F4).
CREATE TABLE memory_suppressions (
    message_id uuid PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- The one-time MEMORY.md import per teammate (M1); the primary key makes it happen once.
CREATE TABLE memory_imports (
    teammate_id  uuid PRIMARY KEY REFERENCES teammates (id) ON DELETE CASCADE,
    imported_at  timestamptz NOT NULL DEFAULT now(),
    outcome      text NOT NULL CHECK (outcome IN ('imported', 'absent')),
    content_hash bytea CHECK (octet_length(content_hash) = 32),
    item_id      uuid REFERENCES memory_items (id) ON DELETE SET NULL,
    CHECK ((outcome = 'imported') = (content_hash IS NOT NULL))
);

-- The daily AI budget counter (I4).
CREATE TABLE memory_ai_usage (
    day      date PRIMARY KEY,
    requests integer NOT NULL DEFAULT 0 CHECK (requests >= 0)
);

-- Compatibility projections, kept current in the same transaction as the change they mirror.
CREATE TABLE lessons (
    item_id     uuid PRIMARY KEY REFERENCES memory_items (id) ON DELETE CASCADE,
    teammate_id uuid NOT NULL REFERENCES teammates (id) ON DELETE CASCADE,
    run_id      uuid REFERENCES runs (id) ON DELETE SET NULL,
    content     text NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lessons_teammate ON lessons (teammate_id);

CREATE TABLE settings (
    id         boolean PRIMARY KEY DEFAULT true CHECK (id),
    about_me   text NOT NULL DEFAULT '',
    updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO settings DEFAULT VALUES;

-- The schema the migrations build: pg_dump --schema-only --no-owner --no-privileges of a database
-- migrated to the latest version, by PostgreSQL 15, without pg_dump's version lines and settings.
-- Generated, do not edit: internal/db's TestSchemaSnapshot fails when it differs from what the
-- migrations build; make schema rewrites it.

--
-- PostgreSQL database dump
--

--
-- Name: btree_gin; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

--
-- Name: EXTENSION btree_gin; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION btree_gin IS 'support for indexing common datatypes in GIN';

--
-- Name: vector; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;

--
-- Name: EXTENSION vector; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION vector IS 'vector data type and ivfflat and hnsw access methods';

--
-- Name: memory_generations_for_teammate(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_generations_for_teammate() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO memory_generations (scope, teammate_id) VALUES (NEW.id::text, NEW.id);
    RETURN NEW;
END $$;

--
-- Name: memory_items_evidence_follows_run(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_items_evidence_follows_run() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NEW.source_run_id IS NULL THEN
        NEW.evidence := NULL;
        NEW.wait_words := NULL;
    END IF;
    RETURN NEW;
END $$;

--
-- Name: memory_sketch_key(text, integer, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_sketch_key(scope text, dimensions integer, model text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((((scope || ' '::text) || (dimensions)::text) || ' '::text) || model);

--
-- Name: memory_sketch_hash(text, integer, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_sketch_hash(scope text, dimensions integer, model text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((('x'::text || "left"(encode(sha256(convert_to(public.memory_sketch_key(scope, dimensions, model), 'UTF8'::name)), 'hex'::text), 16)))::bit(64))::bigint;

--
-- Name: memory_sketches_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_sketches_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO memory_sketches (item_id, revision, model, scope, dimensions, sketch)
    SELECT n.item_id, n.revision, n.model, i.scope, n.dimensions, binary_quantize(n.embedding)
      FROM new_embeddings n JOIN memory_items i ON i.id = n.item_id;
    RETURN NULL;
END $$;

--
-- Name: memory_sketches_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_sketches_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE memory_sketches
       SET dimensions = NEW.dimensions, sketch = binary_quantize(NEW.embedding)
     WHERE item_id = NEW.item_id AND revision = NEW.revision AND model = NEW.model;
    RETURN NULL;
END $$;

--
-- Name: memory_term_df_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_df_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO memory_term_df AS d (scope, lexeme, df)
    SELECT o.scope, o.lexeme, -count(*) FROM old_terms o GROUP BY o.scope, o.lexeme ORDER BY o.scope, o.lexeme
    ON CONFLICT (scope, lexeme) DO UPDATE SET df = d.df + excluded.df;
    DELETE FROM memory_term_df d
     USING (SELECT DISTINCT o.scope, o.lexeme FROM old_terms o) AS o
     WHERE d.scope = o.scope AND d.lexeme = o.lexeme AND d.df = 0;
    RETURN NULL;
END $$;

--
-- Name: memory_term_df_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_df_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO memory_term_df AS d (scope, lexeme, df)
    SELECT n.scope, n.lexeme, count(*) FROM new_terms n GROUP BY n.scope, n.lexeme ORDER BY n.scope, n.lexeme
    ON CONFLICT (scope, lexeme) DO UPDATE SET df = d.df + excluded.df;
    RETURN NULL;
END $$;

--
-- Name: memory_term_df_move(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_df_move() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE memory_term_df SET df = df - 1 WHERE scope = OLD.scope AND lexeme = OLD.lexeme;
    DELETE FROM memory_term_df WHERE scope = OLD.scope AND lexeme = OLD.lexeme AND df = 0;
    INSERT INTO memory_term_df AS d (scope, lexeme, df) VALUES (NEW.scope, NEW.lexeme, 1)
    ON CONFLICT (scope, lexeme) DO UPDATE SET df = d.df + 1;
    RETURN NULL;
END $$;

--
-- Name: memory_term_df_truncate(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_df_truncate() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    TRUNCATE memory_term_df;
    RETURN NULL;
END $$;

--
-- Name: memory_term_scopes_add(text[], bigint[], bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_scopes_add(scopes text[], n bigint[], length bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO memory_term_scopes AS s (scope, items, length)
    SELECT d.scope, sum(d.n), sum(d.length) FROM unnest(scopes, n, length) AS d (scope, n, length)
     GROUP BY d.scope HAVING sum(d.n) <> 0 OR sum(d.length) <> 0
     ORDER BY d.scope
    ON CONFLICT (scope) DO UPDATE SET items = s.items + excluded.items, length = s.length + excluded.length;
    DELETE FROM memory_term_scopes WHERE scope = ANY (scopes) AND items = 0;
END $$;

--
-- Name: memory_term_scopes_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_scopes_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM memory_term_scopes_add(array_agg(o.scope), array_agg(-1::bigint), array_agg(-(SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(o.search) AS w)))
       FROM old_items o
      WHERE o.status = 'active' AND NOT o.pinned
     HAVING count(*) > 0;
    RETURN NULL;
END $$;

--
-- Name: memory_term_scopes_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_scopes_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM memory_term_scopes_add(array_agg(n.scope), array_agg(1::bigint), array_agg((SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(n.search) AS w)))
       FROM new_items n
      WHERE n.status = 'active' AND NOT n.pinned
     HAVING count(*) > 0;
    RETURN NULL;
END $$;

--
-- Name: memory_term_scopes_truncate(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_scopes_truncate() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    TRUNCATE memory_term_scopes;
    RETURN NULL;
END $$;

--
-- Name: memory_term_scopes_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_term_scopes_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    was boolean := OLD.status = 'active' AND NOT OLD.pinned;
    now_ranked boolean := NEW.status = 'active' AND NOT NEW.pinned;
BEGIN
    IF was AND now_ranked AND OLD.scope = NEW.scope THEN
        RETURN NULL;
    END IF;
    IF was THEN
        PERFORM memory_term_scopes_add(ARRAY[OLD.scope], ARRAY[-1::bigint], ARRAY[-(SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(OLD.search) AS w)]);
    END IF;
    IF now_ranked THEN
        PERFORM memory_term_scopes_add(ARRAY[NEW.scope], ARRAY[1::bigint], ARRAY[(SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(NEW.search) AS w)]);
    END IF;
    RETURN NULL;
END $$;

--
-- Name: memory_terms_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_terms_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM memory_terms t
     USING old_items o, unnest(tsvector_to_array(o.search)) AS l (lexeme)
     WHERE o.status = 'active' AND NOT o.pinned
       AND t.scope = o.scope AND t.lexeme = l.lexeme AND t.item_id = o.id;
    RETURN NULL;
END $$;

--
-- Name: memory_terms_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_terms_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO memory_terms (scope, lexeme, item_id, tf, dl, expires_at)
    SELECT n.scope, t.lexeme, n.id, cardinality(t.positions), l.dl, n.expires_at
      FROM new_items n, LATERAL (SELECT sum(cardinality(w.positions))::integer FROM unnest(n.search) AS w) AS l (dl),
           unnest(n.search) AS t
     WHERE n.status = 'active' AND NOT n.pinned;
    RETURN NULL;
END $$;

--
-- Name: memory_terms_truncate(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_terms_truncate() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    TRUNCATE memory_terms;
    RETURN NULL;
END $$;

--
-- Name: memory_terms_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_terms_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF OLD.status = 'active' AND NOT OLD.pinned AND NEW.status = 'active' AND NOT NEW.pinned
       AND OLD.scope = NEW.scope AND OLD.expires_at IS NOT DISTINCT FROM NEW.expires_at THEN
        WITH len AS MATERIALIZED (
            SELECT (SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(OLD.search) AS w) AS old_dl,
                   (SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(NEW.search) AS w) AS new_dl
        ), gone AS (
            DELETE FROM memory_terms t
             WHERE t.scope = OLD.scope AND t.item_id = OLD.id
               AND t.lexeme = ANY (ARRAY(SELECT unnest(tsvector_to_array(OLD.search))
                                         EXCEPT
                                         SELECT unnest(tsvector_to_array(NEW.search))))
        ), total AS (
            UPDATE memory_term_scopes s SET length = s.length + (len.new_dl - len.old_dl)
              FROM len
             WHERE s.scope = NEW.scope AND len.new_dl <> len.old_dl
        )
        INSERT INTO memory_terms AS t (scope, lexeme, item_id, tf, dl, expires_at)
        SELECT NEW.scope, came.lexeme, NEW.id, came.tf, len.new_dl, NEW.expires_at
          FROM len, (SELECT w.lexeme, cardinality(w.positions) FROM unnest(NEW.search) AS w
                     EXCEPT
                     SELECT w.lexeme, cardinality(w.positions) FROM unnest(OLD.search) AS w
                      WHERE (SELECT old_dl = new_dl FROM len)) AS came (lexeme, tf)
        ON CONFLICT (scope, lexeme, item_id) DO UPDATE SET tf = excluded.tf, dl = excluded.dl;
        RETURN NULL;
    END IF;
    IF OLD.status = 'active' AND NOT OLD.pinned AND NEW.status = 'active' AND NOT NEW.pinned
       AND OLD.scope = NEW.scope AND OLD.search IS DISTINCT FROM NEW.search THEN
        UPDATE memory_term_scopes
           SET length = length + (SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(NEW.search) AS w) - (SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(OLD.search) AS w)
         WHERE scope = NEW.scope;
    END IF;
    IF OLD.status = 'active' AND NOT OLD.pinned THEN
        DELETE FROM memory_terms
         WHERE scope = OLD.scope AND lexeme = ANY (tsvector_to_array(OLD.search)) AND item_id = OLD.id;
    END IF;
    IF NEW.status = 'active' AND NOT NEW.pinned THEN
        INSERT INTO memory_terms (scope, lexeme, item_id, tf, dl, expires_at)
        SELECT NEW.scope, t.lexeme, NEW.id, cardinality(t.positions), l.dl, NEW.expires_at
          FROM (SELECT sum(cardinality(w.positions))::integer FROM unnest(NEW.search) AS w) AS l (dl),
               unnest(NEW.search) AS t;
    END IF;
    RETURN NULL;
END $$;

--
-- Name: memory_visible(text, text, timestamp with time zone, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.memory_visible(scope text, status text, expires_at timestamp with time zone, teammate text) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN ((scope = ANY (ARRAY['shared'::text, teammate])) AND (status = 'active'::text) AND ((expires_at IS NULL) OR (expires_at > now())));

--
-- Name: bot_threads; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.bot_threads (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    teammate_id uuid NOT NULL,
    generation text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT bot_threads_finite_dates CHECK (isfinite(created_at)),
    CONSTRAINT bot_threads_generation_check CHECK ((generation ~ '^[0-9]+:[0-9]+:[0-9]+$'::text))
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_keys (
    owner text NOT NULL,
    run_id uuid,
    key_hash bytea NOT NULL,
    operation text NOT NULL,
    fingerprint bytea NOT NULL,
    item_ids uuid[] DEFAULT '{}'::uuid[] NOT NULL,
    teammate_id uuid,
    outcome text,
    reason text,
    message text,
    adopted boolean DEFAULT false NOT NULL,
    unchanged integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT idempotency_keys_check CHECK ((((owner = 'user'::text) AND (run_id IS NULL)) OR (owner = (run_id)::text))),
    CONSTRAINT idempotency_keys_fingerprint_check CHECK ((octet_length(fingerprint) = 32)),
    CONSTRAINT idempotency_keys_key_hash_check CHECK ((octet_length(key_hash) = 32)),
    CONSTRAINT idempotency_keys_message_check CHECK (((char_length(message) >= 1) AND (char_length(message) <= 1000))),
    CONSTRAINT idempotency_keys_operation_check CHECK ((operation ~ '^[a-zA-Z]+$'::text)),
    CONSTRAINT idempotency_keys_outcome_check CHECK ((outcome ~ '^[a-z]+$'::text)),
    CONSTRAINT idempotency_keys_reason_check CHECK ((((char_length(reason) >= 1) AND (char_length(reason) <= 40)) AND (reason ~ '^[a-z_]+$'::text)))
);

--
-- Name: lessons; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.lessons (
    item_id uuid NOT NULL,
    teammate_id uuid,
    run_id uuid,
    content text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: memory_ai_usage; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_ai_usage (
    day date NOT NULL,
    requests integer DEFAULT 0 NOT NULL,
    CONSTRAINT memory_ai_usage_requests_check CHECK ((requests >= 0))
);

--
-- Name: memory_contexts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_contexts (
    run_id uuid NOT NULL,
    item_id uuid NOT NULL,
    revision integer NOT NULL,
    "position" integer NOT NULL,
    truncated boolean DEFAULT false NOT NULL,
    CONSTRAINT memory_contexts_position_check CHECK (("position" >= 1)),
    CONSTRAINT memory_contexts_revision_check CHECK ((revision >= 1))
);

--
-- Name: memory_deletions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_deletions (
    singleton boolean DEFAULT true NOT NULL,
    deleted_at timestamp with time zone NOT NULL,
    CONSTRAINT memory_deletions_singleton_check CHECK (singleton)
);

--
-- Name: memory_embeddings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_embeddings (
    item_id uuid NOT NULL,
    revision integer NOT NULL,
    model text NOT NULL,
    dimensions integer NOT NULL,
    embedding public.vector NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT memory_embeddings_check CHECK ((public.vector_dims(embedding) = dimensions)),
    CONSTRAINT memory_embeddings_dimensions_check CHECK (((dimensions >= 1) AND (dimensions <= 16000))),
    CONSTRAINT memory_embeddings_model_check CHECK (((char_length(model) >= 1) AND (char_length(model) <= 200)))
);
ALTER TABLE ONLY public.memory_embeddings ALTER COLUMN embedding SET STORAGE MAIN;

--
-- Name: memory_forget_ledger; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_forget_ledger (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    seq bigint NOT NULL,
    at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    kind text NOT NULL,
    item_id uuid,
    scope text,
    actor text,
    hashes bytea[] DEFAULT '{}'::bytea[] NOT NULL,
    teammate_id uuid,
    written_at timestamp with time zone,
    CONSTRAINT memory_forget_ledger_check CHECK ((((kind = 'forget'::text) AND (item_id IS NOT NULL) AND (scope IS NOT NULL) AND (actor IS NOT NULL)) OR ((kind = 'delete-teammate'::text) AND (teammate_id IS NOT NULL)))),
    CONSTRAINT memory_forget_ledger_kind_check CHECK ((kind = ANY (ARRAY['forget'::text, 'delete-teammate'::text])))
);

--
-- Name: memory_forget_ledger_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.memory_forget_ledger ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.memory_forget_ledger_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: memory_generations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_generations (
    scope text NOT NULL,
    teammate_id uuid,
    generation bigint DEFAULT 0 NOT NULL,
    expired_seen integer DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT memory_generations_check CHECK ((scope = COALESCE((teammate_id)::text, 'shared'::text))),
    CONSTRAINT memory_generations_expired_seen_check CHECK ((expired_seen >= 0)),
    CONSTRAINT memory_generations_generation_check CHECK ((generation >= 0))
);

--
-- Name: memory_imports; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_imports (
    teammate_id uuid NOT NULL,
    imported_at timestamp with time zone DEFAULT now() NOT NULL,
    outcome text NOT NULL,
    content_hash bytea,
    item_id uuid,
    keyed boolean DEFAULT false NOT NULL,
    CONSTRAINT memory_imports_check CHECK (((outcome = 'imported'::text) = (content_hash IS NOT NULL))),
    CONSTRAINT memory_imports_content_hash_check CHECK ((octet_length(content_hash) = 32)),
    CONSTRAINT memory_imports_outcome_check CHECK ((outcome = ANY (ARRAY['imported'::text, 'absent'::text])))
);

--
-- Name: memory_items; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_items (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    teammate_id uuid,
    scope text GENERATED ALWAYS AS (COALESCE((teammate_id)::text, 'shared'::text)) STORED NOT NULL,
    kind text NOT NULL,
    key text,
    content text NOT NULL,
    status text NOT NULL,
    pinned boolean DEFAULT false NOT NULL,
    revision integer DEFAULT 1 NOT NULL,
    source text NOT NULL,
    evidence text,
    source_run_id uuid,
    source_message_id uuid,
    target_item_id uuid,
    target_revision integer,
    expires_at timestamp with time zone,
    content_hash bytea,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    forgotten_at timestamp with time zone,
    search tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, ((content || ' '::text) || COALESCE(key, ''::text)))) STORED NOT NULL,
    proposes_forget boolean DEFAULT false NOT NULL,
    times_suggested integer DEFAULT 1 NOT NULL,
    resolution text,
    wait_reason text,
    wait_words text,
    CONSTRAINT memory_items_check CHECK (((status = 'forgotten'::text) = (forgotten_at IS NOT NULL))),
    CONSTRAINT memory_items_check3 CHECK (((target_item_id IS NULL) = (target_revision IS NULL))),
    CONSTRAINT memory_items_check4 CHECK (((target_item_id IS NULL) OR (target_item_id <> id))),
    CONSTRAINT memory_items_content_check CHECK ((char_length(content) <= 4000)),
    CONSTRAINT memory_items_content_required CHECK (((status = 'forgotten'::text) OR proposes_forget OR (char_length(content) >= 1))),
    CONSTRAINT memory_items_evidence_check CHECK ((char_length(evidence) <= 4000)),
    CONSTRAINT memory_items_finite_dates CHECK ((isfinite(created_at) AND isfinite(updated_at) AND isfinite(expires_at) AND isfinite(forgotten_at))),
    CONSTRAINT memory_items_forget_proposal CHECK (((NOT proposes_forget) OR ((target_item_id IS NOT NULL) AND (status <> 'active'::text) AND (content = ''::text)))),
    CONSTRAINT memory_items_forgotten_blank CHECK (((status <> 'forgotten'::text) OR ((content = ''::text) AND (key IS NULL) AND (evidence IS NULL) AND (wait_words IS NULL) AND (content_hash IS NULL)))),
    CONSTRAINT memory_items_key_check CHECK (((char_length(key) >= 1) AND (char_length(key) <= 120))),
    CONSTRAINT memory_items_kind_check CHECK ((kind = ANY (ARRAY['fact'::text, 'preference'::text, 'lesson'::text, 'note'::text]))),
    CONSTRAINT memory_items_resolution_check CHECK ((resolution = ANY (ARRAY['confirmed'::text, 'dismissed'::text, 'applied'::text]))),
    CONSTRAINT memory_items_resolution_settled CHECK (((resolution IS NULL) OR (status = ANY (ARRAY['dismissed'::text, 'forgotten'::text])))),
    CONSTRAINT memory_items_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_items_source_check CHECK ((source = ANY (ARRAY['user'::text, 'teammate'::text, 'extraction'::text, 'import'::text, 'feedback'::text]))),
    CONSTRAINT memory_items_status_check CHECK ((status = ANY (ARRAY['active'::text, 'candidate'::text, 'dismissed'::text, 'forgotten'::text]))),
    CONSTRAINT memory_items_target_revision_check CHECK ((target_revision >= 1)),
    CONSTRAINT memory_items_times_suggested_check CHECK ((times_suggested >= 1)),
    CONSTRAINT memory_items_wait_reason_code CHECK ((((char_length(wait_reason) >= 1) AND (char_length(wait_reason) <= 40)) AND (wait_reason ~ '^[a-z_]+$'::text))),
    CONSTRAINT memory_items_wait_words_length CHECK (((char_length(wait_words) >= 1) AND (char_length(wait_words) <= 200)))
);

--
-- Name: memory_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_jobs (
    id bigint NOT NULL,
    kind text NOT NULL,
    item_id uuid,
    revision integer,
    run_id uuid,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    run_after timestamp with time zone DEFAULT now() NOT NULL,
    lease_until timestamp with time zone,
    locked_by text,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT memory_jobs_attempts_check CHECK ((attempts >= 0)),
    CONSTRAINT memory_jobs_check CHECK (((kind <> 'embed'::text) OR ((item_id IS NOT NULL) AND (revision IS NOT NULL)))),
    CONSTRAINT memory_jobs_check1 CHECK (((kind <> 'extract'::text) OR (run_id IS NOT NULL))),
    CONSTRAINT memory_jobs_check2 CHECK (((status = 'running'::text) = (lease_until IS NOT NULL))),
    CONSTRAINT memory_jobs_kind_check CHECK ((kind = ANY (ARRAY['embed'::text, 'extract'::text]))),
    CONSTRAINT memory_jobs_last_error_check CHECK ((char_length(last_error) <= 500)),
    CONSTRAINT memory_jobs_locked_by_check CHECK ((char_length(locked_by) <= 200)),
    CONSTRAINT memory_jobs_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_jobs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'running'::text, 'done'::text, 'failed'::text, 'cancelled'::text])))
);

--
-- Name: memory_jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.memory_jobs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.memory_jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: memory_purges; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_purges (
    singleton boolean DEFAULT true NOT NULL,
    purged_upto timestamp with time zone NOT NULL,
    CONSTRAINT memory_purges_singleton_check CHECK (singleton)
);

--
-- Name: memory_revisions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_revisions (
    item_id uuid NOT NULL,
    revision integer NOT NULL,
    content text NOT NULL,
    key text,
    kind text NOT NULL,
    pinned boolean NOT NULL,
    expires_at timestamp with time zone,
    action text NOT NULL,
    actor text NOT NULL,
    based_on integer,
    run_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT memory_revisions_action_check CHECK ((action = ANY (ARRAY['create'::text, 'edit'::text, 'correct'::text, 'restore'::text, 'undo'::text, 'confirm'::text, 'pin'::text, 'forget'::text, 'dismiss'::text, 'resolve'::text]))),
    CONSTRAINT memory_revisions_actor_check CHECK (((actor = ANY (ARRAY['user'::text, 'extraction'::text, 'import'::text])) OR (actor ~ '^teammate:[0-9a-f-]{36}$'::text))),
    CONSTRAINT memory_revisions_check CHECK (((based_on >= 1) AND (based_on < revision))),
    CONSTRAINT memory_revisions_content_check CHECK ((char_length(content) <= 4000)),
    CONSTRAINT memory_revisions_finite_dates CHECK ((isfinite(created_at) AND isfinite(expires_at))),
    CONSTRAINT memory_revisions_key_check CHECK (((char_length(key) >= 1) AND (char_length(key) <= 120))),
    CONSTRAINT memory_revisions_kind_check CHECK ((kind = ANY (ARRAY['fact'::text, 'preference'::text, 'lesson'::text, 'note'::text]))),
    CONSTRAINT memory_revisions_revision_check CHECK ((revision >= 1))
);

--
-- Name: memory_sketches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_sketches (
    item_id uuid NOT NULL,
    revision integer NOT NULL,
    model text NOT NULL,
    scope text NOT NULL COLLATE pg_catalog."C",
    dimensions integer NOT NULL,
    sketch bit varying NOT NULL,
    scan_key text GENERATED ALWAYS AS (public.memory_sketch_key(scope, dimensions, model)) STORED COLLATE pg_catalog."C",
    scan_hash bigint GENERATED ALWAYS AS (public.memory_sketch_hash(scope, dimensions, model)) STORED
);

--
-- Name: memory_suppressed; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_suppressed (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    scope text NOT NULL,
    run_id uuid NOT NULL,
    keyed_hash bytea NOT NULL,
    target_item_id uuid,
    sealed bytea NOT NULL,
    times_suggested integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT memory_suppressed_keyed_hash_check CHECK ((octet_length(keyed_hash) = 32)),
    CONSTRAINT memory_suppressed_times_suggested_check CHECK ((times_suggested >= 1))
);

--
-- Name: memory_suppressions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_suppressions (
    message_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: memory_term_df; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_term_df (
    scope text NOT NULL COLLATE pg_catalog."C",
    lexeme text NOT NULL COLLATE pg_catalog."C",
    df bigint NOT NULL
);

--
-- Name: memory_term_scopes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_term_scopes (
    scope text NOT NULL COLLATE pg_catalog."C",
    items bigint NOT NULL,
    length bigint DEFAULT 0 NOT NULL
);

--
-- Name: memory_terms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_terms (
    scope text NOT NULL COLLATE pg_catalog."C",
    lexeme text NOT NULL COLLATE pg_catalog."C",
    item_id uuid NOT NULL,
    tf smallint NOT NULL,
    expires_at timestamp with time zone,
    dl integer NOT NULL,
    CONSTRAINT memory_terms_check CHECK ((dl >= tf)),
    CONSTRAINT memory_terms_tf_check CHECK ((tf >= 1))
);

--
-- Name: memory_text_model; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_text_model (
    singleton boolean DEFAULT true NOT NULL,
    version integer NOT NULL,
    CONSTRAINT memory_text_model_singleton_check CHECK (singleton)
);

--
-- Name: memory_tombstone_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_tombstone_key (
    singleton boolean DEFAULT true NOT NULL,
    fingerprint bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT memory_tombstone_key_fingerprint_check CHECK ((octet_length(fingerprint) = 32)),
    CONSTRAINT memory_tombstone_key_singleton_check CHECK (singleton)
);

--
-- Name: memory_tombstones; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_tombstones (
    scope text NOT NULL,
    content_hash bytea NOT NULL,
    item_id uuid,
    forgotten_at timestamp with time zone DEFAULT now() NOT NULL,
    keyed boolean DEFAULT false NOT NULL,
    CONSTRAINT memory_tombstones_content_hash_check CHECK ((octet_length(content_hash) = 32))
);

--
-- Name: messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.messages (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    thread_id uuid NOT NULL,
    run_id uuid,
    role text NOT NULL,
    content text NOT NULL,
    redo_of_run_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    search tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED,
    CONSTRAINT messages_finite_dates CHECK (isfinite(created_at)),
    CONSTRAINT messages_role_check CHECK ((role = ANY (ARRAY['user'::text, 'assistant'::text])))
);

--
-- Name: runs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.runs (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    teammate_id uuid NOT NULL,
    thread_id uuid NOT NULL,
    status text DEFAULT 'running'::text NOT NULL,
    started_by_user boolean DEFAULT true NOT NULL,
    generation text NOT NULL,
    token_hash bytea,
    rating text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    ended_at timestamp with time zone,
    cancelled_at timestamp with time zone,
    last_active_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT runs_check CHECK (((status = 'running'::text) = (ended_at IS NULL))),
    CONSTRAINT runs_check1 CHECK (((status = 'running'::text) OR (token_hash IS NULL))),
    CONSTRAINT runs_check2 CHECK (((status = 'cancelled'::text) = (cancelled_at IS NOT NULL))),
    CONSTRAINT runs_finite_dates CHECK ((isfinite(created_at) AND isfinite(ended_at) AND isfinite(cancelled_at))),
    CONSTRAINT runs_generation_check CHECK ((generation ~ '^[0-9]+:[0-9]+:[0-9]+$'::text)),
    CONSTRAINT runs_rating_check CHECK ((rating = ANY (ARRAY['up'::text, 'down'::text]))),
    CONSTRAINT runs_status_check CHECK ((status = ANY (ARRAY['running'::text, 'completed'::text, 'failed'::text, 'interrupted'::text, 'cancelled'::text])))
);

--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    version bigint NOT NULL,
    dirty boolean NOT NULL
);

--
-- Name: settings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.settings (
    id boolean DEFAULT true NOT NULL,
    about_me text DEFAULT ''::text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT settings_id_check CHECK (id)
);

--
-- Name: teammates; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.teammates (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    use_memory boolean DEFAULT true NOT NULL,
    save_memory boolean DEFAULT true NOT NULL,
    CONSTRAINT teammates_finite_dates CHECK (isfinite(created_at)),
    CONSTRAINT teammates_name_check CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 120)))
);

--
-- Name: web_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_sessions (
    key bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: bot_threads bot_threads_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bot_threads
    ADD CONSTRAINT bot_threads_pkey PRIMARY KEY (id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (owner, key_hash);

--
-- Name: lessons lessons_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lessons
    ADD CONSTRAINT lessons_pkey PRIMARY KEY (item_id);

--
-- Name: memory_ai_usage memory_ai_usage_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_ai_usage
    ADD CONSTRAINT memory_ai_usage_pkey PRIMARY KEY (day);

--
-- Name: memory_contexts memory_contexts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_contexts
    ADD CONSTRAINT memory_contexts_pkey PRIMARY KEY (run_id, "position");

--
-- Name: memory_contexts memory_contexts_run_id_item_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_contexts
    ADD CONSTRAINT memory_contexts_run_id_item_id_key UNIQUE (run_id, item_id);

--
-- Name: memory_deletions memory_deletions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_deletions
    ADD CONSTRAINT memory_deletions_pkey PRIMARY KEY (singleton);

--
-- Name: memory_embeddings memory_embeddings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_embeddings
    ADD CONSTRAINT memory_embeddings_pkey PRIMARY KEY (item_id, revision, model);

--
-- Name: memory_forget_ledger memory_forget_ledger_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_forget_ledger
    ADD CONSTRAINT memory_forget_ledger_pkey PRIMARY KEY (id);

--
-- Name: memory_forget_ledger memory_forget_ledger_seq_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_forget_ledger
    ADD CONSTRAINT memory_forget_ledger_seq_key UNIQUE (seq);

--
-- Name: memory_generations memory_generations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_generations
    ADD CONSTRAINT memory_generations_pkey PRIMARY KEY (scope);

--
-- Name: memory_generations memory_generations_teammate_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_generations
    ADD CONSTRAINT memory_generations_teammate_id_key UNIQUE (teammate_id);

--
-- Name: memory_imports memory_imports_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_imports
    ADD CONSTRAINT memory_imports_pkey PRIMARY KEY (teammate_id);

--
-- Name: memory_items memory_items_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_items
    ADD CONSTRAINT memory_items_pkey PRIMARY KEY (id);

--
-- Name: memory_jobs memory_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_jobs
    ADD CONSTRAINT memory_jobs_pkey PRIMARY KEY (id);

--
-- Name: memory_purges memory_purges_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_purges
    ADD CONSTRAINT memory_purges_pkey PRIMARY KEY (singleton);

--
-- Name: memory_revisions memory_revisions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_revisions
    ADD CONSTRAINT memory_revisions_pkey PRIMARY KEY (item_id, revision);

--
-- Name: memory_sketches memory_sketches_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_sketches
    ADD CONSTRAINT memory_sketches_pkey PRIMARY KEY (item_id, revision, model);

--
-- Name: memory_suppressed memory_suppressed_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_suppressed
    ADD CONSTRAINT memory_suppressed_pkey PRIMARY KEY (id);

--
-- Name: memory_suppressions memory_suppressions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_suppressions
    ADD CONSTRAINT memory_suppressions_pkey PRIMARY KEY (message_id);

--
-- Name: memory_term_df memory_term_df_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_term_df
    ADD CONSTRAINT memory_term_df_pkey PRIMARY KEY (scope, lexeme);

--
-- Name: memory_term_scopes memory_term_scopes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_term_scopes
    ADD CONSTRAINT memory_term_scopes_pkey PRIMARY KEY (scope);

--
-- Name: memory_terms memory_terms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_terms
    ADD CONSTRAINT memory_terms_pkey PRIMARY KEY (scope, lexeme, item_id) INCLUDE (tf, dl, expires_at);

--
-- Name: memory_text_model memory_text_model_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_text_model
    ADD CONSTRAINT memory_text_model_pkey PRIMARY KEY (singleton);

--
-- Name: memory_tombstone_key memory_tombstone_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_tombstone_key
    ADD CONSTRAINT memory_tombstone_key_pkey PRIMARY KEY (singleton);

--
-- Name: memory_tombstones memory_tombstones_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_tombstones
    ADD CONSTRAINT memory_tombstones_pkey PRIMARY KEY (scope, content_hash);

--
-- Name: messages messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_pkey PRIMARY KEY (id);

--
-- Name: runs runs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runs
    ADD CONSTRAINT runs_pkey PRIMARY KEY (id);

--
-- Name: runs runs_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runs
    ADD CONSTRAINT runs_token_hash_key UNIQUE (token_hash);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);

--
-- Name: settings settings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (id);

--
-- Name: teammates teammates_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.teammates
    ADD CONSTRAINT teammates_pkey PRIMARY KEY (id);

--
-- Name: web_sessions web_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_sessions
    ADD CONSTRAINT web_sessions_pkey PRIMARY KEY (key);

--
-- Name: bot_threads_teammate; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX bot_threads_teammate ON public.bot_threads USING btree (teammate_id, created_at DESC);

--
-- Name: idempotency_keys_expires; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idempotency_keys_expires ON public.idempotency_keys USING btree (expires_at);

--
-- Name: idempotency_keys_run; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idempotency_keys_run ON public.idempotency_keys USING btree (run_id) WHERE (run_id IS NOT NULL);

--
-- Name: lessons_teammate; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX lessons_teammate ON public.lessons USING btree (teammate_id);

--
-- Name: memory_contexts_item; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_contexts_item ON public.memory_contexts USING btree (item_id);

--
-- Name: memory_embeddings_hnsw_1536_half; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_embeddings_hnsw_1536_half ON public.memory_embeddings USING hnsw (((embedding)::public.halfvec(1536)) public.halfvec_cosine_ops) WITH (m='16', ef_construction='128') WHERE (dimensions = 1536);

--
-- Name: memory_forget_ledger_unwritten; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_forget_ledger_unwritten ON public.memory_forget_ledger USING btree (seq) WHERE (written_at IS NULL);

--
-- Name: memory_items_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_items_expiry ON public.memory_items USING btree (scope, expires_at) WHERE ((status = 'active'::text) AND (expires_at IS NOT NULL));

--
-- Name: memory_items_list; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_items_list ON public.memory_items USING btree (scope, status, pinned DESC, updated_at DESC, id DESC);

--
-- Name: memory_items_one_forget_proposal; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX memory_items_one_forget_proposal ON public.memory_items USING btree (target_item_id) WHERE (proposes_forget AND (status = 'candidate'::text));

--
-- Name: memory_items_recall; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_items_recall ON public.memory_items USING btree (scope) WHERE (status = 'active'::text);

--
-- Name: memory_items_source_run; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_items_source_run ON public.memory_items USING btree (source_run_id) WHERE (source_run_id IS NOT NULL);

--
-- Name: memory_items_target; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_items_target ON public.memory_items USING btree (target_item_id) WHERE (target_item_id IS NOT NULL);

--
-- Name: memory_items_waiting_text; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_items_waiting_text ON public.memory_items USING btree (scope, content_hash) WHERE (status = 'candidate'::text);

--
-- Name: memory_jobs_item; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_jobs_item ON public.memory_jobs USING btree (item_id) WHERE (status = ANY (ARRAY['pending'::text, 'running'::text]));

--
-- Name: memory_jobs_leased; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_jobs_leased ON public.memory_jobs USING btree (lease_until) WHERE (status = 'running'::text);

--
-- Name: memory_jobs_ready; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_jobs_ready ON public.memory_jobs USING btree (run_after, id) WHERE (status = 'pending'::text);

--
-- Name: memory_jobs_run; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_jobs_run ON public.memory_jobs USING btree (run_id) WHERE (run_id IS NOT NULL);

--
-- Name: memory_sketches_by_hash; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_sketches_by_hash ON public.memory_sketches USING btree (scan_hash) INCLUDE (item_id, revision, sketch);

--
-- Name: memory_suppressed_run; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_suppressed_run ON public.memory_suppressed USING btree (run_id);

--
-- Name: memory_suppressed_text; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX memory_suppressed_text ON public.memory_suppressed USING btree (scope, keyed_hash);

--
-- Name: messages_pending_retry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_pending_retry ON public.messages USING btree (created_at) WHERE ((redo_of_run_id IS NOT NULL) AND (run_id IS NULL));

--
-- Name: messages_run; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_run ON public.messages USING btree (run_id);

--
-- Name: messages_search; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_search ON public.messages USING gin (search);

--
-- Name: messages_thread; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_thread ON public.messages USING btree (thread_id, created_at);

--
-- Name: runs_running; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX runs_running ON public.runs USING btree (created_at) WHERE (status = 'running'::text);

--
-- Name: runs_teammate; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX runs_teammate ON public.runs USING btree (teammate_id, created_at DESC);

--
-- Name: runs_thread; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX runs_thread ON public.runs USING btree (thread_id, created_at);

--
-- Name: teammates_name_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX teammates_name_key ON public.teammates USING btree (lower(btrim(name)));

--
-- Name: web_sessions_expires; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX web_sessions_expires ON public.web_sessions USING btree (expires_at);

--
-- Name: memory_items memory_items_evidence_follows_run; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_items_evidence_follows_run BEFORE UPDATE OF source_run_id ON public.memory_items FOR EACH ROW WHEN (((old.source_run_id IS NOT NULL) AND (new.source_run_id IS NULL))) EXECUTE FUNCTION public.memory_items_evidence_follows_run();

--
-- Name: memory_embeddings memory_sketches_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_sketches_insert AFTER INSERT ON public.memory_embeddings REFERENCING NEW TABLE AS new_embeddings FOR EACH STATEMENT EXECUTE FUNCTION public.memory_sketches_insert();

--
-- Name: memory_embeddings memory_sketches_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_sketches_update AFTER UPDATE OF embedding, dimensions ON public.memory_embeddings FOR EACH ROW EXECUTE FUNCTION public.memory_sketches_update();

--
-- Name: memory_terms memory_term_df_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_term_df_delete AFTER DELETE ON public.memory_terms REFERENCING OLD TABLE AS old_terms FOR EACH STATEMENT EXECUTE FUNCTION public.memory_term_df_delete();

--
-- Name: memory_terms memory_term_df_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_term_df_insert AFTER INSERT ON public.memory_terms REFERENCING NEW TABLE AS new_terms FOR EACH STATEMENT EXECUTE FUNCTION public.memory_term_df_insert();

--
-- Name: memory_terms memory_term_df_move; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_term_df_move AFTER UPDATE ON public.memory_terms FOR EACH ROW WHEN (((old.scope IS DISTINCT FROM new.scope) OR (old.lexeme IS DISTINCT FROM new.lexeme))) EXECUTE FUNCTION public.memory_term_df_move();

--
-- Name: memory_terms memory_term_df_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_term_df_truncate AFTER TRUNCATE ON public.memory_terms FOR EACH STATEMENT EXECUTE FUNCTION public.memory_term_df_truncate();

--
-- Name: memory_items memory_term_scopes_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_term_scopes_delete AFTER DELETE ON public.memory_items REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION public.memory_term_scopes_delete();

--
-- Name: memory_items memory_term_scopes_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_term_scopes_insert AFTER INSERT ON public.memory_items REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION public.memory_term_scopes_insert();

--
-- Name: memory_items memory_term_scopes_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_term_scopes_truncate AFTER TRUNCATE ON public.memory_items FOR EACH STATEMENT EXECUTE FUNCTION public.memory_term_scopes_truncate();

--
-- Name: memory_items memory_term_scopes_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_term_scopes_update AFTER UPDATE ON public.memory_items FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) OR (old.scope IS DISTINCT FROM new.scope) OR (old.pinned IS DISTINCT FROM new.pinned))) EXECUTE FUNCTION public.memory_term_scopes_update();

--
-- Name: memory_items memory_terms_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_terms_delete AFTER DELETE ON public.memory_items REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION public.memory_terms_delete();

--
-- Name: memory_items memory_terms_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_terms_insert AFTER INSERT ON public.memory_items REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION public.memory_terms_insert();

--
-- Name: memory_items memory_terms_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_terms_truncate AFTER TRUNCATE ON public.memory_items FOR EACH STATEMENT EXECUTE FUNCTION public.memory_terms_truncate();

--
-- Name: memory_items memory_terms_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER memory_terms_update AFTER UPDATE ON public.memory_items FOR EACH ROW WHEN (((old.search IS DISTINCT FROM new.search) OR (old.status IS DISTINCT FROM new.status) OR (old.scope IS DISTINCT FROM new.scope) OR (old.pinned IS DISTINCT FROM new.pinned) OR (old.expires_at IS DISTINCT FROM new.expires_at))) EXECUTE FUNCTION public.memory_terms_update();

--
-- Name: teammates teammates_generation; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER teammates_generation AFTER INSERT ON public.teammates FOR EACH ROW EXECUTE FUNCTION public.memory_generations_for_teammate();

--
-- Name: bot_threads bot_threads_teammate_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bot_threads
    ADD CONSTRAINT bot_threads_teammate_id_fkey FOREIGN KEY (teammate_id) REFERENCES public.teammates(id) ON DELETE CASCADE;

--
-- Name: idempotency_keys idempotency_keys_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.runs(id) ON DELETE CASCADE;

--
-- Name: lessons lessons_item_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lessons
    ADD CONSTRAINT lessons_item_id_fkey FOREIGN KEY (item_id) REFERENCES public.memory_items(id) ON DELETE CASCADE;

--
-- Name: lessons lessons_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lessons
    ADD CONSTRAINT lessons_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.runs(id) ON DELETE SET NULL;

--
-- Name: lessons lessons_teammate_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lessons
    ADD CONSTRAINT lessons_teammate_id_fkey FOREIGN KEY (teammate_id) REFERENCES public.teammates(id) ON DELETE CASCADE;

--
-- Name: memory_contexts memory_contexts_item_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_contexts
    ADD CONSTRAINT memory_contexts_item_id_fkey FOREIGN KEY (item_id) REFERENCES public.memory_items(id) ON DELETE CASCADE;

--
-- Name: memory_contexts memory_contexts_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_contexts
    ADD CONSTRAINT memory_contexts_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.runs(id) ON DELETE CASCADE;

--
-- Name: memory_embeddings memory_embeddings_item_id_revision_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_embeddings
    ADD CONSTRAINT memory_embeddings_item_id_revision_fkey FOREIGN KEY (item_id, revision) REFERENCES public.memory_revisions(item_id, revision) ON DELETE CASCADE;

--
-- Name: memory_generations memory_generations_teammate_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_generations
    ADD CONSTRAINT memory_generations_teammate_id_fkey FOREIGN KEY (teammate_id) REFERENCES public.teammates(id) ON DELETE CASCADE;

--
-- Name: memory_imports memory_imports_item_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_imports
    ADD CONSTRAINT memory_imports_item_id_fkey FOREIGN KEY (item_id) REFERENCES public.memory_items(id) ON DELETE SET NULL;

--
-- Name: memory_imports memory_imports_teammate_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_imports
    ADD CONSTRAINT memory_imports_teammate_id_fkey FOREIGN KEY (teammate_id) REFERENCES public.teammates(id) ON DELETE CASCADE;

--
-- Name: memory_items memory_items_scope_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_items
    ADD CONSTRAINT memory_items_scope_fkey FOREIGN KEY (scope) REFERENCES public.memory_generations(scope);

--
-- Name: memory_items memory_items_source_message_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_items
    ADD CONSTRAINT memory_items_source_message_id_fkey FOREIGN KEY (source_message_id) REFERENCES public.messages(id) ON DELETE SET NULL;

--
-- Name: memory_items memory_items_source_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_items
    ADD CONSTRAINT memory_items_source_run_id_fkey FOREIGN KEY (source_run_id) REFERENCES public.runs(id) ON DELETE SET NULL;

--
-- Name: memory_items memory_items_target_item_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_items
    ADD CONSTRAINT memory_items_target_item_id_fkey FOREIGN KEY (target_item_id) REFERENCES public.memory_items(id) ON DELETE CASCADE;

--
-- Name: memory_items memory_items_teammate_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_items
    ADD CONSTRAINT memory_items_teammate_id_fkey FOREIGN KEY (teammate_id) REFERENCES public.teammates(id) ON DELETE CASCADE;

--
-- Name: memory_jobs memory_jobs_item_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_jobs
    ADD CONSTRAINT memory_jobs_item_id_fkey FOREIGN KEY (item_id) REFERENCES public.memory_items(id) ON DELETE CASCADE;

--
-- Name: memory_jobs memory_jobs_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_jobs
    ADD CONSTRAINT memory_jobs_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.runs(id) ON DELETE CASCADE;

--
-- Name: memory_revisions memory_revisions_item_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_revisions
    ADD CONSTRAINT memory_revisions_item_id_fkey FOREIGN KEY (item_id) REFERENCES public.memory_items(id) ON DELETE CASCADE;

--
-- Name: memory_revisions memory_revisions_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_revisions
    ADD CONSTRAINT memory_revisions_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.runs(id) ON DELETE SET NULL;

--
-- Name: memory_sketches memory_sketches_item_id_revision_model_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_sketches
    ADD CONSTRAINT memory_sketches_item_id_revision_model_fkey FOREIGN KEY (item_id, revision, model) REFERENCES public.memory_embeddings(item_id, revision, model) ON DELETE CASCADE;

--
-- Name: memory_suppressed memory_suppressed_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_suppressed
    ADD CONSTRAINT memory_suppressed_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.runs(id) ON DELETE CASCADE;

--
-- Name: memory_suppressed memory_suppressed_scope_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_suppressed
    ADD CONSTRAINT memory_suppressed_scope_fkey FOREIGN KEY (scope) REFERENCES public.memory_generations(scope) ON DELETE CASCADE;

--
-- Name: memory_suppressed memory_suppressed_target_item_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_suppressed
    ADD CONSTRAINT memory_suppressed_target_item_id_fkey FOREIGN KEY (target_item_id) REFERENCES public.memory_items(id) ON DELETE CASCADE;

--
-- Name: memory_suppressions memory_suppressions_message_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_suppressions
    ADD CONSTRAINT memory_suppressions_message_id_fkey FOREIGN KEY (message_id) REFERENCES public.messages(id) ON DELETE CASCADE;

--
-- Name: memory_tombstones memory_tombstones_item_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_tombstones
    ADD CONSTRAINT memory_tombstones_item_id_fkey FOREIGN KEY (item_id) REFERENCES public.memory_items(id) ON DELETE SET NULL;

--
-- Name: memory_tombstones memory_tombstones_scope_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_tombstones
    ADD CONSTRAINT memory_tombstones_scope_fkey FOREIGN KEY (scope) REFERENCES public.memory_generations(scope) ON DELETE CASCADE;

--
-- Name: messages messages_redo_of_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_redo_of_run_id_fkey FOREIGN KEY (redo_of_run_id) REFERENCES public.runs(id) ON DELETE SET NULL;

--
-- Name: messages messages_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.runs(id) ON DELETE CASCADE;

--
-- Name: messages messages_thread_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_thread_id_fkey FOREIGN KEY (thread_id) REFERENCES public.bot_threads(id) ON DELETE CASCADE;

--
-- Name: runs runs_teammate_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runs
    ADD CONSTRAINT runs_teammate_id_fkey FOREIGN KEY (teammate_id) REFERENCES public.teammates(id) ON DELETE CASCADE;

--
-- Name: runs runs_thread_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runs
    ADD CONSTRAINT runs_thread_id_fkey FOREIGN KEY (thread_id) REFERENCES public.bot_threads(id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--

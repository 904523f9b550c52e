-- name: ScopeLock :one
-- Takes the scope's lock (R1): every change to a scope's memory holds it until commit. No row: no
-- such scope.
SELECT generation FROM memory_generations WHERE scope = @scope FOR UPDATE;

-- name: ScopeLockOfItem :one
-- Takes the lock of the item's scope (R1); no row: no such item.
SELECT scope FROM memory_generations WHERE scope = (SELECT i.scope FROM memory_items i WHERE i.id = @item_id) FOR UPDATE;

-- name: ScopesLock :exec
-- Scopes are locked in the one order of every write that spans scopes — shared first, then the
-- teammates' by name, as a teammate's write takes shared then its own (G6) — so that two such
-- writes can't deadlock.
SELECT scope FROM memory_generations WHERE scope = ANY(@scopes::text[]) ORDER BY scope <> 'shared', scope FOR UPDATE;

-- name: ScopeExists :one
SELECT EXISTS (SELECT 1 FROM memory_generations WHERE scope = @scope);

-- name: GenerationBump :exec
UPDATE memory_generations SET generation = generation + 1, updated_at = now() WHERE scope = @scope;

-- name: GenerationGet :one
-- A teammate's generation (G2): the shared counter, its own, and the active items visible to it
-- that have expired.
SELECT s.generation AS shared, o.generation AS own,
       (SELECT count(*) FROM memory_items i
         WHERE i.scope IN ('shared', o.scope) AND i.status = 'active' AND i.expires_at <= now()) AS expired
  FROM memory_generations s, memory_generations o
 WHERE s.scope = 'shared' AND o.scope = @teammate_id::text;

-- name: GenerationsSweepExpired :many
-- Records, per scope, how many active items have expired, and announces on channel every scope whose
-- number changed. Several API processes may sweep at once: the row update decides which one announces.
WITH counts AS (
    SELECT g.scope,
           (SELECT count(*) FROM memory_items i
             WHERE i.scope = g.scope AND i.status = 'active' AND i.expires_at <= now())::int AS n
      FROM memory_generations g
), changed AS (
    UPDATE memory_generations g SET expired_seen = c.n, updated_at = now()
      FROM counts c
     WHERE g.scope = c.scope AND g.expired_seen <> c.n
    RETURNING g.scope
)
SELECT scope, pg_notify(@channel, json_build_object('scope', scope, 'gen', true)::text)::text AS notified FROM changed;

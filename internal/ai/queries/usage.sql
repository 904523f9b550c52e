-- name: UsageReserve :one
-- Counts one request against today's budget (UTC; now NULL: the database's clock) if it is below
-- max_requests, in one statement: concurrent reservations serialise on the day's row, so the limit
-- holds exactly. It returns the day, and whether the request was counted (not: the budget is spent).
WITH d AS (SELECT (coalesce(sqlc.narg(now)::timestamptz, now()) AT TIME ZONE 'UTC')::date AS day),
     r AS (
    INSERT INTO memory_ai_usage AS u (day, requests) SELECT day, 1 FROM d
    ON CONFLICT (day) DO UPDATE SET requests = u.requests + 1 WHERE u.requests < sqlc.arg(max_requests)::int
    RETURNING requests
)
SELECT d.day, EXISTS (SELECT 1 FROM r) AS reserved FROM d;

-- name: UsageToday :one
-- Today's day (UTC; now NULL: the database's clock) and the requests counted on it.
SELECT d.day, coalesce((SELECT u.requests FROM memory_ai_usage u WHERE u.day = d.day), 0)::int AS requests
  FROM (SELECT (coalesce(sqlc.narg(now)::timestamptz, now()) AT TIME ZONE 'UTC')::date AS day) d;

-- name: UsageReserve :one
-- Counts one request against today's budget (UTC; now NULL: the database's clock) if it is below
-- max_requests, in one statement: concurrent reservations serialise on the day's row, so the limit
-- holds exactly. It returns the day, and whether the request was counted (not: the budget is spent).
--
-- Its commit doesn't wait for the WAL to reach the disk (synchronous_commit off, for this statement's
-- transaction alone): that wait was most of a reservation's time (about 0.8 of 0.9 ms under make
-- bench), and every recall with vectors waits for its reservation before it can ask for the
-- embedding. What it risks: a crash of PostgreSQL itself (not of an API process) can lose the
-- reservations of the last moment before it (at most three times wal_writer_delay, 0.6 s by
-- default), so that day's count may fall short by the requests made in that moment. A power cut is
-- not a way to spend the budget, so the cap still holds to within those few requests; every other
-- write keeps its synchronous commit.
WITH d AS (SELECT (coalesce(sqlc.narg(now)::timestamptz, now()) AT TIME ZONE 'UTC')::date AS day,
                  set_config('synchronous_commit', 'off', true) AS commit_mode),
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

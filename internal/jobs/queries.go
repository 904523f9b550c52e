package jobs

// SQL of the jobs package, in one place. Every value is a parameter; nothing is interpolated.
// $now parameters are the injectable clock: NULL means the database's now().

const (
	// qJobInsert enqueues a job and wakes runners; NOTIFY is delivered at commit, never on rollback.
	qJobInsert = `
		WITH j AS (
			INSERT INTO memory_jobs (kind, item_id, revision, run_id, run_after)
			VALUES ($1, $2::uuid, $3, $4::uuid, coalesce($5::timestamptz, now()))
			RETURNING id, kind
		)
		SELECT id, pg_notify('` + Channel + `', kind) FROM j`

	// qJobInsertUnique enqueues the jobs of the arrays $1..$4 (kind, item, revision, run), in order,
	// each unless the same job is already pending or running, and wakes runners if it added any.
	qJobInsertUnique = `
		WITH wanted AS (
			SELECT DISTINCT ON (k, i, r, ru) k AS kind, i::uuid AS item_id, r AS revision, ru::uuid AS run_id, ord
			  FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) WITH ORDINALITY AS w(k, i, r, ru, ord)
			 ORDER BY k, i, r, ru, ord
		), added AS (
			INSERT INTO memory_jobs (kind, item_id, revision, run_id)
			SELECT w.kind, w.item_id, w.revision, w.run_id FROM wanted w
			 WHERE NOT EXISTS (
				SELECT 1 FROM memory_jobs j
				 WHERE j.status IN ('pending', 'running') AND j.kind = w.kind
				   AND j.item_id IS NOT DISTINCT FROM w.item_id AND j.revision IS NOT DISTINCT FROM w.revision
				   AND j.run_id IS NOT DISTINCT FROM w.run_id)
			 ORDER BY w.ord -- ids, and so the claim order, follow the caller's order
			RETURNING kind
		), notified AS (
			SELECT pg_notify('` + Channel + `', kind) FROM (SELECT DISTINCT kind FROM added) k
		)
		SELECT (SELECT count(*) FROM added), (SELECT count(*) FROM notified)`

	// qJobClaim takes up to $3 due jobs of the kinds $2, oldest due first, and leases them to $5
	// until $now + $4 ms. SKIP LOCKED lets concurrent runners claim disjoint batches without waiting.
	qJobClaim = `
		WITH next AS (
			SELECT id FROM memory_jobs
			 WHERE status = 'pending' AND run_after <= coalesce($1::timestamptz, now()) AND kind = ANY($2::text[])
			 ORDER BY run_after, id
			 LIMIT $3
			 FOR UPDATE SKIP LOCKED
		)
		UPDATE memory_jobs j
		   SET status = 'running', attempts = j.attempts + 1, locked_by = $5,
		       lease_until = coalesce($1::timestamptz, now()) + $4 * interval '1 millisecond',
		       updated_at = now()
		  FROM next
		 WHERE j.id = next.id
		RETURNING j.id, j.kind, j.item_id::text, j.revision, j.run_id::text, j.attempts`

	// The fence of every update of a claimed job: still running, still ours, still the same claim
	// (a rescued and re-claimed job has another attempt number or another owner).
	fence = `id = $1 AND status = 'running' AND locked_by = $2 AND attempts = $3`

	// qJobCompleteMany marks the jobs $1 (with their attempts $3) done, fenced on their claims (like fence).
	qJobCompleteMany = `
		UPDATE memory_jobs j SET status = 'done', lease_until = NULL, last_error = NULL, updated_at = now()
		  FROM unnest($1::bigint[], $3::int[]) AS c(id, attempts)
		 WHERE j.id = c.id AND j.attempts = c.attempts AND j.status = 'running' AND j.locked_by = $2`

	// qJobRetry records a failed attempt: back to pending after $5 ms from $now, or failed when $4 says so.
	qJobRetry = `
		UPDATE memory_jobs
		   SET status = CASE WHEN $4::boolean THEN 'failed' ELSE 'pending' END,
		       run_after = CASE WHEN $4::boolean THEN run_after
		                        ELSE coalesce($6::timestamptz, now()) + $5 * interval '1 millisecond' END,
		       locked_by = CASE WHEN $4::boolean THEN locked_by END,
		       lease_until = NULL, last_error = $7, updated_at = now()
		 WHERE ` + fence

	// qJobSnooze puts a job back to wait until $4 without counting the attempt (the AI budget is
	// spent until tomorrow; the runner is shutting down).
	qJobSnooze = `
		UPDATE memory_jobs
		   SET status = 'pending', attempts = attempts - 1, run_after = coalesce($4::timestamptz, now()),
		       locked_by = NULL, lease_until = NULL, last_error = coalesce($5, last_error), updated_at = now()
		 WHERE ` + fence

	// qJobRescue re-queues (or, out of attempts, fails) every job whose lease ran out: its runner
	// died or hung. The attempt counts: a job that kills its runner every time must stop.
	qJobRescue = `
		UPDATE memory_jobs
		   SET status = CASE WHEN attempts >= $2 THEN 'failed' ELSE 'pending' END,
		       run_after = coalesce($1::timestamptz, now()),
		       locked_by = NULL, lease_until = NULL, last_error = '` + CodeLeaseExpired + `', updated_at = now()
		 WHERE status = 'running' AND lease_until < coalesce($1::timestamptz, now())`

	// qJobPrune deletes finished jobs older than the retention; failed ones stay for inspection
	// (they hold no text) until ten times as long.
	qJobPrune = `
		DELETE FROM memory_jobs
		 WHERE (status IN ('done', 'cancelled') AND updated_at < coalesce($1::timestamptz, now()) - $2 * interval '1 millisecond')
		    OR (status = 'failed' AND updated_at < coalesce($1::timestamptz, now()) - $2 * interval '10 milliseconds')`
)

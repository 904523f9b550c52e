-- name: ClockNow :one
-- The database's clock as the transaction sees it (now() is the transaction's start).
SELECT now()::timestamptz AS now;

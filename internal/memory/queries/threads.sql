-- name: ThreadGet :one
SELECT * FROM bot_threads WHERE id = @id;

-- name: ThreadInsert :one
INSERT INTO bot_threads (teammate_id, generation) VALUES (@teammate_id, @generation) RETURNING *;

-- name: ThreadAdopt :exec
-- Moves the thread along with its run (G6), only from the generation the run had: a thread
-- something else has moved is not dragged back or forth.
UPDATE bot_threads SET generation = @generation WHERE id = @id AND generation = @run_generation;

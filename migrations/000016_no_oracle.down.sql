-- lossy: the suggestions of forgotten texts that runs were answered for but the user never sees
-- (memory_suppressed): their ids no longer answer as waiting suggestions do, and the runs'
-- suggestion budgets no longer count them. The older code also keeps an item's evidence when its
-- run is deleted.
--
-- Back to tombstones that drop a suggestion visibly, and evidence that outlives its run.
DROP TRIGGER memory_items_evidence_follows_run ON memory_items;
DROP FUNCTION memory_items_evidence_follows_run();
DROP TABLE memory_suppressed;

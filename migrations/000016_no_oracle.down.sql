-- Back to tombstones that drop a suggestion visibly, and evidence that outlives its run.
DROP TRIGGER memory_items_evidence_follows_run ON memory_items;
DROP FUNCTION memory_items_evidence_follows_run();
DROP TABLE memory_suppressed;

-- Back to purges after forgets only.
DROP TABLE memory_deletions;

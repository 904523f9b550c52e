-- lossy: when a teammate was last deleted (memory_deletions). A deletion since the last purge no
-- longer makes one due, so the deleted teammate's text stays in the embedded cluster's data files
-- and WAL until a later forget makes a purge due.
--
-- Back to purges after forgets only.
DROP TABLE memory_deletions;

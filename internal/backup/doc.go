// Package backup is RULES F8 where the service owns its cluster: a backup is one file (a manifest
// and a pg_dump of the memory database), Restore puts one back and applies the forget ledger again
// so that nothing forgotten after the backup returns, and Ledger is the ledger's file beside the
// backups. What an entry is and how it is applied is the domain's (memory.LedgerEntry,
// memory.Background.Replay).
package backup

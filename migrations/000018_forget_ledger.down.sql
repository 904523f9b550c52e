-- lossy: the forget ledger (memory_forget_ledger). Entries not yet copied to the ledger file are
-- lost, so a restore of an older backup could bring their items back; the entries already in the
-- file stay there.
--
-- Back to forgets without a ledger.
DROP TABLE memory_forget_ledger;

-- Back to forgets without a ledger: entries not yet copied to the ledger file are lost, so a restore
-- of an older backup could bring their items back.
DROP TABLE memory_forget_ledger;

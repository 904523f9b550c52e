-- A memory switch per teammate, both on by default. use_memory off: the teammate's runs get an
-- empty packet and its search tools answer that memory is off. save_memory off: every write of the
-- teammate's tools waits for the user as a suggestion or a proposal, even one the user asked for.
ALTER TABLE teammates
    ADD COLUMN use_memory boolean NOT NULL DEFAULT true,
    ADD COLUMN save_memory boolean NOT NULL DEFAULT true;

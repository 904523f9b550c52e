-- lossy: the memory switches (teammates.use_memory, teammates.save_memory). A teammate whose memory
-- was off uses and saves memory again.
--
-- Back to teammates without a memory switch.
ALTER TABLE teammates DROP COLUMN save_memory, DROP COLUMN use_memory;

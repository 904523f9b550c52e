CREATE INDEX memory_items_search ON memory_items USING gin (search);
DROP INDEX memory_items_recall_search;
-- btree_gin stays: other objects may use it, and dropping an extension is the owner's call.

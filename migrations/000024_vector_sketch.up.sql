-- The vector list's sketch scan (RULES P3; memory.recallVectorSketch).
--
-- Each embedding has a sketch: its binary quantization (pgvector's binary_quantize, one bit per
-- dimension: whether that coordinate is positive), 192 bytes for 1,536 dimensions where the vector
-- itself is 6 KB in TOAST. The Hamming distance between two sketches follows the angle between
-- their vectors, so the nearest sketches hold the nearest vectors: recall ranks the teammate's
-- visible embeddings by sketch, re-ranks the first few hundred by their exact cosine distance, and
-- so reads a few hundred of the large vectors instead of every one. docs/PERFORMANCE.md has the
-- measurements.
--
-- The sketches are a table of their own rather than columns of memory_embeddings, whose rows would
-- all be rewritten (and its HNSW index with them) to add one. Each row carries the item's scope
-- (an item's scope never changes), so that one index gives a teammate's sketches in one range scan,
-- and holds the sketch, the item and the revision, so that the scan reads the index alone; which
-- rows are current and visible is checked against memory_items after.
--
-- Triggers on memory_embeddings keep the table in the transaction of every write: an inserted
-- embedding gets its sketch, a replaced one (another size for the same model) a new sketch, and a
-- deleted one — a forgotten item's (RULES F1), a deleted teammate's — loses it by the foreign key.
CREATE TABLE memory_sketches (
    item_id    uuid NOT NULL,
    revision   integer NOT NULL,
    model      text NOT NULL,
    scope      text COLLATE "C" NOT NULL,
    dimensions integer NOT NULL,
    sketch     bit varying NOT NULL,
    PRIMARY KEY (item_id, revision, model),
    FOREIGN KEY (item_id, revision, model) REFERENCES memory_embeddings (item_id, revision, model) ON DELETE CASCADE
);

CREATE INDEX memory_sketches_scan ON memory_sketches (scope, model, dimensions) INCLUDE (item_id, revision, sketch);

CREATE FUNCTION memory_sketches_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_sketches (item_id, revision, model, scope, dimensions, sketch)
    SELECT n.item_id, n.revision, n.model, i.scope, n.dimensions, binary_quantize(n.embedding)
      FROM new_embeddings n JOIN memory_items i ON i.id = n.item_id;
    RETURN NULL;
END $$;

CREATE FUNCTION memory_sketches_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE memory_sketches
       SET dimensions = NEW.dimensions, sketch = binary_quantize(NEW.embedding)
     WHERE item_id = NEW.item_id AND revision = NEW.revision AND model = NEW.model;
    RETURN NULL;
END $$;

CREATE TRIGGER memory_sketches_insert AFTER INSERT ON memory_embeddings
    REFERENCING NEW TABLE AS new_embeddings FOR EACH STATEMENT EXECUTE FUNCTION memory_sketches_insert();
CREATE TRIGGER memory_sketches_update AFTER UPDATE OF embedding, dimensions ON memory_embeddings
    FOR EACH ROW EXECUTE FUNCTION memory_sketches_update();

-- The existing embeddings. The triggers exist first, and their creation locks memory_embeddings
-- against writes until this migration commits, so no write falls between the two.
INSERT INTO memory_sketches (item_id, revision, model, scope, dimensions, sketch)
SELECT e.item_id, e.revision, e.model, i.scope, e.dimensions, binary_quantize(e.embedding)
  FROM memory_embeddings e JOIN memory_items i ON i.id = e.item_id;

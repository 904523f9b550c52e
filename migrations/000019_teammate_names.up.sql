-- Teammates' names are unique, ignoring case and the spaces around them, so no two teammates can be
-- told apart by their id alone. Names that already clash keep the oldest teammate's as it is; each
-- later one gets a number, "Ada (2)", "Ada (3)" …, the first that no teammate has.
DO $$
DECLARE
    r     record;
    k     int;
    taken text;
BEGIN
    FOR r IN
        SELECT d.id, d.name FROM (
            SELECT id, btrim(name) AS name, created_at,
                   row_number() OVER (PARTITION BY lower(btrim(name)) ORDER BY created_at, id) AS n
              FROM teammates) d
         WHERE d.n > 1
         ORDER BY d.created_at, d.id
    LOOP
        k := 2;
        LOOP
            taken := left(r.name, 110) || ' (' || k || ')';
            EXIT WHEN NOT EXISTS (SELECT 1 FROM teammates WHERE lower(btrim(name)) = lower(taken));
            k := k + 1;
        END LOOP;
        UPDATE teammates SET name = taken WHERE id = r.id;
    END LOOP;
END $$;

CREATE UNIQUE INDEX teammates_name_key ON teammates (lower(btrim(name)));

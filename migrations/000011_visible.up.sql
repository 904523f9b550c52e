-- RULES P1 in one place: the items a teammate's memory is made of. An item is visible to a teammate
-- when it is active (confirmed: suggestions are other statuses), unexpired, and in the shared scope
-- or the teammate's own. Recall, search_memory and About you ask this function instead of writing
-- the predicate out. It is one SQL expression, STABLE (now()), so the planner inlines it into each
-- statement and uses the same indexes as the expression written out (TestRecallFullTextUsesTermIndex
-- checks the plan). A NULL teammate means visible to every teammate: the shared scope alone.
CREATE FUNCTION memory_visible(scope text, status text, expires_at timestamptz, teammate text)
RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN scope IN ('shared', teammate) AND status = 'active' AND (expires_at IS NULL OR expires_at > now());

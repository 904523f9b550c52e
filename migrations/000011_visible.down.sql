DROP FUNCTION memory_visible(text, text, timestamptz, text);

-- Why Ada's suggestion waits.
UPDATE memory_items SET wait_reason = 'taken_back', wait_words = 'green tea, please'
 WHERE id = 'e0000000-0000-4000-8000-000000000004';

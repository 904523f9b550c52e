-- Bo's memory switches off, so the lossy down drops columns that hold something.
UPDATE teammates SET use_memory = false, save_memory = false WHERE id = 'a0000000-0000-4000-8000-000000000002';

-- Back to names that may clash. The names the up numbered keep their number.
DROP INDEX teammates_name_key;

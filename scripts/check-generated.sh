#!/usr/bin/env bash
# Usage: check-generated.sh PATH... -- GENERATOR [ARG...]
# Runs a code generator and fails, naming the files, when it changed, added or removed any file under
# the paths: the generated code in the tree must be what the generator makes of the sources in the
# tree. It compares the files before and after, not against git, so uncommitted work that is already
# regenerated passes. The generator's output stays in place: after a failure, review it and commit it.
set -euo pipefail

paths=()
while [[ $# -gt 0 && $1 != -- ]]; do
	paths+=("$1")
	shift
done
if [[ ${#paths[@]} -eq 0 || $# -lt 2 ]]; then
	echo "usage: $0 PATH... -- GENERATOR [ARG...]" >&2
	exit 2
fi
shift

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# One "hash  path" line per file, in a stable order.
snapshot() { find "${paths[@]}" -type f -print0 | sort -z | xargs -0 --no-run-if-empty sha256sum; }

before=$(snapshot)
"$@"
after=$(snapshot)
if [[ $before != "$after" ]]; then
	echo "'$*' changed generated code; the tree had it out of date (review and commit):" >&2
	diff <(echo "$before") <(echo "$after") | sed -n 's/^[<>] [0-9a-f]*  /  /p' | sort -u >&2
	exit 1
fi

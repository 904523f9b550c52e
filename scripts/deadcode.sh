#!/usr/bin/env bash
# Fails on functions that no program of the module reaches (cmd/api, cmd/worker, cmd/bench: every
# main package under cmd/), whatever the tests call. Code that only tests use is dead: delete it, or
# move it into a _test.go file of its package when the tests need it. A genuine exception (an
# accessor the test harnesses need, say) is listed in scripts/deadcode-allow.txt with its reason. An
# entry there that is no longer reported fails too, so the list stays true. Generated code (gqlgen,
# sqlc) is not reported: deadcode skips files marked "Code generated … DO NOT EDIT".
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
allow=scripts/deadcode-allow.txt
module=$(go list -m)

# One line per dead function: "<package from the module root> <function>\t<file:line:col>".
found=$(go tool deadcode -f '{{range .Funcs}}{{printf "%s %s\t%s\n" $.Path .Name .Position}}{{end}}' ./cmd/... |
	sed "s|^$module/||; s|^$module |. |" | sort)
# The allow-list's entries without their reasons: "<package> <function>".
allowed=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$allow" | sed -E 's/^([^ ]+) ([^:]+):.*/\1 \2/' | sort -u)

status=0
while IFS=$'\t' read -r fn pos; do
	[[ -z $fn ]] && continue
	if ! grep -qxF "$fn" <<<"$allowed"; then
		echo "deadcode: $pos: ${fn#* } is reached by no program (only by tests, or by nothing): delete it, move it into a _test.go file, or list it in $allow with the reason" >&2
		status=1
	fi
done <<<"$found"
while read -r entry; do
	[[ -z $entry ]] && continue
	if ! cut -f1 <<<"$found" | grep -qxF "$entry"; then
		echo "deadcode: $allow lists \"$entry\", which is no longer reported (a program reaches it, or it is gone): remove the entry" >&2
		status=1
	fi
done <<<"$allowed"
exit $status

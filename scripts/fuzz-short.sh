#!/usr/bin/env bash
# Runs each fuzz target (package:target) for a short while (FUZZTIME, default 5s), one after
# another, and prints one line per target with the number of inputs it tried. Fails when any target
# fails; the Go fuzzer then saves the failing input under <package>/testdata/fuzz/<target>/,
# which is meant to be committed as a regression seed. Inputs that merely add coverage stay in the
# Go build cache, so a passing run leaves the tree as it was.
set -euo pipefail

# Every fuzz target of the repository, and only those: internal/lint's TestFuzzTargetsAllRun fails
# when a func Fuzz…(*testing.F) is missing here or an entry names none.
TARGETS=(
	internal/memory/intent:FuzzNegatorNeverConfirms
	internal/memory/intent:FuzzChangedTokenNeverConfirms
	internal/memory/intent:FuzzUnknownSentenceNeverConfirms
	internal/memory/intent:FuzzWrappedRequestNeverConfirms
	internal/memory/textmodel:FuzzCanonical
	internal/memory:FuzzTSQuery
	internal/memory:FuzzValidation
	internal/memory/packet:FuzzPacketCutter
)
FUZZTIME=${FUZZTIME:-5s}

cd "$(dirname "${BASH_SOURCE[0]}")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

say() { echo "fuzz-short: $*"; }

failed=()
for entry in "${TARGETS[@]}"; do
	pkg=${entry%%:*} target=${entry#*:}
	corpus=$pkg/testdata/fuzz/$target
	before=$(find "$corpus" -type f 2>/dev/null | sort || true)
	status=FAIL
	for try in 1 2; do
		if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "./$pkg/" >"$log" 2>&1; then
			status=ok
			break
		fi
		# Go's fuzzing coordinator can stop a worker that is mid-call when -fuzztime runs out and
		# report a bare "context deadline exceeded": no input failed and
		# none was written. That one signature gets a second run; anything else — a failing input,
		# a panic, a t.Fatal, a hung worker — fails at once.
		after=$(find "$corpus" -type f 2>/dev/null | sort || true)
		if [[ $try == 1 && $before == "$after" ]] && grep -q '^    context deadline exceeded$' "$log" &&
			! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$log"; then
			say "$target: the fuzzer's end-of-time race (no failing input); running it again"
			continue
		fi
		break
	done
	# go reports "fuzz: elapsed: 3s, execs: 12345 (4115/sec), …" every few seconds and once at the
	# end; the last one counts.
	execs=$(grep -oE 'elapsed: [^,]*, execs: [0-9]+' "$log" | tail -n 1 | sed -E 's/.*execs: //' || true)
	printf 'fuzz-short: %-30s %-4s  %s execs in %s\n' "$target" "$status" "${execs:-?}" "$FUZZTIME"
	if [[ $status == FAIL ]]; then
		failed+=("$target")
		sed 's/^/    /' "$log"
		after=$(find "$corpus" -type f 2>/dev/null | sort || true)
		comm -13 <(echo "$before") <(echo "$after") | while read -r seed; do
			[[ -n $seed ]] && say "failing input saved as $seed (commit it as a regression seed)"
		done
	fi
done

if ((${#failed[@]} > 0)); then
	say "failed: ${failed[*]}"
	exit 1
fi

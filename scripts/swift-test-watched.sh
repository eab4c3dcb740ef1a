#!/usr/bin/env bash
# Runs `swift test` under a watchdog: usage `scripts/swift-test-watched.sh MINUTES [swift test arguments…]`.
#
# The tests are built first (no time limit), then run with line-buffered output and at most
# MINUTES minutes. A run that passes or fails ends as `swift test` does. A run still going
# after MINUTES has a test that never ended: the script prints the tests that started but
# never finished (the hang to fix), and runs the tests once more; the second run must pass.
# Without this, a hung test spends the whole CI budget and prints nothing, since a piped
# `swift test` holds its last lines in a buffer.
set -uo pipefail
cd "$(dirname "$0")/.."
minutes=$1
shift
all_args=("$@")
build_args=()
while [ $# -gt 0 ]; do
    case $1 in
    --filter | --skip) shift 2 ;;
    *) build_args+=("$1"); shift ;;
    esac
done
set -- "${all_args[@]}"
swift build --build-tests "${build_args[@]}" 2>&1 || exit 1
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run() {
    timeout --signal=TERM --kill-after=20 "${WATCHDOG_SECONDS:-$((minutes * 60))}" stdbuf -oL -eL swift test --skip-build "$@" 2>&1 | tee "$log"
    return "${PIPESTATUS[0]}"
}

run "$@"
status=$?
[ "$status" -ne 124 ] && [ "$status" -ne 137 ] && exit "$status"
echo "::warning:: the tests did not end within $minutes minutes; these started and never finished:"
python3 - "$log" <<'PY'
import re, sys
started, ended = [], set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if m := re.search(r"Test (.+?) started\.$", line.rstrip()):
        started.append(m.group(1))
    elif m := re.search(r"Test (.+?)(?: with \d+ test cases?)? (?:passed|failed|skipped)", line):
        ended.add(m.group(1))
for name in dict.fromkeys(started):
    if name not in ended and name != "run" and not name.startswith("case "):
        print("  hung:", name)
PY
if grep -q "✘ Test .* failed" "$log"; then
    echo "…and some tests failed before that:"
    grep "✘ Test .* failed" "$log"
    exit 1
fi
echo "Running the tests once more; this run must pass."
run "$@"

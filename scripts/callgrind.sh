#!/usr/bin/env bash
# Instructions and heap allocations per request, counted by valgrind: repeatable where
# wall-clock time is not (the same binary and input give the same count whatever else
# the machine does).
#
#     scripts/callgrind.sh                    # every case
#     scripts/callgrind.sh pipeline-5mw       # some cases
#     SKIP_BUILD=1 scripts/callgrind.sh       # use the release build as it is
#
# Each case (see Sources/strata-bench/CallgrindCase.swift) runs as
# `strata-bench --callgrind-case NAME --iterations N` twice, with N1 and N2 iterations,
# under `valgrind --tool=callgrind` (instructions, Ir) and `valgrind --tool=memcheck`
# (allocations, from its heap summary). (count(N2) - count(N1)) / (N2 - N1) is the cost
# of one iteration without the process's start-up and the first iteration's one-time work.
#
# Cases: pipeline-5mw (one GET through a Networker with 5 pass-through middleware over
# the in-memory transport, the 193-byte user decoded into the model), pipeline-0mw,
# pipeline-0mw-bytes (pipeline-0mw returning the body's bytes: the call without the parse),
# pipeline-telemetry-off / pipeline-metrics-off (pipeline-0mw with a TelemetryMiddleware /
# StrataMetrics observer and no tracing or metrics backend bootstrapped),
# pipeline-form (the POST form workload: five fields .formURL-encoded, the echo decoded),
# pipeline-json-post (the same five fields as a JSON body), pipeline-coalescing (pipeline-0mw
# through a CoalescingMiddleware with nothing to share), pipeline-ratelimit (pipeline-0mw
# through a RateLimitMiddleware whose tokens are always free), decode-user-plain
# (JSONDecoder().decode of the same bytes), decode-user-plain-mapped (that and the app's
# mapping into the model), decode-user-strata (Strata's parse, bytes -> DTO -> model), decode-map-1mb (Strata's
# parse of the 1 MB photo list: bytes -> DTO -> model), decode-plain-1mb (plain
# JSONDecoder into the DTO), cache-memory-hit / cache-sqlite-hit (the user served by a
# memory / SQLite cache);
# and, over loopback, ahc-raw-user / ahc-strata-user (the ahc pair's GET user),
# urlsession-raw-user / urlsession-strata-user (the urlsession pair's; urlsession-borrowed-user
# over a borrowed session without Strata's delegate, the body not bounded) and
# openapi-ahc-user / openapi-strata-user (the openapi pair's getUser: the generated client
# over swift-openapi-async-http-client / over NetworkerTransport); the server's
# instructions are not counted; grpc-raw-upload / grpc-strata-upload and grpc-raw-chat /
# grpc-strata-chat (the grpc pair's client stream of 100 messages and bidirectional call of
# 100 out, 200 in, against the demo gRPC server in the same process, whose instructions
# are counted on both sides alike). Needs valgrind (apt-get install -y valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed (apt-get install -y valgrind)" >&2; exit 1; }
if [[ -z "${SKIP_BUILD:-}" ]]; then
    swift build -c release --enable-all-traits --product strata-bench 2>&1 | grep -E "error|warning: " || true
fi
built="$(swift build -c release --show-bin-path)/strata-bench"
[[ -x "$built" ]] || { echo "callgrind.sh: $built not built" >&2; exit 1; }

cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(pipeline-5mw pipeline-0mw pipeline-0mw-bytes pipeline-form pipeline-json-post decode-user-plain decode-user-plain-mapped decode-user-strata decode-map-1mb decode-plain-1mb cache-memory-hit cache-sqlite-hit)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Swift seeds its hashing per process: the order of a dictionary, and so the work of
# anything that walks or sorts one (JSONEncoder's sorted keys), changes from run to run.
# A fixed seed makes the same binary give the same count.
export SWIFT_DETERMINISTIC_HASHING=1
# valgrind 3.19 cannot read the DWARF that Swift 6.3 writes ("Possibly corrupted debuginfo
# file"): count a copy without it (the symbols stay).
bin="$work/strata-bench"
cp "$built" "$bin"
strip --strip-debug "$bin"

# instructions CASE N: the total Ir of one run.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$bin" --callgrind-case "$1" --iterations "$2" \
        >/dev/null 2>"$work/cg.log" || { cat "$work/cg.log" >&2; exit 1; }
    awk '/^(summary|totals):/ { print $2; exit }' "$work/cg.out"
}

# allocations CASE N: the heap allocations of one run.
allocations() {
    valgrind --tool=memcheck --leak-check=no "$bin" --callgrind-case "$1" --iterations "$2" \
        >/dev/null 2>"$work/mc.log" || { cat "$work/mc.log" >&2; exit 1; }
    sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$work/mc.log" | tr -d ,
}

# The ahc-*, urlsession-* and openapi-* cases need the bench server: it runs natively (valgrind cannot start a child
# process), stopped when its standard input (the fifo) closes.
if printf '%s\n' "${cases[@]}" | grep -qE '^(ahc|urlsession|openapi)-'; then
    mkfifo "$work/serve.in"
    "$bin" --serve < "$work/serve.in" > "$work/serve.out" 2>&1 &
    exec 3> "$work/serve.in"
    trap 'exec 3>&-; rm -rf "$work"' EXIT
    for _ in $(seq 100); do grep -q 'port ' "$work/serve.out" && break; sleep 0.1; done
    port=$(sed -n 's/.*strata-bench-serve port \([0-9]*\).*/\1/p' "$work/serve.out")
    [[ -n "$port" ]] || { echo "callgrind.sh: the bench server did not start" >&2; cat "$work/serve.out" >&2; exit 1; }
    export STRATA_BENCH_SERVER="http://127.0.0.1:$port"
fi

printf "%-20s %8s %16s %14s\n" case "ΔN" "instructions/it" "allocs/it"
for name in "${cases[@]}"; do
    case "$name" in
        *-1mb) n1=2; n2=6 ;;
        grpc-*) n1=10; n2=60 ;;
        websocket-*) n1=2000; n2=12000 ;;
        *) n1=100; n2=1100 ;;
    esac
    i1=$(instructions "$name" $n1); i2=$(instructions "$name" $n2)
    a1=$(allocations "$name" $n1); a2=$(allocations "$name" $n2)
    awk -v name="$name" -v dn=$((n2 - n1)) -v i1="$i1" -v i2="$i2" -v a1="$a1" -v a2="$a2" \
        'BEGIN { printf "%-20s %8d %16.0f %14.1f\n", name, dn, (i2 - i1) / dn, (a2 - a1) / dn }'
done

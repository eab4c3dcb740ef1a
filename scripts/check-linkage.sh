#!/usr/bin/env bash
# A program that imports only Strata and StrataAsyncHTTPClient must not link
# FoundationNetworking (and through it libcurl): the core stays free of
# HTTPTypesFoundation and of URLSession. strata-bench is such a program.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product strata-bench 2>&1 | tail -1
binary="$(swift build --show-bin-path)/strata-bench"
if ! command -v ldd >/dev/null; then
    echo "check-linkage: ldd not found; skipped"
    exit 0
fi
if ldd "$binary" | grep -E "FoundationNetworking|libcurl"; then
    echo "check-linkage: FAIL: strata-bench (Strata + StrataAsyncHTTPClient) links FoundationNetworking" >&2
    exit 1
fi
echo "check-linkage: OK: strata-bench does not link FoundationNetworking or libcurl"

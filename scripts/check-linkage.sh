#!/usr/bin/env bash
# A program that imports only Strata and StrataAsyncHTTPClient must not link
# FoundationNetworking (and through it libcurl): the core stays free of
# HTTPTypesFoundation and of URLSession. strata-linkage-probe is such a program.
# Nor may it contain Swinject: the core is container-free, and only the
# StrataSwinject product brings the container in.
set -euo pipefail
cd "$(dirname "$0")/.."
# All traits on, as the rest of CI builds (traits change every target's flags): the two
# products the probe uses have no trait-conditioned dependency.
swift build --enable-all-traits --product strata-linkage-probe 2>&1 | tail -1
binary="$(swift build --show-bin-path)/strata-linkage-probe"
if ! command -v ldd >/dev/null; then
    echo "check-linkage: ldd not found; skipped"
    exit 0
fi
if ldd "$binary" | grep -E "FoundationNetworking|libcurl"; then
    echo "check-linkage: FAIL: strata-linkage-probe (Strata + StrataAsyncHTTPClient) links FoundationNetworking" >&2
    exit 1
fi
echo "check-linkage: OK: strata-linkage-probe does not link FoundationNetworking or libcurl"

# Swinject is linked statically, so ldd cannot see it: look for its symbols instead
# (Swift mangles the module name as 8Swinject), after checking that nm reads the
# binary's Swift symbols at all (Strata's own, mangled as 6Strata).
if ! command -v nm >/dev/null; then
    echo "check-linkage: nm not found; Swinject check skipped"
    exit 0
fi
symbols="$(nm "$binary")"
if ! grep -q '6Strata' <<<"$symbols"; then
    echo "check-linkage: FAIL: nm found no Strata symbols in strata-linkage-probe, so the Swinject check proves nothing" >&2
    exit 1
fi
if grep -q '8Swinject' <<<"$symbols"; then
    echo "check-linkage: FAIL: strata-linkage-probe (Strata + StrataAsyncHTTPClient) contains Swinject" >&2
    exit 1
fi
echo "check-linkage: OK: strata-linkage-probe does not contain Swinject"

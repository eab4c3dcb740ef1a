#!/usr/bin/env bash
# Type-checks every line under an Apple-only condition on Linux, for each Apple platform,
# against stand-ins of Apple's SDK (scripts/check-darwin.py says how). Runs after the
# debug build of the tests (`swift build --enable-all-traits --build-tests`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -eq 0 ]]; then
    python3 scripts/check-darwin.py --self-test
fi
python3 scripts/check-darwin.py "$@"

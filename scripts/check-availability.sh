#!/usr/bin/env bash
# Linux ignores `@available(macOS …)`, so an API newer than the package's Apple floor
# (macOS 13, iOS 16, tvOS 16, watchOS 9) used outside an availability scope compiles here
# and breaks Apple builds unseen. This check finds such uses (scripts/check-availability.py
# lists the APIs and their first versions: `--list`).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/check-availability.py --self-test
python3 scripts/check-availability.py

#!/usr/bin/env bash
# SwiftPM refuses to plan an Apple build in which a target of Strata's (a test or an
# executable included) uses a product whose package declares a higher minimum macOS, iOS,
# tvOS or watchOS than Strata's floor; Linux never checks this. This check applies SwiftPM's
# rule to the resolved manifests (scripts/check-platform-floors.py says how), so it runs
# after resolution (any build resolves).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/check-platform-floors.py --self-test
python3 scripts/check-platform-floors.py

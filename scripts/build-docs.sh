#!/usr/bin/env bash
# Builds the DocC documentation of every target with a catalog (Sources/*/Documentation.docc)
# with swift-docc-plugin, warnings treated as errors: a broken symbol link, a topic that
# names a symbol that no longer exists, or a malformed article fails the build.
#
#     bash scripts/build-docs.sh            # archives in .build-docs/<Target>.doccarchive
#     STRATA_DOCS_OUTPUT=/tmp/docs bash scripts/build-docs.sh
#
# Preview one module locally with
#     swift package --enable-all-traits --disable-sandbox preview-documentation --target Strata
set -euo pipefail
cd "$(dirname "$0")/.."
output="${STRATA_DOCS_OUTPUT:-$PWD/.build-docs}"
targets=()
for catalog in Sources/*/Documentation.docc; do
    targets+=(--target "$(basename "$(dirname "$catalog")")")
done
rm -rf "$output"
mkdir -p "$output"
# One plugin run for all targets: the symbol graphs share one build. With several
# targets, each archive goes into a folder of its own under --output-path.
swift package --enable-all-traits --disable-sandbox generate-documentation "${targets[@]}" \
    --output-path "$output" --warnings-as-errors 2>&1
echo "build-docs: $((${#targets[@]} / 2)) targets documented in $output"

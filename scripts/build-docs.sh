#!/usr/bin/env bash
# Builds the DocC documentation of every target with a catalog (Sources/*/Documentation.docc),
# warnings treated as errors: a broken symbol link, a topic that names a symbol that no
# longer exists, or a malformed article fails the build.
#
#     bash scripts/build-docs.sh            # archives in .build-docs/<Target>.doccarchive
#     STRATA_DOCS_OUTPUT=/tmp/docs bash scripts/build-docs.sh
#
# `Strata` is documented as applications see it: the whole library, its core (StrataCore,
# which it re-exports) and its features, as one module. swift-docc-plugin documents a module's
# own declarations only, so this one's symbol graph is extracted here with StrataCore's
# re-exported symbols in it, and converted with docc. The other catalogs go through the plugin.
#
# Preview one module locally with
#     swift package --enable-all-traits --disable-sandbox preview-documentation --target StrataGRPC
set -euo pipefail
cd "$(dirname "$0")/.."
output="${STRATA_DOCS_OUTPUT:-$PWD/.build-docs}"
targets=()
for catalog in Sources/*/Documentation.docc; do
    target="$(basename "$(dirname "$catalog")")"
    [[ "$target" == Strata ]] || targets+=(--target "$target")
done
rm -rf "$output"
mkdir -p "$output"
# One plugin run for all targets: the symbol graphs share one build. With several
# targets, each archive goes into a folder of its own under --output-path.
swift package --enable-all-traits --disable-sandbox generate-documentation "${targets[@]}" \
    --output-path "$output" --warnings-as-errors 2>&1

# Strata, with the core's symbols: the plugin's build above compiled it.
swift build --enable-all-traits --target Strata 2>&1
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
triple="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
swift symbolgraph-extract -module-name Strata -I "$(swift build --enable-all-traits --show-bin-path)/Modules" \
    -target "$triple" -output-dir "$graphs" -minimum-access-level public -emit-extension-block-symbols \
    -experimental-allowed-reexported-modules=StrataCore
"$(dirname "$(command -v swift)")/docc" convert Sources/Strata/Documentation.docc \
    --fallback-display-name Strata --fallback-bundle-identifier Strata \
    --additional-symbol-graph-dir "$graphs" --output-path "$output/Strata.doccarchive" --warnings-as-errors 2>&1
echo "build-docs: $((${#targets[@]} / 2 + 1)) targets documented in $output"

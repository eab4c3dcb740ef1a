#!/usr/bin/env bash
# Regenerates the demo API's client (Sources/StrataDemoOpenAPI/Generated) from
# openapi/strata-demo.yaml with swift-openapi-generator 1.14.3.
#
#     bash scripts/generate-openapi.sh
#
# The generator is built once, outside the repository (in $STRATA_OPENAPI_GENERATOR_DIR,
# /tmp/strata-openapi-generator-1.14.3 by default), and never runs during `swift build` or
# CI: the generated files are committed. Run this after changing the document, and commit
# what it writes.
#
# Two touches to the generator's output: each file starts with `// swift-format-ignore-file`,
# so that the format check leaves its layout alone; and its imports lose their `public`
# access level (a plain import is public in the Swift 6 language mode): Swift 6.3 warns
# about every `public import` a file does not use, which the generator silences only for
# compilers from 6.4 on.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.14.3
tools="${STRATA_OPENAPI_GENERATOR_DIR:-/tmp/strata-openapi-generator-$version}"
generator="$tools/.build/release/swift-openapi-generator"
document=openapi/strata-demo.yaml
config=openapi/openapi-generator-config.yaml
output=Sources/StrataDemoOpenAPI/Generated

if [[ ! -x "$generator" ]]; then
    echo "generate-openapi: building swift-openapi-generator $version in $tools" >&2
    rm -rf "$tools"
    git -c advice.detachedHead=false clone --quiet --branch "$version" https://github.com/apple/swift-openapi-generator "$tools"
    swift build -c release --product swift-openapi-generator --package-path "$tools"
fi

rm -rf "$output"
mkdir -p "$output"
"$generator" generate "$document" --config "$config" --output-directory "$output"
for file in "$output"/*.swift; do
    { echo "// swift-format-ignore-file"; sed -E 's/^(@_spi\(Generated\) )?public import /\1import /' "$file"; } >"$file.tmp"
    mv "$file.tmp" "$file"
done
echo "generate-openapi: wrote $(ls "$output" | tr '\n' ' ')" >&2

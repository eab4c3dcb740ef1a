#!/usr/bin/env bash
# The format check of CI: the tree is as `swift format` (the toolchain's) leaves it under
# .swift-format, and its lint rules find nothing. To fix a failure:
#
#     swift format format --configuration .swift-format -i -r Sources Tests Benchmarks Package.swift
#
# (Tests/StrataDocTests/DocExamples.swift opts out: scripts/doc-examples.py writes it.)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Benchmarks Package.swift Examples/TagFeature/Sources Examples/TagFeature/Tests Examples/TagFeature/Package.swift)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Format a copy and compare: lint alone does not see every layout difference.
tar -cf - "${paths[@]}" | tar -xf - -C "$work"
swift format format --configuration .swift-format -i -r "${paths[@]/#/$work/}"
status=0
for path in "${paths[@]}"; do
    if ! diff -ru "$path" "$work/$path" >"$work.diff" 2>&1; then
        echo "check-format: $path is not formatted; differences:" >&2
        head -60 "$work.diff" >&2
        status=1
    fi
done
rm -f "$work.diff"
swift format lint --strict --configuration .swift-format -r "${paths[@]}" || status=1
[[ $status -eq 0 ]] && echo "check-format: formatted"
exit $status

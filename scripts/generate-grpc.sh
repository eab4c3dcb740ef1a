#!/usr/bin/env bash
# Regenerates the committed gRPC demo code from Protos/ with protoc and the two Swift
# plugins, which are built once outside the repository (never by `swift build` or CI:
# building them takes minutes here).
#
#     bash scripts/generate-grpc.sh
#
# Needs `protoc` (Debian's protobuf-compiler) on PATH. The plugins are built from the
# package copies git reads github.com from, at the versions Package.swift depends on,
# into $STRATA_PROTOC_PLUGINS (default /tmp/strata-grpc-gen); set PROTOC_GEN_SWIFT and
# PROTOC_GEN_GRPC_SWIFT to use plugins built elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

swift_protobuf_version=1.39.0
grpc_swift_protobuf_version=2.4.1
work="${STRATA_PROTOC_PLUGINS:-/tmp/strata-grpc-gen}"
out=Sources/StrataGRPCDemo/Generated

command -v protoc >/dev/null || { echo "generate-grpc: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }

# Clones `url` at `tag` into $work/NAME and builds `product` in release, unless built.
build_plugin() {
    local url="$1" tag="$2" name="$3" product="$4"
    local binary="$work/$name/.build/release/$product"
    if [[ ! -x "$binary" ]]; then
        mkdir -p "$work"
        [[ -d "$work/$name" ]] || git clone -q --branch "$tag" "$url" "$work/$name"
        echo "generate-grpc: building $product ($name $tag); this takes a few minutes" >&2
        (cd "$work/$name" && swift build -c release --product "$product" >&2)
    fi
    echo "$binary"
}

gen_swift="${PROTOC_GEN_SWIFT:-$(build_plugin https://github.com/apple/swift-protobuf.git \
    "$swift_protobuf_version" swift-protobuf protoc-gen-swift)}"
gen_grpc="${PROTOC_GEN_GRPC_SWIFT:-$(build_plugin https://github.com/grpc/grpc-swift-protobuf.git \
    "$grpc_swift_protobuf_version" grpc-swift-protobuf protoc-gen-grpc-swift-2)}"

mkdir -p "$out"
rm -f "$out"/*.pb.swift "$out"/*.grpc.swift
protos=(strata_demo/user_service.proto)
protoc \
    --proto_path=Protos \
    --plugin=protoc-gen-swift="$gen_swift" \
    --swift_out="$out" \
    --swift_opt=Visibility=Public \
    --swift_opt=FileNaming=DropPath \
    --plugin=protoc-gen-grpc-swift="$gen_grpc" \
    --grpc-swift_out="$out" \
    --grpc-swift_opt=Visibility=Public \
    --grpc-swift_opt=Client=true \
    --grpc-swift_opt=Server=true \
    --grpc-swift_opt=FileNaming=DropPath \
    "${protos[@]}"
echo "generate-grpc: wrote $(ls "$out" | tr '\n' ' ')"

#!/usr/bin/env bash
# What an application pays for depending on Strata: in a temporary folder, an application
# depends on a clone of this tree by git URL (file://, the way a package is really fetched,
# not path:), `swift package resolve` runs, and the packages SwiftPM fetched are printed for:
#
#   baseline  AsyncHTTPClient + swift-http-types alone (with --build only, for comparison)
#   a         Strata + StrataAsyncHTTPClient, default traits        (checked: see `allowed`)
#   b         a + StrataURLSession + StrataTesting, default traits  (checked: see `allowed`)
#   c-TRAIT   each integration's product with its trait enabled     (printed)
#
# It fails when a or b fetches a package outside `allowed`: the core, the two transports and
# the testing product must never bring in an integration's packages (DESIGN.md, "Packages
# and traits"). The tree checked is the working tree as it is, uncommitted changes included.
#
#     bash scripts/check-adopter.sh                # resolve every case
#     bash scripts/check-adopter.sh --build        # also time a cold `swift build` of a and b
#     bash scripts/check-adopter.sh --rev f11ac88  # a commit instead of the working tree
set -euo pipefail
cd "$(dirname "$0")/.."

# An application depending on AsyncHTTPClient 1.37 and swift-http-types alone fetches exactly
# these 22 packages; a and b may fetch no other.
allowed=(
    async-http-client swift-algorithms swift-asn1 swift-async-algorithms swift-atomics
    swift-certificates swift-collections swift-configuration swift-crypto
    swift-distributed-tracing swift-http-structured-headers swift-http-types swift-log
    swift-nio swift-nio-extras swift-nio-http2 swift-nio-ssl swift-nio-transport-services
    swift-numerics swift-service-context swift-service-lifecycle swift-system
)
# trait → the product it enables.
integrations=(
    GRPC:StrataGRPC OpenAPI:StrataOpenAPI SQLiteCache:StrataSQLiteCache
    Swinject:StrataSwinject Observability:StrataObservability WebSocket:StrataAsyncHTTPClient
    Compression:StrataCompression
)

build=false
rev=""
while [[ $# -gt 0 ]]; do
    case "$1" in
    --build) build=true ;;
    --rev)
        rev="$2"
        shift
        ;;
    *)
        echo "usage: $0 [--build] [--rev COMMIT]" >&2
        exit 2
        ;;
    esac
    shift
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The tree to depend on, as a git repository tagged 0.1.0 (README's `from: "0.1.0"`).
strata="$work/strata"
mkdir -p "$strata"
if [[ -n "$rev" ]]; then
    git archive "$rev" | tar -xf - -C "$strata"
else
    git ls-files -z --cached --others --exclude-standard |
        tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$strata"
fi
git -C "$strata" init -q -b main
git -C "$strata" add -A
git -C "$strata" -c user.name=adopter -c user.email=adopter@localhost commit -qm snapshot
git -C "$strata" tag 0.1.0

# make_app NAME DEPENDENCY PRODUCTS...: an executable that imports the products.
make_app() {
    local name="$1" dependency="$2"
    shift 2
    local app="$work/$name" products="" imports=""
    for product in "$@"; do
        local package=strata
        [[ $product == AsyncHTTPClient ]] && package=async-http-client
        [[ $product == HTTPTypes ]] && package=swift-http-types
        products+="                .product(name: \"$product\", package: \"$package\"),"$'\n'
        imports+="import $product"$'\n'
    done
    mkdir -p "$app/Sources/App"
    cat >"$app/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
$dependency
    ],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [
$products            ]
        ),
    ]
)
EOF
    printf '%s\nprint("adopted")\n' "$imports" >"$app/Sources/App/main.swift"
}

# resolve APP: SwiftPM resolves the app; APP/fetched lists the packages it checked out
# (Strata aside), APP/resolve.seconds says how long it took.
resolve() {
    local start=$SECONDS
    if (cd "$1" && swift package resolve >"$1/resolve.log" 2>&1); then
        echo $((SECONDS - start)) >"$1/resolve.seconds"
        ls "$1/.build/checkouts" | grep -vx strata | sort >"$1/fetched"
    fi
}

# cold_build APP: seconds of a cold debug `swift build`, and how many modules it compiled
# (SwiftPM makes a folder for every module of the graph; only compiled ones hold objects).
cold_build() {
    local start=$SECONDS
    (cd "$1" && swift build >"$1/build.log" 2>&1) || {
        tail -20 "$1/build.log" >&2
        return 1
    }
    local seconds=$((SECONDS - start)) modules=0
    for folder in "$1"/.build/debug/*.build; do
        [[ -n "$(find "$folder" -name '*.o' -print -quit)" ]] && modules=$((modules + 1))
    done
    echo "$seconds s, $modules modules compiled"
}

strata_dependency() {
    echo "        .package(url: \"file://$strata\", from: \"0.1.0\"$1),"
}

# The apps, each named by its case; a and b are checked against `allowed`.
cases=()
if $build; then
    make_app baseline "$(printf '%s\n%s' \
        '        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),' \
        '        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),')" \
        AsyncHTTPClient HTTPTypes
    cases+=(baseline)
fi
make_app a "$(strata_dependency "")" Strata StrataAsyncHTTPClient
make_app b "$(strata_dependency "")" Strata StrataAsyncHTTPClient StrataURLSession StrataTesting
cases+=(a b)
for integration in "${integrations[@]}"; do
    trait="${integration%%:*}" product="${integration#*:}"
    make_app "c-$trait" "$(strata_dependency ", traits: [\"$trait\"]")" Strata "$product"
    cases+=("c-$trait")
done

# Resolving is mostly waiting on git: all cases at once, unless they are being measured.
for label in "${cases[@]}"; do
    if $build; then resolve "$work/$label"; else resolve "$work/$label" & fi
done
wait

status=0
for label in "${cases[@]}"; do
    app="$work/$label"
    if [[ ! -f $app/fetched ]]; then
        echo "check-adopter: FAIL: $label does not resolve:" >&2
        grep -E "error" "$app/resolve.log" | tail -3 >&2
        status=1
        continue
    fi
    echo "$label: $(wc -l <"$app/fetched") packages besides Strata (resolved in $(cat "$app/resolve.seconds") s): $(tr '\n' ' ' <"$app/fetched")"
    if [[ $label == a || $label == b ]]; then
        extra="$(comm -23 "$app/fetched" <(printf '%s\n' "${allowed[@]}" | sort))"
        if [[ -n $extra ]]; then
            echo "check-adopter: FAIL: $label fetches packages outside the allowed list: $(tr '\n' ' ' <<<"$extra")" >&2
            status=1
        fi
    fi
done
# Builds one at a time, so that each has the machine's cores to itself.
if $build; then
    for label in baseline a b; do
        echo "$label: cold build: $(cold_build "$work/$label")"
    done
fi
[[ $status -eq 0 ]] && echo "check-adopter: OK: Strata + its transports and testing product fetch nothing beyond ${#allowed[@]} allowed packages"
exit $status

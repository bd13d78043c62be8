#!/usr/bin/env bash
# What an app pays for Lookahead: creates scratch packages that depend on the
# `Lookahead` product of this checkout as an app does — the README's plain
# install line (no traits named: the package's defaults, which Xcode's *Add
# Package Dependencies…* also starts from) and one with `traits: []` —
# resolves each, lists what it pinned, and builds and runs a three-line
# program with the plain one. Fails unless swift-collections is the only
# package either resolves besides Lookahead itself.
#
#   Scripts/check-consumer.sh [--keep] [--also-tools]
#
# --also-tools also resolves a consumer that turns the `Tools` trait on and
# prints what that one pins, for comparison; it does not build it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
keep=0
also_tools=0
for arg in "$@"; do
    case $arg in
        --keep) keep=1 ;;
        --also-tools) also_tools=1 ;;
        *) echo "check-consumer: unknown option '$arg' (options: --keep, --also-tools)" >&2; exit 2 ;;
    esac
done

scratch=$(mktemp -d)
if [ "$keep" = 0 ]; then trap 'rm -rf "$scratch"' EXIT; fi
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')

make_consumer() { # dir traits-clause
    local dir=$1 traits=$2
    mkdir -p "$dir/Sources/Consumer"
    cat >"$dir/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: "$root"$traits)],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [.product(name: "Lookahead", package: "$identity")]
        )
    ]
)
MANIFEST
    cat >"$dir/Sources/Consumer/main.swift" <<'PROGRAM'
import Lookahead

let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 2) { key in "item \(key)" }
print(try await fetcher.value(for: 7))
PROGRAM
}

pinned() { # dir: the packages SwiftPM checked out or referenced, one per line
    swift package --package-path "$1" show-dependencies --format flatlist 2>/dev/null | sort -u
}

check_resolves_collections_only() { # dir traits-clause label
    echo "check-consumer: a package depending on the Lookahead product ($3) in $1"
    make_consumer "$1" "$2"
    swift package --package-path "$1" resolve >/dev/null
    deps=$(pinned "$1")
    echo "resolved:"
    echo "$deps" | sed 's/^/  /'
    others=$(echo "$deps" | grep -v -x -e "$identity" -e swift-collections || true)
    if [ -n "$others" ]; then
        echo "check-consumer: FAIL: the consumer ($3) resolved more than swift-collections:" >&2
        echo "$others" | sed 's/^/  /' >&2
        exit 1
    fi
}

check_resolves_collections_only "$scratch/plain" '' "a plain dependency, no traits named"
check_resolves_collections_only "$scratch/lean" ', traits: []' "traits: []"

swift build --package-path "$scratch/plain" 2>&1 | tail -1
output=$("$(swift build --package-path "$scratch/plain" --show-bin-path)/Consumer")
echo "the program printed: $output"
if [ "$output" != "item 7" ]; then
    echo "check-consumer: FAIL: expected 'item 7'" >&2
    exit 1
fi

if [ "$also_tools" = 1 ]; then
    echo
    echo "for comparison, a consumer that turns the Tools trait on:"
    make_consumer "$scratch/tools" ', traits: ["Tools"]'
    swift package --package-path "$scratch/tools" resolve >/dev/null
    deps=$(pinned "$scratch/tools")
    echo "  $(echo "$deps" | grep -v -x "$identity" | wc -l) packages: $(echo "$deps" | grep -v -x "$identity" | tr '\n' ' ')"
fi
echo "check-consumer: OK (swift-collections only, with and without traits named)"

#!/usr/bin/env bash
# What an app pays for Lookahead: creates a scratch package that depends on
# the `Lookahead` product of this checkout the way the README's install line
# does (`traits: []`), resolves it, lists what it pinned, builds and runs a
# three-line program. Fails unless swift-collections is the only package
# resolved besides Lookahead itself.
#
#   Scripts/check-consumer.sh [--keep] [--also-default-traits]
#
# --also-default-traits also resolves a second consumer that leaves the
# traits out (SwiftPM then enables the default `Tools` trait) and prints what
# that one pins, for comparison; it does not build it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
keep=0
also_default=0
for arg in "$@"; do
    case $arg in
        --keep) keep=1 ;;
        --also-default-traits) also_default=1 ;;
        *) echo "check-consumer: unknown option '$arg' (options: --keep, --also-default-traits)" >&2; exit 2 ;;
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

echo "check-consumer: a package depending on the Lookahead product (traits: []) in $scratch/lean"
make_consumer "$scratch/lean" ', traits: []'
swift package --package-path "$scratch/lean" resolve >/dev/null
deps=$(pinned "$scratch/lean")
echo "resolved:"
echo "$deps" | sed 's/^/  /'
others=$(echo "$deps" | grep -v -x -e "$identity" -e swift-collections || true)
if [ -n "$others" ]; then
    echo "check-consumer: FAIL: the consumer resolved more than swift-collections:" >&2
    echo "$others" | sed 's/^/  /' >&2
    exit 1
fi
swift build --package-path "$scratch/lean" 2>&1 | tail -1
output=$("$(swift build --package-path "$scratch/lean" --show-bin-path)/Consumer")
echo "the program printed: $output"
if [ "$output" != "item 7" ]; then
    echo "check-consumer: FAIL: expected 'item 7'" >&2
    exit 1
fi

if [ "$also_default" = 1 ]; then
    echo
    echo "for comparison, a consumer that leaves the traits out (default traits on):"
    make_consumer "$scratch/default" ''
    swift package --package-path "$scratch/default" resolve >/dev/null
    deps=$(pinned "$scratch/default")
    echo "  $(echo "$deps" | grep -v -x "$identity" | wc -l) packages: $(echo "$deps" | grep -v -x "$identity" | tr '\n' ' ')"
fi
echo "check-consumer: OK (swift-collections only)"

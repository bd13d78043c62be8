#!/usr/bin/env bash
# Type-checks, for arm64-apple-ios16.0 against a real iOS SDK, everything an
# app compiles: the modules it can import (Lookahead, LookaheadUIKit,
# LookaheadSwiftUI, LookaheadURLSession), both Examples/, a file naming every
# public type of those modules beside UIKit, SwiftUI, Core Data, Combine,
# Foundation, Observation and os (no ambiguous name), and every ```swift block
# of the README and the DocC catalog. Zero errors; zero warnings but those
# accepted below with a reason. Nothing is linked or run (the SDK has no
# libraries): see ../shared/ios-sdk/README.md for what such a check can tell.
#
#   Scripts/check-apple.sh               the check
#   Scripts/check-apple.sh --self-test   plants faults in a copy of the tree
#                                        and shows the check failing on each
#
# The SDK is looked for in $LOOKAHEAD_IOS_SDK, then ../shared/ios-sdk beside
# this clone, then beside the repository it was cloned from. Without one the
# check says so and passes: .github/workflows/apple.yml is the check there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${LOOKAHEAD_CHECK_ROOT:-$(cd "$here/.." && pwd)}
cd "$root"

find_sdk() {
    local candidates=("${LOOKAHEAD_IOS_SDK:-}" "$root/../shared/ios-sdk")
    local origin
    origin=$(git -C "$here/.." remote get-url origin 2>/dev/null || true)
    [ -n "$origin" ] && [ -d "$origin" ] && candidates+=("$origin/../shared/ios-sdk")
    for candidate in "${candidates[@]}"; do
        if [ -n "$candidate" ] && [ -x "$candidate/setup" ]; then
            (cd "$candidate" && pwd)
            return
        fi
    done
}
sdk_dir=$(find_sdk)
if [ -z "$sdk_dir" ]; then
    echo "check-apple: no iOS SDK here (../shared/ios-sdk, or LOOKAHEAD_IOS_SDK): skipped;" \
        ".github/workflows/apple.yml type-checks and builds for Apple platforms where one runs"
    exit 0
fi

# Warnings read and accepted: "regex<TAB>why". Anything else fails the check.
accepted_warnings=(
    "^snippets of .*warning: (initialization of )?immutable value '[A-Za-z]+' was never used"$'\t'"a snippet shows a value being made; what the app does with it next lies outside the snippet"
)

if [ "${1:-}" = "--self-test" ]; then
    # Each fault is planted in a fresh copy of the tree; the check must fail
    # with the error Xcode would give.
    plant() {
        local name=$1 expected=$2 script=$3
        local copy
        copy=$(mktemp -d)
        cp -R "$root/Sources" "$root/Examples" "$root/Integrations" "$root/Scripts" "$root/README.md" \
            "$root/Package.swift" "$copy/"
        (cd "$copy" && eval "$script")
        local log="$copy/check.log"
        if LOOKAHEAD_CHECK_ROOT="$copy" LOOKAHEAD_IOS_SDK="$sdk_dir" bash "$here/check-apple.sh" >"$log" 2>&1; then
            echo "check-apple self-test: planted '$name', but the check PASSED" >&2
            exit 1
        fi
        if ! grep -qE -- "$expected" "$log"; then
            echo "check-apple self-test: planted '$name': the check failed, but not with '$expected':" >&2
            tail -20 "$log" >&2
            exit 1
        fi
        echo "check-apple self-test: '$name' caught: $(grep -m1 -E -- "$expected" "$log" | sed 's/^ *//')"
        rm -rf "$copy"
    }
    plant "a UIKit delegate method with a wrong signature" "ScrollViewDelegateProxy.swift:[0-9]+:[0-9]+: error:" \
        "sed -i 's/withVelocity velocity: CGPoint,/withVelocity velocity: CGSize,/' Sources/LookaheadUIKit/ScrollViewDelegateProxy.swift"
    plant "a SwiftUI modifier with a wrong argument" "PhotoGridView.swift:[0-9]+:[0-9]+: error:" \
        "sed -i 's/contentMode: \.fill)/contentMode: .stretch)/' Examples/SwiftUIPhotoGrid/Sources/SwiftUIPhotoGrid/PhotoGridView.swift"
    plant "a public name that collides with SwiftUI's" "is ambiguous for type lookup" \
        "printf 'public struct GridItem {}\n' > Sources/Lookahead/Planted.swift"
    plant "a README snippet calling a method that does not exist" "README.md:[0-9]+:[0-9]+: error:" \
        "sed -i '0,/requestDisplay(of:/s//requestDisplays(of:/' README.md"
    plant "a doc-comment snippet calling a method that does not exist" "AsyncFetcher.swift:[0-9]+:[0-9]+: error:" \
        "sed -i '0,/^\\(\\s*\\/\\/\\/.*\\)fetcher\\.value(for:/s//\\1fetcher.values(for:/' Sources/Lookahead/Fetching/AsyncFetcher.swift"
    plant "an integration calling Nuke's API wrongly" "LookaheadNuke.swift:[0-9]+:[0-9]+: error:" \
        "sed -i 's/task\\.priority = priority(/task.priorities = priority(/' Integrations/LookaheadNuke/LookaheadNuke.swift"
    plant "iOS 18 API used without @available (the deployment target is iOS 16)" "is only available in iOS 18" \
        "sed -i '0,/@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, \*)/s///' Sources/LookaheadSwiftUI/View+LookaheadScrolling.swift"
    plant "a warning nobody accepted" "warning not accepted" \
        "printf '#if canImport(UIKit)\\nfunc planted() { var unused = 1 }\\n#endif\\n' > Sources/LookaheadUIKit/Planted.swift"
    echo "check-apple self-test: every planted fault was caught"
    exit 0
fi

started=$(date +%s)
eval "$("$sdk_dir/setup" ${LOOKAHEAD_IOS_SDK_CACHE:+"$LOOKAHEAD_IOS_SDK_CACHE"})"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
modules=$work/modules
graphs=$work/symbol-graphs
mkdir -p "$modules" "$graphs"
log=$work/diagnostics.log
: >"$log"

# The package's own Swift settings, read from Package.swift so they cannot drift.
swift_settings=(-swift-version 6)
for feature in $(grep -o 'enableUpcomingFeature("[A-Za-z]*")' Package.swift | sed 's/.*("\(.*\)")/\1/'); do
    swift_settings+=(-enable-upcoming-feature "$feature")
done
# shellcheck disable=SC2206
ios_flags=($IOS_SWIFTC_FLAGS -I "$modules")
# shellcheck disable=SC2206
compat=($IOS_COMPAT_SOURCES)
ios18=$here/apple-check/iOS18SwiftUI.swift

# Runs swiftc, keeping its diagnostics; fails on an error.
swiftc_checked() {
    local what=$1
    shift
    local out
    if ! out=$(swiftc "$@" 2>&1); then
        echo "$out" | grep -E "error:" | grep -v '^ *|' >&2 || echo "$out" | tail -20 >&2
        echo "check-apple: $what does not type-check for iOS" >&2
        exit 1
    fi
    echo "$out" | grep -E "warning:" | grep -v '^ *|' | sed "s|^|$what: |" >>"$log" || true
}

sources_of() { find "$@" -name '*.swift' | sort; }

# A module an app imports: its interface (others import it), then its bodies.
check_module() {
    local name=$1 extra=("${@:2}")
    local files
    mapfile -t files < <(sources_of "Sources/$name")
    swiftc_checked "$name (interface)" -emit-module -Xfrontend -experimental-skip-all-function-bodies \
        -parse-as-library "${ios_flags[@]}" "${swift_settings[@]}" -module-name "$name" -package-name lookahead \
        -emit-module-path "$modules/$name.swiftmodule" -emit-symbol-graph -emit-symbol-graph-dir "$graphs" \
        -symbol-graph-minimum-access-level public "${files[@]}" "${extra[@]}"
    swiftc_checked "$name" -typecheck -parse-as-library "${ios_flags[@]}" "${swift_settings[@]}" \
        -module-name "$name" -package-name lookahead "${files[@]}" "${extra[@]}"
    echo "check-apple: $name type-checks (${#files[@]} files)"
}

app_modules=(Lookahead)
check_module Lookahead "${compat[@]}"
for name in LookaheadUIKit LookaheadSwiftUI LookaheadURLSession LookaheadImages; do
    [ -d "Sources/$name" ] || continue
    extra=()
    [ "$name" = LookaheadSwiftUI ] && extra=("$ios18")
    check_module "$name" "${extra[@]}"
    app_modules+=("$name")
done

# The examples, with their own settings (Swift 6 mode, nothing upcoming).
for example in Examples/*/; do
    name=$(basename "$example")
    mapfile -t files < <(sources_of "$example/Sources")
    swiftc_checked "Examples/$name" -typecheck -parse-as-library "${ios_flags[@]}" -swift-version 6 \
        -module-name "$name" "${files[@]}" "$ios18"
    echo "check-apple: Examples/$name type-checks (${#files[@]} files)"
done

# An example's UI tests, against the XCTest declarations they use (the SDK has no XCTest).
swiftc_checked "XCTest (declarations)" -emit-module -parse-as-library "${ios_flags[@]}" -swift-version 6 \
    -module-name XCTest -emit-module-path "$modules/XCTest.swiftmodule" "$here/apple-check/XCTestUI.swift"
for tests in Examples/*/UITests/; do
    [ -d "$tests" ] || continue
    mapfile -t files < <(sources_of "$tests")
    swiftc_checked "$tests" -typecheck -parse-as-library "${ios_flags[@]}" -swift-version 6 \
        -module-name UITests "${files[@]}"
    echo "check-apple: ${tests%/} type-checks (${#files[@]} files)"
done

# Integrations with the image libraries apps already use, against their real
# public API (../shared/third-party builds their interfaces for iOS).
find_third_party() {
    local candidates=("${LOOKAHEAD_THIRD_PARTY:-}" "$root/../shared/third-party" "$sdk_dir/../third-party")
    for candidate in "${candidates[@]}"; do
        if [ -n "$candidate" ] && [ -x "$candidate/setup" ]; then
            (cd "$candidate" && pwd)
            return
        fi
    done
}
third_party=$(find_third_party)
if [ -n "$third_party" ] && [ -d Integrations ]; then
    eval "$("$third_party/setup")"
    for integration in Integrations/Lookahead*/; do
        name=$(basename "$integration")
        mapfile -t files < <(find "$integration" -maxdepth 1 -name '*.swift' | sort)
        swiftc_checked "Integrations/$name (interface)" -emit-module -parse-as-library "${ios_flags[@]}" \
            -I "$THIRD_PARTY_MODULES" -swift-version 6 -module-name "$name" \
            -emit-module-path "$modules/$name.swiftmodule" "${files[@]}"
        swiftc_checked "Integrations/$name" -typecheck -parse-as-library "${ios_flags[@]}" -I "$THIRD_PARTY_MODULES" \
            -swift-version 6 -module-name "$name" "${files[@]}"
        if [ -d "$integration/Example" ]; then
            # As an app has it: the integration's file copied beside the app's.
            mapfile -t example < <(sources_of "$integration/Example")
            swiftc_checked "Integrations/$name/Example" -typecheck -parse-as-library "${ios_flags[@]}" \
                -I "$THIRD_PARTY_MODULES" -swift-version 6 -module-name "${name}Example" "${files[@]}" "${example[@]}"
        fi
        echo "check-apple: Integrations/$name type-checks against the library's API"
    done
elif [ "${CI:-}" = true ] && [ -d Integrations ]; then
    echo "check-apple: no ../shared/third-party here (or set LOOKAHEAD_THIRD_PARTY): CI type-checks the integrations" >&2
    exit 1
else
    echo "check-apple: no ../shared/third-party (or no Integrations/) here: the integrations are not type-checked"
fi

# Names: every public type, unqualified, beside Apple's modules.
python3 "$here/apple-check/generate.py" names "$graphs" "$work/Names.swift" "${app_modules[@]}"
swiftc_checked "the names check" -typecheck -parse-as-library "${ios_flags[@]}" -swift-version 6 \
    -module-name NamesCheck "$work/Names.swift"
echo "check-apple: no public name is ambiguous beside UIKit, SwiftUI, CoreData, Combine, Foundation, Observation, os"

# Snippets: what the README and the DocC catalog show an app writing.
swiftc_checked "the snippets' context" -emit-module -parse-as-library "${ios_flags[@]}" -swift-version 6 \
    -module-name SnippetContext -emit-module-path "$modules/SnippetContext.swiftmodule" \
    "$here/apple-check/SnippetContext.swift"
mapfile -t documents < <(printf '%s\n' README.md; find Sources/Lookahead/Lookahead.docc -name '*.md' | sort)
mapfile -t folders < <(python3 "$here/apple-check/generate.py" snippets "$work/snippets" "${documents[@]}")
for folder in "${folders[@]}"; do
    mapfile -t files < <(sources_of "$folder")
    swiftc_checked "snippets of $(basename "$folder")" -typecheck -parse-as-library "${ios_flags[@]}" \
        -swift-version 6 -module-name Snippets "${files[@]}"
done
echo "check-apple: the Swift snippets of ${#documents[@]} documents type-check"

# Doc comments: the code blocks of the public declarations an app reads in Xcode's Quick Help.
mapfile -t app_sources < <(for name in "${app_modules[@]}"; do sources_of "Sources/$name"; done)
mapfile -t folders < <(python3 "$here/apple-check/generate.py" doccomments "$work/doc-comments" "${app_sources[@]}")
for folder in "${folders[@]}"; do
    mapfile -t files < <(sources_of "$folder")
    swiftc_checked "snippets of doc comments" -typecheck -parse-as-library "${ios_flags[@]}" \
        -swift-version 6 -module-name DocSnippets "${files[@]}"
done
echo "check-apple: the code blocks of the doc comments of ${#app_sources[@]} files type-check"

# Warnings: each one read and accepted above, or the check fails.
unaccepted=0
while IFS= read -r warning; do
    [ -n "$warning" ] || continue
    ok=0
    for entry in "${accepted_warnings[@]}"; do
        if echo "$warning" | grep -qE -- "${entry%%$'\t'*}"; then ok=1; break; fi
    done
    if [ $ok = 0 ]; then
        echo "check-apple: warning not accepted: $warning" >&2
        unaccepted=$((unaccepted + 1))
    fi
done < <(sort -u "$log")
if [ $unaccepted -gt 0 ]; then
    echo "check-apple: $unaccepted warning(s) not accepted (read each; fix it, or accept it in Scripts/check-apple.sh with a reason)" >&2
    exit 1
fi
echo "check-apple: OK in $(($(date +%s) - started)) s (warnings: $(sort -u "$log" | grep -c . || true), each accepted)"

#!/usr/bin/env bash
# Builds the Lookahead library's symbol graph (its own scratch folder, so the
# main build is untouched), converts the DocC catalog with the toolchain's
# `docc` (no plugin in the manifest: it would reach every app), and fails on
# DocC warnings (a broken ``Symbol`` or <doc:Article> link) or on a public
# type without a doc comment, or on more than 50 public top-level types (the
# module an app imports shows the app's types). Prints the share of documented
# public symbols.
#
#   Scripts/check-docs.sh [OUTPUT.doccarchive]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scratch=.build-docs
graphs=$scratch/symbol-graphs
output=${1:-$scratch/Lookahead.doccarchive}

mkdir -p "$graphs"
swift build --scratch-path "$scratch" --target Lookahead \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$root/$graphs" 2>&1 | tail -1
docc_bin=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
log=$scratch/docc.log
"$docc_bin" convert Sources/Lookahead/Lookahead.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name Lookahead --fallback-bundle-identifier lookahead.Lookahead \
    --output-path "$output" --analyze 2>&1 | tee "$log" | grep -E "warning:|error:" || true
python3 - "$graphs" <<'PY'
import glob, json, sys
types = {"struct", "class", "enum", "protocol", "typealias", "actor"}
public, documented, undocumented_types = 0, 0, []
for path in glob.glob(f"{sys.argv[1]}/Lookahead*.symbols.json"):
    for symbol in json.load(open(path))["symbols"]:
        if symbol.get("accessLevel") != "public":
            continue
        public += 1
        if symbol.get("docComment"):
            documented += 1
        elif symbol["kind"]["identifier"].removeprefix("swift.") in types:
            undocumented_types.append(".".join(symbol["pathComponents"]))
print(f"check-docs: {documented} of {public} public symbols documented; every public type: "
      + ("yes" if not undocumented_types else "NO"))
for name in undocumented_types:
    print(f"  undocumented public type: {name}")
# The module an app imports shows the app's types: at most 50 at the top level.
kinds = {f"swift.{kind}" for kind in types}
top_level = sorted(
    symbol["names"]["title"]
    for symbol in json.load(open(f"{sys.argv[1]}/Lookahead.symbols.json"))["symbols"]
    if symbol.get("accessLevel") == "public" and len(symbol["pathComponents"]) == 1
    and symbol["kind"]["identifier"] in kinds)
print(f"check-docs: {len(top_level)} public top-level types in Lookahead (at most 50)")
if len(top_level) > 50:
    print("  " + ", ".join(top_level))
sys.exit(1 if undocumented_types or len(top_level) > 50 else 0)
PY
if grep -qE "warning:|error:" "$log"; then
    echo "check-docs: DocC reported problems (above)" >&2
    exit 1
fi
echo "check-docs: OK ($output)"

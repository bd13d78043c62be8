#!/usr/bin/env bash
# Opens `lookahead simulate --report` in a real browser (headless Chromium)
# and checks that it rendered: the replay's own frame-by-frame counts equal
# the simulator's for every scenario and strategy, the two counters on the
# last frame equal the JSON's, the canvases are there; then saves a screenshot.
#
# Usage: Scripts/check-html-report.sh [path/to/lookahead] [output directory]
set -euo pipefail
bin=${1:-.build/debug/lookahead}
out=${2:-$(mktemp -d)}
mkdir -p "$out"

if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing chromium (Debian's package) for the browser check"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
    else
        echo "check-html-report: chromium is not installed and cannot be installed here" >&2
        exit 1
    fi
fi
browser() { chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "$@" 2>/dev/null; }

"$bin" simulate --seed 1 --duration 20 --json --report "$out/report.html" >"$out/report.json" 2>/dev/null
browser --dump-dom "file://$out/report.html#end" >"$out/dom.html"
browser --window-size=1200,760 --screenshot="$out/report.png" "file://$out/report.html#scenario=photos&t=6" >/dev/null

python3 - "$out" <<'PY'
import html, json, re, sys, os
out = sys.argv[1]
report = json.load(open(os.path.join(out, "report.json")))
dom = open(os.path.join(out, "dom.html")).read()
def text(element_id):
    match = re.search(r'id="%s"[^>]*>([^<]*)<' % element_id, dom)
    if not match:
        sys.exit("check-html-report: no element #%s in the rendered page" % element_id)
    return html.unescape(match.group(1))
problems = []
if text("check") != "ok":
    problems.append("the page's own check says: %r" % text("check"))
counted = {}
for line in text("totals").splitlines():
    match = re.fullmatch(r"(\S+)/(\S+) counted=(\d+) simulated=(\d+)", line)
    if not match:
        problems.append("unreadable totals line %r" % line)
        continue
    counted[(match[1], match[2])] = int(match[3])
expected = {(s["name"], r["name"]): r["blankCellFrames"] for s in report["scenarios"] for r in s["strategies"]}
if counted != expected:
    missing = set(expected) - set(counted)
    wrong = {k: (counted[k], expected[k]) for k in set(counted) & set(expected) if counted[k] != expected[k]}
    problems.append("replay counts differ from the JSON: missing %s, wrong %s" % (sorted(missing), wrong))
first = report["scenarios"][0]
by_name = {r["name"]: r["blankCellFrames"] for r in first["strategies"]}
for side, strategy in (("leftCount", "system"), ("rightCount", "adaptive")):
    if int(text(side)) != by_name[strategy]:
        problems.append("%s on the last frame shows %s, the JSON says %d for %s/%s"
                        % (side, text(side), by_name[strategy], first["name"], strategy))
for canvas in ("leftCanvas", "rightCanvas"):
    if not re.search(r'<canvas id="%s" width="[1-9]\d*" height="[1-9]\d*"' % canvas, dom):
        problems.append("the %s was not sized by the script" % canvas)
png = os.path.join(out, "report.png")
if not os.path.exists(png) or os.path.getsize(png) < 10_000:
    problems.append("no screenshot (or an empty one) at %s" % png)
if problems:
    sys.exit("check-html-report: " + "; ".join(problems))
print("check-html-report: %d scenario/strategy counts equal the JSON's; screenshot %s" % (len(counted), png))
PY

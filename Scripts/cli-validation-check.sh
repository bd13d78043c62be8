#!/usr/bin/env bash
# Checks that the built `lookahead` refuses out-of-range numbers with a
# message naming the option and a non-zero exit (64, ArgumentParser's
# validation status) instead of trapping (exit 132) or running for ages.
#
# Usage: Scripts/cli-validation-check.sh [path/to/lookahead]
# Without a path it uses the debug build (`swift build --show-bin-path`).
set -uo pipefail
cd "$(dirname "$0")/.."

binary=${1:-"$(swift build --show-bin-path)/lookahead"}
[ -x "$binary" ] || { echo "cli-validation-check: no executable at '$binary'" >&2; exit 1; }

failures=0
# expect MESSAGE ARGUMENTS...: the run must exit non-zero but not by a signal, and print MESSAGE.
expect() {
    local message=$1
    shift
    local output status
    output=$(timeout 20 "$binary" "$@" 2>&1 </dev/null)
    status=$?
    if [ "$status" -eq 0 ] || [ "$status" -ge 124 ]; then
        echo "FAIL: lookahead $* exited $status (expected a refusal)" >&2
        failures=$((failures + 1))
    elif ! grep -qF -- "$message" <<<"$output"; then
        echo "FAIL: lookahead $* did not say '$message'; it said:" >&2
        printf '%s\n' "$output" | head -5 >&2
        failures=$((failures + 1))
    else
        echo "ok (exit $status): lookahead $*"
    fi
}

trace=$(mktemp --suffix=.csv)
trap 'rm -f "$trace"' EXIT
printf '0,0\n1000000000000000,0\n' >"$trace"

expect "--duration must be above 0 and at most 86400 seconds" simulate --duration inf
expect "--duration must be above 0 and at most 86400 seconds" simulate --duration 1e7
expect "--frame-rate must be in 1...1000 frames per second" simulate --frame-rate inf
expect "--frame-rate must be in 1...1000 frames per second" simulate --frame-rate 1e9
expect "--latency-median must be above 0" simulate --latency-median inf --latency-p99 inf
expect "--latency-median must be in 0...600000 ms" serve --latency-median inf
expect "--items" serve --items 3e17
expect "--items must be in 0...1000000" serve --items 300000000000000000
expect "at most 1000 times --latency-median" serve --latency-median 1 --latency-p99 100000
expect "trace line 2: time 1000000000000000 ms is beyond 24 h" simulate --trace "$trace"
expect "--latency-median must be in 0...600000 ms" demo --no-ui --latency-median 1e300
expect "--frames must be in 100...10000000" bench planner --frames 1000000000000
expect "--max-waste must be in 0...1" tune --max-waste 2
expect "--layout takes list:ROW_HEIGHT" tune --layout list:-4
expect "--items must be in 1...10000000" tune --layout grid:4 --items 0
expect "--latency-median and --latency-p99 go together" tune --latency-median 100
expect "--bandwidth must be in 1...10000000 kbit/s" tune --bandwidth 0
expect "unknown scenario 'sideways'" tune --scenario sideways
expect "--seeds must be in 1...100 seeds" ablate --seeds 0
expect "--bandwidth must be in 1...10000000 kbit/s" simulate --bandwidth 0
expect "/nonexistent/trace.csv" tune --trace /nonexistent/trace.csv
expect "/nonexistent/trace.csv" ablate --seeds 1 --scenario feed --trace /nonexistent/trace.csv
expect "--latency-profile /nonexistent/profile.json: not a latency profile" tune --duration 2 --latency-profile /nonexistent/profile.json
profile=$(mktemp --suffix=.json)
echo '{"version":1,"capacity":10,"loadMilliseconds":[0,0,0],"recordedCount":3}' >"$profile"
expect "its median must be above 0 and at most 600000 ms, got 0" tune --duration 2 --latency-profile "$profile"
echo '{"version":1,"capacity":10,"loadMilliseconds":[],"recordedCount":0}' >"$profile"
expect "needs at least one load" tune --duration 2 --latency-profile "$profile"
rm -f "$profile"
expect "cannot write the report to /nonexistent" simulate --scenario feed --duration 2 --report /nonexistent/dir/report.html
expect "--step-time-limit must be in 1...86400 seconds" bench engine --step-time-limit inf

if [ "$failures" -gt 0 ]; then
    echo "cli-validation-check: $failures FAILED" >&2
    exit 1
fi
echo "cli-validation-check: all refused cleanly"

#!/usr/bin/env bash
# Checks `lookahead demo` in a real terminal: runs it in a detached tmux
# session, captures the pane with its colours, and checks that red (loaded)
# cells and the status line appear, that the run exits 0 with its summary and
# gives the terminal back (the alternate screen left, the cursor shown), and
# that `q` ends an --interactive run cleanly.
#
# Usage: Scripts/demo-tmux-check.sh [path/to/lookahead]
# Without a path it builds the tool (scratch path .build-demo).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
    echo "demo-tmux-check: FAIL: $*" >&2
    if [ -n "${last_capture:-}" ]; then
        echo "--- last capture of the pane ---" >&2
        printf '%s\n' "$last_capture" | sed 's/\x1b/<ESC>/g' | head -40 >&2
    fi
    exit 1
}

command -v tmux >/dev/null 2>&1 || fail "tmux is not installed"

if [ $# -ge 1 ]; then
    binary=$1
else
    swift build --traits Tools --scratch-path .build-demo --product lookahead >&2
    binary="$(swift build --scratch-path .build-demo --show-bin-path)/lookahead"
fi
[ -x "$binary" ] || fail "no executable at '$binary'"
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")

socket="lookahead-check-$$"
work=$(mktemp -d)
tmux_() { tmux -L "$socket" "$@"; }
cleanup() {
    tmux -L "$socket" kill-server >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

last_capture=""
capture() { last_capture=$(tmux_ capture-pane -p -e -J -t demo 2>/dev/null || true); }

# Waits up to $1 seconds for the pane's shell to write the exit status file.
wait_for_exit() {
    local deadline=$((SECONDS + $1))
    while [ ! -s "$work/status" ]; do
        [ $SECONDS -lt $deadline ] || fail "the demo did not exit within $1 s"
        sleep 0.2
    done
    cat "$work/status"
}

# --- 1. The scripted run -----------------------------------------------------
# The shell keeps the pane open after the demo exits, so that the final
# capture shows what the demo left on the normal screen.
tmux_ new-session -d -s demo -x 100 -y 30 \
    "'$binary' demo --duration 6 --log-file '$work/demo.log'; echo \$? > '$work/status'; sleep 600"

saw_red=false
saw_status=false
saw_dimmed=false
deadline=$((SECONDS + 20))
while [ ! -s "$work/status" ] && [ $SECONDS -lt $deadline ]; do
    sleep 0.5
    capture
    # tmux reports SGR colours as 41 (red background) and 47 (white background).
    if printf '%s' "$last_capture" | grep -q $'\x1b\\[[0-9;]*41m'; then saw_red=true; fi
    if printf '%s' "$last_capture" | grep -q 'visible [0-9]* · in flight [0-9]* · cached [0-9]*'; then
        saw_status=true
    fi
    if printf '%s' "$last_capture" | grep -q '▒\|░'; then saw_dimmed=true; fi
    if $saw_red && $saw_status && $saw_dimmed; then break; fi
done
$saw_status || fail "the status line (visible … · in flight … · cached …) never appeared"
$saw_red || fail "no red (loaded) cell appeared in the pane"
$saw_dimmed || fail "the dimmed rows below the viewport never appeared"
echo "demo-tmux-check: grid, red cells, dimmed rows and status line seen"

status=$(wait_for_exit 30)
[ "$status" = 0 ] || fail "the scripted demo exited with status $status, expected 0"
capture
printf '%s' "$last_capture" | grep -q 'demo finished: strategy adaptive, [0-9]* frames, .*blank ratio' \
    || fail "the summary line is not on the screen after the run"
if printf '%s' "$last_capture" | grep -q 'visible [0-9]* · in flight'; then
    fail "the grid's status line is still on the screen: the alternate screen was not left"
fi
cursor=$(tmux_ display-message -p -t demo '#{cursor_flag} #{alternate_on}')
[ "$cursor" = "1 0" ] || fail "terminal not restored: cursor_flag alternate_on = '$cursor', expected '1 0'"
echo "demo-tmux-check: scripted run exited 0, summary printed, terminal restored"
tmux_ kill-session -t demo

# --- 2. The interactive run, ended with q ----------------------------------------
rm -f "$work/status"
tmux_ new-session -d -s demo -x 100 -y 30 \
    "'$binary' demo --interactive --strategy texture; echo \$? > '$work/status'; sleep 600"
deadline=$((SECONDS + 20))
until printf '%s' "$last_capture" | grep -q '\[texture\] blank cell-frames'; do
    [ $SECONDS -lt $deadline ] || fail "the interactive demo never drew its status line"
    sleep 0.3
    capture
done
tmux_ send-keys -t demo j j j Space
sleep 1
tmux_ send-keys -t demo q
status=$(wait_for_exit 10)
[ "$status" = 0 ] || fail "the interactive demo exited with status $status after q, expected 0"
capture
printf '%s' "$last_capture" | grep -q 'demo finished: strategy texture' \
    || fail "no summary after q"
stty_state=$(tmux_ display-message -p -t demo '#{cursor_flag} #{alternate_on}')
[ "$stty_state" = "1 0" ] || fail "terminal not restored after q: '$stty_state', expected '1 0'"
echo "demo-tmux-check: interactive run quit with q, exit 0, terminal restored"
tmux_ kill-session -t demo

# --- 3. Ctrl-C -----------------------------------------------------------------
rm -f "$work/status"
last_capture=""
tmux_ new-session -d -s demo -x 100 -y 30 \
    "'$binary' demo --duration 60; echo \$? > '$work/status'; stty -a > '$work/stty'; sleep 600"
deadline=$((SECONDS + 20))
until printf '%s' "$last_capture" | grep -q '\[adaptive\] blank cell-frames'; do
    [ $SECONDS -lt $deadline ] || fail "the demo never drew its status line before Ctrl-C"
    sleep 0.3
    capture
done
tmux_ send-keys -t demo C-c
status=$(wait_for_exit 10)
[ "$status" = 130 ] || fail "the demo exited with status $status after Ctrl-C, expected 130"
capture
printf '%s' "$last_capture" | grep -q 'demo interrupted' || fail "no summary after Ctrl-C"
grep -q -- ' icanon' "$work/stty" && grep -q -- ' echo' "$work/stty" \
    || fail "the terminal was left raw after Ctrl-C: $(tr '\n' ' ' < "$work/stty")"
state=$(tmux_ display-message -p -t demo '#{cursor_flag} #{alternate_on}')
[ "$state" = "1 0" ] || fail "terminal not restored after Ctrl-C: '$state', expected '1 0'"
echo "demo-tmux-check: Ctrl-C exits 130 with a summary and restores the terminal"
tmux_ kill-session -t demo

# --- 4. Two grids side by side: --compare ------------------------------------------
rm -f "$work/status"
last_capture=""
tmux_ new-session -d -s demo -x 100 -y 30 \
    "'$binary' demo --compare --duration 4; echo \$? > '$work/status'; sleep 600"
saw_both=false
deadline=$((SECONDS + 20))
while [ ! -s "$work/status" ] && [ $SECONDS -lt $deadline ]; do
    sleep 0.5
    capture
    if printf '%s' "$last_capture" | grep -q '\[system\] blank cell-frames [0-9]*.*│.*\[adaptive\] blank cell-frames [0-9]*'; then
        saw_both=true
        break
    fi
done
$saw_both || fail "the two status lines ([system] … │ … [adaptive]) never appeared side by side"
status=$(wait_for_exit 30)
[ "$status" = 0 ] || fail "the comparison exited with status $status, expected 0"
capture
printf '%s' "$last_capture" | grep -q 'demo finished: strategy system' \
    && printf '%s' "$last_capture" | grep -q 'demo finished: strategy adaptive' \
    && printf '%s' "$last_capture" | grep -q "adaptive had [0-9]* blank cell-frames against system's [0-9]*" \
    || fail "the comparison did not print both summaries and the ratio"
echo "demo-tmux-check: --compare drew both grids side by side and printed both summaries"
tmux_ kill-session -t demo

echo "demo-tmux-check: OK"

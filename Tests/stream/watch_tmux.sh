#!/usr/bin/env bash
# `headtrack watch` in real terminals: tmux panes of 80x24 and 160x40 watch `run --simulated` through its
# stream. Checks that the view redraws in place (each of its lines exactly once on the screen, nothing wrapped
# past 80 columns), that it shows the story (a nod in the gestures line, heading near north after the turn),
# and that it says so when the stream ends; that it marks the view stale while the tracker is stopped
# (SIGSTOP) and live again after SIGCONT; and that `demo`'s live view, too, redraws in place in 80x24.
# Usage: watch_tmux.sh HEADTRACK_BIN
set -uo pipefail
bin=$(realpath "$1")
command -v tmux >/dev/null || { echo "FAIL watch-tmux -- tmux is not installed (apt-get install tmux)"; exit 1; }
tmp=$(mktemp -d /tmp/headtrack-watch-XXXXXX)
failures=0
check() { if [ "$2" = 0 ]; then echo "PASS $1${3:+ -- $3}"; else echo "FAIL $1${3:+ -- $3}"; failures=$((failures + 1)); fi; }

for size in 80x24 160x40; do
  cols=${size%x*}; rows=${size#*x}
  sock=$tmp/ev-$size.sock
  "$bin" run --simulated --socket "$sock" --quiet >"$tmp/run-$size.log" 2>&1 &
  run_pid=$!
  for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
  session=headtrack-watch-$$-$size
  tmux -L "headtrack-test-$$" new-session -d -s "$session" -x "$cols" -y "$rows" "$bin watch --socket $sock; sleep 30"
  sleep 12     # the nod is at about 10 s of the story
  tmux -L "headtrack-test-$$" capture-pane -p -t "$session" >"$tmp/screen-$size.txt"
  wait "$run_pid"
  sleep 1
  tmux -L "headtrack-test-$$" capture-pane -p -t "$session" >"$tmp/end-$size.txt"
  tmux -L "headtrack-test-$$" kill-session -t "$session" 2>/dev/null
  screen=$tmp/screen-$size.txt
  echo "--- $size screen at 12 s:"; sed '/^$/d' "$screen"
  n_header=$(grep -c '^headtrack watch' "$screen"); n_heading=$(grep -c '^heading ' "$screen"); n_leds=$(grep -c '^LEDs ' "$screen")
  check "watch-$size-redraws-in-place" $([ "$n_header" = 1 ] && [ "$n_heading" = 1 ] && [ "$n_leds" = 1 ]; echo $?) \
    "header $n_header, heading $n_heading, LED rows $n_leds"
  longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$screen")
  check "watch-$size-fits-80-columns" $([ "$longest" -le 80 ]; echo $?) "longest line $longest"
  lines=$(sed '/^$/d' "$screen" | wc -l)
  check "watch-$size-seven-lines" $([ "$lines" = 7 ]; echo $?) "$lines non-empty lines (header, LEDs, heading, gestures, faults, compass)"
  check "watch-$size-shows-the-nod" $(grep -q '^gestures: nod' "$screen"; echo $?)
  heading=$(sed -n 's/^heading *\([0-9]*\)°.*/\1/p' "$screen")
  check "watch-$size-heading-north" $([ -n "$heading" ] && { [ "$heading" -le 15 ] || [ "$heading" -ge 345 ]; }; echo $?) "heading $heading°"
  check "watch-$size-says-stream-ended" $(grep -q 'stream ended' "$tmp/end-$size.txt"; echo $?)
done
# A tracker frozen with its socket open (SIGSTOP here; a hung bus would look the same) must not stay "live".
sock=$tmp/ev-stop.sock
"$bin" run --simulated --socket "$sock" --quiet >"$tmp/run-stop.log" 2>&1 &
run_pid=$!
for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
tmux -L "headtrack-test-$$" new-session -d -s stop -x 80 -y 24 "$bin watch --socket $sock; sleep 30"
sleep 5
kill -STOP "$run_pid"
sleep 2.5
tmux -L "headtrack-test-$$" capture-pane -p -t stop >"$tmp/stopped.txt"
kill -CONT "$run_pid"
sleep 1.5
tmux -L "headtrack-test-$$" capture-pane -p -t stop >"$tmp/resumed.txt"
echo "--- stopped tracker:"; sed '/^$/d' "$tmp/stopped.txt"
check "watch-marks-a-stopped-tracker-stale" $(grep -q '^STALE: no state line for [2-9]' "$tmp/stopped.txt" && ! grep -q ' live ' "$tmp/stopped.txt"; echo $?)
check "watch-live-again-after-SIGCONT" $(! grep -q 'STALE' "$tmp/resumed.txt" && grep -q '^heading .* live ' "$tmp/resumed.txt"; echo $?)
kill "$run_pid" 2>/dev/null; wait "$run_pid" 2>/dev/null
tmux -L "headtrack-test-$$" kill-session -t stop 2>/dev/null

# demo's live view in 80 columns: redrawn in place, never wrapped into a scrolling column of half rows.
tmux -L "headtrack-test-$$" new-session -d -s demo -x 80 -y 24 "$bin demo --speed 4; sleep 30"
sleep 4
tmux -L "headtrack-test-$$" capture-pane -p -t demo >"$tmp/demo-mid.txt"
for _ in $(seq 60); do grep -q '^demo \(passed\|FAILED\)' "$tmp/demo-end.txt" 2>/dev/null && break
  sleep 0.5; tmux -L "headtrack-test-$$" capture-pane -p -t demo >"$tmp/demo-end.txt"; done
echo "--- demo in 80x24, mid-story:"; sed '/^$/d' "$tmp/demo-mid.txt"
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/demo-mid.txt" "$tmp/demo-end.txt")
rows=$(grep -c '^LEDs ' "$tmp/demo-mid.txt"); halves=$(grep -c '^t=' "$tmp/demo-mid.txt")
check "demo-80x24-redraws-in-place" $([ "$rows" = 1 ] && [ "$halves" = 0 ] && [ "$longest" -le 80 ]; echo $?) \
  "LED rows $rows, wrapped rows $halves, longest line $longest"
check "demo-80x24-ends-with-its-verdict" $(grep -q '^demo passed' "$tmp/demo-end.txt"; echo $?)
tmux -L "headtrack-test-$$" kill-session -t demo 2>/dev/null

tmux -L "headtrack-test-$$" kill-server 2>/dev/null
rm -rf "$tmp"
echo "watch tests: $failures failed"
[ "$failures" -eq 0 ]

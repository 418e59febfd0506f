#!/usr/bin/env bash
# `headtrack watch` in real terminals: tmux panes of 80x24 and 160x40 watch `run --simulated` through its
# stream. Checks that the view redraws in place (each of its lines exactly once on the screen, nothing wrapped
# past 80 columns), that it shows the story (a nod in the gestures line, heading near north after the turn),
# and that it says so when the stream ends. Usage: watch_tmux.sh HEADTRACK_BIN
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
  check "watch-$size-six-lines" $([ "$lines" = 6 ]; echo $?) "$lines non-empty lines"
  check "watch-$size-shows-the-nod" $(grep -q '^gestures: nod' "$screen"; echo $?)
  heading=$(sed -n 's/^heading *\([0-9]*\)°.*/\1/p' "$screen")
  check "watch-$size-heading-north" $([ -n "$heading" ] && { [ "$heading" -le 15 ] || [ "$heading" -ge 345 ]; }; echo $?) "heading $heading°"
  check "watch-$size-says-stream-ended" $(grep -q 'stream ended' "$tmp/end-$size.txt"; echo $?)
done
tmux -L "headtrack-test-$$" kill-server 2>/dev/null
rm -rf "$tmp"
echo "watch tests: $failures failed"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# The event stream suite: real clients on `headtrack run --simulated --socket TMP` (stream_test.py, which
# also runs examples/gestures.py), clients that ask for a yes or no (ask_test.py), four flooding clients against
# a quiet twin (flood_test.py), a connect/disconnect storm against a quiet twin (storm_test.py), 100 servers
# started at once on one path (twins_test.py), every way of stopping a command ending clean (signals_test.py) and
# `headtrack watch` in tmux at 80x24 and 160x40 (watch_tmux.sh).
# Usage: Tests/stream/run.sh            (builds the debug binary)
#        HEADTRACK_BIN=path Tests/stream/run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${HEADTRACK_BIN:-}" ]; then
  swift build >/dev/null || { echo "swift build failed"; exit 1; }
  HEADTRACK_BIN=$(swift build --show-bin-path)/headtrack
fi
command -v tmux >/dev/null || apt-get -o DPkg::Lock::Timeout=600 install -y tmux >/dev/null
status=0
python3 Tests/stream/stream_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/ask_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/flood_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/storm_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/twins_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/signals_test.py "$HEADTRACK_BIN" || status=1
Tests/stream/watch_tmux.sh "$HEADTRACK_BIN" || status=1
exit $status

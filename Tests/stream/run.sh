#!/usr/bin/env bash
# The event stream suite: real clients on `headtrack run --simulated --socket TMP` (stream_test.py, which
# also runs examples/gestures.py), clients that ask for a yes or no (ask_test.py), four flooding clients against
# a quiet twin (flood_test.py), a connect/disconnect storm against a quiet twin (storm_test.py), 100 servers
# started at once on one path (twins_test.py), every way of stopping a command ending clean (signals_test.py),
# the Python client installed with pip into a fresh venv against `run --simulated`, `replay --stream` and
# `demo --socket` (client_test.py) and
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
# Debian's python3 has venv only with python3-venv (ensurepip is what it adds).
python3 -c 'import ensurepip' 2>/dev/null || apt-get -o DPkg::Lock::Timeout=600 install -y python3-venv >/dev/null
status=0
python3 Tests/stream/stream_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/ask_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/flood_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/storm_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/twins_test.py "$HEADTRACK_BIN" || status=1
python3 Tests/stream/signals_test.py "$HEADTRACK_BIN" || status=1
# The client as an app developer installs it: `pip install ./clients/python` in a new venv (no package index
# needed: its build backend is in the package).
venv=$(mktemp -d /tmp/headtrack-client-venv-XXXXXX)
if python3 -m venv "$venv" && "$venv/bin/pip" install -q --no-input --no-index ./clients/python; then
  "$venv/bin/python" Tests/stream/client_test.py "$HEADTRACK_BIN" "$venv/bin/python" || status=1
else
  echo "FAIL client-installs-with-pip -- python3 -m venv or pip install ./clients/python failed"; status=1
fi
rm -rf "$venv"
Tests/stream/watch_tmux.sh "$HEADTRACK_BIN" || status=1
exit $status

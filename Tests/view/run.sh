#!/usr/bin/env bash
# The live page suite: `headtrack view` against `run --simulated` (and `calibrate --trace --socket`) in
# headless Chromium, driven through chromedriver's WebDriver API by view_test.py (Python standard library), and
# who may read the stream through it (access_test.py), and a slowloris against it beside a quiet twin
# (slowloris_test.py).
# Installs Debian's chromium and chromium-driver when missing (as root). Screenshots and logs go to
# $VIEW_TEST_OUT (default .build/test-artifacts/view).
# Usage: Tests/view/run.sh            (builds the debug binary)
#        HEADTRACK_BIN=path Tests/view/run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${HEADTRACK_BIN:-}" ]; then
  swift build --product headtrack >/dev/null || { echo "swift build failed"; exit 1; }
  HEADTRACK_BIN=$(swift build --show-bin-path)/headtrack
fi
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v chromedriver >/dev/null || need+=(chromium-driver)
command -v ss >/dev/null && command -v ip >/dev/null || need+=(iproute2)
if [ "${#need[@]}" -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "run as root to install ${need[*]} (or install them yourself)"; exit 1; }
  install() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "${need[@]}" >/dev/null; }
  # Package lists older than the archive's chromium (a security update) 404: refresh them once and retry.
  install || { apt-get -o DPkg::Lock::Timeout=600 update -qq && install; } ||
    { echo "apt-get install ${need[*]} failed"; exit 1; }
fi
out=${VIEW_TEST_OUT:-.build/test-artifacts/view}
rm -rf "$out" && mkdir -p "$out"
status=0
python3 Tests/view/view_test.py "$HEADTRACK_BIN" "$out" || status=1
# Who gets the stream through the view: the socket's own users only (as root, acting as nobody; no browser).
python3 Tests/view/access_test.py "$HEADTRACK_BIN" || status=1
# A slowloris against one view beside its quiet twin: the attacked view answers as the twin does.
python3 Tests/view/slowloris_test.py "$HEADTRACK_BIN" || status=1
exit $status

#!/usr/bin/env bash
# Installs the Debian packages headtrack needs to build, where they are missing. Safe to repeat.
# The Swift toolchain itself is expected on PATH (swift.org toolchain for Debian 12).
set -euo pipefail
need=()
for pkg in libi2c-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
  echo "installing: ${need[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install the Swift 6 toolchain for Debian 12 from swift.org first" >&2
  exit 1
fi

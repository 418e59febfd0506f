#!/usr/bin/env bash
# One command for a newcomer: install what is missing, build, and run the simulated-board demo.
# Extra arguments go to `headtrack demo` (e.g. --speed 4).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product headtrack >&2
exec .build/release/headtrack demo "$@"

#!/usr/bin/env bash
# Compares headtrack's attitude filter with VQF (Laidig & Seel) on the same recording, in one run:
#   1. installs the `vqf` package from PyPI into a throw-away venv (its wheel ships VQF's C++ sources,
#      vqf/cpp/vqf.cpp and vqf.hpp) and builds them at -O2 into scripts/vqf-harness.cpp;
#   2. three interleaved rounds of `headtrack bench --stages-only` and the harness (each the median of
#      9 passes in thread CPU time), then the median of the rounds and the ratio;
#   3. instructions per sample of both under callgrind (a steady figure on a loaded machine), unless
#      --no-callgrind or valgrind is missing.
# Nothing of VQF is kept: the venv, the sources and the harness binary live in a temporary directory.
#
# usage: scripts/bench-vs-vqf.sh [--trace FILE] [--no-callgrind] [--keep]
#   needs: python3 (venv, pip), g++, a release build (built here if missing), network access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

trace=../shared/data/attitude/21_undisturbed_fast_combined.csv
callgrind=1
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --trace) trace=${2:?--trace needs a file}; shift 2 ;;
    --no-callgrind) callgrind=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "bench-vs-vqf: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -f "$trace" ] || { echo "bench-vs-vqf: recording $trace not found; pass --trace FILE (imu-trace v1)" >&2; exit 1; }
for tool in python3 g++; do
  command -v "$tool" >/dev/null || { echo "bench-vs-vqf: $tool is missing; install it (apt-get install python3-venv g++)" >&2; exit 1; }
done
if [ "$callgrind" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "bench-vs-vqf: valgrind not found, skipping instruction counts (apt-get install valgrind)" >&2
  callgrind=0
fi

work=$(mktemp -d)
if [ "$keep" = 1 ]; then echo "bench-vs-vqf: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi

echo "== release build of headtrack"
swift build -c release >"$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; echo "bench-vs-vqf: swift build -c release failed" >&2; exit 1; }
# bench lives in the lab executable (`headtrack bench` hands over to it); call it directly.
headtrack=$(swift build -c release --show-bin-path)/headtrack-lab
[ -x "$headtrack" ] || { echo "bench-vs-vqf: $headtrack not found after the release build" >&2; exit 1; }

echo "== vqf from PyPI into a throw-away venv"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary :all: vqf \
  || { echo "bench-vs-vqf: pip could not install a vqf wheel for this platform (is PyPI reachable?)" >&2; exit 1; }
vqfsrc=$("$work/venv/bin/python" -c 'import pathlib, importlib.util as u; print(pathlib.Path(u.find_spec("vqf").origin).parent / "cpp")')
[ -f "$vqfsrc/vqf.cpp" ] && [ -f "$vqfsrc/vqf.hpp" ] \
  || { echo "bench-vs-vqf: the installed vqf package has no cpp/vqf.cpp and vqf.hpp (a changed layout?)" >&2; exit 1; }
version=$("$work/venv/bin/pip" show vqf | sed -n 's/^Version: //p')
echo "   vqf $version, C++ sources from $vqfsrc"
g++ -O2 -std=c++17 -I"$vqfsrc" scripts/vqf-harness.cpp "$vqfsrc/vqf.cpp" -o "$work/vqf-harness"

# Reads one figure from `bench --json` output: the stage whose name is given.
stage_ns() {
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(next(e["ns"] for e in d["stage_ns_per_call"] if e["stage"] == sys.argv[2]))' "$1" "$2"
}

echo "== three interleaved rounds (each: median of 9 passes, thread CPU time, ns per sample)"
fusion=(); pipeline=(); vqf=()
for round in 1 2 3; do
  "$headtrack" bench --stages-only --json --trace "$trace" >"$work/bench.json" 2>/dev/null
  fusion+=("$(stage_ns "$work/bench.json" "fusion (attitude filter)")")
  pipeline+=("$(stage_ns "$work/bench.json" "whole pipeline")")
  vqf+=("$("$work/vqf-harness" "$trace" | sed -n 's/^vqf_ns_per_sample //p')")
  printf '   round %d: headtrack fusion %7.1f   VQF C++ -O2 %7.1f   (headtrack whole pipeline %7.1f)\n' \
    "$round" "${fusion[-1]}" "${vqf[-1]}" "${pipeline[-1]}"
done
python3 - "${fusion[@]}" "${vqf[@]}" "${pipeline[@]}" <<'EOF'
import statistics, sys
v = [float(x) for x in sys.argv[1:]]
f, q, p = statistics.median(v[0:3]), statistics.median(v[3:6]), statistics.median(v[6:9])
print(f"   median:  headtrack fusion {f:7.1f}   VQF C++ -O2 {q:7.1f}   ratio {f / q:.2f}   (target <= 0.55)")
print(f"            headtrack whole pipeline {p:7.1f} ns per IMU sample")
EOF

if [ "$callgrind" = 1 ]; then
  echo "== instructions per sample under callgrind (one pass each)"
  # valgrind cannot read the Swift toolchain's debug info: count a copy without it (symbols stay).
  objcopy --strip-debug "$headtrack" "$work/headtrack-lab"
  samples=$("$work/vqf-harness" "$trace" 1 | sed -n 's/^samples //p')
  valgrind --tool=callgrind --callgrind-out-file="$work/headtrack.cg" \
    "$work/headtrack-lab" bench --stages-only --runs 1 --trace "$trace" >/dev/null 2>&1
  valgrind --tool=callgrind --callgrind-out-file="$work/vqf.cg" '--toggle-collect=*vqfPass*' \
    "$work/vqf-harness" "$trace" 1 >/dev/null 2>&1
  callgrind_annotate --inclusive=yes "$work/headtrack.cg" 2>/dev/null >"$work/headtrack.txt"
  # Inclusive instruction count of one function (by its mangled Swift name), per sample.
  per_sample() {
    local symbol='$s10Evaluation'"$1"'ySdAA11StageInputsVF'
    grep -m1 -F ":$symbol " "$work/headtrack.txt" \
      | awk -v n="$samples" '{ gsub(",", "", $1); printf "%.0f", $1 / n }'
  }
  hf=$(per_sample 6fusion); hp=$(per_sample 8pipeline)
  vq=$(callgrind_annotate "$work/vqf.cg" 2>/dev/null | awk -v n="$samples" '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%.0f", $1 / n; exit }')
  python3 -c 'import sys; hf, vq, hp = map(float, sys.argv[1:]); print(f"   headtrack fusion {hf:6.0f}   VQF C++ -O2 {vq:6.0f}   ratio {hf / vq:.2f}   (headtrack whole pipeline {hp:.0f})")' "$hf" "$vq" "$hp"
fi

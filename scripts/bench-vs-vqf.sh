#!/usr/bin/env bash
# Compares headtrack's attitude filter with VQF (Laidig & Seel) on the same recording, in one run:
#   1. installs the `vqf` package from PyPI into a throw-away venv (its wheel ships VQF's C++ sources,
#      vqf/cpp/vqf.cpp and vqf.hpp) and builds them at -O2 into scripts/vqf-harness.cpp;
#   2. three interleaved rounds of `headtrack bench --stages-only` and the harness (each the median of
#      9 passes in thread CPU time), then the median of the rounds and the ratio;
#   3. instructions per sample of both under callgrind (a steady figure on a loaded machine), unless
#      --no-callgrind or valgrind is missing;
#   4. the whole pipeline with the background calibration on, while it fits and at rest, beside VQF on the
#      same input: BROAD trial 01 with iron A of `eval calibration` put on its magnetometer (it collects and
#      fits), and the still stretch at that trial's start (moving = 0) with the same iron (it only collects);
#      three interleaved rounds and, unless --no-callgrind, instructions per sample. --no-calibration skips it.
# Nothing of VQF is kept: the venv, the sources and the harness binary live in a temporary directory.
#
# usage: scripts/bench-vs-vqf.sh [--trace FILE] [--fit-trace FILE] [--no-callgrind] [--no-calibration]
#                                [--scratch-path DIR] [--keep]
#   needs: python3 (venv, pip), g++, a release build (built here if missing; in DIR with --scratch-path),
#   network access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

trace=../shared/data/attitude/21_undisturbed_fast_combined.csv
fit_trace=../shared/data/attitude/01_undisturbed_slow_rotation_A.csv
callgrind=1
calibration=1
scratch=()
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --trace) trace=${2:?--trace needs a file}; shift 2 ;;
    --fit-trace) fit_trace=${2:?--fit-trace needs a file}; shift 2 ;;
    --no-callgrind) callgrind=0; shift ;;
    --no-calibration) calibration=0; shift ;;
    --scratch-path) scratch=(--scratch-path "${2:?--scratch-path needs a directory}"); shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "bench-vs-vqf: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -f "$trace" ] || { echo "bench-vs-vqf: recording $trace not found; pass --trace FILE (imu-trace v1)" >&2; exit 1; }
if [ "$calibration" = 1 ] && [ ! -f "$fit_trace" ]; then
  echo "bench-vs-vqf: recording $fit_trace not found; pass --fit-trace FILE (imu-trace v1 with mx,my,mz and moving) or --no-calibration" >&2; exit 1
fi
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
swift build -c release "${scratch[@]}" >"$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; echo "bench-vs-vqf: swift build -c release failed" >&2; exit 1; }
# bench lives in the lab executable (`headtrack bench` hands over to it); call it directly.
headtrack=$(swift build -c release "${scratch[@]}" --show-bin-path)/headtrack-lab
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
  # One pass of both over the recording $1 under callgrind: the annotated headtrack profile in
  # $work/headtrack-$2.txt, VQF's instructions per sample in $work/vqf-$2.count, the sample count in $samples.
  count_both() {
    samples=$("$work/vqf-harness" "$1" 1 | sed -n 's/^samples //p')
    valgrind --tool=callgrind --callgrind-out-file="$work/headtrack-$2.cg" \
      "$work/headtrack-lab" bench --stages-only --runs 1 --trace "$1" >/dev/null 2>&1
    valgrind --tool=callgrind --callgrind-out-file="$work/vqf-$2.cg" '--toggle-collect=*vqfPass*' \
      "$work/vqf-harness" "$1" 1 >/dev/null 2>&1
    callgrind_annotate --inclusive=yes "$work/headtrack-$2.cg" 2>/dev/null >"$work/headtrack-$2.txt"
    callgrind_annotate "$work/vqf-$2.cg" 2>/dev/null \
      | awk -v n="$samples" '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%.0f", $1 / n; exit }' >"$work/vqf-$2.count"
  }
  count_both "$trace" trace
  # Inclusive instruction count of one stage function of the Benchmarks module (by its mangled Swift name) in
  # the annotated profile $1, per sample of $2 over $3 calls. With --runs 1, `fusion` runs once and `pipeline`
  # (calibration on) twice: the whole-pipeline stage and the on/off pair.
  per_sample() {
    local symbol='$s10Benchmarks'"$4"'ySdAA11StageInputsVF'
    local line; line=$(grep -m1 -F ":$symbol " "$1") \
      || { echo "bench-vs-vqf: $symbol not in the callgrind profile (renamed or moved?)" >&2; exit 1; }
    echo "$line" | awk -v n="$2" -v calls="$3" '{ gsub(",", "", $1); printf "%.0f", $1 / n / calls }'
  }
  hf=$(per_sample "$work/headtrack-trace.txt" "$samples" 1 6fusion); hp=$(per_sample "$work/headtrack-trace.txt" "$samples" 2 8pipeline)
  vq=$(cat "$work/vqf-trace.count")
  python3 -c 'import sys; hf, vq, hp = map(float, sys.argv[1:]); print(f"   headtrack fusion {hf:6.0f}   VQF C++ -O2 {vq:6.0f}   ratio {hf / vq:.2f}   (headtrack whole pipeline {hp:.0f})")' "$hf" "$vq" "$hp"
fi

if [ "$calibration" = 1 ]; then
  echo "== the pipeline with the background calibration on, fitting and at rest, against VQF on the same input"
  # Iron A of `eval calibration` (MagnetometerDistortion.standard[0]): distorted = softIron · raw + hardIron.
  # Fit: the whole trial under it (the head turns, so the calibration collects and fits); rest: the still
  # stretch at the trial's start (moving = 0) under the same iron (one direction: it only collects).
  python3 - "$fit_trace" "$work/fit.csv" "$work/rest.csv" <<'PY'
import sys
src, fit, rest = sys.argv[1:]
soft = [(1.20, 0.10, 0.05), (0.10, 0.85, -0.08), (0.05, -0.08, 1.00)]
hard = (26.0, -12.0, 8.0)
head, rows, columns = [], [], None
for line in open(src):
    if line.startswith('#'): head.append(line); continue
    if columns is None: columns = line.rstrip('\n').split(','); continue
    rows.append(line.rstrip('\n').split(','))
mx, moving = columns.index('mx'), columns.index('moving')
for r in rows:
    if r[mx] != '':
        m = [float(v) for v in r[mx:mx + 3]]
        r[mx:mx + 3] = [repr(sum(soft[i][k] * m[k] for k in range(3)) + hard[i]) for i in range(3)]
still = next((i for i, r in enumerate(rows) if r[moving] != '0'), len(rows))
for path, part in ((fit, rows), (rest, rows[:still])):
    with open(path, 'w') as out:
        out.writelines(head)
        out.write(','.join(columns) + '\n')
        out.writelines(','.join(r) + '\n' for r in part)
print(f"   fit: {src} under iron A, {len(rows)} samples; rest: its first {still} samples (moving = 0), same iron")
PY
  calibration_work() {
    python3 -c 'import json, sys; w = json.load(open(sys.argv[1]))["background_calibration_per_pass"]; print("{:.0f} fits finished, {:.0f} accepted, {:.0f} changes of the correction".format(w["fits"], w["accepted"], w["changes"]))' "$1"
  }
  for input in fit rest; do
    on=(); off=(); vq=()
    for round in 1 2 3; do
      "$headtrack" bench --stages-only --json --trace "$work/$input.csv" >"$work/bench-$input.json" 2>/dev/null
      on+=("$(stage_ns "$work/bench-$input.json" "  background calibration on")")
      off+=("$(stage_ns "$work/bench-$input.json" "  background calibration off")")
      vq+=("$("$work/vqf-harness" "$work/$input.csv" | sed -n 's/^vqf_ns_per_sample //p')")
    done
    echo "   $input: background calibration in one pass: $(calibration_work "$work/bench-$input.json")"
    python3 - "$input" "${on[@]}" "${off[@]}" "${vq[@]}" <<'PY'
import statistics, sys
name, v = sys.argv[1], [float(x) for x in sys.argv[2:]]
on, off, q = (statistics.median(v[i:i + 3]) for i in (0, 3, 6))
print(f"   {name}: pipeline, calibration on {on:7.1f}  off {off:7.1f}   VQF C++ -O2 {q:7.1f}   ratio on/VQF {on / q:.2f}"
      f"   (ns per sample, median of 3 rounds: on {', '.join(sys.argv[2:5])}; VQF {', '.join(sys.argv[8:11])})")
PY
  done
  if [ "$callgrind" = 1 ]; then
    for input in fit rest; do
      count_both "$work/$input.csv" "$input"
      on=$(per_sample "$work/headtrack-$input.txt" "$samples" 2 8pipeline)
      off=$(per_sample "$work/headtrack-$input.txt" "$samples" 1 30pipelineWithoutAutoCalibration)
      vq=$(cat "$work/vqf-$input.count")
      python3 -c 'import sys; name = sys.argv[1]; on, off, vq = map(float, sys.argv[2:]); print(f"   {name}: instructions per sample, pipeline calibration on {on:6.0f}  off {off:6.0f}   VQF C++ -O2 {vq:6.0f}   ratio on/VQF {on / vq:.2f}")' \
        "$input" "$on" "$off" "$vq"
    done
  fi
fi

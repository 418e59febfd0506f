#!/usr/bin/env bash
# Measures this tree's pipeline beside an older commit's, in one run, so a speed-up is a ratio measured side
# by side rather than a figure from another day:
#   1. exports COMMIT (default 6ca2c71, the code before issue 16) with `git archive` into a temporary directory
#      (no worktree, nothing in .git changes) and builds both trees with `swift build -c release`;
#   2. interleaved rounds of both benches (baseline, current, baseline, ...; each round's figure the median of
#      9 passes in thread CPU time), then the median of the rounds per stage and the ratio current / baseline;
#   3. instructions per IMU sample of the whole pipeline under callgrind (a steady figure on a loaded
#      machine), unless --no-callgrind or valgrind is missing.
# Older commits have no `bench --stages-only`: their full bench runs with its loops shortened to 0.1 s and
# without child processes; the stage figures are measured the same way in both.
#
# usage: scripts/bench-vs-baseline.sh [--commit REV] [--rounds N] [--trace FILE] [--no-callgrind] [--keep]
#   needs: git, a Swift toolchain; valgrind for the instruction counts.
set -euo pipefail
cd "$(dirname "$0")/.."

commit=6ca2c71
rounds=5
trace=../shared/data/attitude/21_undisturbed_fast_combined.csv
callgrind=1
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --commit) commit=${2:?--commit needs a revision}; shift 2 ;;
    --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
    --trace) trace=${2:?--trace needs a file}; shift 2 ;;
    --no-callgrind) callgrind=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "bench-vs-baseline: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$rounds" in
  [1-9]|[1-4][0-9]) ;;
  *) echo "bench-vs-baseline: --rounds must be a whole number from 1 to 49" >&2; exit 2 ;;
esac
[ -f "$trace" ] || { echo "bench-vs-baseline: recording $trace not found; pass --trace FILE (imu-trace v1)" >&2; exit 1; }
trace=$(cd "$(dirname "$trace")" && pwd)/$(basename "$trace")
git rev-parse --verify --quiet "$commit^{commit}" >/dev/null \
  || { echo "bench-vs-baseline: $commit is not a commit of this repository (git log shows them)" >&2; exit 1; }
if [ "$callgrind" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "bench-vs-baseline: valgrind not found, skipping instruction counts (apt-get install valgrind)" >&2
  callgrind=0
fi

work=$(mktemp -d)
if [ "$keep" = 1 ]; then echo "bench-vs-baseline: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi

build() {  # build DIR LOG: release build, prints the binary that has `bench`
  (cd "$1" && swift build -c release >"$2" 2>&1) || { tail -20 "$2" >&2; echo "bench-vs-baseline: release build in $1 failed" >&2; exit 1; }
  local bin
  bin=$(cd "$1" && swift build -c release --show-bin-path)
  # Since the lab split, bench lives in headtrack-lab; before it, in headtrack.
  if [ -x "$bin/headtrack-lab" ]; then echo "$bin/headtrack-lab"; else echo "$bin/headtrack"; fi
}

echo "== release build of $commit (exported to $work/base)"
mkdir "$work/base"
git archive "$commit" | tar -x -C "$work/base"
base=$(build "$work/base" "$work/base-build.log")
echo "== release build of this tree"
current=$(build . "$work/current-build.log")

bench_json() {  # bench_json BINARY OUT
  if "$1" bench --help 2>&1 | grep -q -- --stages-only; then
    "$1" bench --stages-only --json --trace "$trace" >"$2" 2>/dev/null
  else
    "$1" bench --json --seconds 0.1 --no-children --trace "$trace" >"$2" 2>/dev/null
  fi
}

echo "== $rounds interleaved rounds (each: median of 9 passes, thread CPU time, ns per call)"
for round in $(seq 1 "$rounds"); do
  bench_json "$base" "$work/base-$round.json"
  bench_json "$current" "$work/current-$round.json"
  python3 - "$work/base-$round.json" "$work/current-$round.json" "$round" <<'EOF'
import json, sys
pipe = lambda f: next(e["ns"] for e in json.load(open(f))["stage_ns_per_call"] if e["stage"] == "whole pipeline")
print(f"   round {sys.argv[3]}: whole pipeline  baseline {pipe(sys.argv[1]):7.1f}   current {pipe(sys.argv[2]):7.1f}")
EOF
done
python3 - "$work" "$rounds" "$commit" <<'EOF'
import json, statistics, sys
work, rounds, commit = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def stages(name):
    runs = [{e["stage"]: (e["ns"], e["per"]) for e in json.load(open(f"{work}/{name}-{r}.json"))["stage_ns_per_call"]}
            for r in range(1, rounds + 1)]
    return {s: (statistics.median(run[s][0] for run in runs), runs[0][s][1]) for s in runs[0]}
b, c = stages("base"), stages("current")
print(f"   medians of {rounds} rounds, ns per call:")
print(f"   {'stage':36} {'per':13} {commit:>9} {'current':>9} {'ratio':>6}")
for s in c:
    if s in b:
        print(f"   {s:36} {c[s][1]:13} {b[s][0]:9.1f} {c[s][0]:9.1f} {c[s][0] / b[s][0]:6.2f}")
EOF

if [ "$callgrind" = 1 ]; then
  echo "== instructions per IMU sample of the whole pipeline under callgrind (one pass each)"
  samples=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["recording"]["samples"])' "$work/current-1.json")
  count() {  # count BINARY NAME: instructions per sample of the bench's first call of its pipeline function
    # valgrind cannot read the Swift toolchain's debug info: count a copy without it (symbols stay).
    objcopy --strip-debug "$1" "$work/$2.bin"
    # Older benches have one pipeline function called twice (the second time decoding bytes too): collect its
    # calls only and dump after each, so the first dump is the plain pipeline pass.
    local symbol
    symbol=$(nm "$work/$2.bin" | awk '$3 ~ /^\$s10Evaluation8pipeline(ySd|_11decodeBytes)/ { print $3; exit }')
    [ -n "$symbol" ] || { echo "bench-vs-baseline: no pipeline function found in $1" >&2; exit 1; }
    local args=(bench --runs 1 --json --trace "$trace")
    if "$1" bench --help 2>&1 | grep -q -- --stages-only; then args+=(--stages-only); else args+=(--seconds 0.1 --no-children); fi
    valgrind --tool=callgrind --callgrind-out-file="$work/$2.cg" "--toggle-collect=$symbol" "--dump-after=$symbol" \
      "$work/$2.bin" "${args[@]}" >/dev/null 2>&1
    awk -v n="$samples" '/^summary:/ { printf "%.0f", $2 / n }' "$work/$2.cg.1"
  }
  bi=$(count "$base" base); ci=$(count "$current" current)
  python3 -c 'import sys; b, c = map(float, sys.argv[1:3]); print(f"   {sys.argv[3]} {b:6.0f}   current {c:6.0f}   ratio {c / b:.2f}")' "$bi" "$ci" "$commit"
fi

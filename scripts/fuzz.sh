#!/usr/bin/env bash
# Runs the libFuzzer targets of Sources/HeadtrackFuzz for a bounded time each.
#   scripts/fuzz.sh [--seconds N] [target...]
# Targets: json config calibration truth trace replay mount mountfile stream request viewrequest number lines
# registers (default: all), N seconds each (default 60).
# stream: the bytes hostile clients send the event-stream server, next to a client that must get every gesture.
# request: one request line through the stream's request parser.
# lines: the stream's bytes split into lines in any chunks (view, watch) and each framed as a server-sent event.
# registers: detection, set-up and reading of every chip from a bus that answers with the input's bytes.
# Seeds come from Fuzz/corpus/TARGET (committed, never written); what the fuzzer learns goes to
# .build/fuzz/corpus/TARGET. A crash, hang (>10 s per input) or runaway memory (>2 GB) is saved as
# Fuzz/crashes/TARGET-crash-HASH (add it to Fuzz/corpus/TARGET as regress-NAME and write a test for it),
# and the script exits 1. One summary line per target: runs, exec/s, coverage, features, corpus size.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=60
all=(json config calibration truth trace replay mount mountfile stream request viewrequest number lines registers)
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --seconds=*) seconds=${1#*=}; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
case $seconds in ''|*[!0-9]*) echo "fuzz.sh: --seconds needs a whole number, got '$seconds'" >&2; exit 2 ;; esac
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (known: ${all[*]})" >&2; exit 2; }
done

# Its own scratch path: the fuzzer build instruments everything and must not replace the debug build.
scratch=.build/fuzz
echo "fuzz.sh: building HeadtrackFuzz with -sanitize=fuzzer"
if ! swift build --scratch-path "$scratch" --sanitize=fuzzer -Xswiftc -DFUZZING --product HeadtrackFuzz \
     > "$scratch.log" 2>&1; then
  tail -30 "$scratch.log" >&2
  echo "fuzz.sh: build failed (log: $scratch.log)" >&2
  exit 1
fi
binary=$(swift build --scratch-path "$scratch" --sanitize=fuzzer -Xswiftc -DFUZZING --show-bin-path)/HeadtrackFuzz

mkdir -p Fuzz/crashes
# Swift's own crash handler would take the SIGILL of a Swift trap first, and libFuzzer would then neither
# report the deadly signal nor save the input: hand the signals to libFuzzer.
export SWIFT_BACKTRACE=enable=no
failed=0
for t in "${targets[@]}"; do
  work=$scratch/corpus/$t
  mkdir -p "$work"
  log=$scratch/$t.log
  # Traces need a few rows to reach the filter; JSON seeds are small.
  # A stream input is a script of client steps, each a socket round; a few hundred reach every state.
  case $t in trace|replay) max_len=8192 ;; stream) max_len=1024 ;; *) max_len=4096 ;; esac
  HEADTRACK_FUZZ_TARGET=$t "$binary" "$work" "Fuzz/corpus/$t" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=$max_len \
    -artifact_prefix="Fuzz/crashes/$t-" -print_final_stats=1 > "$log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<< "$last")
  if [ $status -eq 0 ]; then
    echo "fuzz $t: ok, ${runs:-?} runs in ${seconds} s, ${speed:-?} exec/s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}, peak ${rss:-?} MB"
  else
    failed=$((failed + 1))
    echo "fuzz $t: FAILED (status $status) after ${runs:-?} runs; log $log"
    grep -a -E 'ERROR|Fatal error|artifact|SUMMARY' "$log" | head -8
  fi
done
[ $failed -eq 0 ]

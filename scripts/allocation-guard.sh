#!/usr/bin/env bash
# Allocation guard: nothing allocates per sample in steady state, counted by the interposed malloc
# (Sources/CAllocCounter) in a release build:
#   scripts/allocation-guard.sh [HEADTRACK_LAB_BINARY]
# Runs `headtrack-lab bench --allocations-only --json` and fails unless the loop on the simulated board
# (polling and FIFO), the recording replay, the mount watch and the loop publishing to two event-stream
# clients (one reading, one stalled, both subscribed to explain lines) each counted 0 allocations over a
# window that did the work (wake-ups, samples, a gesture, bytes to the reader, drops for the stalled client,
# explain lines). `swift test` cannot check this: a
# debug build allocates in the standard library's unspecialised generics. The first pass in the fresh
# process (one-time costs, such as Swift type metadata on first use) is printed, not judged.
# Before judging, the checker is shown the same report with one allocation planted: it must fail on it.
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
bin=${1:-}
if [ -z "$bin" ]; then
  log=$(mktemp /tmp/headtrack-allocation-guard-XXXXXX.log)
  swift build -c release --product headtrack-lab > "$log" 2>&1 ||
    { tail -30 "$log"; echo "allocation guard: the release build of headtrack-lab failed"; exit 1; }
  rm -f "$log"
  bin=$(swift build -c release --show-bin-path)/headtrack-lab
fi
[ -x "$bin" ] || { echo "allocation guard: no executable at $bin"; exit 1; }
report=$("$bin" bench --allocations-only --json 2>/dev/null) ||
  { echo "allocation guard: $bin bench --allocations-only failed"; exit 1; }

check() {  # FILE: the JSON report → one line per window; exit 1 when any window allocated or did no work
  python3 - "$1" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["allocations"]
if not a.get("counter_available"):
    print("FAIL: the allocation counter is not available in this build (glibc only)")
    sys.exit(1)
failed = False
windows = [("loop_polling", "iterations"), ("loop_fifo", "iterations"), ("replay", "samples"),
           ("mount_watch", "samples"), ("loop_with_stream_clients", "iterations")]
for name, steps in windows:
    w = a.get(name)
    ok = w is not None and w["allocations"] == 0 and w[steps] > 0
    failed |= not ok
    detail = "%d allocations in %d %s" % (w["allocations"], w[steps], steps) if w else "missing"
    print("%s %s: %s" % ("ok  " if ok else "FAIL", name, detail))
s = a.get("loop_with_stream_clients", {})
work = (s.get("clients") == 2 and s.get("gestures", 0) >= 1 and s.get("bytes_to_reader", 0) > 0
        and s.get("state_lines_dropped_for_stalled_client", 0) > 0
        and s.get("requests", 0) > 0 and s.get("answers_and_errors", 0) > 0 and s.get("explain_lines", 0) > 0)
failed |= not work
print("%s stream window: %s clients, %s gestures, %s bytes to the reader, %s state lines dropped for the stalled one, "
      "%s requests read, %s answers and errors, %s explain lines"
      % ("ok  " if work else "FAIL", s.get("clients"), s.get("gestures"), s.get("bytes_to_reader"),
         s.get("state_lines_dropped_for_stalled_client"), s.get("requests"), s.get("answers_and_errors"),
         s.get("explain_lines")))
print("     first pass in the fresh process (one-time, not judged): %s" % a.get("first_pass"))
sys.exit(1 if failed else 0)
PY
}

work=$(mktemp -d /tmp/headtrack-allocation-guard-XXXXXX)
trap 'rm -rf "$work"' EXIT
printf '%s\n' "$report" > "$work/report.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["allocations"]["replay"]["allocations"] = 1; json.dump(d, open(sys.argv[2], "w"))' \
  "$work/report.json" "$work/planted.json"
if check "$work/planted.json" > /dev/null; then
  echo "allocation guard: the checker passed a report with a planted allocation; it cannot fail"; exit 1
fi
check "$work/report.json"

#!/usr/bin/env bash
# SIGKILL at every system call of a calibration save (issue 13, row 10; issue 27: the learned one too), with
# strace's fault injection:
#   scripts/kill-during-save.sh [HEADTRACK_BINARY]
# Starting from a saved calibration A, `headtrack calibrate --trace B` is killed at the Nth call of each
# file-related system call (N = 1, 2, ... until the run completes without reaching it). After every kill,
# calibration.json must exist and be A or B whole (the old save renamed it away first: a kill between its
# two renames left only calibration.json.previous). Then one clean save must leave no temporary behind.
# Needs strace: installs it when run as root, else fails saying so (a skipped check would hide the row).
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v strace > /dev/null && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q strace >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q strace >/dev/null 2>&1; } || true
fi
command -v strace > /dev/null || { echo "kill-during-save: needs strace (apt-get install strace)"; exit 1; }
bin=${1:-}
if [ -z "$bin" ]; then
  swift build --product headtrack > /dev/null || exit 1
  bin=$(swift build --show-bin-path)/headtrack
fi
work=$(mktemp -d /tmp/headtrack-kill-XXXXXX)
trap 'rm -rf "$work"' EXIT

# A tumble through every direction (roll 0.9 rad/s, pitch swinging ±1.3 rad, yaw 0.23 rad/s) in a field of
# (0, 20, -45) µT plus a hard-iron offset: the fit recovers the offset, so A and B give different files.
tumble() {  # hard iron x y z → trace on stdout
  awk -v hx="$1" -v hy="$2" -v hz="$3" 'BEGIN {
    print "# format: imu-trace v1"; print "# rate_hz: 100"; print "t,ax,ay,az,gx,gy,gz,mx,my,mz"
    for (i = 0; i < 4000; i++) {
      t = i * 0.01; r = 0.9 * t; p = 1.3 * sin(0.31 * t); y = 0.23 * t
      cr = cos(r); sr = sin(r); cp = cos(p); sp = sin(p); cy = cos(y); sy = sin(y)
      # R = Rz(y) Ry(p) Rx(r) maps sensor to world; a world vector in the sensor frame is R^T v.
      r11 = cy*cp; r12 = cy*sp*sr - sy*cr; r13 = cy*sp*cr + sy*sr
      r21 = sy*cp; r22 = sy*sp*sr + cy*cr; r23 = sy*sp*cr - cy*sr
      r31 = -sp;   r32 = cp*sr;            r33 = cp*cr
      ax = r31 * 9.81; ay = r32 * 9.81; az = r33 * 9.81
      mx = r21*20 - r31*45 + hx; my = r22*20 - r32*45 + hy; mz = r23*20 - r33*45 + hz
      printf "%.4f,%.5f,%.5f,%.5f,0,0,0,%.3f,%.3f,%.3f\n", t, ax, ay, az, mx, my, mz
    } }'
}
tumble 12 -30 5 > "$work/a.csv"
tumble -20 15 40 > "$work/b.csv"
cal=$work/save/calibration.json
mkdir -p "$work/save"
"$bin" calibrate --trace "$work/a.csv" --skip-gyro --out "$cal" > /dev/null || { echo "kill-during-save: calibrate A failed"; exit 1; }
cp "$cal" "$work/a.json"
"$bin" calibrate --trace "$work/b.csv" --skip-gyro --out "$work/b.json" > /dev/null || { echo "kill-during-save: calibrate B failed"; exit 1; }
hard_iron() { grep '"hardIron"' "$1"; }

kills=0; bad=0; per_call=()
for call in openat write fsync close link linkat rename renameat renameat2 unlink unlinkat fchmod; do
  before=$kills
  for n in $(seq 1 400); do
    rm -rf "$work/save"; mkdir "$work/save"; cp "$work/a.json" "$cal"
    # In a subshell that outlives the kill (the second command keeps bash from exec'ing strace) with
    # stderr closed, so the shell's "Killed" notice stays quiet; the status is still 137.
    ( strace -f -qq -o /dev/null -e trace="$call" -e inject="$call:signal=SIGKILL:when=$n" \
      "$bin" calibrate --trace "$work/b.csv" --skip-gyro --out "$cal" > /dev/null 2>&1; exit $? ) 2> /dev/null
    status=$?
    [ $status -eq 137 ] || break   # finished without an Nth call: next system call
    kills=$((kills + 1))
    if [ ! -f "$cal" ]; then
      echo "kill-during-save: killed at $call #$n: calibration.json is missing ($(ls "$work/save" | tr '\n' ' '))"
      bad=$((bad + 1)); continue
    fi
    if ! cmp -s "$cal" "$work/a.json" && [ "$(hard_iron "$cal")" != "$(hard_iron "$work/b.json")" ]; then
      echo "kill-during-save: killed at $call #$n: calibration.json is neither A nor B"; bad=$((bad + 1)); continue
    fi
    if ! "$bin" calibrate --show --out "$cal" > /dev/null 2>&1; then
      echo "kill-during-save: killed at $call #$n: calibration.json does not load"; bad=$((bad + 1)); continue
    fi
    # The next save cleans up after the killed one.
    "$bin" calibrate --trace "$work/b.csv" --skip-gyro --out "$cal" > /dev/null 2>&1
    left=$(ls "$work/save" | grep -v -x -e calibration.json -e calibration.json.previous)
    if [ -n "$left" ]; then echo "kill-during-save: after $call #$n and a clean save, left: $left"; bad=$((bad + 1)); fi
  done
  [ $kills -gt $before ] && per_call+=("$call $((kills - before))")
done
echo "kill-during-save: killed at: $(IFS=,; echo "${per_call[*]}" | sed 's/,/, /g')"
echo "kill-during-save: $kills kills, $bad bad outcomes"
[ $kills -gt 20 ] || { echo "kill-during-save: too few kill points reached (strace not injecting?)"; exit 1; }
guided_bad=$bad

# The background calibration's save: `headtrack replay B --learned-calibration FILE`, starting from the
# learned file A, learns iron B and saves it from its writer thread (CalibrationWriter, the daemon's), killed
# at every file system call as above (strace -f: the writer is a thread). The tumble here has the gyro of
# its motion: the background calibration keeps only field changes the head's turn explains.
tumble_gyro() {  # hard iron x y z → 120 s trace on stdout
  awk -v hx="$1" -v hy="$2" -v hz="$3" 'BEGIN {
    print "# format: imu-trace v1"; print "# rate_hz: 100"; print "t,ax,ay,az,gx,gy,gz,mx,my,mz"
    for (i = 0; i < 12000; i++) {
      t = i * 0.01; r = 0.9 * t; p = 1.3 * sin(0.31 * t); y = 0.23 * t
      dr = 0.9; dp = 1.3 * 0.31 * cos(0.31 * t); dy = 0.23
      cr = cos(r); sr = sin(r); cp = cos(p); sp = sin(p); cy = cos(y); sy = sin(y)
      r11 = cy*cp; r12 = cy*sp*sr - sy*cr; r13 = cy*sp*cr + sy*sr
      r21 = sy*cp; r22 = sy*sp*sr + cy*cr; r23 = sy*sp*cr - cy*sr
      r31 = -sp;   r32 = cp*sr;            r33 = cp*cr
      # Body rates of Z-Y-X Euler angles.
      gx = dr - dy * sp; gy = dp * cr + dy * cp * sr; gz = -dp * sr + dy * cp * cr
      ax = r31 * 9.81; ay = r32 * 9.81; az = r33 * 9.81
      mx = r21*20 - r31*45 + hx; my = r22*20 - r32*45 + hy; mz = r23*20 - r33*45 + hz
      printf "%.4f,%.5f,%.5f,%.5f,%.6f,%.6f,%.6f,%.3f,%.3f,%.3f\n", t, ax, ay, az, gx, gy, gz, mx, my, mz
    } }'
}
tumble_gyro 12 -30 5 > "$work/la.csv"
tumble_gyro -20 15 40 > "$work/lb.csv"
learned=$work/save/calibration.learned.json
rm -rf "$work/save"; mkdir -p "$work/save"
"$bin" replay "$work/la.csv" --learned-calibration "$learned" > /dev/null || { echo "kill-during-save: learning A failed"; exit 1; }
[ -f "$learned" ] || { echo "kill-during-save: replay A learned nothing to save"; exit 1; }
cp "$learned" "$work/la.json"
"$bin" replay "$work/lb.csv" --learned-calibration "$learned" > /dev/null || { echo "kill-during-save: learning B failed"; exit 1; }
cp "$learned" "$work/lb.json"
cmp -s "$work/la.json" "$work/lb.json" && { echo "kill-during-save: learning B from A saved nothing new"; exit 1; }
iron_b() {  # the file's hard iron is B's (−20, 15, 40) within 1 µT
  grep '"hardIron"' "$1" | tr -d '[],' | awk '{ d = ($2 + 20)^2 + ($3 - 15)^2 + ($4 - 40)^2; exit !(NF == 4 && d < 1) }'
}
iron_b "$work/lb.json" || { echo "kill-during-save: replay B did not learn iron B"; exit 1; }
lkills=0; lbad=0; lper_call=()
for call in openat write fsync close link linkat rename renameat renameat2 unlink unlinkat fchmod; do
  before=$lkills
  for n in $(seq 1 400); do
    rm -rf "$work/save"; mkdir "$work/save"; cp "$work/la.json" "$learned"
    ( strace -f -qq -o /dev/null -e trace="$call" -e inject="$call:signal=SIGKILL:when=$n" \
      "$bin" replay "$work/lb.csv" --learned-calibration "$learned" > /dev/null 2>&1; exit $? ) 2> /dev/null
    status=$?
    [ $status -eq 137 ] || break
    lkills=$((lkills + 1))
    if [ ! -f "$learned" ]; then
      echo "kill-during-save: learned save killed at $call #$n: the file is missing ($(ls "$work/save" | tr '\n' ' '))"
      lbad=$((lbad + 1)); continue
    fi
    # B may be saved twice (a first fit, then one of more directions): any whole file of iron B counts.
    if ! cmp -s "$learned" "$work/la.json" && ! iron_b "$learned"; then
      echo "kill-during-save: learned save killed at $call #$n: the file is neither A nor B"; lbad=$((lbad + 1)); continue
    fi
    if ! "$bin" calibrate --show --out "$learned" > /dev/null 2>&1; then
      echo "kill-during-save: learned save killed at $call #$n: the file does not load"; lbad=$((lbad + 1)); continue
    fi
  done
  [ $lkills -gt $before ] && lper_call+=("$call $((lkills - before))")
done
echo "kill-during-save: learned calibration killed at: $(IFS=,; echo "${lper_call[*]}" | sed 's/,/, /g')"
echo "kill-during-save: learned calibration: $lkills kills, $lbad bad outcomes"
[ $lkills -gt 20 ] || { echo "kill-during-save: too few kill points reached in the learned save"; exit 1; }
[ $guided_bad -eq 0 ] && [ $lbad -eq 0 ]

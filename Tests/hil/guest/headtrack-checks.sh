# Sourced by checks.sh inside the VM once the bus ($BUS, $I2C) and gpio-sim ($CHIP, $SIMDIR) are up.
# Runs the real headtrack binary and judges it from the kernel side only.
#
# Truth used here (independent of headtrack's code):
#   - LED lines of the default config: nod 17, shake 27, north 22, status 6 (brief, config format).
#   - MPU-9250 scales: accel +-4 g = 8192 LSB/g, gyro +-500 dps = 65.5 LSB/(deg/s); AK8963 16-bit 0.15 uT/LSB,
#     little-endian at 0x03..0x08, its axes lie along the MPU's (y, x, -z) (hardware-facts 1.0, 1.4).
#   - Heading: degrees clockwise from magnetic north (+ declination); north LED on within +-22.5 deg, with
#     hysteresis, so 12 deg must light it and 35 deg must not.
#   - Status LED: heartbeat = one 0.1 s flash per second; fault = 5 Hz blink (0.1 s on, 0.1 s off).

NOD=17 SHAKE=27 NORTH=22 STATUS=6
value_file() { echo "$SIMDIR/sim_gpio$1/value"; }

# The field a level head facing $1 degrees clockwise from magnetic north feels, into the AK8963's data registers
# (hil-tool field: 20 uT horizontal, 40 uT down, AK8963 axes = MPU (y, x, -z), 0.15 uT/LSB, little-endian).
set_heading() { ak 0x03 $(hil-tool field "$1") i; }

# Gyro Y (the MPU's pitch axis, the head's left axis with mount x,y,z), whole deg/s, at 65.5 LSB/(deg/s) as a
# big-endian int16 at 0x45.
set_pitch_rate() {
    _v=$(( $1 * 655 / 10 )); [ "$_v" -lt 0 ] && _v=$((_v + 65536))
    mpu 0x45 $((_v >> 8)) $((_v & 255)) i
}

# Gyro Z (yaw about up), whole deg/s, big-endian int16 at 0x47.
set_yaw_rate() {
    _v=$(( $1 * 655 / 10 )); [ "$_v" -lt 0 ] && _v=$((_v + 65536))
    mpu 0x47 $((_v >> 8)) $((_v & 255)) i
}

# turn FROM TO: the head turns the short way from heading FROM to TO (whole degrees) at 20 deg/s, then the field
# is set to TO. Slow enough that 100 ms of scheduling slack under TCG costs only 2 degrees. Slack only ever
# lengthens a turn, and every check below is placed so that overshooting keeps its expected answer. Sets TURN_S to the time the rate was really applied (i2cset under TCG is not instantaneous).
turn() {
    _d=$(( ($2 - $1 + 540) % 360 - 180 ))
    _rate=-20; [ "$_d" -lt 0 ] && { _rate=20; _d=$((-_d)); }
    _ms=$(( _d * 50 ))
    _t0=$(uptime_s)
    set_yaw_rate $_rate
    sleep "$((_ms / 1000)).$(printf %03d $((_ms % 1000)))"
    set_yaw_rate 0
    TURN_S=$(awk -v a="$_t0" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')
    set_heading "$2"
}

# wait_line OFFSET VALUE SECONDS: polls every 0.1 s until the line reads VALUE; fails after SECONDS.
wait_line() {
    _f=$(value_file "$1"); _n=$(( $3 * 10 ))
    while [ "$_n" -gt 0 ]; do
        read -r _v <"$_f"; [ "$_v" = "$2" ] && return 0
        sleep 0.1; _n=$((_n - 1))
    done
    return 1
}

uptime_s() { cut -d' ' -f1 /proc/uptime; }

# hil-tool watch output -> W_<offset>_{samples,high,rises,longest,last} for each line.
parse_watch() {  # FILE OFFSET...
    _out=$1; shift
    for _o in "$@"; do
        eval "$(sed -n "s|^$(value_file "$_o") samples=\([0-9]*\) high=\([0-9]*\) rises=\([0-9]*\) longest_high_ms=\([0-9]*\) last=\([-0-9]*\)|W_${_o}_samples=\1 W_${_o}_high=\2 W_${_o}_rises=\3 W_${_o}_longest=\4 W_${_o}_last=\5|p" "$_out")"
    done
}
# watch_start MS OFFSET...: samples the lines in the background until watch_finish.
watch_start() {
    _ms=$1; shift; WATCHED="$*"; _files=""
    for _o in "$@"; do _files="$_files $(value_file "$_o")"; done
    hil-tool watch "$_ms" $_files >/tmp/watch.out &
    WATCHER=$!
}
watch_finish() { wait "$WATCHER"; parse_watch /tmp/watch.out $WATCHED; }
watch_lines() { watch_start "$@"; watch_finish; }
stats() { eval "echo \"rises=\$W_$1_rises high=\$W_$1_high/\$W_$1_samples longest_on=\${W_$1_longest}ms\""; }

# Heartbeat over 4 s: 3..5 flashes, each well under half a second, the line mostly off.
is_heartbeat() {
    eval "_r=\$W_$1_rises _h=\$W_$1_high _s=\$W_$1_samples _l=\$W_$1_longest"
    [ "$_r" -ge 3 ] && [ "$_r" -le 5 ] && [ "$_l" -le 300 ] && [ $((_h * 100)) -le $((_s * 30)) ]
}
# Fast blink over 4 s: 5 Hz gives ~20 flashes; demand at least 12, each short, about half the time on.
is_fault_blink() {
    eval "_r=\$W_$1_rises _h=\$W_$1_high _s=\$W_$1_samples _l=\$W_$1_longest"
    [ "$_r" -ge 12 ] && [ "$_l" -le 300 ] && [ $((_h * 100)) -ge $((_s * 25)) ] && [ $((_h * 100)) -le $((_s * 75)) ]
}

alive() { kill -0 "$RUN_PID" 2>/dev/null; }

# write_config FILE NORTH_PIN DECLINATION [DETECT_FROZEN]
# i2c-stub's registers change only when the test writes them, so the frozen-data check (identical samples in a
# row are a fault, as real sensor noise makes them impossible) is off unless DETECT_FROZEN=true.
write_config() {
    cat >"$1" <<EOF
{
  "i2c": { "device": "$I2C", "detectFrozenData": ${4:-false} },
  "gpio": { "chip": "headtrack-sim",
            "leds": { "nod": 17, "shake": 27, "north": $2, "up": 23, "down": 24, "left": 25, "right": 5, "status": 6 } },
  "mount": "x,y,z",
  "stream": { "socket": "/tmp/events.sock" },
  "declinationDeg": $3
}
EOF
}

start_run() {  # CONFIG LOG
    headtrack run --i2c "$I2C" --gpio-chip headtrack-sim --config "$1" >"$2" 2>&1 &
    RUN_PID=$!
}
stop_run() {  # sets RUN_STATUS
    kill -TERM "$RUN_PID" 2>/dev/null
    wait "$RUN_PID"; RUN_STATUS=$?
}
tail_log() { tail -n 3 "$1" 2>/dev/null | tr '\n' '|'; }

# check_north_on OFFSET SECONDS: the line the harness believes is "north" goes high with the field due north.
check_north_on() { wait_line "$1" 1 "$2"; }

# ---------------------------------------------------------------- (a) probe
preset_chips; set_heading 0; set_pitch_rate 0; set_yaw_rate 0
probe_out=$(headtrack probe --i2c "$I2C" 2>&1); probe_status=$?
# The chips by address and name: the MPU-9250 at 0x68 (WHO_AM_I 0x71), the AK8963 at 0x0c (WIA 0x48).
if [ $probe_status -eq 0 ] && echo "$probe_out" | grep -qi '0x68: MPU-9250' && echo "$probe_out" | grep -qi '0x0c: AK8963'; then
    result PASS probe-names-chips "$(echo "$probe_out" | grep -E 'MPU-9250|AK8963' | tr '\n' '|')"
else
    result FAIL probe-names-chips "exit $probe_status, output: $(echo "$probe_out" | tr '\n' '|')"
fi

# ---------------------------------------------------------------- (b) run: north LED follows the field
preset_chips; set_heading 0; set_pitch_rate 0; set_yaw_rate 0
# hil.sabotage=north-line (HEADTRACK_HIL_SABOTAGE on the host) moves north to line 23 in this config, to show
# that the checks below then fail.
main_north=22; grep -q hil.sabotage=north-line /proc/cmdline && main_north=26
write_config /tmp/main.json $main_north 0
t0=$(uptime_s)
start_run /tmp/main.json /tmp/main.log
if check_north_on $NORTH 40; then
    result PASS north-on-at-0deg "line $NORTH high $(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN{printf "%.1f", b-a}') s after start"
else
    result FAIL north-on-at-0deg "line $NORTH still low 40 s after start; alive: $(alive && echo yes || echo no); log: $(tail_log /tmp/main.log)"
fi

# What the program left in the registers, read from the kernel side (brief, driver behaviour): PWR_MGMT_1 0x01,
# GYRO_CONFIG 0x08 (+-500 dps), ACCEL_CONFIG 0x08 (+-4 g), USER_CTRL 0, INT_PIN_CFG 0x02 (bypass), CNTL1 0x16.
registers() {
    echo "PWR_MGMT_1=$(i2cget -y "$BUS" 0x68 0x6b) GYRO_CONFIG=$(i2cget -y "$BUS" 0x68 0x1b)" \
         "ACCEL_CONFIG=$(i2cget -y "$BUS" 0x68 0x1c) USER_CTRL=$(i2cget -y "$BUS" 0x68 0x6a)" \
         "INT_PIN_CFG=$(i2cget -y "$BUS" 0x68 0x37) CNTL1=$(i2cget -y "$BUS" 0x0c 0x0a)"
}
want_registers="PWR_MGMT_1=0x01 GYRO_CONFIG=0x08 ACCEL_CONFIG=0x08 USER_CTRL=0x00 INT_PIN_CFG=0x02 CNTL1=0x16"
seen=$(registers)
if [ "$seen" = "$want_registers" ]; then result PASS chip-configured "$seen"
else result FAIL chip-configured "$seen (want $want_registers)"; fi

# A second headtrack on the same bus must refuse before touching a register (the bus lock names the pid),
# and the registers must still be what the running one wrote.
second_out=$(headtrack probe --i2c "$I2C" 2>&1); second_status=$?
if [ $second_status -eq 1 ] && echo "$second_out" | grep -q "already using $I2C (pid $RUN_PID)" && [ "$(registers)" = "$want_registers" ]; then
    result PASS second-instance-refused "$(echo "$second_out" | tr '\n' '|')"
else
    result FAIL second-instance-refused "exit $second_status: $(echo "$second_out" | tr '\n' '|'); registers $(registers)"
fi

watch_lines 4000 $STATUS $NORTH
if is_heartbeat $STATUS; then result PASS heartbeat-when-healthy "status: $(stats $STATUS)"
else result FAIL heartbeat-when-healthy "status: $(stats $STATUS) (want 3-5 flashes of ~0.1 s)"; fi
if [ "$W_22_high" -eq "$W_22_samples" ]; then result PASS north-steady "north over 4 s: $(stats $NORTH)"
else result FAIL north-steady "north over 4 s: $(stats $NORTH) (want on all the time)"; fi

# Head turns, as a real head makes them: the gyro sees the turn (yaw about z-up at 20 deg/s, below the 30 deg/s a
# gesture swing needs) and the field ends where the new heading puts it. Heading grows clockwise, so turning
# from north to east is a negative rotation about up.
before=$(cat "$(value_file $NORTH)")
turn 0 90
if [ "$before" != 1 ]; then result FAIL north-off-at-90deg "north was not lit before the turn"
elif wait_line $NORTH 0 5; then result PASS north-off-at-90deg "turned to east in $TURN_S s: line $NORTH went low"
else result FAIL north-off-at-90deg "turned to east in $TURN_S s: line $NORTH still high 5 s later"; fi

turn 90 12
if wait_line $NORTH 1 5; then result PASS north-on-at-12deg "turned back to 12 deg in $TURN_S s: line $NORTH high (inside +-22.5 less hysteresis)"
else result FAIL north-on-at-12deg "turned back to 12 deg in $TURN_S s: line $NORTH still low 5 s later"; fi

before=$(cat "$(value_file $NORTH)")
turn 12 35
if [ "$before" != 1 ]; then result FAIL north-off-at-35deg "north was not lit before the turn"
elif wait_line $NORTH 0 5; then result PASS north-off-at-35deg "turned on to 35 deg in $TURN_S s: line $NORTH low (outside +-22.5 plus hysteresis)"
else result FAIL north-off-at-35deg "turned on to 35 deg in $TURN_S s: line $NORTH still high 5 s later"; fi
turn 35 0; wait_line $NORTH 1 5

# ---------------------------------------------------------------- (c) a nod written into the gyro registers
# Four half-waves about the pitch axis (two cycles: with no app's question pending, a nod must be deliberate,
# see docs/gestures.md), 90 deg/s for 0.1 s plus i2cset's latency each (a swing may last at most 0.7 s), then
# still: one nod, no shake.
watch_lines 600 $NOD $SHAKE
quiet_nod=$W_17_high quiet_shake=$W_27_high
# An app on the event stream sees the same nod (hil-tool listen: a client of the Unix socket).
rm -f /tmp/events.jsonl
hil-tool listen /tmp/events.sock 5 /tmp/events.jsonl &
LISTEN_PID=$!
sleep 0.3
watch_start 4000 $NOD $SHAKE
tn0=$(uptime_s)
set_pitch_rate 90; sleep 0.1
set_pitch_rate -90; sleep 0.1
set_pitch_rate 90; sleep 0.1
set_pitch_rate -90; sleep 0.1
set_pitch_rate 0
tn1=$(uptime_s)
watch_finish
nod_detail="gyro pattern took $(awk -v a="$tn0" -v b="$tn1" 'BEGIN{printf "%.2f", b-a}') s; nod: $(stats $NOD); shake: $(stats $SHAKE); before: nod high $quiet_nod, shake high $quiet_shake"
if [ "$quiet_nod" -eq 0 ] && [ "$W_17_rises" -eq 1 ] && [ "$W_17_longest" -ge 300 ] && [ "$W_17_longest" -le 700 ] && [ "$W_27_high" -eq 0 ]; then
    result PASS nod-led "$nod_detail"
else
    result FAIL nod-led "$nod_detail (want: nod off before, one ~0.4 s flash, shake never)"
fi
wait "$LISTEN_PID"
stream_nods=$(grep -c '"type":"gesture","gesture":"nod"' /tmp/events.jsonl 2>/dev/null)
stream_shakes=$(grep -c '"gesture":"shake"' /tmp/events.jsonl 2>/dev/null)
stream_states=$(grep -c '"type":"state"' /tmp/events.jsonl 2>/dev/null)
stream_detail="hello: $(head -c 60 /tmp/events.jsonl 2>/dev/null); nods $stream_nods, shakes $stream_shakes, state lines $stream_states in 5 s"
if head -n 1 /tmp/events.jsonl 2>/dev/null | grep -q '"type":"hello","version":1' && [ "$stream_nods" = 1 ] && [ "$stream_shakes" = 0 ] \
   && [ "$stream_states" -ge 30 ]; then
    result PASS stream-client-gets-nod "$stream_detail"
else
    result FAIL stream-client-gets-nod "$stream_detail (want the hello, one nod, no shake, state lines)"
fi

# ---------------------------------------------------------------- (d) a fault made from the kernel side
# The registers go back to their power-on values, as after a power glitch: INT_PIN_CFG 0, GYRO_CONFIG 0,
# ACCEL_CONFIG 0 and all data 0. The program must notice (the configuration read-back no longer matches, and an
# all-zero accelerometer is no measurement), keep running and show the fault while the data stays dead.
mpu 0x1b 0 0 i
mpu 0x37 0
mpu 0x3b 0 0 0 0 0 0 0 0 0 0 0 0 0 0 i
sleep 1
watch_lines 4000 $STATUS
if is_fault_blink $STATUS && alive; then
    result PASS fault-fast-blink "registers at reset values: status $(stats $STATUS), program still running"
else
    result FAIL fault-fast-blink "registers at reset values: status $(stats $STATUS) (want ~20 flashes at 5 Hz); alive: $(alive && echo yes || echo no); log: $(tail_log /tmp/main.log)"
fi
seen=$(registers)
if [ "$seen" = "$want_registers" ]; then result PASS reset-chip-reconfigured "$seen"
else result FAIL reset-chip-reconfigured "$seen (want $want_registers)"; fi
preset_chips; set_heading 0; set_pitch_rate 0     # the chip is back: the program must re-initialise it
sleep 1
watch_lines 4000 $STATUS $NORTH
if is_heartbeat $STATUS && alive && [ "$W_22_last" = 1 ]; then
    result PASS fault-recovered "registers restored: status $(stats $STATUS), north $(stats $NORTH)"
else
    result FAIL fault-recovered "registers restored: status $(stats $STATUS) (want heartbeat), north $(stats $NORTH) (want lit at the end); alive: $(alive && echo yes || echo no); log: $(tail_log /tmp/main.log)"
fi

stop_run
if [ "$RUN_STATUS" -eq 0 ]; then result PASS run-exits-on-sigterm "exit status 0; $(grep 'stopped' /tmp/main.log)"
else result FAIL run-exits-on-sigterm "exit status $RUN_STATUS; log: $(tail_log /tmp/main.log)"; fi

# ---------------------------------------------------------------- frozen data registers
# With the frozen-data check on (the default), registers that never change are a fault: i2c-stub's are exactly
# that, so the status line must blink fast while the program keeps running.
preset_chips; set_heading 0
write_config /tmp/frozen.json 22 0 true
start_run /tmp/frozen.json /tmp/frozen.log
sleep 2
watch_lines 4000 $STATUS
if is_fault_blink $STATUS && alive && grep -q frozen /tmp/frozen.log; then
    result PASS frozen-registers "unchanging registers: status $(stats $STATUS); log: $(grep -m1 frozen /tmp/frozen.log)"
else
    result FAIL frozen-registers "unchanging registers: status $(stats $STATUS) (want 5 Hz blink), alive: $(alive && echo yes || echo no); log: $(tail_log /tmp/frozen.log)"
fi
stop_run

# ---------------------------------------------------------------- heading sign, through the declination
# True heading = magnetic + declination. With +30 deg declination, magnetic 340 is true 10 (north LED on) and
# magnetic 20 is true 50 (off). A compass that turns the wrong way would show the opposite.
preset_chips; set_heading 340; set_pitch_rate 0
write_config /tmp/decl.json 22 30
start_run /tmp/decl.json /tmp/decl.log
if check_north_on $NORTH 40; then
    turn 340 20
    if wait_line $NORTH 0 5; then result PASS heading-direction "declination +30: magnetic 340 lit north, turning to magnetic 20 (true 50) put it out"
    else result FAIL heading-direction "declination +30: after turning to magnetic 20 (true 50) north is still lit 5 s later"; fi
else
    result FAIL heading-direction "declination +30: magnetic 340 (true 10) did not light north in 40 s; log: $(tail_log /tmp/decl.log)"
fi
stop_run

# ---------------------------------------------------------------- (e) negative control
# The same north check, but the program is told to drive north on line 26 (free in the default map). The
# harness must notice that line 22 stays low; if this check "passes", it could not tell a wrong line from the
# right one.
preset_chips; set_heading 0; set_pitch_rate 0; set_yaw_rate 0
write_config /tmp/wrong.json 26 0
start_run /tmp/wrong.json /tmp/wrong.log
# Wait until the program shows north on its (wrong) line, then apply the very check that passed above.
if ! wait_line 26 1 40; then
    result FAIL negative-control "north configured on line 26, but line 26 never went high; log: $(tail_log /tmp/wrong.log)"
elif check_north_on $NORTH 2; then
    result FAIL negative-control "north configured on line 26, yet the check on line $NORTH passed: the harness cannot see a wrong line"
else
    result PASS negative-control "north configured on line 26 (high): the north check on line $NORTH failed, as it must"
fi
stop_run

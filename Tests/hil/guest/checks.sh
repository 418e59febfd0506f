#!/bin/sh
# The checks, run inside the VM by /init. Each check prints exactly one line
#   HIL-RESULT PASS|FAIL <name> -- <what was seen>
# which run.sh on the host counts. Truth comes from the kernel side only: registers are preset with i2cset,
# LED lines are read from gpio-sim's sysfs value files.

result() { echo "HIL-RESULT $1 $2 -- $3"; }

# ---------------------------------------------------------------- the bus and the chips (i2c-stub)
BUS=""
for a in /sys/class/i2c-adapter/i2c-*; do
    [ "$(cat "$a/name")" = "SMBus stub driver" ] && BUS=${a##*/i2c-}
done
if [ -z "$BUS" ] || [ ! -c "/dev/i2c-$BUS" ]; then
    result FAIL i2c-stub-bus "no i2c-stub adapter or /dev/i2c-N (adapters: $(ls /sys/class/i2c-adapter))"
    exit 0
fi
I2C=/dev/i2c-$BUS

mpu() { i2cset -y "$BUS" 0x68 "$@" || result FAIL harness-i2cset "i2cset 0x68 $* failed"; }
ak() { i2cset -y "$BUS" 0x0c "$@" || result FAIL harness-i2cset "i2cset 0x0c $* failed"; }

# Register contents of an MPU-9250 + AK8963 sitting still and level: datasheet identities, az = +1 g.
preset_chips() {
    mpu 0x75 0x71                                   # WHO_AM_I: MPU-9250
    mpu 0x6b 0x01                                   # PWR_MGMT_1 reset value on the 9250
    mpu 0x3b 0 0 0 0 0x20 0 0 0 0 0 0 0 0 0 i       # ACCEL X,Y,Z = 0, 0, 8192 (1 g at +-4 g), TEMP, GYRO = 0
    ak 0x00 0x48                                    # WIA
    ak 0x10 0x80 0x80 0x80 i                        # ASAX..Z = 128: adjustment factor exactly 1
    ak 0x02 0x01                                    # ST1.DRDY (i2c-stub never clears it)
    ak 0x09 0x10                                    # ST2: BITM (16-bit output), HOFL clear
}

preset_chips
who=$(i2cget -y "$BUS" 0x68 0x75)
blk=$(i2cget -y "$BUS" 0x68 0x3f)
if [ "$who" = 0x71 ] && [ "$blk" = 0x20 ]; then
    result PASS i2c-stub-presets "$I2C: WHO_AM_I $who, ACCEL_ZOUT_H $blk"
else
    result FAIL i2c-stub-presets "$I2C: WHO_AM_I $who (want 0x71), ACCEL_ZOUT_H $blk (want 0x20)"
fi

# ---------------------------------------------------------------- the GPIO chip (gpio-sim via configfs)
SIMCFG=/sys/kernel/config/gpio-sim/hil
mkdir "$SIMCFG" "$SIMCFG/bank0"
echo 32 >"$SIMCFG/bank0/num_lines"
echo headtrack-sim >"$SIMCFG/bank0/label"
echo 1 >"$SIMCFG/live"
CHIP=$(cat "$SIMCFG/bank0/chip_name" 2>/dev/null)
SIMDIR=/sys/devices/platform/$(cat "$SIMCFG/dev_name" 2>/dev/null)/$CHIP
if [ -z "$CHIP" ] || [ ! -c "/dev/$CHIP" ] || [ ! -f "$SIMDIR/sim_gpio22/value" ]; then
    result FAIL gpio-sim-chip "gpio-sim did not come up (chip '$CHIP', dir $SIMDIR)"
    exit 0
fi
line() { cat "$SIMDIR/sim_gpio$1/value"; }

# The instrument itself: a line driven high through the uAPI v2 must read 1 in sysfs, its neighbour 0.
hil-tool hold "/dev/$CHIP" 22 1.5 &
holder=$!
sleep 0.5
held=$(line 22); neighbour=$(line 23)
wait $holder
released=$(line 22)
if [ "$held" = 1 ] && [ "$neighbour" = 0 ] && [ "$released" = 0 ]; then
    result PASS gpio-sim-instrument "/dev/$CHIP: line 22 driven high reads $held, line 23 reads $neighbour, 22 after release $released"
else
    result FAIL gpio-sim-instrument "/dev/$CHIP: line 22 driven high reads $held (want 1), line 23 $neighbour (want 0), 22 after release $released (want 0)"
fi

grep -q hil.infra_only=1 /proc/cmdline && exit 0
[ -x /bin/headtrack ] || { result FAIL headtrack-binary "/bin/headtrack missing from the initramfs"; exit 0; }
. /lib/hil/headtrack-checks.sh

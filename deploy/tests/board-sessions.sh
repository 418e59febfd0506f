# Sourced by deploy/tests/run.sh: --watch and --calibrate, which run headtrack on the board in a terminal.
# The release's binary is replaced by a script that records how it was started (the fake ELF cannot run here);
# runuser is a stand-in that records the user and runs the command (there is no user headtrack on this machine).
# Variables and helpers come from run.sh (SC2154), and OUT/RC/calls are read by check (SC2034).
# shellcheck shell=bash disable=SC2016,SC2154,SC2034

echo "# terminal sessions on the board"

make_board session "Raspberry Pi 4 Model B Rev 1.4" user-files i2c-on
with_deploy_sh session deploy "$T/v1" v1
# behaviour=ok keeps the systemctl stand-in's start succeeding with this "binary".
cat >"$R/opt/headtrack/releases/v1/headtrack" <<STANDIN
#!/bin/bash
behaviour=ok
echo "headtrack \$* (as \${HT_USER:-root})" >>"$SIM/calls"
case \$1 in
    watch) echo "live view: \$*" ;;
    calibrate)
        if [ -e "$T/interrupt-calibration" ]; then kill -INT 0; sleep 5; exit 1; fi
        echo '{ "calibrated": true }' >"$R/var/lib/headtrack/calibration.json"
        echo "calibration saved" ;;
esac
STANDIN
: >"$SIM/calls"

run_deploy "${ssh_args[@]}" --target-root "$R" --watch root@127.0.0.1 -- --json
check "--watch: runs headtrack watch on the board as the service user, options after -- passed on" \
    eval '[ "$RC" = 0 ] && has "live view: watch --json" && called "^headtrack watch --json \(as headtrack\)$"'

: >"$SIM/calls"
run_deploy "${ssh_args[@]}" --target-root "$R" --calibrate root@127.0.0.1
calls=$(grep -E '^(systemctl (stop|start)|headtrack calibrate)' "$SIM/calls" | cut -d' ' -f1-2 | tr '\n' ',')
check "--calibrate: stops the service, calibrates as headtrack with the board's config, starts the service again" \
    eval '[ "$RC" = 0 ] && [ "$calls" = "systemctl stop,headtrack calibrate,systemctl start," ] &&
          called "^headtrack calibrate --config $R/etc/headtrack/config.json \(as headtrack\)$" &&
          [ "$(cat "$SIM/active")" = active ] && grep -q calibrated "$R/var/lib/headtrack/calibration.json"'

: >"$SIM/calls"
touch "$T/interrupt-calibration"
printf '%s\n' "$USER_CALIBRATION" >"$R/var/lib/headtrack/calibration.json"
run_deploy "${ssh_args[@]}" --target-root "$R" --calibrate root@127.0.0.1
rm -f "$T/interrupt-calibration"
calls=$(grep -E '^(systemctl (stop|start)|headtrack calibrate)' "$SIM/calls" | cut -d' ' -f1-2 | tr '\n' ',')
check "--calibrate interrupted (Ctrl-C): the service is started again, exit 130, old calibration kept" \
    eval '[ "$RC" = 130 ] && [ "$calls" = "systemctl stop,headtrack calibrate,systemctl start," ] &&
          [ "$(cat "$SIM/active")" = active ] && has "interrupted" && user_files_intact'

: >"$SIM/calls"
echo inactive >"$SIM/active"
run_deploy "${ssh_args[@]}" --target-root "$R" --calibrate root@127.0.0.1
check "--calibrate with the service stopped by hand: it stays stopped" \
    eval '[ "$RC" = 0 ] && not_called "systemctl start" && [ "$(cat "$SIM/active")" = inactive ]'

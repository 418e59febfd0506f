# Sourced by deploy/tests/run.sh (its helpers, sshd and stand-ins): deploys that something interrupts.
# Each case is a reproducer from issue 13 and failed before the fix: a stale `current.new` link, the connection
# dropping during the health check, a long $TMPDIR.
# Variables and helpers come from run.sh (SC2154), and OUT/RC/calls are read by check (SC2034).
# shellcheck shell=bash disable=SC2016,SC2154,SC2034

echo "# interrupted deploys"

# A deploy that died between `ln -s` and `mv` left current.new -> releases/v1. Before: the next deploy created
# releases/v1/v4, renamed the stale link over current (so current stayed v1) and printed "done".
make_board stale "Raspberry Pi 4 Model B Rev 1.4" "" i2c-on
with_deploy_sh stale deploy "$T/v1" v1
with_deploy_sh stale deploy "$T/v2" v2
ln -s releases/v1 "$R/opt/headtrack/current.new"
with_deploy_sh stale deploy "$T/v4" v4
check "stale current.new link: the deploy switches current to the new release" \
    eval '[ "$RC" = 0 ] && has "done" && [ "$(link current)" = releases/v4 ] && [ "$(link previous)" = releases/v2 ]'
check "... the stale link is gone and nothing was created inside the old release" \
    eval '[ -z "$(cd "$R/opt/headtrack" && ls -d current.new* 2>/dev/null)" ] && [ ! -e "$R/opt/headtrack/releases/v1/v4" ] && [ ! -L "$R/opt/headtrack/releases/v1/v4" ]'

# The connection drops (every sshd process serving it is killed, as when Wi-Fi goes) while the board waits for the
# new release to become ready; that release then fails. Before: no rollback, current stayed on the failed
# release, no FAILED mark, and deploy said it could not reach the board.
drop_connections() { # kill the sshd processes below the listener (not the sessions' shells)
    local pid child
    for pid in $(pgrep -P "$(cat "$T/sshd.pid")"); do
        for child in $(pgrep -P "$pid" -x sshd); do kill -KILL "$child" 2>/dev/null; done
        kill -KILL "$pid" 2>/dev/null
    done
}
wait_for_call() { # pattern seconds: until the stand-ins recorded a matching call
    for _ in $(seq $(($2 * 10))); do
        if grep -qE -- "$1" "$SIM/calls"; then return 0; fi
        sleep 0.1
    done
    return 1
}
fake_binary "$T/v-slow-bad" aarch64 fail "error: no IMU answered on /dev/i2c-1 at 0x68 or 0x69" 3
make_board cut "Raspberry Pi 4 Model B Rev 1.4" "" i2c-on
with_deploy_sh cut deploy "$T/v1" v1
: >"$SIM/calls"
"$deploy" "${ssh_args[@]}" --target-root "$R" --settle 0 --health-timeout 10 --binary "$T/v-slow-bad" --version v-cut \
    root@127.0.0.1 >"$T/cut.out" 2>&1 &
cut_pid=$!
if wait_for_call "systemctl restart" 30; then drop_connections; fi
wait "$cut_pid"
RC=$?
OUT=$(cat "$T/cut.out")
show_output
check "dropped connection during the health check: the board still rolls back (deploy exit 3)" \
    eval '[ "$RC" = 3 ] && [ "$(link current)" = releases/v1 ] && [ "$(grep -c "systemctl restart" "$SIM/calls")" = 2 ]'
check "... and marks the release FAILED" test -f "$R/opt/headtrack/releases/v-cut/FAILED"
check "... deploy reconnects and reports what the board did while it was away" \
    eval 'has "connection to root@127.0.0.1 dropped" && has "ROLLED BACK to v1" && has "no IMU answered"'
run_deploy "${ssh_args[@]}" --target-root "$R" --status root@127.0.0.1
check "... --status shows the outcome of that deploy" eval 'has "last deploy: v-cut" && has "rolled back to v1"'

# The laptop goes away entirely (deploy.sh and its ssh killed) during the health check: the board carries on alone.
: >"$SIM/calls"
setsid "$deploy" "${ssh_args[@]}" --target-root "$R" --settle 0 --health-timeout 10 --binary "$T/v-slow-bad" \
    --version v-gone root@127.0.0.1 >/dev/null 2>&1 &
gone_pid=$!
if wait_for_call "systemctl restart" 30; then kill -KILL -- "-$gone_pid" 2>/dev/null; drop_connections; fi
{ wait "$gone_pid"; } 2>/dev/null
# The board needs about 3 s for the failed start and the rollback, under the deploy lock.
flock -w 60 "$R/run/headtrack-deploy.lock" true
check "deploy.sh killed during the health check: the board rolls back alone and marks the release FAILED" \
    eval '[ "$(link current)" = releases/v1 ] && test -f "$R/opt/headtrack/releases/v-gone/FAILED"'
OUT=$(HEADTRACK_TARGET_ROOT=$R bash "$repo/deploy/remote-install.sh" await --version v-gone --timeout 60 2>&1)
RC=$?
show_output
check "... remote-install.sh await (what deploy.sh runs after reconnecting) reports it: exit 3" \
    eval '[ "$RC" = 3 ] && has "ROLLED BACK to v1" && has "outcome: v-gone failed its health check"'

# The same for --rollback: its health check also runs detached, and deploy.sh picks up the outcome.
with_deploy_sh cut deploy "$T/v2" v2
echo 'delay=3' >>"$R/opt/headtrack/releases/v1/headtrack" # v1 now takes 3 s to become ready
: >"$SIM/calls"
"$deploy" "${ssh_args[@]}" --target-root "$R" --settle 0 --health-timeout 10 --rollback root@127.0.0.1 >"$T/cut.out" 2>&1 &
cut_pid=$!
if wait_for_call "systemctl restart" 30; then drop_connections; fi
wait "$cut_pid"
RC=$?
OUT=$(cat "$T/cut.out")
show_output
check "dropped connection during a rollback's health check: the board finishes it, deploy reports success" \
    eval '[ "$RC" = 0 ] && has "dropped" && has "READY received" && [ "$(link current)" = releases/v1 ] && [ "$(link previous)" = releases/v2 ]'

# macOS gives TMPDIR about 50 characters; 100 here. Before: ssh refused "ControlPath too long" on every deploy.
long_tmp=$T/long
while [ "${#long_tmp}" -lt 100 ]; do long_tmp=${long_tmp}x; done
mkdir -p "$long_tmp"
use_board stale
TMPDIR=$long_tmp run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --health-timeout 3 --binary "$T/v2" --version v-longtmp root@127.0.0.1
check "a ${#long_tmp}-character TMPDIR: deploy works (the ssh control socket lives in /tmp/ht-*)" \
    eval '[ "$RC" = 0 ] && [ "$(link current)" = releases/v-longtmp ]'

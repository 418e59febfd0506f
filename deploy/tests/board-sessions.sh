# Sourced by deploy/tests/run.sh: --watch and --calibrate, which run headtrack on the board in a terminal.
# The release's binary is replaced by a script that records how it was started (the fake ELF cannot run here);
# runuser is a stand-in that records the user and runs the command (there is no user headtrack on this machine).
# Variables and helpers come from run.sh (SC2154), and OUT/RC/calls are read by check (SC2034).
# shellcheck shell=bash disable=SC2016,SC2154,SC2034

echo "# terminal sessions on the board"

# --view runs the real headtrack view (this machine's debug build) on the "board".
real_headtrack=$( (cd "$repo" && swift build --product headtrack >"$T/view-build.log" 2>&1 && swift build --show-bin-path) )/headtrack
make_board session "Raspberry Pi 4 Model B Rev 1.4" user-files i2c-on
with_deploy_sh session deploy "$T/v1" v1
# behaviour=ok keeps the systemctl stand-in's start succeeding with this "binary".
cat >"$R/opt/headtrack/releases/v1/headtrack" <<STANDIN
#!/bin/bash
behaviour=ok
echo "headtrack \$* (as \${HT_USER:-root})" >>"$SIM/calls"
case \$1 in
    watch) echo "live view: \$*" ;;
    view) shift; exec "$real_headtrack" view "\$@" ;;
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

# --view: headtrack view on the "board" (this machine) reading a simulated tracker's stream, reached through the
# forward deploy makes, as a browser would; a stand-in xdg-open records what it was asked to open.
if [ -x "$real_headtrack" ]; then
    view_sock=$T/view-events.sock
    "$real_headtrack" run --simulated --socket "$view_sock" --duration 120 --quiet >"$T/view-tracker.log" 2>&1 &
    view_tracker=$!
    view_local=$(free_port) view_board=$(free_port)
    printf '#!/bin/sh\necho "$1" >>%q/xdg-open-calls\n' "$T" >"$T/localbin/xdg-open"
    chmod +x "$T/localbin/xdg-open"
    : >"$SIM/calls"
    # deploy runs in a terminal of its own (a pty), and Ctrl-C is typed there: the terminal's SIGINT is what ends it.
    OUT=$(PATH=$T/localbin:$PATH DISPLAY=:99 python3 - "$view_local" "$deploy" "${ssh_args[@]}" --target-root "$R" --view \
        --local-port "$view_local" --board-port "$view_board" root@127.0.0.1 -- --socket "$view_sock" <<'PY' 2>&1
import os, pty, signal, sys, time, urllib.request
port, command = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.execv(command[0], command)
output = b""
def read(until, timeout):
    global output
    end = time.time() + timeout
    while time.time() < end and until not in output:
        try:
            output += os.read(fd, 65536)
        except OSError:
            break
read(f"live page: http://127.0.0.1:{port}/".encode(), 30)
base = f"http://127.0.0.1:{port}"
page = urllib.request.urlopen(base + "/", timeout=10).read().decode()
print("title ok" if "<title>headtrack view</title>" in page else "no title")
stream = urllib.request.urlopen(base + "/events", timeout=10)
end = time.time() + 10
while time.time() < end:
    line = stream.readline().decode()
    if line.startswith("data: ") and '"type":"hello"' in line:
        print("hello: " + line.strip()[:120]); break
stream.close()
os.write(fd, b"\x03")  # Ctrl-C
read(b"ended", 30)
for _ in range(300):
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    time.sleep(0.1)
else:
    os.kill(pid, signal.SIGKILL)
    done, status = os.waitpid(pid, 0)
print(output.decode(errors="replace").replace("\r", ""))
print("exit status", os.waitstatus_to_exitcode(status))
PY
)
    RC=$(sed -n 's/^exit status //p' <<<"$OUT")
    check "--view: starts headtrack view on the board as the service user, forwards it, prints the local URL and opens it" \
        eval '[ -n "$view_local" ] && has "live page: http://127.0.0.1:$view_local/" && has "title ok" &&
              has "hello: data: {\"type\":\"hello\",\"version\":1,\"imu\":\"MPU-9250" &&
              called "^headtrack view --port $view_board --socket $view_sock \(as headtrack\)$" &&
              [ "$(cat "$T/xdg-open-calls" 2>/dev/null)" = "http://127.0.0.1:$view_local/" ]'
    closed() { python3 -c 'import socket,sys; s=socket.socket(); s.settimeout(2)
try: s.connect(("127.0.0.1", int(sys.argv[1]))); print("open")
except ConnectionRefusedError: print("refused")' "$1"; }
    for _ in $(seq 50); do [ "$(closed "$view_board")" = refused ] && break; sleep 0.1; done
    check "--view: Ctrl-C ends the forward here and the view on the board (exit 0)" \
        eval '[ "$RC" = 0 ] && has "ended" && [ "$(closed "$view_local")" = refused ] && [ "$(closed "$view_board")" = refused ]'
    # The laptop's port already taken: a clear error, and nothing left running on the board.
    python3 -c 'import socket,sys,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); time.sleep(30)' "$view_local" &
    blocker=$!
    sleep 0.3
    run_deploy "${ssh_args[@]}" --target-root "$R" --view --local-port "$view_local" --board-port "$view_board" root@127.0.0.1 -- --socket "$view_sock"
    kill "$blocker"; wait "$blocker" 2>/dev/null
    check "--view with the local port in use: says to give another --local-port, exit 1, no view left on the board" \
        eval '[ "$RC" = 1 ] && has "port $view_local here is in use" && has "--local-port" && [ "$(closed "$view_board")" = refused ]'
    kill "$view_tracker" 2>/dev/null
    wait "$view_tracker" 2>/dev/null
    rm -f "$T/localbin/xdg-open"
else
    fail "--view: no headtrack build to run on the board" "$(tail -20 "$T/view-build.log")"
fi

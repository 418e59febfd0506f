#!/usr/bin/env bash
# End-to-end test of deploy/deploy.sh and the Ansible playbook against a real OpenSSH server on 127.0.0.1.
#
# Nothing of this machine is changed apart from installing missing tools (openssh-server, ansible-core, systemd)
# and creating /run/sshd, which sshd insists on. sshd runs from a throw-away config with its own host key on free
# high ports; we log in as root through a throw-away key listed in a temporary AuthorizedKeysFile, and sessions
# get HOME and PATH from that config, so root's dotfiles are not read. Every board path goes under a fake board
# root (--target-root). systemctl, journalctl, udevadm, modprobe and uname on the "board" are recording stand-ins,
# because no systemd runs here; the systemctl stand-in "starts" whatever binary /opt/headtrack/current points to
# and fails the start when that binary is marked bad, like a daemon that exits before READY=1.
#
# Prints "N passed, M failed" last; exits non-zero if anything failed. VERBOSE=1 also shows every deploy's output.
# Stand-in bodies are written in single quotes on purpose (they expand on the "board"), and the fake ELF
# header is built from octal escapes in printf formats.
# shellcheck disable=SC2016,SC2059
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
deploy=$repo/deploy/deploy.sh

passed=0 failed=0
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; if [ -n "${2:-}" ]; then printf '%s\n' "$2" | sed 's/^/     | /'; fi; }
# check DESCRIPTION COMMAND... : passes when COMMAND succeeds; on failure shows the last command output.
check() { local d=$1; shift; if "$@"; then pass "$d"; else fail "$d" "$OUT"; fi; }
OUT=""


# MARK: - tools (installed only when missing, so repeated runs are fast)

need_root_for() { [ "$(id -u)" = 0 ] || { echo "run as root to install $1 (or install it yourself)" >&2; exit 1; }; }
if [ ! -x /usr/sbin/sshd ]; then
    need_root_for openssh-server
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q openssh-server >/dev/null || { echo "apt-get install openssh-server failed" >&2; exit 1; }
fi
if ! command -v systemd-analyze >/dev/null; then
    need_root_for systemd
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q systemd >/dev/null || { echo "apt-get install systemd failed" >&2; exit 1; }
fi
if ! command -v ansible-playbook >/dev/null; then
    python3 -m pip install -q ansible-core || { echo "pip install ansible-core failed" >&2; exit 1; }
    hash -r
fi
[ "$(id -u)" = 0 ] || { echo "this test logs in as root over ssh and must run as root" >&2; exit 1; }

# MARK: - scratch space, sshd, stand-ins

T=$(mktemp -d /tmp/headtrack-deploy-test.XXXXXX)
cleanup() {
    local socket
    # Ansible's persistent ssh masters keep their sessions (and sshd children) alive; close them first.
    for socket in "$T"/ansible/cp/*; do
        if [ -S "$socket" ]; then ssh -o ControlPath="$socket" -O exit placeholder 2>/dev/null; fi
    done
    if [ -f "$T/sshd.pid" ]; then kill "$(cat "$T/sshd.pid")" 2>/dev/null; fi
    rm -rf "$T"
}
trap cleanup EXIT
mkdir -p "$T/home" "$T/bin" "$T/armv6-bin" "$T/localbin" "$T/boards" "$T/ansible"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
ARMV6_PORT=$(free_port)
CLOSED_PORT=$(free_port) # bound and released: nothing listens there

ssh-keygen -q -t ed25519 -N '' -C headtrack-test-host -f "$T/host_key"
ssh-keygen -q -t ed25519 -N '' -C headtrack-test-client -f "$T/client_key"
ssh-keygen -q -t ed25519 -N '' -C some-other-machine -f "$T/other_host_key"
cp "$T/client_key.pub" "$T/authorized_keys"
{
    echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$T/host_key.pub")"
    echo "[127.0.0.1]:$ARMV6_PORT $(cut -d' ' -f1,2 "$T/host_key.pub")"
} >"$T/known_hosts"
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$T/other_host_key.pub")" >"$T/wrong_known_hosts"

board_path=$T/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin
cat >"$T/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $PORT
Port $ARMV6_PORT
HostKey $T/host_key
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
SetEnv PATH=$board_path HOME=$T/home
# The same machine answering as a Pi Zero W (armv6l) on the second port.
Match LocalPort $ARMV6_PORT
    SetEnv PATH=$T/armv6-bin:$board_path HOME=$T/home
EOF
mkdir -p /run/sshd
/usr/sbin/sshd -t -f "$T/sshd_config" || { echo "sshd rejected the test config" >&2; exit 1; }
/usr/sbin/sshd -f "$T/sshd_config" -E "$T/sshd.log" || { echo "sshd did not start" >&2; exit 1; }

# The stand-ins find the board being deployed to through $T/current-board (its directory: root/ and sim/).
stand_in() { # name body
    printf '#!/bin/bash\nB=$(cat %q/current-board); R=$B/root; S=$B/sim\necho "%s $*" >>"$S/calls"\n%s\n' "$T" "$1" "$2" >"$T/bin/$1"
    chmod +x "$T/bin/$1"
}
stand_in systemctl '
unit_state() { cat "$S/active" 2>/dev/null || echo inactive; }
case $1 in
    --version) echo "systemd 252 (252.39-1~deb12u2)" ;;
    is-enabled) if [ -e "$S/enabled" ]; then echo enabled; else echo disabled; exit 1; fi ;;
    enable) touch "$S/enabled" ;;
    restart | start)
        bin=$R/opt/headtrack/current/headtrack
        # A real headtrack (the cross-built one): it has to start on the board architecture and answer --help.
        if [ -x "$B/../../run-real" ] && [ -f "$bin" ] && ! grep -q "^behaviour=" "$bin"; then
            if "$B/../../run-real" "$bin" --help >/dev/null 2>>"$S/journal"; then
                echo "headtrack[4242]: the real binary answered --help" >>"$S/journal"; echo active >"$S/active"; exit 0
            fi
            echo failed >"$S/active"; exit 1
        fi
        message=$(sed -n "s/^message=//p" "$bin" 2>/dev/null)
        # delay=S: the start job takes S seconds (a real restart blocks until READY=1 or the failure).
        delay=$(sed -n "s/^delay=//p" "$bin" 2>/dev/null)
        if [ -n "$delay" ]; then sleep "$delay"; fi
        echo "headtrack[4242]: ${message:-no binary at $bin}" >>"$S/journal"
        if grep -q "^behaviour=ok" "$bin" 2>/dev/null; then echo active >"$S/active"; exit 0; fi
        echo failed >"$S/active"
        echo "Job for headtrack.service failed because the control process exited with error code." >&2
        exit 1 ;;
    stop) echo inactive >"$S/active" ;;
    is-active) unit_state; [ "$(unit_state)" = active ] ;;
    show)
        state=$(unit_state)
        sub=dead; [ "$state" = active ] && sub=running; [ "$state" = failed ] && sub=failed
        printf "Type=notify\nActiveState=%s\nSubState=%s\nNRestarts=0\nStatusText=%s\n" "$state" "$sub" \
            "$( [ "$state" = active ] && echo "tracking: MPU-9250 on /dev/i2c-1")" ;;
esac'
stand_in journalctl 'tail -n 20 "$S/journal" 2>/dev/null'
stand_in udevadm ':'
stand_in modprobe 'mkdir -p "$R/sys/module/${1//-/_}"'
stand_in uname 'case ${1:-} in -m) cat "$S/machine" 2>/dev/null || echo aarch64 ;; *) exec /bin/uname "$@" ;; esac'
# A 32-bit Raspberry Pi OS may run a 64-bit kernel: uname -m says aarch64, getconf LONG_BIT says 32.
stand_in getconf 'if [ "${1:-}" = LONG_BIT ] && [ -f "$S/long-bit" ]; then cat "$S/long-bit"; else exec /usr/bin/getconf "$@"; fi'
# runuser -u USER -- CMD...: no user headtrack exists on this machine, so record the call and run CMD as root,
# telling it through HT_USER whom it would run as.
stand_in runuser 'user=""; while [ $# -gt 0 ]; do case $1 in -u) user=$2; shift ;; --) shift; break ;; esac; shift; done
HT_USER=$user exec "$@"'
printf '#!/bin/sh\ncase ${1:-} in -m) echo armv6l ;; *) exec /bin/uname "$@" ;; esac\n' >"$T/armv6-bin/uname"
chmod +x "$T/armv6-bin/uname"

# A "binary": a real ELF header for the given machine, then lines the systemctl stand-in reads.
fake_binary() { # path machine(aarch64|arm|x86_64) behaviour(ok|fail) message [start-delay-seconds]
    local machine class
    case $2 in aarch64) machine='\267\000' class='\002' ;; arm) machine='\050\000' class='\001' ;; x86_64) machine='\076\000' class='\002' ;; esac
    {
        printf "\177ELF$class\001\001"
        printf '\000%.0s' $(seq 9)
        printf "\002\000$machine"
        printf '\000%.0s' $(seq 44)
        printf '\nbehaviour=%s\nmessage=%s\n' "$3" "$4"
        if [ -n "${5:-}" ]; then printf 'delay=%s\n' "$5"; fi
    } >"$1"
    chmod +x "$1"
}
fake_binary "$T/v1" aarch64 ok "headtrack 1 tracking"
fake_binary "$T/v2" aarch64 ok "headtrack 2 tracking"
fake_binary "$T/v3-bad" aarch64 fail "error: no IMU answered on /dev/i2c-1 at 0x68 or 0x69"
fake_binary "$T/v-armhf" arm ok "headtrack armhf tracking"
fake_binary "$T/v-x86" x86_64 ok "headtrack for a PC"

# MARK: - fake boards

USER_CONFIG='{ "gpio": { "chip": "pinctrl-bcm2711", "leds": { "status": 26 } }, "declinationDeg": 3.5 }'
USER_CALIBRATION='{ "magnetometer": { "hardIron": [12.5, -3.0, 40.25] } }'
ORIGINAL_CONFIG_TXT='# Raspberry Pi OS Bookworm config.txt (shortened)
dtparam=audio=on
camera_auto_detect=1
arm_64bit=1

[cm4]
otg_mode=1'

# make_board NAME MODEL [user-files] [i2c-on]: a Raspberry Pi OS-like root, optionally with the user's config and
# calibration already there and I2C already enabled.
make_board() {
    local b=$T/boards/$1 r=$T/boards/$1/root
    mkdir -p "$r/etc" "$r/boot/firmware" "$r/proc/device-tree" "$r/opt" "$r/var/lib" "$b/sim"
    printf 'root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n' >"$r/etc/passwd"
    printf 'root:x:0:\npi:x:1000:\ni2c:x:998:pi\ngpio:x:997:pi\n' >"$r/etc/group"
    printf 'root:*:19000:0:99999:7:::\npi:*:19000:0:99999:7:::\n' >"$r/etc/shadow"
    printf 'root:*::\npi:!::\ni2c:!::pi\ngpio:!::pi\n' >"$r/etc/gshadow"
    printf 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n' >"$r/etc/os-release"
    printf '%s\000' "$2" >"$r/proc/device-tree/model"
    printf '%s\n' "$ORIGINAL_CONFIG_TXT" >"$r/boot/firmware/config.txt"
    if [ "${4:-}" = i2c-on ]; then printf 'dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n' >>"$r/boot/firmware/config.txt"; fi
    printf 'DO NOT EDIT THIS FILE\n\nThe file you are looking for has moved to /boot/firmware/config.txt\n' >"$r/boot/config.txt"
    if [ "${3:-}" = user-files ]; then
        mkdir -p "$r/etc/headtrack" "$r/var/lib/headtrack"
        printf '%s\n' "$USER_CONFIG" >"$r/etc/headtrack/config.json"
        printf '%s\n' "$USER_CALIBRATION" >"$r/var/lib/headtrack/calibration.json"
    fi
}

use_board() { echo "$T/boards/$1" >"$T/current-board"; R=$T/boards/$1/root; SIM=$T/boards/$1/sim; : >"$SIM/calls"; }

# Everything under the board root that a deploy could change: type, mode, owner, size, link target, content.
snapshot() { # root [extra find args...]
    (cd "$1" && find . -path ./run -prune -o -path ./sys -prune -o -path ./usr -prune -o \
        -printf '%p %y %m %U:%G %s %l\n' | sort
     cd "$1" && find . -path ./run -prune -o -path ./sys -prune -o -path ./usr -prune -o -type f -print0 | sort -z | xargs -0 sha256sum)
}
# ... apart from that release, the links and the record of the last deploy (last-deploy, last-deploy.log).
without_release() { grep -v -e "^\./opt/headtrack/releases/$1[ /]" -e '^\./opt/headtrack/current ' -e '^\./opt/headtrack/previous ' -e " \./opt/headtrack/releases/$1/" -e '\./opt/headtrack/last-deploy'; }

link() { readlink "$R/opt/headtrack/$1" 2>/dev/null; }
same_file() { cmp -s "$1" "$2"; }
has() { grep -qF -- "$1" <<<"$OUT"; }
called() { grep -qE -- "$1" "$SIM/calls"; }
not_called() { ! grep -qE -- "$1" "$SIM/calls"; }
user_files_intact() {
    [ "$(cat "$R/etc/headtrack/config.json")" = "$USER_CONFIG" ] &&
        [ "$(cat "$R/var/lib/headtrack/calibration.json")" = "$USER_CALIBRATION" ]
}
headtrack_in_group() { awk -F: -v g="$1" '$1 == g { n = split($4, m, ","); for (i = 1; i <= n; i++) if (m[i] == "headtrack") f = 1 } END { exit !f }' "$R/etc/group"; }
block_count() { grep -c '^# >>> headtrack' "$R/boot/firmware/config.txt"; }

# MARK: - drivers: deploy.sh and the Ansible playbook, same arguments

ssh_args=(-p "$PORT" -i "$T/client_key" -o "UserKnownHostsFile=$T/known_hosts")
RC=0
# How each driver reports remote-install.sh's exit 3 (health check failed, rolled back).
rolled_back_status() {
    case $driver in
        with_deploy_sh) [ "$RC" = 3 ] ;;
        with_ansible) [ "$RC" != 0 ] && has "remote-install.sh exit 3" ;;
    esac
}
with_deploy_sh() { # board action args... (action: deploy BINARY VERSION | rollback)
    local board=$1 action=$2
    shift 2
    use_board "$board"
    case $action in
        deploy) run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --health-timeout 3 --binary "$1" --version "$2" root@127.0.0.1 ;;
        rollback) run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --health-timeout 3 --rollback root@127.0.0.1 ;;
    esac
}
run_deploy() { OUT=$("$deploy" "$@" 2>&1); RC=$?; show_output; }
show_output() { if [ "${VERBOSE:-0}" = 1 ]; then printf '%s\n(exit %s)\n' "$OUT" "$RC" | sed 's/^/     > /'; fi; }

cat >"$T/ansible/inventory.ini" <<EOF
[headsets]
board ansible_host=127.0.0.1 ansible_port=$PORT ansible_user=root ansible_become=false ansible_ssh_private_key_file=$T/client_key ansible_ssh_common_args='-o UserKnownHostsFile=$T/known_hosts' ansible_python_interpreter=/usr/bin/python3
EOF
# Every directory Ansible would otherwise create under ~/.ansible (local and "remote" tmp, ssh control sockets).
playbook() {
    ANSIBLE_CONFIG=$repo/deploy/ansible/ansible.cfg ANSIBLE_INVENTORY=$T/ansible/inventory.ini ANSIBLE_NOCOLOR=1 \
        ANSIBLE_HOME=$T/ansible/home ANSIBLE_LOCAL_TEMP=$T/ansible/local-tmp ANSIBLE_REMOTE_TEMP=$T/ansible/remote-tmp \
        ANSIBLE_SSH_CONTROL_PATH_DIR=$T/ansible/cp ansible-playbook "$repo/deploy/ansible/deploy.yml" "$@"
}
with_ansible() { # board action args...
    local board=$1 action=$2 extra=()
    shift 2
    use_board "$board"
    case $action in
        deploy) extra=(-e "headtrack_binary=$1" -e "headtrack_version=$2") ;;
        rollback) extra=(-e headtrack_action=rollback) ;;
    esac
    OUT=$(playbook -e "headtrack_target_root=$R" -e headtrack_settle=0 -e headtrack_health_timeout=3 "${extra[@]}" 2>&1)
    RC=$?
    show_output
}

# The same story for both drivers: first install on a fresh board, reboot, an update, a bad update, a rollback.
deploy_story() { # driver board
    local driver=$1 board=$2 name=${1#with_} before after
    make_board "$board" "Raspberry Pi 4 Model B Rev 1.4" user-files

    $driver "$board" deploy "$T/v1" v1
    check "$name: first deploy succeeds" [ "$RC" = 0 ]
    check "$name: binary in releases/v1" same_file "$T/v1" "$R/opt/headtrack/releases/v1/headtrack"
    check "$name: current -> releases/v1 (relative symlink)" [ "$(link current)" = releases/v1 ]
    check "$name: unit installed" same_file "$repo/board/headtrack.service" "$R/etc/systemd/system/headtrack.service"
    check "$name: udev rules installed" same_file "$repo/board/99-headtrack.rules" "$R/etc/udev/rules.d/99-headtrack.rules"
    check "$name: i2c-dev loaded at boot" [ "$(cat "$R/etc/modules-load.d/headtrack.conf")" = i2c-dev ]
    check "$name: user headtrack created" grep -q '^headtrack:x:[0-9]*:[0-9]*:.*:/usr/sbin/nologin$' "$R/etc/passwd"
    check "$name: headtrack in groups i2c and gpio" eval 'headtrack_in_group i2c && headtrack_in_group gpio'
    check "$name: existing config and calibration untouched" user_files_intact
    check "$name: I2C block appended to /boot/firmware/config.txt, original kept" \
        eval '[ "$(head -n 7 "$R/boot/firmware/config.txt")" = "$ORIGINAL_CONFIG_TXT" ] && [ "$(block_count)" = 1 ] &&
              tail -n 4 "$R/boot/firmware/config.txt" | tr "\n" " " | grep -q "^\[all\] dtparam=i2c_arm=on dtparam=i2c_arm_baudrate=400000 # <<< headtrack"'
    check "$name: old /boot/config.txt stub left alone" grep -q '^DO NOT EDIT' "$R/boot/config.txt"
    check "$name: says a reboot is needed and does not start the service yet" \
        eval 'has "REBOOT NEEDED" && not_called "systemctl restart" && called "systemctl enable headtrack.service"'

    rm -rf "$R/run" # the reboot: /run is a tmpfs
    before=$(snapshot "$R")
    $driver "$board" deploy "$T/v2" v2
    after=$(snapshot "$R")
    check "$name: second deploy succeeds with a health check" eval '[ "$RC" = 0 ] && has "READY received" && called "systemctl restart"'
    check "$name: current -> v2, previous -> v1" eval '[ "$(link current)" = releases/v2 ] && [ "$(link previous)" = releases/v1 ]'
    OUT=$(diff <(without_release v2 <<<"$before") <(without_release v2 <<<"$after"))
    check "$name: second deploy is a no-op apart from the new release" [ -z "$OUT" ]
    check "$name: ... and reloads, enables, re-triggers nothing" \
        eval 'not_called "daemon-reload|systemctl enable|udevadm|modprobe|useradd|groupadd"'

    $driver "$board" deploy "$T/v3-bad" v3
    check "$name: failing health check fails the deploy (remote-install exit 3)" rolled_back_status
    check "$name: ... says why, with the journal" eval 'has "ROLLED BACK to v2" && has "no IMU answered on /dev/i2c-1"'
    check "$name: ... current is v2 again, previous v1" eval '[ "$(link current)" = releases/v2 ] && [ "$(link previous)" = releases/v1 ]'
    check "$name: ... v2 was restarted after the rollback" [ "$(grep -c 'systemctl restart' "$SIM/calls")" = 2 ]
    check "$name: ... v3 kept and marked FAILED" test -f "$R/opt/headtrack/releases/v3/FAILED"
    check "$name: ... config and calibration untouched" user_files_intact

    $driver "$board" rollback
    check "$name: rollback succeeds" eval '[ "$RC" = 0 ] && has "READY received"'
    check "$name: ... current -> v1, previous -> v2" eval '[ "$(link current)" = releases/v1 ] && [ "$(link previous)" = releases/v2 ]'
    check "$name: ... config and calibration untouched" user_files_intact
}

# MARK: - tests

echo "# board files"
OUT=$(python3 - "$repo/board" <<'EOF' 2>&1
import json, re, sys, pathlib
board = pathlib.Path(sys.argv[1])
# The config reader allows // comment lines; json does not.
default = json.loads(re.sub(r"(?m)^\s*//.*$", "", (board / "config.json").read_text()))
# gpiochip labels per board: hardware-facts 2.3 (Pi 3/Zero 2 W: bcm2835 driver, Pi 4: bcm2711, Pi 5: RP1).
expected = {"pi3b": "pinctrl-bcm2835", "zero2w": "pinctrl-bcm2835", "pi4b": "pinctrl-bcm2711", "pi5": "pinctrl-rp1"}
# The brief's default LED pins and header bus.
leds = {"nod": 17, "shake": 27, "north": 22, "up": 23, "down": 24, "left": 25, "right": 5, "status": 6}
for name, chip in expected.items():
    preset = json.loads((board / "presets" / f"{name}.json").read_text())
    assert preset["gpio"]["chip"] == chip, (name, preset["gpio"]["chip"])
    assert preset["gpio"]["leds"] == leds, name
    assert preset["i2c"]["device"] == "/dev/i2c-1", name
    # remote-install.sh builds a first config by swapping only the chip label into config.json.
    assert preset["i2c"]["device"] == default["i2c"]["device"] and preset["gpio"]["leds"] == default["gpio"]["leds"], name
assert default["gpio"]["chip"] == "pinctrl-bcm2711" and default["gpio"]["leds"] == leds
assert set(default) == {"i2c", "gpio", "rates", "mount", "declinationDeg", "gestures", "calibrationFile"}
EOF
)
check "presets: chip labels, LED pins and bus match the hardware facts and config.json" [ -z "$OUT" ]
unit=$repo/board/headtrack.service
OUT=$(for line in Type=notify WatchdogSec= User=headtrack "SupplementaryGroups=i2c gpio" DevicePolicy=closed \
    "DeviceAllow=char-i2c rw" "DeviceAllow=char-gpiochip rw" ProtectSystem=strict StateDirectory=headtrack \
    NoNewPrivileges=yes Restart=on-failure LimitRTPRIO= \
    SystemCallFilter=@system-service "SystemCallFilter=~@privileged @resources" SystemCallArchitectures=native \
    ProtectProc=invisible ProcSubset=pid UMask=0077 RemoveIPC=yes RuntimeDirectory=headtrack RuntimeDirectoryMode=0750 \
    "ExecStart=/opt/headtrack/current/headtrack run --realtime --config /etc/headtrack/config.json" \
    LimitMEMLOCK=infinity "ExecStartPre=-udevadm settle"; do
    grep -q "^$line" "$unit" || echo "missing: $line"; done
    grep -E '^(PrivateDevices|RestrictRealtime|CPUSchedulingPolicy)=' "$unit")
check "unit: hardening as specified (no PrivateDevices, no RestrictRealtime, RT limit only)" [ -z "$OUT" ]

echo "# deploy.sh"
deploy_story with_deploy_sh story-sh

# Usage errors name the option and what it needs (bash's own ${2:?} said "deploy.sh: line 100: 2: ...").
OUT=$("$deploy" root@127.0.0.1 --port 2>&1); RC=$?
check "usage: --port without a value says what it needs" eval '[ "$RC" = 1 ] && has "deploy: error: --port needs a port number" && ! has "line "'
OUT=$("$deploy" root@127.0.0.1 --binary 2>&1); RC=$?
check "usage: --binary without a value says what it needs" eval '[ "$RC" = 1 ] && has "deploy: error: --binary needs a path" && ! has "line "'

# A dry run on a fresh board says what it would write and enable, never that it wrote or enabled it.
make_board fresh-dry "Raspberry Pi 4 Model B Rev 1.4"
use_board fresh-dry
before=$(snapshot "$R")
run_deploy "${ssh_args[@]}" --target-root "$R" --binary "$T/v1" --version v1 --dry-run root@127.0.0.1
check "dry run on a fresh board: 'would write' the config, 'would enable' I2C, nothing changed" \
    eval '[ "$RC" = 0 ] && has "config: would write" && has "I2C: would enable" && ! has "config: wrote" && ! has "I2C: enabled" && [ "$(snapshot "$R")" = "$before" ]'

# A fresh Pi 5 with I2C already on: default config from the Pi 5 preset, no reboot, started and checked at once.
make_board pi5 "Raspberry Pi 5 Model B Rev 1.0" "" i2c-on
with_deploy_sh pi5 deploy "$T/v1" v1
check "fresh Pi 5: deployed and healthy without a reboot" eval '[ "$RC" = 0 ] && has "READY received" && ! has "REBOOT"'
OUT=$(python3 - "$repo/board/config.json" "$R/etc/headtrack/config.json" <<'EOF' 2>&1
import json, re, sys
text = [open(p).read() for p in sys.argv[1:]]
default, installed = (json.loads(re.sub(r"(?m)^\s*//.*$", "", t)) for t in text)
assert installed["gpio"].pop("chip") == "pinctrl-rp1", "gpio.chip"
default["gpio"].pop("chip")
assert installed == default, "everything but gpio.chip as in board/config.json"
assert "Pi 4" not in text[1], "no comment about another board"
EOF
)
check "fresh Pi 5: default config is board/config.json with gpio.chip pinctrl-rp1" [ -z "$OUT" ]
check "fresh Pi 5: config readable by the daemon only (0640 root:headtrack)" \
    [ "$(stat -c '%a %u %g' "$R/etc/headtrack/config.json")" = "640 0 $(awk -F: '$1 == "headtrack" { print $3 }' "$R/etc/group")" ]
check "fresh Pi 5: state directory owned by headtrack" \
    [ "$(stat -c %u "$R/var/lib/headtrack")" = "$(awk -F: '$1 == "headtrack" { print $3 }' "$R/etc/passwd")" ]
check "fresh Pi 5: config.txt left alone (byte for byte what the board had)" \
    eval '[ "$(cat "$R/boot/firmware/config.txt")" = "$(printf "%s\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000" "$ORIGINAL_CONFIG_TXT")" ]'

mkdir -p "$R/usr/lib/systemd"
cp -a /usr/lib/systemd/system "$R/usr/lib/systemd/" # the unit's dependencies (multi-user.target, ...)
OUT=$(systemd-analyze verify --root="$R" headtrack.service 2>&1)
RC=$?
check "systemd-analyze verify accepts the installed unit (ExecStart resolved in the board root), no warnings" \
    eval '[ "$RC" = 0 ] && [ -z "$OUT" ]'
sed 's/^WatchdogSec=/WatchdogSecs=/' "$unit" >"$R/etc/systemd/system/headtrack.service"
OUT=$(systemd-analyze verify --root="$R" headtrack.service 2>&1)
check "systemd-analyze verify flags a broken unit (so the check above can fail)" has "Unknown key"
# Exposure score (0 safe .. 10 unsafe): 3.4 before issue 13's hardening, 0.9 after; 1.5 leaves room for one
# small regression but not for losing the system call filter (2.4 without it, the negative control).
OUT=$(systemd-analyze security --offline=yes --threshold=15 "$unit" 2>&1)
RC=$?
check "systemd-analyze security: exposure at most 1.5 ($(sed -n 's/.*exposure level for [^:]*: //p' <<<"$OUT"))" [ "$RC" = 0 ]
grep -v '^SystemCallFilter=' "$unit" >"$T/no-filter.service"
check "... and the same check fails for the unit without its system call filter" \
    eval '! systemd-analyze security --offline=yes --threshold=15 "$T/no-filter.service" >/dev/null 2>&1'
cp "$unit" "$R/etc/systemd/system/headtrack.service"

for v in v2 v3 v4; do fake_binary "$T/keep-$v" aarch64 ok "headtrack $v"; with_deploy_sh pi5 deploy "$T/keep-$v" "$v"; done
run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --keep 2 --binary "$T/v2" --version v5 root@127.0.0.1
check "--keep 2 prunes old releases, keeps current and previous" \
    [ "$(cd "$R/opt/headtrack/releases" && echo *)" = "v4 v5" ]

# The remaining cases run against the story board, which now has v1 current and v2 previous.
use_board story-sh
fake_binary "$T/v4" aarch64 ok "headtrack 4 tracking"
before=$(snapshot "$R")
run_deploy "${ssh_args[@]}" --target-root "$R" --binary "$T/v4" --version v4 --dry-run root@127.0.0.1
check "dry run: succeeds and changes nothing" eval '[ "$RC" = 0 ] && [ "$(snapshot "$R")" = "$before" ] && not_called "restart"'
check "dry run: prints the remote actions" eval 'has "would: install -m 0755 -o 0 -g 0" && has "would: mv -T" && has "would restart headtrack.service"'

run_deploy -p "$CLOSED_PORT" -i "$T/client_key" -o "UserKnownHostsFile=$T/known_hosts" --target-root "$R" --binary "$T/v4" root@127.0.0.1
check "unreachable host: clear error, nothing changed" \
    eval '[ "$RC" = 255 ] && has "cannot reach root@127.0.0.1" && [ "$(snapshot "$R")" = "$before" ]'

run_deploy -p "$PORT" -i "$T/client_key" -o "UserKnownHostsFile=$T/wrong_known_hosts" --target-root "$R" --binary "$T/v4" root@127.0.0.1
check "changed host key: refused with advice, nothing changed" \
    eval '[ "$RC" = 255 ] && has "host key" && has "ssh-keygen -R" && [ "$(snapshot "$R")" = "$before" ]'

run_deploy -p "$PORT" -i "$T/host_key" -o "UserKnownHostsFile=$T/known_hosts" --target-root "$R" --binary "$T/v4" root@127.0.0.1
check "key not accepted: says to run ssh-copy-id, nothing changed" \
    eval '[ "$RC" = 255 ] && has "ssh-copy-id" && [ "$(snapshot "$R")" = "$before" ]'

run_deploy -p "$ARMV6_PORT" -i "$T/client_key" -o "UserKnownHostsFile=$T/known_hosts" --target-root "$R" --binary "$T/v4" root@127.0.0.1
check "wrong board architecture (armv6l): clear error, nothing changed" \
    eval '[ "$RC" = 2 ] && has "armv6l" && [ "$(snapshot "$R")" = "$before" ] && not_called "restart"'

run_deploy "${ssh_args[@]}" --target-root "$R" --binary "$T/v-x86" root@127.0.0.1
check "binary for the wrong architecture (x86_64): clear error, nothing changed" \
    eval '[ "$RC" = 2 ] && has "built for x86_64 but the board is aarch64" && [ "$(snapshot "$R")" = "$before" ]'

run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --binary "$T/v-armhf" --version v-armhf root@127.0.0.1
check "32-bit ARM binary on a 64-bit board is accepted" eval '[ "$RC" = 0 ] && [ "$(link current)" = releases/v-armhf ]'
# SystemCallArchitectures=native would kill it on an arm64 systemd; only that release's unit also allows arm.
OUT=$(diff "$unit" "$R/etc/systemd/system/headtrack.service")
check "... its unit allows the arm ABI (SystemCallArchitectures=native arm), the only change" \
    eval '[ "$(printf "%s\n" "$OUT" | grep "^[<>]")" = "$(printf "< SystemCallArchitectures=native\n> SystemCallArchitectures=native arm")" ]'
check "... while the aarch64 releases keep the unit as shipped" same_file "$unit" "$R/opt/headtrack/releases/v1/board/headtrack.service"

run_deploy "${ssh_args[@]}" --target-root "$R" --status root@127.0.0.1
check "--status lists releases, the failed one marked" eval 'has "current:  v-armhf" && has "v3 (FAILED: health check failed"'

# --swift-sdk: a stand-in swift here records the build and "produces" a binary.
cat >"$T/localbin/swift" <<EOF
#!/bin/bash
echo "swift \$*" >>"$T/local-swift-calls"
case "\$*" in
    "sdk list") echo aarch64-swift-linux-musl ;;
    *--show-bin-path*) echo "$T/sdk-build" ;;
    build*) mkdir -p "$T/sdk-build" && cp "$T/v4" "$T/sdk-build/headtrack" ;;
esac
EOF
chmod +x "$T/localbin/swift"
PATH=$T/localbin:$PATH run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --swift-sdk aarch64-swift-linux-musl --version v-sdk root@127.0.0.1
check "--swift-sdk: cross-builds a static release binary here and installs it" \
    eval '[ "$RC" = 0 ] && grep -q "^swift build -c release --product headtrack --swift-sdk aarch64-swift-linux-musl --static-swift-stdlib" "$T/local-swift-calls" &&
          same_file "$T/v4" "$R/opt/headtrack/releases/v-sdk/headtrack"'
PATH=$T/localbin:$PATH run_deploy "${ssh_args[@]}" --target-root "$R" --swift-sdk no-such-sdk root@127.0.0.1
check "--swift-sdk with an SDK that is not installed: says how to install one" eval '[ "$RC" = 1 ] && has "swift sdk install"'

# --build-on-board: a stand-in swift on the board builds in the synced sources.
run_deploy "${ssh_args[@]}" --target-root "$R" --build-on-board root@127.0.0.1
check "--build-on-board without a toolchain there: clear error" eval '[ "$RC" = 2 ] && has "no Swift toolchain on the board"'
cat >"$T/bin/swift" <<EOF
#!/bin/bash
echo "swift \$*" >>"$T/board-swift-calls"
case "\$*" in
    *--show-bin-path*) echo "\$PWD/.build/release" ;;
    build*) mkdir -p .build/release && cp "$T/v2" .build/release/headtrack ;;
esac
EOF
chmod +x "$T/bin/swift"
run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --build-on-board --version v-board root@127.0.0.1
check "--build-on-board: syncs the sources, builds there, installs the result" \
    eval '[ "$RC" = 0 ] && same_file "$repo/board/headtrack.service" "$T/home/.cache/headtrack/src/board/headtrack.service" &&
          grep -q "^swift build -c release --product headtrack --static-swift-stdlib" "$T/board-swift-calls" &&
          same_file "$T/v2" "$R/opt/headtrack/releases/v-board/headtrack"'
rm -f "$T/bin/swift"

# No binary option: this machine cross-builds the aarch64 binary with scripts/build-board.sh and deploys it; the
# systemctl stand-in runs the real binary under qemu-user (run-real) to "start" it.
make_board cross "Raspberry Pi 4 Model B Rev 1.4" "" i2c-on
use_board cross
if built=$("$repo/scripts/build-board.sh" 2>"$T/build-board.log" | tail -1) &&
    sysroot=$("$repo/scripts/build-board.sh" --print-sysroot 2>>"$T/build-board.log") && command -v qemu-aarch64-static >/dev/null; then
    printf '#!/bin/sh\nexec qemu-aarch64-static -L %q "$@"\n' "$sysroot" >"$T/run-real"
    chmod +x "$T/run-real"
    run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --health-timeout 30 --version v-cross root@127.0.0.1
    check "no binary option: builds the aarch64 binary here (scripts/build-board.sh), deploys it, it starts" \
        eval '[ "$RC" = 0 ] && has "building the headset binary here" && has "READY received" &&
              same_file "$built" "$R/opt/headtrack/releases/v-cross/headtrack" && grep -q "answered --help" "$SIM/journal"'
    rm -f "$T/run-real"
else
    fail "no binary option: scripts/build-board.sh or qemu-aarch64-static is not usable here" "$(tail -20 "$T/build-board.log")"
fi
for kind in armv7l long-bit-32; do
    make_board "$kind" "Raspberry Pi 3 Model B Rev 1.2"
    use_board "$kind"
    if [ "$kind" = armv7l ]; then echo armv7l >"$SIM/machine"; else echo 32 >"$SIM/long-bit"; fi
    before=$(snapshot "$R")
    run_deploy "${ssh_args[@]}" --target-root "$R" root@127.0.0.1
    check "no binary option, 32-bit OS on the board ($kind): says a 64-bit OS is needed, builds and changes nothing" \
        eval '[ "$RC" = 2 ] && has "32-bit OS" && has "64-bit" && ! has "building the headset binary" && [ "$(snapshot "$R")" = "$before" ]'
done

# An x86_64 board (a PC-class board; the system test's x86_64 guest): only an x86_64 binary fits, and with no
# binary option this x86_64 machine builds one natively (a stand-in swift records the build).
make_board x86 "" "" i2c-on
use_board x86
echo x86_64 >"$SIM/machine"
before=$(snapshot "$R")
run_deploy "${ssh_args[@]}" --target-root "$R" --binary "$T/v4" root@127.0.0.1
check "x86_64 board, aarch64 binary: refused with how to build for it, nothing changed" \
    eval '[ "$RC" = 2 ] && has "built for aarch64 but the board is x86_64" && has "swift build -c release --static-swift-stdlib" && [ "$(snapshot "$R")" = "$before" ]'
run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --binary "$T/v-x86" --version v-x86 root@127.0.0.1
check "x86_64 board, x86_64 binary: installed and healthy" \
    eval '[ "$RC" = 0 ] && has "board: x86_64" && has "READY received" && same_file "$T/v-x86" "$R/opt/headtrack/releases/v-x86/headtrack"'
mkdir -p "$T/localbin-x86"
cat >"$T/localbin-x86/swift" <<EOF
#!/bin/bash
echo "swift \$*" >>"$T/native-swift-calls"
case "\$*" in
    *--show-bin-path*) echo "$T/native-build" ;;
    build*) mkdir -p "$T/native-build" && cp "$T/v-x86" "$T/native-build/headtrack" ;;
esac
EOF
chmod +x "$T/localbin-x86/swift"
if [ "$(uname -m)" = x86_64 ]; then
    PATH=$T/localbin-x86:$PATH run_deploy "${ssh_args[@]}" --target-root "$R" --settle 0 --version v-native root@127.0.0.1
    check "x86_64 board, no binary option: builds natively here (static Swift runtime) and installs it" \
        eval '[ "$RC" = 0 ] && grep -q "^swift build -c release --product headtrack --static-swift-stdlib -Xlinker -s" "$T/native-swift-calls" &&
              ! has "build-board.sh" && same_file "$T/v-x86" "$R/opt/headtrack/releases/v-native/headtrack"'
fi

# Interrupted deploys (stale link, dropped connection, long TMPDIR) and the terminal sessions (--watch, --calibrate).
. "$here/interruptions.sh"
. "$here/board-sessions.sh"

echo "# ansible-playbook"
deploy_story with_ansible story-ansible
use_board story-ansible
before=$(snapshot "$R")
OUT=$(playbook --check -e "headtrack_target_root=$R" -e "headtrack_binary=$T/v4" -e headtrack_version=v4 2>&1)
RC=$?
show_output
check "ansible --check: a dry run on the board, nothing changed" \
    eval '[ "$RC" = 0 ] && has "would: mv -T" && has "RESULT: dry run" && [ "$(snapshot "$R")" = "$before" ] && not_called restart'
OUT=$(playbook -e "headtrack_target_root=$R" -e "headtrack_binary=$T/v4" -e ansible_port="$ARMV6_PORT" 2>&1)
RC=$?
show_output
check "ansible: wrong board architecture fails the play, nothing changed" \
    eval '[ "$RC" != 0 ] && has "armv6l" && [ "$(snapshot "$R")" = "$before" ]'

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

#!/usr/bin/env bash
# One command from a laptop to a running headset: check the board over ssh, build (or take) the binary,
# upload a bundle and let deploy/remote-install.sh install it there, with health check and automatic rollback.
# The Ansible playbook in deploy/ansible/ runs the same remote-install.sh for fleets.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
remote_install=$here/remote-install.sh

usage() {
    cat <<'EOF'
usage: deploy/deploy.sh [options] user@host
       deploy/deploy.sh [ssh options] --watch | --calibrate user@host [-- headtrack options]
       deploy/deploy.sh [ssh options] --view [--local-port N] [--board-port N] user@host [-- headtrack view options]

Deploy headtrack to a Raspberry Pi over ssh (key authentication, verified host key, passwordless sudo).

what to install (default: build it here with scripts/build-board.sh, aarch64 from Debian's packages; the first
build downloads about 430 MB into ~/.cache/headtrack/board-sdk and takes a few minutes, later ones seconds;
for an x86_64 board, swift build --static-swift-stdlib on this x86_64 machine, whose glibc the board must have):
  --binary PATH          a headtrack binary built elsewhere for the board
  --swift-sdk NAME       cross-compile here with an installed Swift SDK: swift build -c release --swift-sdk NAME
                         (unverified: the static Linux SDK ships no libi2c; see docs/deploy.md)
  --build-on-board       copy the sources to the board and build there (needs a Swift toolchain and >= 2 GB RAM)

instead of installing:
  --rollback             switch back to the previous release, restart, health check
  --status               show the releases on the board, the last deploy's outcome and the service state
  --watch                live view of the running daemon on the board: headtrack watch over ssh -t, as the
                         service user (options after -- go to headtrack watch, e.g. -- --json)
  --calibrate            guided magnetometer calibration on the board over ssh -t: stops the service (it holds
                         the I2C bus), runs headtrack calibrate as the service user into the configured
                         calibration file, and starts the service again, also when the session is interrupted
  --view                 the live page in your browser: starts headtrack view on the board as the service user
                         (it listens on the board's 127.0.0.1 only), forwards it here with ssh -L, prints the
                         local URL and opens it (xdg-open) where there is a display; Ctrl-C ends both
  --local-port N         --view: the port on this machine (default 8740)
  --board-port N         --view: the port on the board (default 8740)

options:
  --version NAME         release name (default: UTC time + headtrack version and commit + binary hash)
  --board NAME           preset for a first config: auto (default, read the board model), pi3b, pi4b, pi5, zero2w
  --keep N               releases to keep on the board (default 5)
  --health-timeout S     seconds to wait for the service to report READY (default 30)
  --settle S             seconds it must then stay up (default 3)
  --dry-run              print every action on the board without doing it (it only unpacks the bundle in a
                         temporary directory there, which it removes again)
  -p, --port PORT        ssh port
  -i, --identity FILE    ssh private key
  -o, --ssh-option OPT   extra ssh option (repeatable), e.g. -o UserKnownHostsFile=~/.ssh/headsets
  --target-root DIR      prefix every path on the board with DIR (tests, preparing a mounted image);
                         also $HEADTRACK_TARGET_ROOT
  -h, --help             this text

Host keys are always verified (StrictHostKeyChecking=yes): connect once with plain ssh to accept a new board's key.

The switch to the new release, its health check and the rollback run on the board as a process of their own,
so a dropped connection does not stop them: deploy reconnects (for about three minutes) and reports the outcome;
--status shows it later too.

exit status: 0 deployed; 1 usage or local error; 2 a board check failed, nothing changed;
             3 health check failed and the previous release is running again; 4 no working release could be
             restored; 255 ssh failed (after a dropped connection that the board outlived: it could not
             reconnect for about three minutes); --calibrate: 130 interrupted, otherwise calibrate's status;
             --view: 0 when ended with Ctrl-C, otherwise the view's status.
EOF
}

die() { local code=$1; shift; printf 'deploy: error: %s\n' "$*" >&2; exit "$code"; }
say() { printf 'deploy: %s\n' "$*"; }

# MARK: - arguments

mode="" binary="" swift_sdk="" target="" dry_run=0 port="" identity="" local_port=8740 board_port=8740
target_root=${HEADTRACK_TARGET_ROOT:-}
ssh_options=()
passthrough=() # options remote-install.sh understands as they are

set_mode() { [ -z "$mode" ] || die 1 "choose one of --binary, --swift-sdk, --build-on-board, --rollback, --status, --watch, --calibrate, --view"; mode=$1; }
headtrack_args=() # after --, for --watch, --calibrate and --view
# need OPTION [VALUE...]: OPTION must have a value (a usage error naming it, not bash's "line N: 2: ...").
need() {
    local what
    case $1 in
        --binary) what="a path to the headtrack binary" ;; --swift-sdk) what="an SDK name (swift sdk list)" ;;
        -i | --identity) what="a key file" ;; -o | --ssh-option) what="an ssh option, e.g. -o ConnectTimeout=5" ;;
        --target-root) what="a directory" ;; *) what="a value" ;;
    esac
    [ $# -ge 2 ] && [ -n "$2" ] || die 1 "$1 needs $what (see --help)"
}
port_number() {
    [ -n "$2" ] || die 1 "$1 needs a port number 1...65535 (see --help)"
    [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] && [ "$2" -le 65535 ] || die 1 "$1 needs a port number 1...65535, got '$2'"
}

while [ $# -gt 0 ]; do
    case $1 in
        --binary) need "$@"; set_mode binary; binary=$2; shift ;;
        --swift-sdk) need "$@"; set_mode swift-sdk; swift_sdk=$2; shift ;;
        --build-on-board) set_mode build-on-board ;;
        --rollback) set_mode rollback ;;
        --status) set_mode status ;;
        --watch) set_mode watch ;;
        --calibrate) set_mode calibrate ;;
        --view) set_mode view ;;
        --local-port) port_number "$1" "${2:-}"; local_port=$2; shift ;;
        --board-port) port_number "$1" "${2:-}"; board_port=$2; shift ;;
        --) shift; headtrack_args=("$@"); break ;;
        --version | --board | --keep | --health-timeout | --settle)
            need "$@"; passthrough+=("$1" "$2"); shift ;;
        --dry-run) dry_run=1 ;;
        -p | --port) port_number "$1" "${2:-}"; port=$2; shift ;;
        -i | --identity) need "$@"; identity=$2; shift ;;
        -o | --ssh-option) need "$@"; ssh_options+=(-o "$2"); shift ;;
        --target-root) need "$@"; target_root=$2; shift ;;
        -h | --help) usage; exit 0 ;;
        -*) die 1 "unknown option $1 (see --help)" ;;
        *) [ -z "$target" ] || die 1 "more than one target ($target, $1)"; target=$1 ;;
    esac
    shift
done
[ -n "$target" ] || { usage >&2; die 1 "no target: give user@host (e.g. pi@headset.local)"; }
[ -n "$mode" ] || mode=build-here
case $mode in
    watch | calibrate | view) ;;
    *) [ "${#headtrack_args[@]}" = 0 ] || die 1 "options after -- are only for --watch, --calibrate and --view" ;;
esac
passthrough_root=()
if [ -n "$target_root" ]; then passthrough_root=(--target-root "$target_root"); fi
passthrough+=("${passthrough_root[@]}")
if [ "$dry_run" = 1 ]; then passthrough+=(--dry-run); fi

# Our options come first because ssh keeps the first value it sees: host key checking stays on
# whatever ~/.ssh/config or -o says, and a missing key fails instead of asking for a password.
ssh_cmd=(ssh -o StrictHostKeyChecking=yes -o BatchMode=yes -o ConnectTimeout=10)
if [ -n "$port" ]; then ssh_cmd+=(-p "$port"); fi
if [ -n "$identity" ]; then ssh_cmd+=(-i "$identity"); fi
ssh_cmd+=("${ssh_options[@]}")
# --view's own connection carries the port forward for as long as the page is open: no shared master for it.
ssh_plain=("${ssh_cmd[@]}")

work=$(mktemp -d)
# One ssh connection for the whole deploy (check, upload, install): each handshake costs a second on a Pi Zero.
# Its control socket gets a short directory of its own, not $TMPDIR: a socket path may be 104 bytes (macOS) or
# 108 (Linux), and ssh needs room for %C (40 hex digits) plus a 17-character suffix while it creates the socket,
# so a macOS $TMPDIR (about 50 characters) failed every deploy with "ControlPath too long". Here: 72 characters.
sockets=$(mktemp -d /tmp/ht-XXXXXX)
ssh_cmd+=(-o ControlMaster=auto -o "ControlPath=$sockets/%C" -o ControlPersist=120)
close_ssh() { "${ssh_cmd[@]}" -O exit "$target" 2>/dev/null || true; }
trap 'close_ssh; rm -rf "$work" "$sockets"' EXIT

# MARK: - talking to the board

quote() { printf '%q ' "$@"; }

# A remote shell line that runs remote-install.sh as root: directly when logged in as root, else via sudo -n.
# shellcheck disable=SC2016 # $(id -u) is evaluated on the board
as_root() { printf 'if [ "$(id -u)" = 0 ]; then %s; else sudo -n %s; fi' "$1" "$1"; }

# Explains an ssh failure (exit 255) in terms of what to do about it.
explain_ssh_failure() { # stderr_file
    local err
    err=$(grep -v '^Warning: Permanently added' "$1" || true)
    case $err in
        *"Host key verification failed"* | *"HOST IDENTIFICATION HAS CHANGED"* | *"No "*"host key is known"*)
            die 255 "the ssh host key of $target is not in your known_hosts, or it changed. A new board: connect once with
  ssh ${port:+-p $port }$target
and compare the fingerprint with the one the board prints (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub).
A re-flashed board: ssh-keygen -R <host>, then connect once. Host keys are always verified. Nothing was changed.
ssh said: $err" ;;
        *"Permission denied"*)
            die 255 "key authentication as $target failed. Install your key with: ssh-copy-id ${port:+-p $port }$target
(deploy never types passwords, so it can run unattended). Nothing was changed.
ssh said: $err" ;;
        *"Connection refused"* | *"timed out"* | *"No route to host"* | *"Could not resolve"* | *"Network is unreachable"* | *"Connection closed"* | *"Connection reset"*)
            die 255 "cannot reach $target over ssh${port:+ (port $port)}: is the board powered and on this network, is the name
right (ping it), and is SSH enabled (Raspberry Pi Imager: OS customisation > Services > Enable SSH)? Nothing was changed.
ssh said: $err" ;;
        *) die 255 "ssh to $target failed: $err" ;;
    esac
}

# remote_script ARGS... : pipe remote-install.sh into `bash -s` on the board, as root, with ARGS.
# Its stdout goes to our stdout; its stderr is shown once it has finished.
remote_script() {
    local rc=0
    "${ssh_cmd[@]}" "$target" "$(as_root "bash -s -- $(quote "$@")")" <"$remote_install" 2>"$work/stderr" || rc=$?
    explain_remote_failure "$rc"
    grep -v '^Warning: Permanently added' "$work/stderr" >&2 || true
    return "$rc"
}

# Turns ssh and sudo failures, whose own messages rarely say what to do, into errors that do.
explain_remote_failure() { # rc; reads $work/stderr
    if [ "$1" = 255 ]; then explain_ssh_failure "$work/stderr"; fi
    if grep -q 'sudo: a password is required\|sudo: a terminal is required' "$work/stderr"; then
        die 2 "the board's user needs passwordless sudo for the install (Raspberry Pi OS's first user has it);
add it with visudo, or deploy as root. Nothing was changed."
    fi
}

# MARK: - steps

preflight() { # need_kb -> sets board_arch
    local out rc
    out=$(remote_script check --need-kb "$1" "${passthrough_root[@]}") || {
        rc=$?
        [ "$rc" != 255 ] || exit 255 # already explained
        die "$rc" "board check failed on $target; nothing was changed."
    }
    printf '%s\n' "$out" | grep -v '^ARCH=' | sed 's/^/deploy: /'
    board_arch=$(printf '%s\n' "$out" | sed -n 's/^ARCH=//p')
}

check_local_binary() { # path
    [ -f "$1" ] || die 1 "no binary at $1: build it first (swift build -c release --static-swift-stdlib) or use --swift-sdk."
    bash "$remote_install" check-binary "$1" --board-arch "$board_arch" >/dev/null || exit 2
}

build_with_sdk() {
    local args=(build -c release --product headtrack --swift-sdk "$swift_sdk" --static-swift-stdlib -Xlinker -s)
    command -v swift >/dev/null || die 1 "no swift on PATH here: install the swift.org toolchain that matches the SDK."
    swift sdk list 2>/dev/null | grep -qx "$swift_sdk" ||
        die 1 "Swift SDK '$swift_sdk' is not installed here (swift sdk list). Install the static Linux SDK with
  swift sdk install <URL of swift-X.Y.Z-RELEASE_static-linux-0.0.1.artifactbundle.tar.gz> --checksum <sha256>
(same version as 'swift --version') and add libi2c to it (unverified route, see docs/deploy.md)."
    say "building: swift $(quote "${args[@]}")"
    (cd "$repo" && swift "${args[@]}") >&2
    binary=$(cd "$repo" && swift build -c release --swift-sdk "$swift_sdk" --show-bin-path)/headtrack
}

# The default route: this machine cross-builds the aarch64 binary. Only for a 64-bit OS on the board: Debian has no
# 32-bit ARM Swift runtime, and a 32-bit Raspberry Pi OS may run a 64-bit kernel (uname -m aarch64) with
# 32-bit programs only, so its word size is asked as well.
build_here() {
    local long_bit rc=0
    if [ "$board_arch" = x86_64 ]; then build_native_x86_64; return; fi
    long_bit=$("${ssh_cmd[@]}" "$target" 'getconf LONG_BIT' 2>"$work/stderr") || rc=$?
    explain_remote_failure "$rc"
    if [ "$board_arch" != aarch64 ] || [ "$long_bit" = 32 ]; then
        die 2 "$target runs a 32-bit OS ($board_arch, ${long_bit:-?}-bit programs); the binary built here is for 64-bit ARM
only (Debian packages no 32-bit ARM Swift runtime). Flash Raspberry Pi OS Lite (64-bit) on a Pi 3B, 4B, 5 or Zero 2 W,
or deploy a 32-bit binary built elsewhere with --binary PATH. Nothing was changed."
    fi
    say "building the headset binary here: scripts/build-board.sh"
    binary=$("$repo/scripts/build-board.sh" | tail -1) && [ -f "$binary" ] ||
        die 1 "building the board binary failed (output above); or deploy one built elsewhere with --binary PATH."
}

# An x86_64 board (a PC-class board, or the system test's guest) runs what this machine builds natively when this
# machine is x86_64 too; the Swift runtime is linked in, so the board needs only glibc (as new as this machine's)
# and libi2c.
build_native_x86_64() {
    local args=(build -c release --product headtrack --static-swift-stdlib -Xlinker -s)
    [ "$(uname -m)" = x86_64 ] || die 2 "$target is an x86_64 board, but this machine is $(uname -m): build the binary on an
x86_64 Linux machine (swift build -c release --static-swift-stdlib) and deploy it with --binary PATH. Nothing was changed."
    command -v swift >/dev/null || die 1 "no swift on PATH here: install the Swift 6 toolchain (https://www.swift.org/install/linux/)."
    say "building the x86_64 binary here: swift $(quote "${args[@]}")"
    (cd "$repo" && swift "${args[@]}") >&2 || die 1 "swift build failed (output above); or deploy one built elsewhere with --binary PATH."
    binary=$(cd "$repo" && swift build -c release --show-bin-path)/headtrack
}

# Sources go to ~/.cache/headtrack/src on the board; its .build stays, so the next build there is incremental.
build_on_board() {
    # shellcheck disable=SC2016 # $HOME is the board's, expanded there
    local src='$HOME/.cache/headtrack/src' out rc=0
    say "checking for a Swift toolchain on $target"
    "${ssh_cmd[@]}" "$target" 'command -v swift >/dev/null' 2>"$work/stderr" || rc=$?
    explain_remote_failure "$rc"
    [ "$rc" = 0 ] || die 2 "no Swift toolchain on the board (swift is not on PATH there). Install one with swiftly
(https://www.swift.org/install/linux/), or build here with --swift-sdk NAME or --binary PATH. A Zero 2 W has too
little memory to build; cross-compile for it. Nothing was changed."
    if [ "$dry_run" = 1 ]; then
        say "would copy the sources to $src on the board and run there: swift build -c release --product headtrack --static-swift-stdlib"
        say "the install plan needs the built binary; run without --dry-run to see it."
        exit 0
    fi
    say "copying sources to the board"
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -czf -) |
        "${ssh_cmd[@]}" "$target" "mkdir -p $src && cd $src && find . -mindepth 1 -maxdepth 1 ! -name .build -exec rm -rf {} + && tar -xzf -"
    say "building on the board (swift build -c release; the first build takes a while)"
    # scripts/install-deps.sh installs libi2c-dev on the board where it is missing (headtrack links libi2c).
    out=$("${ssh_cmd[@]}" "$target" "cd $src && scripts/install-deps.sh >&2 && swift build -c release --product headtrack --static-swift-stdlib -Xlinker -s >&2 && echo \"BIN=\$(swift build -c release --show-bin-path)/headtrack\"") ||
        die 1 "the build on the board failed (output above)."
    remote_binary=$(printf '%s\n' "$out" | sed -n 's/^BIN=//p')
}

# Uploads board/, remote-install.sh and (unless it is already on the board) the binary, then installs.
install_bundle() {
    local rc bundle=$work/bundle remote_cmd
    mkdir -p "$bundle"
    cp -R "$repo/board" "$bundle/board"
    cp "$remote_install" "$bundle/remote-install.sh"
    if [ -z "$remote_binary" ]; then cp "$binary" "$bundle/headtrack"; fi
    # Built by hand rather than with quote(): the board's shell must expand "$d", the temporary bundle directory.
    remote_cmd="d=\$(mktemp -d /tmp/headtrack-deploy.XXXXXX) || exit 1
tar -xzf - -C \"\$d\" && $(as_root "bash \"\$d/remote-install.sh\" install --bundle \"\$d\" $(quote "${passthrough[@]}") ${remote_binary:+--binary $(quote "$remote_binary")}")
rc=\$?; rm -rf \"\$d\"; exit \$rc"
    say "uploading $(du -sk "$bundle" | awk '{ print int($1 / 1024) }') MB and installing"
    # stderr joins stdout so warnings and errors appear where they happen; the copy is for explaining failures.
    set +e
    tar -C "$bundle" -czf - . | "${ssh_cmd[@]}" "$target" "$remote_cmd" 2>&1 | grep -v '^Warning: Permanently added' | tee "$work/stderr"
    rc=${PIPESTATUS[1]}
    set -e
    if [ "$rc" = 255 ] && ! grep -q 'Host key verification failed\|Permission denied' "$work/stderr"; then
        outlived_by_board "$work/stderr" || return $?
        die 255 "the connection to $target dropped during the install, before the switch to the new release: the
board still runs its previous release (a half-done set-up step is redone next time). Deploy again."
    fi
    explain_remote_failure "$rc"
    return "$rc"
}

# After ssh exit 255: if OUTPUT shows that the board had started an activation, wait for its outcome (and return
# its status); else return 255 (the connection failed before anything was switched).
outlived_by_board() { # output_file
    local activation
    activation=$(sed -n 's/^activation of \([^:]*\): running detached.*/\1/p' "$1" | tail -n 1)
    [ -n "$activation" ] || return 255
    await_activation "$activation"
}

# The board finishes an activation on its own (remote-install.sh runs it detached). After a dropped connection,
# reconnect and let `remote-install.sh await` wait for it, replay its output and return its exit status.
await_activation() { # version
    local attempt rc
    say "the connection to $target dropped while the board was activating $1; the board finishes the health check"
    say "(and rolls back if it fails) on its own. Reconnecting to learn the outcome..."
    for attempt in $(seq 12); do
        rc=0
        "${ssh_cmd[@]}" "$target" "$(as_root "bash -s -- $(quote await "${passthrough[@]}" --version "$1")")" \
            <"$remote_install" 2>"$work/stderr" || rc=$?
        if [ "$rc" != 255 ]; then
            grep -v '^Warning: Permanently added' "$work/stderr" >&2 || true
            return "$rc"
        fi
        say "reconnect attempt $attempt of 12 failed; next in 5 s"
        sleep 5
    done
    die 255 "could not reconnect to $target: the board still completes the health check and rolls back on its own.
See what happened later with: deploy/deploy.sh --status $target"
}

# MARK: - on the board, in a terminal

# headtrack watch / calibrate on the board over ssh -t, as the service user (runuser, so root or sudo -n is needed
# to start it, as for the install). Paths get the target root, like everything else deploy does on the board.
board_session() { # script name
    local rc=0
    "${ssh_cmd[@]}" -t "$target" "$(as_root "bash -c $(quote "$1") $(quote "$2" "$target_root" "${headtrack_args[@]}")")" || rc=$?
    [ "$rc" != 255 ] || die 255 "ssh to $target failed or the connection dropped (exit 255); check it with: ssh ${port:+-p $port }$target"
    return "$rc"
}

# Issue 14's live view: reads the daemon's event socket, which only the group headtrack may open.
# shellcheck disable=SC2016 # expanded on the board
watch_script='set -u
R=$1; shift
bin=$R/opt/headtrack/current/headtrack
[ -x "$bin" ] || { echo "error: no headtrack release on this board ($bin): deploy one first." >&2; exit 2; }
exec runuser -u headtrack -- "$bin" watch "$@"'

# Calibrating needs the I2C bus the daemon holds: stop it, calibrate as the daemon user (so the file belongs to
# it and lands where the config says), and start it again whatever way the calibration ends (EXIT trap; Ctrl-C,
# a hang-up or TERM exit through it too). A service that was stopped on purpose (inactive) stays stopped.
# shellcheck disable=SC2016 # expanded on the board
calibrate_script='set -u
R=$1; shift
unit=headtrack.service
bin=$R/opt/headtrack/current/headtrack
config=$R/etc/headtrack/config.json
[ -x "$bin" ] || { echo "error: no headtrack release on this board ($bin): deploy one first." >&2; exit 2; }
was=$(systemctl is-active "$unit" 2>/dev/null)
restore() {
    if [ "${was:-inactive}" = inactive ]; then echo "calibrate: $unit was not running before, so it stays stopped"; return; fi
    echo "calibrate: starting $unit again"
    systemctl start "$unit" || echo "error: systemctl start $unit failed; see journalctl -u $unit" >&2
}
trap restore EXIT
trap "exit 130" INT TERM HUP
echo "calibrate: stopping $unit (${was:-inactive}), which holds the I2C bus"
systemctl stop "$unit" || { echo "error: systemctl stop $unit failed" >&2; exit 1; }
if [ -f "$config" ]; then set -- --config "$config" "$@"; fi
runuser -u headtrack -- "$bin" calibrate "$@"'

# headtrack view on the board, as the service user (the event socket is the group headtrack's). It ends when the
# laptop's ssh does (Ctrl-C, a closed lid, a dropped link): the session's stdin closes then, and the watcher here
# stops the view; or when the view ends by itself (a port in use), which ends the session.
# shellcheck disable=SC2016 # expanded on the board
view_script='set -u
R=$1; shift
bin=$R/opt/headtrack/current/headtrack
[ -x "$bin" ] || { echo "error: no headtrack release on this board ($bin): deploy one first." >&2; exit 2; }
runuser -u headtrack -- "$bin" view "$@" &
view=$!
cat >/dev/null <&0 &
watcher=$!
wait -n "$view" "$watcher"
rc=$?
if kill -0 "$view" 2>/dev/null; then kill "$view"; wait "$view"; rc=0; fi
kill "$watcher" 2>/dev/null
exit "$rc"'

# The laptop side of --view: the session above with a local forward to the board's 127.0.0.1, the URL once the
# view listens, and both ended by Ctrl-C.
run_view() {
    local rc=0 url=http://127.0.0.1:$local_port/ waited=0
    mkfifo "$work/view-in"
    "${ssh_plain[@]}" -o ExitOnForwardFailure=yes -L "127.0.0.1:$local_port:127.0.0.1:$board_port" "$target" \
        "$(as_root "bash -c $(quote "$view_script") $(quote view "$target_root" --port "$board_port" "${headtrack_args[@]}")")" \
        <"$work/view-in" >"$work/view-out" 2>&1 &
    view_ssh=$!
    exec 3>"$work/view-in" # the session's stdin: open until we end
    end_view() {
        trap - INT TERM HUP
        exec 3>&- # the board sees the session's input end and stops the view
        kill "$view_ssh" 2>/dev/null || true
        wait "$view_ssh" 2>/dev/null || true
        if [ -n "$view_tail" ]; then kill "$view_tail" 2>/dev/null || true; fi
        say "view on $target ended."
        exit 0
    }
    trap end_view INT TERM HUP
    view_tail=""
    while ! grep -q '^headtrack view: http' "$work/view-out"; do
        if ! kill -0 "$view_ssh" 2>/dev/null; then
            wait "$view_ssh" || rc=$?
            grep -v '^Warning: Permanently added' "$work/view-out" >"$work/stderr" || true
            cat "$work/stderr" >&2
            if grep -q 'Address already in use\|cannot listen\|Could not request local forwarding' "$work/stderr"; then
                die 1 "port $local_port here is in use: give another --local-port N (or --board-port N for the board's)."
            fi
            [ "$rc" != 255 ] || explain_ssh_failure "$work/stderr"
            die "$rc" "headtrack view on $target did not start (see above)."
        fi
        sleep 0.1
        waited=$((waited + 1))
        [ "$waited" -lt 300 ] || { kill "$view_ssh"; die 1 "headtrack view on $target did not start within 30 s (see $work/view-out)"; }
    done
    say "the headset's live page: $url  (Ctrl-C ends it)"
    if command -v xdg-open >/dev/null && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
        xdg-open "$url" >/dev/null 2>&1 || say "xdg-open could not open it: open $url yourself"
    fi
    # The board's lines (the tracker coming and going) as they come.
    tail -n +1 -f --pid="$view_ssh" "$work/view-out" | grep --line-buffered -v '^Warning: Permanently added' | sed -u 's/^/board: /' &
    view_tail=$!
    wait "$view_ssh" || rc=$?
    trap - INT TERM HUP
    kill "$view_tail" 2>/dev/null || true
    [ "$rc" = 0 ] || die "$rc" "headtrack view on $target ended with an error (see above)."
    say "view on $target ended."
}

# MARK: - main

board_arch="" remote_binary=""

case $mode in
    status)
        remote_script status "${passthrough_root[@]}" || die $? "could not read the status of $target."
        exit 0 ;;
    watch)
        board_session "$watch_script" watch || die $? "headtrack watch on $target ended with an error (see above)."
        exit 0 ;;
    view)
        run_view
        exit 0 ;;
    calibrate)
        rc=0
        board_session "$calibrate_script" calibrate || rc=$?
        case $rc in
            0) say "calibrated on $target (the service was started again if it had been running)." ;;
            130) die 130 "calibration interrupted (calibrate writes the file only after a good fit); the service was started again if it had been running." ;;
            *) die "$rc" "calibration on $target failed (see above); the service was started again if it had been running." ;;
        esac
        exit 0 ;;
    rollback)
        set +e
        "${ssh_cmd[@]}" "$target" "$(as_root "bash -s -- $(quote rollback "${passthrough[@]}")")" <"$remote_install" \
            2>"$work/stderr" | tee "$work/stdout"
        rc=${PIPESTATUS[0]}
        set -e
        if [ "$rc" = 255 ] && ! grep -q 'Host key verification failed\|Permission denied' "$work/stderr"; then
            rc=0
            outlived_by_board "$work/stdout" || rc=$?
        fi
        explain_remote_failure "$rc"
        grep -v '^Warning: Permanently added' "$work/stderr" >&2 || true
        [ "$rc" = 0 ] || die "$rc" "rollback on $target failed (see above)."
        say "rolled back on $target."
        exit 0 ;;
esac

need_kb=51200
if [ "$mode" = binary ]; then
    [ -f "$binary" ] || die 1 "no binary at $binary: build it first (swift build -c release --static-swift-stdlib) or use --swift-sdk."
    need_kb=$(($(du -k "$binary" | awk '{ print $1 }') * 2 + 20480))
fi
preflight "$need_kb"
case $mode in
    binary) check_local_binary "$binary" ;;
    build-here) build_here; check_local_binary "$binary" ;;
    swift-sdk) build_with_sdk; check_local_binary "$binary" ;;
    build-on-board) build_on_board ;;
esac

rc=0
install_bundle || rc=$?
case $rc in
    0) if [ "$dry_run" = 1 ]; then say "dry run: nothing was changed on $target."; else say "done: headtrack deployed to $target."; fi ;;
    2) die 2 "a board check failed on $target; nothing was changed." ;;
    3) die 3 "the new release failed its health check on $target and was rolled back (reason and journal above)." ;;
    4) die 4 "the service on $target is not healthy and no working release could be restored (see above)." ;;
    *) die "$rc" "install on $target failed (see above); check the board with: deploy/deploy.sh --status $target" ;;
esac

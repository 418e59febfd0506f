#!/usr/bin/env bash
# The board side of a headtrack deploy. deploy/deploy.sh and deploy/ansible/ both run exactly this script on the
# board, so checks, install, health check and rollback behave the same whichever way a headset is updated.
#
# Everything that changes the board goes through `run`, which prints the command (and only prints it under
# --dry-run). Every board path is prefixed with the target root, so tests can point it at a scratch directory;
# systemctl, journalctl, udevadm, modprobe, useradd and friends are looked up on PATH for the same reason.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: remote-install.sh COMMAND [options]

Runs on the board, as root (deploy.sh and the Ansible playbook call it through sudo).

commands:
  check                   board checks only: architecture, OS, systemd, root/sudo, free space; changes nothing
  install --bundle DIR    install the release in DIR (headtrack binary, board/, this script), set up the board,
                          switch /opt/headtrack/current, restart, health check, roll back automatically on failure
  rollback                switch back to the previous release, restart, health check (detached, like install's:
                          if the previous release fails it, the current one is restored and the exit status is 3)
  status                  show releases, the current one, the last deploy's outcome, service state, a pending reboot
  await [--version NAME]  wait for the running activation (switch, health check, rollback) to finish, print its
                          log and exit with its status; deploy.sh runs this after a dropped connection
  activate --version NAME (internal: install starts it detached) switch to the release, restart, health check,
                          roll back on failure, record the outcome in /opt/headtrack/last-deploy
  check-binary FILE --board-arch ARCH
                          print FILE's ELF architecture; exit 2 if it cannot run on ARCH (deploy.sh runs this locally)

options:
  --target-root DIR       prefix every board path with DIR (tests, image preparation); also $HEADTRACK_TARGET_ROOT
  --binary FILE           install FILE instead of DIR/headtrack (a binary built on the board)
  --version NAME          release name (letters, digits, . _ + -); default: UTC time + the binary's
                          version stamp (headtrack --version) + first 8 hex of the sha256
  --board NAME            preset for a first config: auto (read the board model), pi3b, pi4b, pi5, zero2w
  --keep N                releases kept on the board (default 5; current and previous are always kept)
  --need-kb N             free space check for `check` (default 51200 = 50 MB)
  --health-timeout S      seconds to wait for the service to become active (default 30)
  --settle S              seconds it must then stay up without restarting (default 3)
  --timeout S             await: give up after S seconds (default: long enough for a health check and a rollback)
  --dry-run               print every change instead of making it
  -h, --help              this text

exit status: 0 ok; 1 usage or error before any change; 2 a board check failed (nothing changed);
             3 health check failed, rolled back; 4 health check failed and no working release could be restored.
EOF
}

# MARK: - output and the single place where the board is changed

say() { printf '%s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { local code=$1; shift; printf 'error: %s\n' "$*" >&2; exit "$code"; }

DRY_RUN=0
CHANGED=0
# mutate DESCRIPTION COMMAND...: print what changes, then do it (or, under --dry-run, only print it).
mutate() {
    local description=$1
    shift
    CHANGED=1
    if [ "$DRY_RUN" = 1 ]; then
        printf '  would: %s\n' "$description"
    else
        printf '  + %s\n' "$description"
        "$@"
    fi
}
run() { mutate "$(printf '%q ' "$@")" "$@"; }
# did PAST FUTURE: the verb for a summary line after mutate: what was done, or under --dry-run what would be.
did() { if [ "$DRY_RUN" = 1 ]; then printf '%s' "$2"; else printf '%s' "$1"; fi; }

write_file() { # mode uid gid path < content
    local tmp status=0
    tmp=$(mktemp)
    cat >"$tmp"
    mutate "write ${4#"$R"} (mode $1, owner $2:$3): $(head -n 1 "$tmp")" install -m "$1" -o "$2" -g "$3" "$tmp" "$4" || status=$?
    rm -f "$tmp"
    return "$status"
}

append_file() { # src dst
    # shellcheck disable=SC2016 # $1/$2 are for the inner sh
    mutate "append to ${2#"$R"}: $(tr '\n' ';' <"$1")" sh -c 'cat "$1" >>"$2" && sync' sh "$1" "$2"
}

# MARK: - paths

set_paths() {
    R=${TARGET_ROOT%/}
    OPT=$R/opt/headtrack
    RELEASES=$OPT/releases
    CURRENT=$OPT/current
    PREVIOUS=$OPT/previous
    UNIT=$R/etc/systemd/system/headtrack.service
    RULES=$R/etc/udev/rules.d/99-headtrack.rules
    MAN_PAGE=$R/usr/local/share/man/man1/headtrack.1
    COMPLETION=$R/usr/share/bash-completion/completions/headtrack
    MODULES_LOAD=$R/etc/modules-load.d/headtrack.conf
    ETC_DIR=$R/etc/headtrack
    CONFIG=$ETC_DIR/config.json
    STATE_DIR=$R/var/lib/headtrack
    # /run is a tmpfs, so this flag disappears by itself when the board reboots.
    REBOOT_FLAG=$R/run/headtrack-reboot-required
    LOCK_FILE=$R/run/headtrack-deploy.lock
    # The outcome of the last activation and its output: kept on disk, so a laptop that lost its connection
    # (or a later --status) can still learn what happened, even after the board rebooted.
    RECORD=$OPT/last-deploy
    ACTIVATION_LOG=$OPT/last-deploy.log
    SERVICE=headtrack.service
    USER_NAME=headtrack
    # useradd/groupadd/usermod edit $R/etc/{passwd,group,shadow,gshadow} when given --prefix.
    ACCOUNT_PREFIX=()
    if [ -n "$R" ]; then ACCOUNT_PREFIX=(--prefix "$R"); fi
}

# Numeric ids from the target's own account files, because names would resolve against the machine running
# the script; the name itself when it does not exist yet (only possible in a dry run).
account_id() { # passwd|group name
    awk -F: -v n="$2" '$1 == n { print $3; found = 1 } END { if (!found) print n }' "$R/etc/$1" 2>/dev/null || echo "$2"
}
uid_of() { account_id passwd "$1"; }
gid_of() { account_id group "$1"; }
group_exists() { grep -q "^$1:" "$R/etc/group" 2>/dev/null; }
user_exists() { grep -q "^$1:" "$R/etc/passwd" 2>/dev/null; }
user_in_group() { awk -F: -v g="$2" -v u="$1" '$1 == g { n = split($4, m, ","); for (i = 1; i <= n; i++) if (m[i] == u) found = 1 } END { exit !found }' "$R/etc/group" 2>/dev/null; }

# MARK: - board checks (nothing here changes the board)

elf_arch() { # file -> aarch64 | arm | x86_64 | i386 | riscv64 | machine-N | not-elf
    local magic machine
    magic=$(od -An -tx1 -N4 "$1" 2>/dev/null | tr -d ' \n')
    [ "$magic" = 7f454c46 ] || { echo not-elf; return; }
    # e_machine: little-endian u16 at offset 18 (every Pi and PC userland is little-endian).
    machine=$(od -An -tu1 -j18 -N2 "$1" | awk '{ print $1 + 256 * $2 }')
    case $machine in
        183) echo aarch64 ;; 40) echo arm ;; 62) echo x86_64 ;; 3) echo i386 ;; 243) echo riscv64 ;;
        *) echo "machine-$machine" ;;
    esac
}

board_arch() { # normalised kernel architecture, or the raw uname -m answer
    local m
    m=$(uname -m)
    case $m in
        aarch64 | arm64) echo aarch64 ;;
        armv7l | armv7 | armv8l) echo armv7 ;;
        *) echo "$m" ;;
    esac
}

nearest_existing_dir() { local d=$1; while [ ! -d "$d" ]; do d=$(dirname "$d"); done; echo "$d"; }

free_kb() { df -Pk "$(nearest_existing_dir "$1")" | awk 'NR == 2 { print $4 }'; }

board_checks() { # need_kb -> prints a summary and ARCH=..., exits 2 on the first failed check
    local need_kb=$1 kernel arch os sysver avail_kb
    kernel=$(uname -s)
    [ "$kernel" = Linux ] || die 2 "the board runs $kernel, not Linux: headtrack needs Raspberry Pi OS (or another Linux with systemd)."
    arch=$(board_arch)
    # x86_64: a PC-class board with I2C and a GPIO character device (and the system test's x86_64 guest).
    case $arch in
        aarch64 | armv7 | x86_64) ;;
        armv6l) die 2 "board architecture is armv6l (Pi Zero/Zero W/Pi 1): Swift does not run there. Use a Pi 3B, 4B, 5 or Zero 2 W." ;;
        *) die 2 "board architecture is $arch, expected aarch64, armv7l or x86_64: is $(hostname 2>/dev/null || echo this) really the Raspberry Pi?" ;;
    esac
    os=unknown
    if [ -r "$R/etc/os-release" ]; then
        os=$(. "$R/etc/os-release" && echo "${PRETTY_NAME:-${ID:-unknown}}")
        (. "$R/etc/os-release" && case " ${ID:-} ${ID_LIKE:-} " in *" debian "* | *" raspbian "*) exit 0 ;; *) exit 1 ;; esac) ||
            warn "$os is not Debian-based; the install uses only useradd/groupadd/systemd, but it is tested on Raspberry Pi OS."
    else
        warn "no /etc/os-release on the board; cannot tell which OS it runs."
    fi
    command -v systemctl >/dev/null ||
        die 2 "no systemctl on the board: headtrack runs as a systemd service. Use Raspberry Pi OS Bookworm (or another systemd distribution)."
    sysver=$(systemctl --version | awk 'NR == 1 { print $2 }')
    case $sysver in '' | *[!0-9]*) sysver=0 ;; esac
    [ "$sysver" -ge 247 ] ||
        die 2 "systemd $sysver on the board is too old for the unit (ProtectProc= and ProcSubset= need 247): upgrade to Raspberry Pi OS Bullseye or later."
    if [ "$(id -u)" != 0 ]; then
        die 2 "remote-install.sh must run as root; deploy.sh and Ansible call it with sudo -n (passwordless sudo, the Raspberry Pi OS default)."
    fi
    avail_kb=$(free_kb "$OPT")
    [ "$avail_kb" -ge "$need_kb" ] ||
        die 2 "only $((avail_kb / 1024)) MB free for $OPT, need $((need_kb / 1024)) MB: free space (sudo apt clean, remove old releases under $RELEASES)."
    say "board: $arch, $os, systemd $sysver, $((avail_kb / 1024)) MB free for /opt/headtrack"
    say "ARCH=$arch"
}

check_binary_fits() { # binary board_arch -> prints the binary's architecture, exits 2 when it cannot run there
    local binary_arch hint
    binary_arch=$(elf_arch "$1")
    case "$2:$binary_arch" in
        # A 64-bit Pi kernel also runs 32-bit ARM binaries.
        aarch64:aarch64 | aarch64:arm | armv7:arm | x86_64:x86_64) echo "$binary_arch" ;;
        *:not-elf) die 2 "$1 is not an ELF executable: pass the headtrack binary from .build/<triple>/release/headtrack." ;;
        *:*) if [ "$2" = x86_64 ]; then hint="on an x86_64 machine: swift build -c release --static-swift-stdlib"
             else hint="scripts/build-board.sh, or --swift-sdk aarch64-swift-linux-musl"; fi
             die 2 "$1 is built for $binary_arch but the board is $2: build for the board ($hint)." ;;
    esac
}

# MARK: - board set-up (each step changes something only when it is missing)

detect_preset() { # -> preset name or ""
    local model=""
    [ -r "$R/proc/device-tree/model" ] && model=$(tr -d '\0' <"$R/proc/device-tree/model")
    case $model in
        # "Raspberry Pi 5" also matches the Pi 500, "Raspberry Pi 4" the Pi 400.
        *"Raspberry Pi 5"* | *"Compute Module 5"*) echo pi5 ;;
        *"Raspberry Pi 4"* | *"Compute Module 4"*) echo pi4b ;;
        *"Raspberry Pi Zero 2"*) echo zero2w ;;
        *"Raspberry Pi 3"*) echo pi3b ;;
        *) echo "" ;;
    esac
}

setup_accounts() {
    local group
    for group in i2c gpio; do
        # Raspberry Pi OS has both groups; plain Debian does not, and the unit's SupplementaryGroups= needs them.
        group_exists "$group" || run groupadd "${ACCOUNT_PREFIX[@]}" --system "$group"
    done
    user_exists "$USER_NAME" ||
        run useradd "${ACCOUNT_PREFIX[@]}" --system --user-group --no-create-home \
            --home-dir /var/lib/headtrack --shell /usr/sbin/nologin --comment "headtrack daemon" "$USER_NAME"
    for group in i2c gpio; do
        # Membership as well as SupplementaryGroups=, so `sudo -u headtrack headtrack probe` works by hand.
        user_in_group "$USER_NAME" "$group" || run usermod "${ACCOUNT_PREFIX[@]}" --append --groups "$group" "$USER_NAME"
    done
}

boot_config_file() { # -> the config.txt the firmware reads, or ""
    if [ -f "$R/boot/firmware/config.txt" ]; then
        echo "$R/boot/firmware/config.txt"
    elif [ -f "$R/boot/config.txt" ] && ! grep -q "DO NOT EDIT" "$R/boot/config.txt"; then
        echo "$R/boot/config.txt"
    fi
}

setup_i2c() { # fragment
    local fragment=$1 config_txt block
    config_txt=$(boot_config_file)
    if [ -z "$config_txt" ]; then
        warn "no /boot/firmware/config.txt or /boot/config.txt: enable I2C at 400 kHz yourself (see board/config.txt.fragment)."
    elif grep -qx '# >>> headtrack.*' "$config_txt" ||
        { grep -qE '^[[:space:]]*dtparam=(i2c_arm|i2c)=on[[:space:]]*$' "$config_txt" &&
            grep -qE '^[[:space:]]*dtparam=(i2c_arm_baudrate|i2c_baudrate)=400000[[:space:]]*$' "$config_txt"; }; then
        say "I2C: already enabled at 400 kHz in ${config_txt#"$R"}"
    else
        # Appended, never rewritten: config.txt sits on a FAT partition and belongs to the user.
        block=$(mktemp)
        { printf '\n# >>> headtrack (added by deploy; edit freely, it is only added when missing)\n'
          grep -v '^#' "$fragment"
          printf '# <<< headtrack\n'; } >"$block"
        append_file "$block" "$config_txt"
        rm -f "$block"
        run mkdir -p "$R/run"
        printf 'I2C was enabled in %s\n' "${config_txt#"$R"}" | write_file 0644 0 0 "$REBOOT_FLAG"
        say "I2C: $(did enabled 'would enable') at 400 kHz in ${config_txt#"$R"}; a reboot is needed before the service can start"
    fi
    if [ "$(cat "$MODULES_LOAD" 2>/dev/null)" != i2c-dev ]; then
        run mkdir -p "$(dirname "$MODULES_LOAD")"
        echo i2c-dev | write_file 0644 0 0 "$MODULES_LOAD"
    fi
    if [ ! -d "$R/sys/module/i2c_dev" ] && command -v modprobe >/dev/null; then
        run modprobe i2c-dev || warn "modprobe i2c-dev failed; it loads at the next boot from ${MODULES_LOAD#"$R"}"
    fi
}

# Flushes the file system holding PATH. Before a rename, so the new name never points at data still in memory: a
# rename reaches the disk's journal before the data of a file just written does (ext4's delayed allocation), and
# a power cut soon after a deploy left `current` naming a release whose binary was 0 bytes (the system suite's
# power cuts: 7 of 20, the daemon crash-looping after the boot). After a rename, so the renames reach the disk
# in the order they were made (never the new unit with the old `current`).
durable() { # path
    if [ "$DRY_RUN" != 1 ]; then sync -f "$1"; fi
}

# The unit and rules are replaced whole (a copy beside them, flushed, then one rename), never rewritten in place:
# a power cut during `install` onto the old file left systemd an empty or half unit at the next boot.
install_if_different() { # mode src dst -> returns 0 when it changed dst
    if cmp -s "$2" "$3"; then return 1; fi
    run mkdir -p "$(dirname "$3")"
    local fresh
    fresh=$(dirname "$3")/.$(basename "$3").new.$$
    run install -m "$1" -o 0 -g 0 "$2" "$fresh"
    durable "$fresh"
    run mv -T "$fresh" "$3"
    durable "$3"
}

# Unit and udev rules travel with each release, so a rollback also restores the previous release's unit.
install_release_system_files() { # board_dir
    local board=$1
    if install_if_different 0644 "$board/headtrack.service" "$UNIT"; then
        run systemctl daemon-reload
    fi
    if install_if_different 0644 "$board/99-headtrack.rules" "$RULES"; then
        if command -v udevadm >/dev/null; then
            run udevadm control --reload-rules
            run udevadm trigger --action=add --subsystem-match=i2c-dev --subsystem-match=gpio
        fi
    fi
    install_help_files "$(dirname "$board")/headtrack"
    if [ "$(systemctl is-enabled "$SERVICE" 2>/dev/null || true)" != enabled ]; then
        run systemctl enable "$SERVICE"
    fi
}

# The man page and bash completion come from the release's own binary (headtrack help --man and
# --bash-completion print them from the same texts as --help), so they always match what is installed.
# A binary that cannot print them (an older release) leaves the installed ones alone.
install_help_files() { # binary
    local tmp
    tmp=$(mktemp)
    if timeout 10 "$1" help --man >"$tmp" 2>/dev/null && head -n 1 "$tmp" | grep -q "headtrack help --man"; then
        install_if_different 0644 "$tmp" "$MAN_PAGE" || true
    fi
    if timeout 10 "$1" help --bash-completion >"$tmp" 2>/dev/null && grep -q '^complete .* headtrack$' "$tmp"; then
        install_if_different 0644 "$tmp" "$COMPLETION" || true
    fi
    rm -f "$tmp"
}

install_config_and_state() { # board_dir preset
    local board=$1 preset=$2 chip gid uid
    gid=$(gid_of "$USER_NAME")
    uid=$(uid_of "$USER_NAME")
    [ -d "$ETC_DIR" ] || run install -d -m 0750 -o 0 -g "$gid" "$ETC_DIR"
    if [ -e "$CONFIG" ]; then
        say "config: keeping ${CONFIG#"$R"} (never overwritten; defaults for this release are in ${CURRENT#"$R"}/board/config.json)"
    else
        chip=pinctrl-bcm2711
        if [ -n "$preset" ]; then
            chip=$(sed -n 's/.*"chip": *"\([^"]*\)".*/\1/p' "$board/presets/$preset.json")
        else
            warn "unknown board model; the first config assumes a Pi 4 (gpio.chip pinctrl-bcm2711). Edit ${CONFIG#"$R"} or pass --board."
        fi
        # The presets differ only in the GPIO chip label (deploy/tests/run.sh checks that this stays true), so the
        # first config is the full default with that label swapped in. Its own comments describe the default board.
        { printf '// headtrack config, first written by deploy for %s. Every field is optional; see docs/config.md.\n' \
              "${preset:-an unknown board}"
          grep -v '^[[:space:]]*//' "$board/config.json" |
              sed "s/\"chip\": \"pinctrl-bcm2711\"/\"chip\": \"$chip\"/"; } |
            write_file 0640 0 "$gid" "$CONFIG"
        say "config: $(did wrote 'would write') ${CONFIG#"$R"} for ${preset:-an unknown board} (gpio.chip $chip)"
    fi
    # Calibration lives here; an existing directory and everything in it are left exactly as they are.
    [ -d "$STATE_DIR" ] || run install -d -m 0750 -o "$uid" -g "$gid" "$STATE_DIR"
}

# MARK: - releases and the current symlink

link_target() { readlink "$1" 2>/dev/null || true; }

# A new link under a fresh name, then one rename over the old link: readers see the old or the new release, never
# none. `ln -sfn` and the fresh name mean a link left behind by a deploy that died (LINK.new, LINK.new.PID) is
# never followed: plain `ln -s X LINK.new` onto a stale link to a directory creates X inside that directory, and
# the rename then puts the stale link in place. Stale ones are removed, and the result is read back.
switch_link() { # link target
    local stale fresh=$1.new.$$
    for stale in "$1".new "$1".new.*; do
        if [ -L "$stale" ]; then run rm -f "$stale"; fi
    done
    if [ -z "$2" ]; then
        if [ -L "$1" ]; then run rm -f "$1"; fi
        return 0
    fi
    run ln -sfn "$2" "$fresh"
    run mv -T "$fresh" "$1"
    durable "$1"
    if [ "$DRY_RUN" != 1 ] && [ "$(link_target "$1")" != "$2" ]; then
        die 4 "${1#"$R"} points to $(link_target "$1") after the switch, not $2: fix it by hand (ln -sfn $2 ${1#"$R"})."
    fi
}

# The architecture systemd itself is built for, which SystemCallArchitectures=native means; the kernel's when the
# systemd binary cannot be read (a test board).
manager_arch() {
    local f
    for f in "$R/usr/lib/systemd/systemd" "$R/lib/systemd/systemd"; do
        if [ -f "$f" ]; then elf_arch "$f"; return; fi
    done
    case $(board_arch) in armv7) echo arm ;; *) board_arch ;; esac
}

# A 32-bit ARM binary on a 64-bit Raspberry Pi OS runs, but SystemCallArchitectures=native would kill it at its
# first system call; that release's copy of the unit then allows its ABI too (a rollback restores the unit of the
# release it goes back to, so the line always matches the binary that runs).
allow_binary_abi() { # unit binary_arch
    local manager abi
    manager=$(manager_arch)
    [ "$2" != "$manager" ] || return 0
    case $2 in aarch64) abi=arm64 ;; arm) abi=arm ;; x86_64) abi=x86-64 ;; *) abi=$2 ;; esac
    run sed -i "s/^SystemCallArchitectures=native\$/SystemCallArchitectures=native $abi/" "$1"
    say "unit: $2 binary on a $manager system: SystemCallArchitectures=native $abi in this release's unit"
}

create_release() { # binary board_dir script version binary_arch; sets RELEASE_DIR
    local binary=$1 board=$2 script=$3 version=$4 binary_arch=$5 partial sha
    RELEASE_DIR=$RELEASES/$version
    if [ -d "$RELEASE_DIR" ]; then
        cmp -s "$binary" "$RELEASE_DIR/headtrack" ||
            die 1 "release $version is already on the board with a different binary: choose another --version."
        say "release: $version is already on the board with this binary; reusing it"
        return 0
    fi
    sha=$(sha256sum "$binary" | awk '{ print $1 }')
    partial=$RELEASES/.$version.partial
    if [ ! -d "$RELEASES" ]; then run mkdir -p "$RELEASES"; fi
    if [ -e "$partial" ]; then run rm -rf "$partial"; fi
    run install -d -m 0755 -o 0 -g 0 "$partial"
    run install -m 0755 -o 0 -g 0 "$binary" "$partial/headtrack"
    run cp -R "$board" "$partial/board"
    allow_binary_abi "$partial/board/headtrack.service" "$binary_arch"
    run install -m 0644 -o 0 -g 0 "$script" "$partial/remote-install.sh"
    printf 'version=%s\nsha256=%s\ninstalled=%s\n' "$version" "$sha" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" |
        write_file 0644 0 0 "$partial/RELEASE"
    # A half-copied release never carries a real name: it appears under its name only when complete, and on disk.
    durable "$partial/headtrack"
    run mv -T "$partial" "$RELEASE_DIR"
    durable "$RELEASE_DIR"
    say "release: $version (sha256 ${sha:0:12}) $(did in 'would be in') ${RELEASE_DIR#"$R"}"
}

# Release names are checked to be [A-Za-z0-9._+-] only, so splitting ls output on whitespace is safe here.
# shellcheck disable=SC2045
releases_newest_first() { ls -1dt "$RELEASES"/*/ 2>/dev/null || true; }

prune_releases() { # keep
    local keep=$1 current previous kept=0 dir name
    current=$(link_target "$CURRENT")
    previous=$(link_target "$PREVIOUS")
    for dir in $(releases_newest_first); do
        name=releases/$(basename "$dir")
        if [ "$name" = "$current" ] || [ "$name" = "$previous" ] || [ "$kept" -lt "$keep" ]; then
            kept=$((kept + 1))
        else
            run rm -rf "${dir%/}"
        fi
    done
}

# MARK: - health check

service_property() { # name -> value from the last `systemctl show` snapshot
    printf '%s\n' "$SHOW" | sed -n "s/^$1=//p" | head -n 1
}

read_service_state() { SHOW=$(systemctl show "$SERVICE" -p Type -p ActiveState -p SubState -p NRestarts -p StatusText 2>/dev/null || true); }

# Healthy = systemd says active/running for a Type=notify unit (systemd only gets there after READY=1),
# and the daemon is not restarted during the settle time.
HEALTH_REASON=""
health_check() { # timeout settle
    local timeout=$1 settle=$2 waited=0 restarts state
    if ! run systemctl restart "$SERVICE"; then
        HEALTH_REASON="systemctl restart $SERVICE failed (the daemon exited or never sent READY=1)"
        return 1
    fi
    while :; do
        read_service_state
        state=$(service_property ActiveState)
        if [ "$state" = active ] || [ "$state" = failed ] || [ "$waited" -ge "$timeout" ]; then break; fi
        sleep 1
        waited=$((waited + 1))
    done
    if [ "$state" != active ]; then
        HEALTH_REASON="$SERVICE is $state/$(service_property SubState) after ${waited}s, not active"
        return 1
    fi
    if [ "$(service_property Type)" != notify ]; then
        HEALTH_REASON="$SERVICE is Type=$(service_property Type), so 'active' does not prove the daemon sent READY=1 (a drop-in changed Type=?)"
        return 1
    fi
    restarts=$(service_property NRestarts)
    sleep "$settle"
    read_service_state
    if [ "$(service_property ActiveState)" != active ] || [ "$(service_property NRestarts)" != "$restarts" ]; then
        HEALTH_REASON="$SERVICE reported READY but did not stay up for ${settle}s (now $(service_property ActiveState), restarts $restarts -> $(service_property NRestarts))"
        return 1
    fi
    say "health: $SERVICE active, READY received${SHOW:+, status: $(service_property StatusText)}"
}

show_journal() {
    say "last journal lines of $SERVICE:"
    journalctl -u "$SERVICE" -n 20 --no-pager 2>&1 | sed 's/^/    /' || true
}

# MARK: - commands

cmd_check() {
    board_checks "$NEED_KB"
}

cmd_install() {
    local binary script board version binary_arch arch preset need_kb checks stamp
    [ -n "$BUNDLE" ] || die 1 "install needs --bundle DIR (the directory deploy.sh or Ansible uploaded)."
    binary=${BINARY:-$BUNDLE/headtrack}
    board=$BUNDLE/board
    script=$BUNDLE/remote-install.sh
    [ -f "$binary" ] || die 1 "no binary at $binary: build one (swift build -c release) or pass --binary."
    [ -f "$board/headtrack.service" ] || die 1 "$board/headtrack.service missing: the bundle is incomplete, upload it again."

    need_kb=$(($(du -k "$binary" | awk '{ print $1 }') * 2 + 20480))
    checks=$(board_checks "$need_kb") || exit 2
    printf '%s\n' "$checks" | grep -v '^ARCH='
    arch=$(printf '%s\n' "$checks" | sed -n 's/^ARCH=//p')
    binary_arch=$(check_binary_fits "$binary" "$arch") || exit 2
    say "binary: $binary_arch, $(du -k "$binary" | awk '{ print int($1 / 1024) }') MB"

    if [ -n "$VERSION" ]; then
        version=$VERSION
    else
        # The binary's own stamp (headtrack --version prints the same: release version + git commit), when it
        # has one, so the release directory says what was built; the hash tells apart two builds of one commit.
        stamp=$(grep -a -o -m 1 'HEADTRACK_VERSION=[0-9A-Za-z._+-]*' "$binary" 2>/dev/null | head -n 1 | cut -d= -f2 || true)
        version=$(date -u +%Y%m%dT%H%M%SZ)${stamp:+-$stamp}-$(sha256sum "$binary" | cut -c1-8)
    fi
    case $version in
        '' | .* | *[!A-Za-z0-9._+-]*) die 1 "release name '$version' may only use letters, digits and . _ + - (and not start with a dot)." ;;
    esac
    if [ "$BOARD" = auto ]; then
        preset=$(detect_preset)
    else
        [ -f "$board/presets/$BOARD.json" ] || die 1 "no preset '$BOARD': choose pi3b, pi4b, pi5, zero2w or auto."
        preset=$BOARD
    fi
    if [ -e "$CURRENT" ] && [ ! -L "$CURRENT" ]; then
        die 1 "${CURRENT#"$R"} exists but is not a symlink: move it away, then deploy again."
    fi

    lock
    setup_accounts
    setup_i2c "$board/config.txt.fragment"
    create_release "$binary" "$board" "$script" "$version" "$binary_arch"
    install_config_and_state "$board" "$preset"

    if [ "$DRY_RUN" = 1 ]; then
        activate "$version" "$board"
        finish
        return
    fi
    activate_detached "$version"
}

# MARK: - activation: switch, restart, health check, rollback

# The step that must not be cut short: once `current` has moved, only a finished health check (or a rollback)
# leaves the board in a known state. install therefore runs it as its own process in a new session (setsid),
# with its output in a file, so neither a dropped ssh connection (no SIGHUP, no SIGPIPE) nor a killed deploy.sh
# stops it; install only follows the log and exits with the recorded result. The lock (fd 9) is inherited, so
# no other deploy starts until the activation has finished.
activate_detached() { # version [script: a remote-install.sh that has `activate`, default the release's own]
    local version=$1 script=${2:-$RELEASES/$1/remote-install.sh} pid args=()
    args=(activate --version "$version" --health-timeout "$HEALTH_TIMEOUT" --settle "$SETTLE" --keep "$KEEP")
    if [ -n "$TARGET_ROOT" ]; then args+=(--target-root "$TARGET_ROOT"); fi
    if [ "$CHANGED" = 1 ]; then args+=(--changed); fi
    write_record "version=$version" "state=running" "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    install -m 0644 /dev/null "$ACTIVATION_LOG"
    setsid bash "$script" "${args[@]}" >"$ACTIVATION_LOG" 2>&1 </dev/null &
    pid=$!
    say "activation of $version: running detached on the board (pid $pid, log ${ACTIVATION_LOG#"$R"}), so it finishes, rolling back on failure, even if the connection drops"
    tail -s 0.2 -n +1 --pid="$pid" -f "$ACTIVATION_LOG" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    exit_with_record "$version"
}

# record KEY=VALUE... into /opt/headtrack/last-deploy, atomically (a reader sees the old record or the new one).
# Deploy bookkeeping, not a change to the board's set-up, so it does not go through `run`.
write_record() {
    local tmp=$RECORD.tmp.$$
    printf '%s\n' "$@" >"$tmp"
    mv -T "$tmp" "$RECORD"
}

record_field() { sed -n "s/^$1=//p" "$RECORD" 2>/dev/null | head -n 1; }

# Exits with the recorded result of VERSION's activation; 4 when it stopped without one (killed, power cut).
exit_with_record() { # version
    local state
    [ "$(record_field version)" = "$1" ] ||
        die 1 "the last deploy recorded on the board is $(record_field version), not $1: another deploy has run since (see status)."
    state=$(record_field state)
    if [ "$state" != "done" ]; then
        say "the activation of $1 stopped without a result (killed, or the board lost power): check it with status; current is $(link_target "$CURRENT")."
        exit 4
    fi
    case $(record_field result) in
        0 | 3 | 4) exit "$(record_field result)" ;;
        *) say "the activation of $1 ended with status $(record_field result): $(record_field summary)"; exit 4 ;;
    esac
}

ACTIVATION_SUMMARY=""
# The exit trap of `activate`: whatever way it ends (exit 3/4, die, success), the outcome is recorded.
record_activation() { # exit status
    write_record "version=$VERSION" "state=done" "result=$1" "started=$ACTIVATION_STARTED" \
        "finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)" "summary=${ACTIVATION_SUMMARY:-stopped with exit status $1 (output in ${ACTIVATION_LOG#"$R"})}"
}

cmd_activate() {
    if [ -z "$VERSION" ] || [ ! -d "$RELEASES/$VERSION" ]; then
        die 1 "activate needs --version NAME of a release in ${RELEASES#"$R"}."
    fi
    # Started by install with the deploy lock on fd 9; alone (by hand) it takes the lock itself.
    trap '' HUP
    if { true >&9; } 2>/dev/null; then
        flock -n 9 || die 1 "another deploy is running on this board; wait for it to finish."
    else
        lock
    fi
    ACTIVATION_STARTED=$(record_field started)
    ACTIVATION_STARTED=${ACTIVATION_STARTED:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
    trap 'record_activation $?' EXIT
    if [ "$PRIOR_CHANGES" = 1 ]; then CHANGED=1; fi
    activate "$VERSION" "$RELEASES/$VERSION/board"
    finish
}

activate() { # version board_dir; returns after success (or the dry-run plan), exits 3 or 4 after a failure
    local version=$1 board=$2 old_current old_previous
    RELEASE_DIR=$RELEASES/$version
    old_current=$(link_target "$CURRENT")
    old_previous=$(link_target "$PREVIOUS")
    if [ "$old_current" = "releases/$version" ]; then
        say "current: already $version"
    else
        switch_link "$CURRENT" "releases/$version"
        if [ -n "$old_current" ]; then switch_link "$PREVIOUS" "$old_current"; fi
        say "current: $version${old_current:+ (previous: ${old_current#releases/})}"
    fi
    install_release_system_files "$board"

    if [ "$DRY_RUN" = 1 ]; then
        say "would restart $SERVICE and check its health (rolling back to ${old_current:-nothing} on failure)"
        return 0
    fi
    if [ -e "$REBOOT_FLAG" ]; then
        ACTIVATION_SUMMARY="installed $version; a reboot is needed before it starts ($(cat "$REBOOT_FLAG"))"
        say "REBOOT NEEDED: $(cat "$REBOOT_FLAG"). The service is enabled and starts at boot: run 'sudo reboot'."
        return 0
    fi
    if health_check "$HEALTH_TIMEOUT" "$SETTLE"; then
        prune_releases "$KEEP"
        ACTIVATION_SUMMARY="$version is running and healthy"
        return 0
    fi

    say "health check FAILED for $version: $HEALTH_REASON"
    show_journal
    printf 'health check failed: %s\n' "$HEALTH_REASON" | write_file 0644 0 0 "$RELEASE_DIR/FAILED"
    if [ -z "$old_current" ] || [ "$old_current" = "releases/$version" ]; then
        ACTIVATION_SUMMARY="$version failed its health check ($HEALTH_REASON) and there is no previous release to go back to"
        say "no previous release to roll back to; $SERVICE keeps retrying (journalctl -u $SERVICE -f)."
        exit 4
    fi
    say "rolling back to ${old_current#releases/}"
    switch_link "$CURRENT" "$old_current"
    switch_link "$PREVIOUS" "$old_previous"
    install_release_system_files "$OPT/$old_current/board"
    if health_check "$HEALTH_TIMEOUT" "$SETTLE"; then
        ACTIVATION_SUMMARY="$version failed its health check (marked FAILED); rolled back to ${old_current#releases/}, which is running"
        say "ROLLED BACK to ${old_current#releases/}; $version stays in ${RELEASE_DIR#"$R"} (marked FAILED) for inspection."
        exit 3
    fi
    ACTIVATION_SUMMARY="$version failed its health check and the rolled-back ${old_current#releases/} is not healthy either: $HEALTH_REASON"
    say "the rolled-back release ${old_current#releases/} is not healthy either: $HEALTH_REASON"
    say "so the new release is probably not the cause: check the wiring and I2C (headtrack probe)."
    show_journal
    exit 4
}

# After a dropped connection: wait until the activation VERSION started has finished, show everything it
# printed, and exit with its result. Waiting takes the deploy lock, which the activation holds until it ends.
cmd_await() {
    local timeout=${AWAIT_TIMEOUT:-$((2 * (HEALTH_TIMEOUT + SETTLE) + 60))}
    [ -f "$RECORD" ] || die 1 "no deploy is recorded on this board (${RECORD#"$R"} is missing)."
    mkdir -p "$R/run"
    exec 8>"$LOCK_FILE"
    flock -w "$timeout" 8 ||
        die 5 "the activation of $(record_field version) is still running after ${timeout}s; look again later with status."
    exec 8>&-
    say "output of the activation of $(record_field version) on the board:"
    sed 's/^/  | /' "$ACTIVATION_LOG" 2>/dev/null || true
    say "outcome: $(record_field summary)"
    exit_with_record "${VERSION:-$(record_field version)}"
}

cmd_rollback() {
    local old_current old_previous script
    old_current=$(link_target "$CURRENT")
    old_previous=$(link_target "$PREVIOUS")
    [ -n "$old_previous" ] || die 1 "no previous release on the board (${PREVIOUS#"$R"} is missing): nothing to roll back to."
    [ -d "$OPT/$old_previous" ] || die 1 "${PREVIOUS#"$R"} points to $old_previous, which no longer exists."
    lock
    # Like a deploy of the previous release: detached, and back to the current one if it fails its health check.
    # That needs a remote-install.sh on the board that has `activate` (releases deployed before it do not).
    if [ "$DRY_RUN" != 1 ]; then
        for script in "$OPT/$old_previous/remote-install.sh" "$OPT/$old_current/remote-install.sh"; do
            if grep -q '^cmd_activate()' "$script" 2>/dev/null; then activate_detached "${old_previous#releases/}" "$script"; fi
        done
        warn "neither release on the board can activate detached (both predate it): rolling back in this session."
    fi
    switch_link "$CURRENT" "$old_previous"
    switch_link "$PREVIOUS" "$old_current"
    install_release_system_files "$OPT/$old_previous/board"
    say "current: ${old_previous#releases/} (previous: ${old_current#releases/})"
    if [ "$DRY_RUN" = 1 ]; then
        say "would restart $SERVICE and check its health"
        finish
        return
    fi
    if ! health_check "$HEALTH_TIMEOUT" "$SETTLE"; then
        say "health check FAILED after rollback: $HEALTH_REASON"
        show_journal
        exit 4
    fi
    finish
}

cmd_status() {
    local dir name mark current previous
    current=$(link_target "$CURRENT")
    previous=$(link_target "$PREVIOUS")
    say "current:  ${current:+${current#releases/}}${current:-(none)}"
    say "previous: ${previous:+${previous#releases/}}${previous:-(none)}"
    say "releases (newest first):"
    for dir in $(releases_newest_first); do
        name=$(basename "$dir")
        mark=""
        if [ -e "$dir/FAILED" ]; then mark=" (FAILED: $(cat "$dir/FAILED"))"; fi
        say "  $name$mark"
    done
    if [ -f "$RECORD" ]; then
        if [ "$(record_field state)" = "done" ]; then
            say "last deploy: $(record_field version) (started $(record_field started), finished $(record_field finished), exit $(record_field result)): $(record_field summary)"
        elif deploy_running; then
            say "last deploy: $(record_field version) (started $(record_field started)) is still running its health check"
        else
            say "last deploy: $(record_field version) (started $(record_field started)) stopped before its health check finished (killed, or the board lost power); current is ${current#releases/}, not verified"
        fi
    fi
    if [ -e "$REBOOT_FLAG" ]; then say "REBOOT NEEDED: $(cat "$REBOOT_FLAG")"; fi
    read_service_state
    say "service: $(service_property ActiveState)/$(service_property SubState), restarts $(service_property NRestarts), status: $(service_property StatusText)"
}

lock() {
    if [ "$DRY_RUN" = 1 ]; then return 0; fi
    mkdir -p "$R/run"
    exec 9>"$LOCK_FILE"
    flock -n 9 || die 1 "another deploy is running on this board; wait for it to finish."
}

# True while some deploy holds the lock (checked with a shared lock taken and dropped at once).
deploy_running() {
    [ -e "$LOCK_FILE" ] || return 1
    ! flock -n -s "$LOCK_FILE" true 2>/dev/null
}

finish() {
    if [ "$DRY_RUN" = 1 ]; then
        say "RESULT: dry run, nothing changed"
    elif [ "$CHANGED" = 1 ]; then
        say "RESULT: changed"
    else
        say "RESULT: unchanged"
    fi
}

whole_number() { # option value max
    case $2 in
        '' | *[!0-9]* | 0?*) die 1 "$1 $2: give a whole number from 0 to $3." ;;
    esac
    if [ "${#2}" -gt 9 ] || [ "$2" -gt "$3" ]; then die 1 "$1 $2 is too large: at most $3."; fi
}

main() {
    local command=${1:-}
    [ $# -gt 0 ] && shift
    TARGET_ROOT=${HEADTRACK_TARGET_ROOT:-}
    BUNDLE="" BINARY="" VERSION="" BOARD=auto KEEP=5 NEED_KB=51200 HEALTH_TIMEOUT=30 SETTLE=3 FILE="" BOARD_ARCH=""
    AWAIT_TIMEOUT="" PRIOR_CHANGES=0
    while [ $# -gt 0 ]; do
        case $1 in
            --target-root) TARGET_ROOT=${2:?--target-root needs a directory}; shift ;;
            --bundle) BUNDLE=${2:?--bundle needs a directory}; shift ;;
            --binary) BINARY=${2:?--binary needs a file}; shift ;;
            --version) VERSION=${2:?--version needs a name}; shift ;;
            --board) BOARD=${2:?--board needs a name}; shift ;;
            --keep) KEEP=${2:?--keep needs a number}; shift ;;
            --need-kb) NEED_KB=${2:?--need-kb needs a number}; shift ;;
            --health-timeout) HEALTH_TIMEOUT=${2:?--health-timeout needs seconds}; shift ;;
            --settle) SETTLE=${2:?--settle needs seconds}; shift ;;
            --timeout) AWAIT_TIMEOUT=${2:?--timeout needs seconds}; shift ;;
            --changed) PRIOR_CHANGES=1 ;;
            --board-arch) BOARD_ARCH=${2:?--board-arch needs aarch64, armv7 or x86_64}; shift ;;
            --dry-run) DRY_RUN=1 ;;
            -h | --help) usage; exit 0 ;;
            -*) die 1 "unknown option $1 (see --help)" ;;
            *) FILE=$1 ;;
        esac
        shift
    done
    # They become loop bounds, sleeps and arithmetic: whole numbers in a sane range only.
    whole_number --keep "$KEEP" 1000
    whole_number --need-kb "$NEED_KB" 100000000
    whole_number --health-timeout "$HEALTH_TIMEOUT" 3600
    whole_number --settle "$SETTLE" 3600
    if [ -n "$AWAIT_TIMEOUT" ]; then whole_number --timeout "$AWAIT_TIMEOUT" 86400; fi
    if [ -n "$TARGET_ROOT" ] && [ ! -d "$TARGET_ROOT" ]; then
        die 1 "target root $TARGET_ROOT does not exist."
    fi
    set_paths
    case $command in
        check) cmd_check ;;
        install) cmd_install ;;
        rollback) cmd_rollback ;;
        status) cmd_status ;;
        activate) cmd_activate ;;
        await) cmd_await ;;
        check-binary)
            if [ -z "$FILE" ] || [ -z "$BOARD_ARCH" ]; then die 1 "check-binary needs FILE and --board-arch"; fi
            check_binary_fits "$FILE" "$BOARD_ARCH" ;;
        -h | --help) usage ;;
        '') usage >&2; exit 1 ;;
        *) die 1 "unknown command '$command' (see --help)" ;;
    esac
}

# Run only once the whole file is read (it may arrive on stdin through `ssh host bash -s`), and keep stdin
# away from the commands it runs so none of them can swallow the rest of the script.
main "$@" </dev/null

#!/usr/bin/env bash
# Builds the headset's binary (aarch64, Raspberry Pi OS 64-bit bookworm or later) on this Debian 12 machine
# (x86_64 or aarch64) with the Swift 6 toolchain on PATH, from Debian's own packages:
#   - a bookworm arm64 sysroot (glibc 2.36, libi2c, gcc's crt files) and trixie's `swiftlang` arm64 static Swift
#     runtime, downloaded with apt-get under private package lists (nothing is installed on this machine),
#     every .deb pinned in scripts/board-sdk/packages.lock and checked against the archive's SHA256;
#   - the toolchain's own clang and lld; a small C shim (scripts/board-sdk/isoc23-shim.c) for the three glibc
#     2.38 names the runtime uses.
# Downloads and unpacked trees are cached in $HEADTRACK_SDK_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/headtrack/
# board-sdk, about 250 MB); a warm run needs no network. Prints the binary's architecture, size and glibc needs
# to stderr, and its path alone on the last line of stdout:
#   bin=$(scripts/build-board.sh) && deploy/deploy.sh --binary "$bin" pi@headset.local
#
# Environment:
#   HEADTRACK_SDK_CACHE      cache folder (see above)
#   HEADTRACK_SDK_LOCK       pin file to use instead of scripts/board-sdk/packages.lock (the tests' wrong pins)
#   HEADTRACK_DEBIAN_MIRROR  Debian archive to download from (default http://deb.debian.org/debian). When a pinned
#                            version has left the archive, a snapshot still has it, e.g.
#                            https://snapshot.debian.org/archive/debian/20251201T000000Z
# --print-sysroot prepares the sysroot and runtime and prints the sysroot's path instead of building (for
# qemu-aarch64-static -L SYSROOT, which runs the binary here).
# --repin moves every pin to the version its suite has today, with the archive's SHA256, rewrites the pin file
# (comments kept) and says what changed; nothing is built. Then build, run scripts/test.sh, commit the file.
# Only 64-bit ARM: Debian packages Swift for arm64 but not for armhf, so there is no 32-bit runtime to link.
# Exit status: 0 built; 1 usage, missing tool, download or check failed; 2 the build failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
lock=${HEADTRACK_SDK_LOCK:-$here/board-sdk/packages.lock}
shim_source=$here/board-sdk/isoc23-shim.c
cache=${HEADTRACK_SDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/headtrack/board-sdk}
mirror=${HEADTRACK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
triple=aarch64-unknown-linux-gnu
# Raspberry Pi OS bookworm has glibc 2.36: a binary that needs more would not start there.
max_glibc=2.36

print_sysroot=0 repin=0
case ${1:-} in
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --print-sysroot) print_sysroot=1 ;;
    --repin) repin=1 ;;
    "") ;;
    *) echo "usage: scripts/build-board.sh [--print-sysroot | --repin | --help]  (settings come from the environment)" >&2; exit 1 ;;
esac

log() { printf 'build-board: %s\n' "$*" >&2; }
die() { local code=$1; shift; printf 'build-board: error: %s\n' "$*" >&2; exit "$code"; }

# MARK: - host tools

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
    die 1 "this needs a Debian-based machine (apt-get, dpkg-deb): the sysroot and runtime are Debian packages."
swiftc=$(command -v swiftc) || die 1 "no swift on PATH: install the Swift 6 toolchain for Debian 12 from swift.org first."
toolchain=$(cd "$(dirname "$(readlink -f "$swiftc")")/.." && pwd)
swift_version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -1)
case $swift_version in
    6.*) ;;
    *) die 1 "Swift ${swift_version:-of unknown version} on PATH; this build needs Swift 6.x (the runtime is 6.0.3)." ;;
esac
clang=$toolchain/bin/clang
host_clang_headers=$toolchain/lib/swift/clang # the compiler's own builtin headers (stddef.h, ...)
for tool in "$clang" "$toolchain/bin/ld.lld" "$toolchain/bin/llvm-objdump"; do
    [ -x "$tool" ] || die 1 "$tool is missing: the swift.org toolchain ships it; reinstall the toolchain."
done
[ -d "$host_clang_headers" ] || die 1 "$host_clang_headers is missing: reinstall the Swift toolchain."

mkdir -p "$cache" || die 1 "cannot create the cache folder $cache (set HEADTRACK_SDK_CACHE to a writable folder)"
# One build-board at a time per cache: a second one waits instead of unpacking into the same folders.
exec 9>"$cache/.lock"
flock 9

# MARK: - pinned packages

# Lines of the lock file: kind suite package version sha256.
pins=$(grep -v '^[[:space:]]*\(#\|$\)' "$lock") || die 1 "$lock lists no packages"
pin_key() { # kind -> short hash of that kind's pins: names the unpacked tree, so a changed pin unpacks anew
    printf '%s\n' "$pins" | awk -v k="$1" '$1 == k' | sha256sum | cut -c1-12
}

apt_dir=$cache/apt
apt_opts=(-o APT::Architecture=arm64 -o APT::Architectures=arm64
    -o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts="$apt_dir/sources.list.d"
    -o Dir::Etc::Preferences="$apt_dir/preferences" -o Dir::Etc::PreferencesParts="$apt_dir/preferences.d"
    -o Dir::State::Lists="$apt_dir/lists" -o Dir::State::status=/dev/null -o Dir::Cache="$apt_dir/cache"
    -o Acquire::Languages=none -o Acquire::Retries=3 -o APT::Sandbox::User="$(id -un)")

# Private package lists for arm64 bookworm + trixie; signatures checked with Debian's archive keyring.
write_sources() {
    local opts="arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg" suite
    [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] ||
        die 1 "no /usr/share/keyrings/debian-archive-keyring.gpg: install debian-archive-keyring (apt-get install debian-archive-keyring)"
    case $mirror in *snapshot.debian.org*) opts+=" check-valid-until=no" ;; esac
    mkdir -p "$apt_dir"/{lists/partial,cache/archives/partial,sources.list.d,preferences.d}
    for suite in $(printf '%s\n' "$pins" | awk '{ print $2 }' | sort -u); do
        echo "deb [$opts] $mirror $suite main"
    done >"$apt_dir/sources.list.new"
    mv "$apt_dir/sources.list.new" "$apt_dir/sources.list"
}

lists_fresh=0
update_lists() {
    write_sources
    log "reading Debian's arm64 package lists from $mirror (about 20 MB)"
    apt-get "${apt_opts[@]}" update -q >"$apt_dir/update.log" 2>&1 || {
        tail -15 "$apt_dir/update.log" >&2
        die 1 "could not read the package lists from $mirror (network down, proxy, or a wrong HEADTRACK_DEBIAN_MIRROR?).
Full log: $apt_dir/update.log"
    }
    grep -q '^\(Err\|W: Failed\)' "$apt_dir/update.log" && {
        grep '^\(Err\|W:\|E:\)' "$apt_dir/update.log" >&2
        die 1 "some package lists could not be read from $mirror (see above); nothing was built."
    }
    lists_fresh=1
}

# Prints the archive's SHA256 for package=version, empty when the lists do not have that version.
archive_sha256() { # package version
    { apt-cache "${apt_opts[@]}" show "$1=$2" 2>/dev/null || true; } | sed -n 's/^SHA256: //p' | head -1
}

# Where apt-get download puts package=version (every pinned package is Architecture: arm64; an epoch's ':' is
# written %3a).
deb_file() { echo "$cache/debs/${1}_${2//:/%3a}_arm64.deb"; }

# Downloads one pinned .deb into $cache/debs (unless a checked copy is there) and checks it.
fetch() { # suite package version sha256
    local suite=$1 package=$2 version=$3 want=$4 listed file got
    file=$(deb_file "$package" "$version")
    if [ -f "$file" ] && [ "$(sha256sum "$file" | cut -d' ' -f1)" = "$want" ]; then return 0; fi
    # Lists from another mirror (HEADTRACK_DEBIAN_MIRROR changed) or none yet: read them first.
    grep -qF " $mirror " "$apt_dir/sources.list" 2>/dev/null && compgen -G "$apt_dir/lists/*_Packages*" >/dev/null ||
        update_lists
    listed=$(archive_sha256 "$package" "$version")
    if [ -z "$listed" ] && [ "$lists_fresh" = 0 ]; then update_lists; listed=$(archive_sha256 "$package" "$version"); fi
    if [ -z "$listed" ]; then
        die 1 "Debian $suite no longer has $package $version, which $lock pins.
The archive has: $(apt-cache "${apt_opts[@]}" madison "$package" 2>/dev/null | awk -F'|' -v s="$suite" '$3 ~ s"/" { gsub(/ /, "", $2); printf "%s ", $2 }')
Either download from a snapshot that still has it:
  HEADTRACK_DEBIAN_MIRROR=https://snapshot.debian.org/archive/debian/<date>T000000Z scripts/build-board.sh
or move the pins to what the archive has now: scripts/build-board.sh --repin (then run scripts/test.sh and
commit $lock). Nothing was built."
    fi
    [ "$listed" = "$want" ] || die 1 "Debian's package list gives $package $version the SHA256 $listed,
but $lock pins $want: the archive's file is not the one this build was checked with (a rebuilt package, or a
mirror serving something else). Nothing was built; check the mirror before changing the pin."
    log "downloading $package $version"
    mkdir -p "$cache/debs"
    (cd "$cache/debs" && apt-get "${apt_opts[@]}" download -q "$package=$version" >"$apt_dir/download.log" 2>&1) || {
        tail -10 "$apt_dir/download.log" >&2
        die 1 "downloading $package $version from $mirror failed (see above); run again when the network is back."
    }
    [ -f "$file" ] || die 1 "apt-get download left no $file (see $apt_dir/download.log)"
    got=$(sha256sum "$file" | cut -d' ' -f1)
    [ "$got" = "$want" ] || { rm -f "$file"; die 1 "$package $version downloaded with SHA256 $got, pinned $want: removed, nothing was built."; }
}


# Rewrites the pin file with each package's version in its suite today (apt-cache madison lists the candidate
# first) and that version's SHA256 from the signed lists.
repin_all() {
    local line kind suite package version sha newest newsha changed=0
    update_lists
    while IFS= read -r line; do
        case $line in "" | "#"*) printf '%s\n' "$line"; continue ;; esac
        read -r kind suite package version sha <<<"$line"
        newest=$(apt-cache "${apt_opts[@]}" madison "$package" 2>/dev/null |
            awk -F'|' -v s=" $suite/" 'index($3, s) { gsub(/ /, "", $2); print $2; exit }')
        [ -n "$newest" ] || die 1 "Debian $suite has no $package any more: $lock needs a replacement by hand."
        newsha=$(archive_sha256 "$package" "$newest")
        if [ "$newest" != "$version" ] || [ "$newsha" != "$sha" ]; then log "$package: $version -> $newest"; changed=1; fi
        printf '%-8s %-8s %-16s %-18s %s\n' "$kind" "$suite" "$package" "$newest" "$newsha"
    done <"$lock" >"$lock.new"
    mv "$lock.new" "$lock"
    if [ "$changed" = 1 ]; then log "pins moved in $lock: build, run scripts/test.sh, then commit it"; else log "every pin is current"; fi
}
[ "$repin" = 0 ] || { repin_all; exit 0; }

# MARK: - sysroot and runtime

sysroot=$cache/sysroot-$(pin_key sysroot)
runtime=$cache/runtime-$(pin_key runtime)

prepare_sysroot() {
    [ -f "$sysroot/.ready" ] && return 0
    local suite package version sha
    while read -r _ suite package version sha; do fetch "$suite" "$package" "$version" "$sha"; done \
        < <(printf '%s\n' "$pins" | awk '$1 == "sysroot"')
    log "unpacking the arm64 sysroot into $sysroot"
    rm -rf "$sysroot" && mkdir -p "$sysroot"
    while read -r _ suite package version sha; do
        dpkg-deb -x "$(deb_file "$package" "$version")" "$sysroot"
    done < <(printf '%s\n' "$pins" | awk '$1 == "sysroot"')
    # Debian's development symlinks are absolute (libm.so -> /lib/aarch64-linux-gnu/libm.so.6): inside a
    # sysroot they would reach this machine's own libraries, so they become relative.
    local link target
    while IFS= read -r -d '' link; do
        target=$(readlink "$link")
        ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$sysroot$target")" "$link"
    done < <(find "$sysroot" -type l -lname '/*' -print0)
    touch "$sysroot/.ready"
}

prepare_runtime() {
    if [ ! -f "$runtime/.ready" ]; then
        local suite package version sha deb
        read -r _ suite package version sha < <(printf '%s\n' "$pins" | awk '$1 == "runtime"')
        fetch "$suite" "$package" "$version" "$sha"
        deb=$(deb_file "$package" "$version")
        log "unpacking the static Swift runtime from $package $version"
        rm -rf "$runtime" && mkdir -p "$runtime"
        dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$runtime" --strip-components=5 \
            --wildcards './usr/libexec/swift/lib/swift_static/*' ||
            die 1 "$deb has no usr/libexec/swift/lib/swift_static: the package's layout changed; pin the version it was checked with."
        [ -f "$runtime/swift_static/linux/libswiftCore.a" ] ||
            die 1 "$deb unpacked without swift_static/linux/libswiftCore.a: not the runtime this build expects."
        # A newer compiler refuses binary modules built by 6.0.3; without them it rebuilds each module from its
        # .swiftinterface, which every module has.
        find "$runtime/swift_static/linux" -path '*.swiftmodule/*.swiftmodule' -delete
        # The package's .deb is 400 MB; the 170 MB unpacked runtime is what later builds use.
        rm -f "$deb"
        touch "$runtime/.ready"
    fi
    # The runtime's clang/ points into the 6.0.3 toolchain, which is not here: use this compiler's own headers.
    ln -sfn "$host_clang_headers" "$runtime/swift_static/clang"
    # clang looks up swiftrt.o under <sysroot>/usr/lib/swift_static.
    ln -sfn "$runtime/swift_static" "$sysroot/usr/lib/swift_static"
}

prepare_sysroot
prepare_runtime
if [ "$print_sysroot" = 1 ]; then echo "$sysroot"; exit 0; fi
shim=$cache/isoc23-shim-$(sha256sum "$shim_source" | cut -c1-12).o
if [ ! -f "$shim" ]; then
    "$clang" --target=aarch64-linux-gnu --sysroot="$sysroot" -O2 -Wall -Werror -c "$shim_source" -o "$shim.tmp" &&
        mv "$shim.tmp" "$shim" || die 1 "compiling $shim_source for aarch64 failed"
fi

# MARK: - build

scratch=$repo/.build/board-aarch64
args=(build -c release --product headtrack --static-swift-stdlib --scratch-path "$scratch"
    --triple "$triple" --sdk "$sysroot"
    -Xswiftc -sdk -Xswiftc "$sysroot" -Xswiftc -resource-dir -Xswiftc "$runtime/swift_static"
    -Xswiftc -use-ld=lld -Xlinker "$shim" -Xlinker -s)
log "swift ${args[*]}"
start=$(date +%s)
(cd "$repo" && swift "${args[@]}") >&2 || die 2 "swift build for $triple failed (output above)."
binary=$(cd "$repo" && swift build -c release --scratch-path "$scratch" --triple "$triple" --show-bin-path)/headtrack
[ -x "$binary" ] || die 2 "the build reported success but left no $binary"

objdump=$toolchain/bin/llvm-objdump
format=$("$objdump" -f "$binary" | sed -n 's/.*file format //p')
[ "$format" = elf64-littleaarch64 ] || die 2 "$binary is $format, not an aarch64 ELF"
glibc=$("$objdump" -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
[ "$(printf '%s\n%s\n' "$glibc" "$max_glibc" | sort -V | tail -1)" = "$max_glibc" ] ||
    die 2 "$binary needs glibc $glibc, more than Raspberry Pi OS bookworm's $max_glibc: it would not start there."
needed=$("$objdump" -p "$binary" | awk '/NEEDED/ { printf "%s ", $2 }')
log "built in $(( $(date +%s) - start )) s: $binary"
log "architecture: aarch64 (ELF64, $format)"
log "size: $(( $(stat -c %s "$binary") / 1024 )) KiB"
log "needs: glibc >= $glibc; libraries: ${needed% }"
echo "$binary"

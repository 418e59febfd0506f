# Sourced by run.sh. Builds $WORK/initramfs.cpio.gz: static busybox, the kernel modules from $KDIR, the
# headtrack binary with the shared libraries ldd names (arm64: the board sysroot's), the hil-tool instrument
# (static C, compiled for the VM's architecture), and guest/ as /init + checks.

# Copies an executable and every shared library it needs (as ldd resolves them on this host) into $root.
copy_with_libs() {
    local root=$1 bin=$2 dest=$3 lib
    install -D -m 755 "$bin" "$root$dest"
    for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' | sort -u); do
        [ -e "$lib" ] || continue
        mkdir -p "$root$(dirname "$lib")"
        cp -L "$lib" "$root$lib"
    done
}

# The same for an aarch64 binary: the libraries its NEEDED entries name (and theirs), from the board sysroot
# scripts/build-board.sh prepared ($BOARD_SYSROOT), and its interpreter.
copy_with_sysroot_libs() {
    local root=$1 bin=$2 dest=$3 objdump=$4 todo lib found seen=" "
    install -D -m 755 "$bin" "$root$dest"
    mkdir -p "$root/lib/aarch64-linux-gnu"
    cp -L "$BOARD_SYSROOT/lib/ld-linux-aarch64.so.1" "$root/lib/ld-linux-aarch64.so.1"
    todo=$("$objdump" -p "$bin" | awk '/NEEDED/ { print $2 }')
    while [ -n "$todo" ]; do
        set -- $todo
        lib=$1; shift; todo="$*"
        case $seen in *" $lib "*) continue ;; esac
        seen+="$lib "
        found=""
        for dir in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu; do
            if [ -e "$BOARD_SYSROOT/$dir/$lib" ]; then found=$BOARD_SYSROOT/$dir/$lib; break; fi
        done
        [ -n "$found" ] || die "$bin needs $lib, which the board sysroot $BOARD_SYSROOT does not have"
        cp -L "$found" "$root/lib/aarch64-linux-gnu/$lib"
        todo="$todo $("$objdump" -p "$found" | awk '/NEEDED/ { print $2 }')"
    done
}

build_initramfs() {
    local root=$WORK/rootfs
    rm -rf "$root"
    mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,etc,lib/hil,usr/bin}
    if [ "$KARCH" = amd64 ]; then
        cp /bin/busybox "$root/bin/busybox"
        ! ldd /bin/busybox >/dev/null 2>&1 \
            || die "/bin/busybox is not static: install busybox-static (it replaces busybox)"
    else
        install -m 755 "$KDIR/busybox" "$root/bin/busybox"   # busybox-static:arm64, unpacked by kernel.sh
    fi
    cp "$KDIR"/modules/*.ko "$KDIR/load-order" "$root/lib/hil/"

    local cc=gcc
    [ "$KARCH" = amd64 ] || cc=aarch64-linux-gnu-gcc
    "$cc" -static -O2 -Wall -Werror -o "$WORK/hil-tool" "$HIL_DIR/hil-tool.c" -lm \
        || die "compiling Tests/hil/hil-tool.c failed"
    cp "$WORK/hil-tool" "$root/bin/"

    if [ -n "${HEADTRACK_BIN:-}" ]; then
        if [ "$KARCH" = amd64 ]; then
            copy_with_libs "$root" "$HEADTRACK_BIN" /bin/headtrack
        else
            copy_with_sysroot_libs "$root" "$HEADTRACK_BIN" /bin/headtrack "$BOARD_OBJDUMP"
        fi
    fi
    install -m 755 "$HIL_DIR/guest/init" "$root/init"
    install -m 644 "$HIL_DIR/guest/checks.sh" "$HIL_DIR/guest/headtrack-checks.sh" "$root/lib/hil/"
    (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$WORK/initramfs.cpio.gz"
}

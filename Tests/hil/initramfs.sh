# Sourced by run.sh. Builds $WORK/initramfs.cpio.gz: static busybox, the kernel modules from $KDIR, the
# headtrack binary with the shared libraries ldd names, the hil-tool instrument, and guest/ as /init + checks.

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

build_initramfs() {
    local root=$WORK/rootfs
    rm -rf "$root"
    mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,etc,lib/hil,usr/bin}
    cp /bin/busybox "$root/bin/busybox"
    ! ldd /bin/busybox >/dev/null 2>&1 \
        || die "/bin/busybox is not static: install busybox-static (it replaces busybox)"
    cp "$KDIR"/modules/*.ko "$KDIR/load-order" "$root/lib/hil/"

    gcc -static -O2 -Wall -Werror -o "$WORK/hil-tool" "$HIL_DIR/hil-tool.c" -lm \
        || die "compiling Tests/hil/hil-tool.c failed"
    cp "$WORK/hil-tool" "$root/bin/"

    if [ -n "${HEADTRACK_BIN:-}" ]; then
        copy_with_libs "$root" "$HEADTRACK_BIN" /bin/headtrack
    fi
    install -m 755 "$HIL_DIR/guest/init" "$root/init"
    install -m 644 "$HIL_DIR/guest/checks.sh" "$HIL_DIR/guest/headtrack-checks.sh" "$root/lib/hil/"
    (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$WORK/initramfs.cpio.gz"
}

# Sourced by run.sh. Provides Debian 12's own kernel and the modules the VM test needs, cached per kernel ABI:
#   $CACHE/kernel-<abi>/vmlinuz
#   $CACHE/kernel-<abi>/modules/<name>.ko   i2c-stub, i2c-dev, configfs (+ their dependencies) and gpio-sim
#   $CACHE/kernel-<abi>/load-order          insmod order, one module file name per line
# Debian builds its kernel without CONFIG_GPIO_SIM, so gpio-sim is compiled out of tree from linux-source-6.1
# against linux-headers of the same version. Nothing is installed from the image package: it is only unpacked.

# Modules loaded in the VM, in this order (dependencies are added in front automatically).
HIL_MODULES="configfs i2c-dev i2c-stub"

apt_update_once() {
    if [ -z "${HIL_APT_UPDATED:-}" ]; then
        log "apt-get update"
        apt-get update -q >"$WORK/apt-update.log" 2>&1 || { cat "$WORK/apt-update.log"; die "apt-get update failed"; }
        HIL_APT_UPDATED=1
    fi
}

# Installs the Debian packages given that are not installed yet.
ensure_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "${p%%=*}" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    apt_update_once
    log "apt-get install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" \
        >"$WORK/apt-install.log" 2>&1 || { tail -30 "$WORK/apt-install.log"; die "apt-get install ${missing[*]} failed"; }
}

# Sets KABI (e.g. 6.1.0-57) and KDIR. Order: $HEADTRACK_HIL_KERNEL, else the newest complete cache entry
# (so a second run needs no network and no apt), else what linux-image-amd64 depends on today.
choose_kernel() {
    if [ -n "${HEADTRACK_HIL_KERNEL:-}" ]; then
        KABI=$HEADTRACK_HIL_KERNEL
    else
        KABI=$(ls -d "$CACHE"/kernel-*/ready 2>/dev/null | sed 's|.*/kernel-\([^/]*\)/ready|\1|' | sort -V | tail -1 || true)
        if [ -z "$KABI" ]; then
            apt_update_once
            KABI=$(apt-cache depends linux-image-amd64 2>/dev/null \
                | sed -n 's/.*Depends: linux-image-\(6\.1\.[0-9.-]*\)-amd64$/\1/p' | head -1 || true)
            [ -n "$KABI" ] || die "cannot tell which linux-image-6.1.0-*-amd64 Debian ships: 'apt-cache depends linux-image-amd64' named none (set HEADTRACK_HIL_KERNEL=6.1.0-N to choose one)"
        fi
    fi
    KDIR=$CACHE/kernel-$KABI
}

prepare_kernel() {
    choose_kernel
    if [ -f "$KDIR/ready" ]; then
        log "kernel $KABI and gpio-sim module from cache $KDIR"
        return 0
    fi
    apt_update_once
    local image=linux-image-$KABI-amd64 headers=linux-headers-$KABI-amd64 version
    version=$(apt-cache show --no-all-versions "$image" 2>/dev/null | sed -n 's/^Version: //p' | head -1 || true)
    [ -n "$version" ] || die "Debian has no package $image (set HEADTRACK_HIL_KERNEL to an ABI that 'apt-cache search linux-image-6.1.0' lists)"
    log "kernel $KABI (package version $version): downloading image and linux-source-6.1, installing $headers"
    ensure_packages "$headers=$version"

    local dl=$KDIR/download
    rm -rf "$KDIR" && mkdir -p "$dl" "$KDIR/modules"
    (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "$image=$version" "linux-source-6.1=$version" \
        >"$WORK/apt-download.log" 2>&1) \
        || { cat "$WORK/apt-download.log"; die "could not download $image=$version and linux-source-6.1=$version: the source package of exactly this version is needed to build gpio-sim"; }

    unpack_image "$dl"/linux-image-*.deb
    build_gpio_sim "$dl"/linux-source-6.1_*.deb "/lib/modules/$KABI-amd64/build"
    rm -rf "$dl"   # the .debs are large (210 MB); the unpacked pieces are what later runs use
    touch "$KDIR/ready"
}

# vmlinuz plus the wanted modules and, via modules.dep, everything they depend on.
unpack_image() {
    local deb=$1 root=$KDIR/download/image
    mkdir -p "$root"
    dpkg-deb -x "$deb" "$root"
    cp "$root/boot/vmlinuz-$KABI-amd64" "$KDIR/vmlinuz"
    depmod -b "$root" "$KABI-amd64"
    local moddir=$root/lib/modules/$KABI-amd64 order=() m
    resolve() {  # depth-first: dependencies before the module itself
        local rel deps d
        rel=$(sed -n "s|^\(.*/$1\.ko\):.*|\1|p" "$moddir/modules.dep" | head -1)
        [ -n "$rel" ] || die "module $1 is neither in $moddir/modules.dep nor checked for built-in; see $moddir/modules.builtin"
        deps=$(sed -n "s|^$rel: *||p" "$moddir/modules.dep")
        for d in $deps; do resolve "$(basename "$d" .ko)"; done
        case " ${order[*]} " in *" $rel "*) ;; *) order+=("$rel") ;; esac
    }
    for m in $HIL_MODULES; do
        if grep -q "/$m\.ko$" "$moddir/modules.builtin"; then continue; fi  # built in: nothing to load
        resolve "$m"
    done
    : >"$KDIR/load-order"
    for m in "${order[@]}"; do
        cp "$moddir/$m" "$KDIR/modules/"
        basename "$m" >>"$KDIR/load-order"
    done
    echo gpio-sim.ko >>"$KDIR/load-order"
}

# gpio-sim needs three files from the kernel source: drivers/gpio/gpio-sim.c, drivers/gpio/gpiolib.h (gpiolib
# internals it includes) and kernel/irq/irq_sim.c (CONFIG_IRQ_SIM is off in Debian's kernel, so the simulated
# interrupt domain is linked into the same module). configfs is a module in Debian (CONFIG_CONFIGFS_FS=m) and
# is loaded first; gpio-sim 6.1 needs nothing else that is missing.
build_gpio_sim() {
    local srcdeb=$1 kbuild=$2 b=$KDIR/download/gpio-sim
    [ -d "$kbuild" ] || die "kernel build tree $kbuild missing: install linux-headers-$KABI-amd64"
    mkdir -p "$b"
    log "extracting gpio-sim sources from linux-source-6.1 (about 15 s)"
    dpkg-deb --fsys-tarfile "$srcdeb" | tar -xO ./usr/src/linux-source-6.1.tar.xz \
        | tar -xJ -C "$b" --strip-components=1 \
            linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h \
            linux-source-6.1/kernel/irq/irq_sim.c
    mv "$b/drivers/gpio/gpio-sim.c" "$b/gpio_sim_main.c"   # the module is gpio-sim.ko, so its parts need other names
    mv "$b/drivers/gpio/gpiolib.h" "$b/kernel/irq/irq_sim.c" "$b/"
    # The one patch: irq_sim.c calls handle_simple_irq(irq_to_desc(irqnum)), but irq_to_desc is not exported to
    # modules. generic_handle_irq(irqnum) is exported and reaches the same handle_simple_irq, which irq_sim
    # installs as the flow handler of every interrupt it maps.
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$b/irq_sim.c"
    grep -q 'generic_handle_irq(irqnum);' "$b/irq_sim.c" && ! grep -q irq_to_desc "$b/irq_sim.c" \
        || die "patching irq_sim.c failed: this linux-source no longer has the handle_simple_irq(irq_to_desc(irqnum)) line; adapt build_gpio_sim in Tests/hil/kernel.sh"
    printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio_sim_main.o irq_sim.o\n' >"$b/Makefile"
    log "building gpio-sim.ko against $kbuild"
    make -C "$kbuild" M="$b" modules >"$WORK/gpio-sim-build.log" 2>&1 \
        || { tail -30 "$WORK/gpio-sim-build.log"; die "building gpio-sim failed (full log $WORK/gpio-sim-build.log)"; }
    grep -q 'WARNING: modpost: .* undefined' "$WORK/gpio-sim-build.log" \
        && { grep undefined "$WORK/gpio-sim-build.log"; die "gpio-sim.ko uses symbols the kernel does not export"; }
    cp "$b/gpio-sim.ko" "$KDIR/modules/"
}

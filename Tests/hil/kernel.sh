# Sourced by run.sh. Provides Debian 12's own kernel and the modules the VM test needs, cached per kernel ABI
# (KARCH amd64: $CACHE/kernel-<abi>; KARCH arm64: $CACHE/kernel-<abi>-arm64, plus busybox there):
#   $CACHE/kernel-<abi>/vmlinuz
#   $CACHE/kernel-<abi>/modules/<name>.ko   i2c-stub, i2c-dev, configfs (+ their dependencies) and gpio-sim
#   $CACHE/kernel-<abi>/load-order          insmod order, one module file name per line
# Debian builds its kernel without CONFIG_GPIO_SIM, so gpio-sim is compiled out of tree from linux-source-6.1
# against linux-headers of the same version. Nothing is installed from the image package: it is only unpacked.

# Modules loaded in the VM, in this order (dependencies are added in front automatically). A module Debian's
# kernel does not have (i2c-stub on arm64) is built out of tree from linux-source, like gpio-sim.
HIL_MODULES="configfs i2c-dev i2c-stub"
KARCH=${KARCH:-amd64}
# What `make` needs to build modules for the VM's kernel on this machine.
kmake_args=()
[ "$KARCH" = amd64 ] || kmake_args=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)

apt_update_once() {
    if [ -z "${HIL_APT_UPDATED:-}" ]; then
        log "apt-get update"
        apt-get update -q -o DPkg::Lock::Timeout=600 >"$WORK/apt-update.log" 2>&1 || { cat "$WORK/apt-update.log"; die "apt-get update failed"; }
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
    # Another suite or checkout may be installing at the same moment: wait for its lock rather than fail.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" \
        >"$WORK/apt-install.log" 2>&1 || { tail -30 "$WORK/apt-install.log"; die "apt-get install ${missing[*]} failed"; }
}

# Sets KABI (e.g. 6.1.0-57) and KDIR. Order: $HEADTRACK_HIL_KERNEL, else the newest complete cache entry
# (so a second run needs no network and no apt), else what linux-image-amd64 depends on today.
choose_kernel() {
    if [ -n "${HEADTRACK_HIL_KERNEL:-}" ]; then
        KABI=$HEADTRACK_HIL_KERNEL
    else
        KABI=$(ls -d "$CACHE"/kernel-*/ready 2>/dev/null | sed -n "s|.*/kernel-\\([0-9.]*-[0-9]*\\)$(kdir_suffix)/ready\$|\\1|p" \
            | sort -V | tail -1 || true)
        if [ -z "$KABI" ]; then
            apt_update_once
            KABI=$(apt-cache depends linux-image-amd64 2>/dev/null \
                | sed -n 's/.*Depends: linux-image-\(6\.1\.[0-9.-]*\)-amd64$/\1/p' | head -1 || true)
            [ -n "$KABI" ] || die "cannot tell which linux-image-6.1.0-*-amd64 Debian ships: 'apt-cache depends linux-image-amd64' named none (set HEADTRACK_HIL_KERNEL=6.1.0-N to choose one)"
        fi
    fi
    KDIR=$CACHE/kernel-$KABI$(kdir_suffix)
}
kdir_suffix() { [ "$KARCH" = amd64 ] || echo "-$KARCH"; }

prepare_kernel() {
    choose_kernel
    if [ -f "$KDIR/ready" ]; then
        log "kernel $KABI-$KARCH and gpio-sim module from cache $KDIR"
        return 0
    fi
    # One build per cache entry: a second run started meanwhile (the system suite beside the kernel VM test, a
    # second checkout's CI) waits for it instead of deleting the half-built tree under it.
    mkdir -p "$CACHE"
    exec 7>"$CACHE/.lock-$KARCH"
    flock 7
    if [ -f "$KDIR/ready" ]; then
        log "kernel $KABI-$KARCH and gpio-sim module built by another run meanwhile: $KDIR"
    else
        build_kernel_cache
    fi
    exec 7>&-
}

build_kernel_cache() {
    apt_update_once
    # The version comes from this machine's lists (amd64); Debian builds every architecture's kernel from the
    # same source version, so linux-source-6.1 and the headers' common part match the arm64 image too.
    local image=linux-image-$KABI-$KARCH headers=linux-headers-$KABI-$KARCH version kbuild
    version=$(apt-cache show --no-all-versions "linux-image-$KABI-amd64" 2>/dev/null | sed -n 's/^Version: //p' | head -1 || true)
    [ -n "$version" ] || die "Debian has no package linux-image-$KABI-amd64 (set HEADTRACK_HIL_KERNEL to an ABI that 'apt-cache search linux-image-6.1.0' lists)"
    local dl=$KDIR/download
    rm -rf "$KDIR" && mkdir -p "$dl" "$KDIR/modules"
    log "kernel $KABI-$KARCH (package version $version): downloading image and linux-source-6.1"
    (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "linux-source-6.1=$version" \
        >"$WORK/apt-download.log" 2>&1) \
        || { cat "$WORK/apt-download.log"; die "could not download linux-source-6.1=$version: the source package of exactly this version is needed to build gpio-sim"; }
    if [ "$KARCH" = amd64 ]; then
        log "installing $headers"
        ensure_packages "$headers=$version"
        (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "$image=$version" >"$WORK/apt-download.log" 2>&1) \
            || { cat "$WORK/apt-download.log"; die "could not download $image=$version"; }
        kbuild=/lib/modules/$KABI-amd64/build
    else
        # The arm64 headers only unpack (they are another architecture's package); their scripts/ and tools/
        # point at linux-kbuild-6.1, this machine's build of the kbuild programs, and the rest at -common.
        ensure_packages "linux-headers-$KABI-common=$version" "linux-kbuild-6.1=$version"
        arm64_download "$dl" "$image=$version" "$headers=$version" busybox-static
        mkdir -p "$dl/headers"
        dpkg-deb -x "$dl"/linux-headers-*_arm64.deb "$dl/headers"
        mkdir -p "$dl/headers/usr/lib"
        ln -sfn /usr/lib/linux-kbuild-6.1 "$dl/headers/usr/lib/linux-kbuild-6.1"
        kbuild=$dl/headers/usr/src/linux-headers-$KABI-arm64
        mkdir -p "$dl/busybox"
        dpkg-deb -x "$dl"/busybox-static_*_arm64.deb "$dl/busybox"
        cp "$dl/busybox/bin/busybox" "$KDIR/busybox"
    fi

    unpack_image "$dl"/linux-image-*.deb "$dl"/linux-source-6.1_*.deb "$kbuild"
    build_gpio_sim "$dl"/linux-source-6.1_*.deb "$kbuild"
    rm -rf "$dl"   # the .debs are large (210 MB); the unpacked pieces are what later runs use
    touch "$KDIR/ready"
}

# Downloads arm64 packages with private package lists (bookworm, -updates, -security like this machine's), so
# this machine's own apt configuration stays amd64-only. apt checks each .deb against the signed lists.
arm64_download() { # dir package[=version]...
    local dir=$1 apt_dir=$CACHE/apt-arm64
    shift
    local opts=(-o APT::Architecture=arm64 -o APT::Architectures=arm64
        -o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts="$apt_dir/sources.list.d"
        -o Dir::State::Lists="$apt_dir/lists" -o Dir::State::status=/dev/null -o Dir::Cache="$apt_dir/cache"
        -o Acquire::Languages=none -o Acquire::Retries=3 -o APT::Sandbox::User=root)
    mkdir -p "$apt_dir"/{lists/partial,cache/archives/partial,sources.list.d}
    local key="arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg"
    printf 'deb [%s] http://deb.debian.org/debian %s main\n' "$key" bookworm "$key" bookworm-updates >"$apt_dir/sources.list"
    printf 'deb [%s] http://deb.debian.org/debian-security bookworm-security main\n' "$key" >>"$apt_dir/sources.list"
    log "reading Debian's arm64 package lists"
    apt-get "${opts[@]}" update -q >"$WORK/apt-arm64-update.log" 2>&1 && ! grep -q '^\(Err\|W: Failed\)' "$WORK/apt-arm64-update.log" \
        || { tail -15 "$WORK/apt-arm64-update.log"; die "could not read Debian's arm64 package lists (network?)"; }
    log "downloading arm64 packages: $*"
    (cd "$dir" && apt-get "${opts[@]}" download -q "$@" >"$WORK/apt-arm64-download.log" 2>&1) \
        || { tail -15 "$WORK/apt-arm64-download.log"; die "could not download the arm64 packages $* (see above)"; }
}

# vmlinuz plus the wanted modules and, via modules.dep, everything they depend on; a wanted module the image
# does not have at all is built from linux-source (only i2c-stub, which is one self-contained file).
unpack_image() { # image.deb linux-source.deb kbuild-dir
    local deb=$1 srcdeb=$2 kbuild=$3 root=$KDIR/download/image kver=$KABI-$KARCH
    mkdir -p "$root"
    dpkg-deb -x "$deb" "$root"
    cp "$root/boot/vmlinuz-$kver" "$KDIR/vmlinuz"
    depmod -b "$root" "$kver"
    local moddir=$root/lib/modules/$kver order=() m built=()
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
        if [ "$m" = i2c-stub ] && ! grep -q "/$m\.ko:" "$moddir/modules.dep"; then built+=("$m"); continue; fi
        resolve "$m"
    done
    : >"$KDIR/load-order"
    for m in "${order[@]}"; do
        cp "$moddir/$m" "$KDIR/modules/"
        basename "$m" >>"$KDIR/load-order"
    done
    for m in "${built[@]}"; do build_i2c_stub "$srcdeb" "$kbuild"; echo i2c-stub.ko >>"$KDIR/load-order"; done
    echo gpio-sim.ko >>"$KDIR/load-order"
}

# i2c-stub.c uses only exported i2c-core functions; Debian's arm64 kernel has I2C itself but not this module.
build_i2c_stub() { # linux-source.deb kbuild-dir
    local b=$KDIR/download/i2c-stub
    mkdir -p "$b"
    log "building i2c-stub.ko from linux-source-6.1 against $2"
    dpkg-deb --fsys-tarfile "$1" | tar -xO ./usr/src/linux-source-6.1.tar.xz \
        | tar -xJ -C "$b" --strip-components=3 linux-source-6.1/drivers/i2c/i2c-stub.c
    printf 'obj-m := i2c-stub.o\n' >"$b/Makefile"
    make -C "$2" M="$b" "${kmake_args[@]}" modules >"$WORK/i2c-stub-build.log" 2>&1 \
        || { tail -30 "$WORK/i2c-stub-build.log"; die "building i2c-stub failed"; }
    ! grep -q 'WARNING: modpost: .* undefined' "$WORK/i2c-stub-build.log" \
        || { grep undefined "$WORK/i2c-stub-build.log"; die "i2c-stub.ko uses symbols the kernel does not export"; }
    cp "$b/i2c-stub.ko" "$KDIR/modules/"
}

# gpio-sim needs three files from the kernel source: drivers/gpio/gpio-sim.c, drivers/gpio/gpiolib.h (gpiolib
# internals it includes) and kernel/irq/irq_sim.c (CONFIG_IRQ_SIM is off in Debian's kernel, so the simulated
# interrupt domain is linked into the same module). configfs is a module in Debian (CONFIG_CONFIGFS_FS=m) and
# is loaded first; gpio-sim 6.1 needs nothing else that is missing.
build_gpio_sim() {
    local srcdeb=$1 kbuild=$2 b=$KDIR/download/gpio-sim
    [ -d "$kbuild" ] || die "kernel build tree $kbuild missing: install linux-headers-$KABI-$KARCH"
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
    make -C "$kbuild" M="$b" "${kmake_args[@]}" modules >"$WORK/gpio-sim-build.log" 2>&1 \
        || { tail -30 "$WORK/gpio-sim-build.log"; die "building gpio-sim failed (full log $WORK/gpio-sim-build.log)"; }
    grep -q 'WARNING: modpost: .* undefined' "$WORK/gpio-sim-build.log" \
        && { grep undefined "$WORK/gpio-sim-build.log"; die "gpio-sim.ko uses symbols the kernel does not export"; }
    cp "$b/gpio-sim.ko" "$KDIR/modules/"
}

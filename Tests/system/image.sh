# Sourced by run.sh. Builds (once, then from cache) the guest: a Debian 12 system from Debian's own packages,
# with systemd as PID 1, udev, openssh-server and sudo, a user `pi` with passwordless sudo and a key, and the
# test bed that stands in for the headset's hardware (i2c-stub playing the IMU, gpio-sim playing the LED chip).
#   $IMAGE_DIR/disk.raw        ext4 root file system (mkfs.ext4 -d of the mmdebstrap tree)
#   $IMAGE_DIR/vmlinuz         the image's own kernel, $IMAGE_DIR/initrd: busybox + the modules to mount the root
#   $IMAGE_DIR/id_ed25519      pi's ssh key;  $IMAGE_DIR/host_key.pub: the guest's ssh host key (for known_hosts)
# The cache key is a hash of the package list, the kernel ABI and the files that shape the image, so a change to
# any of them builds a new image. i2c-stub and gpio-sim come from Tests/hil's kernel cache (kernel.sh), built
# there for exactly this kernel: Debian has no gpio-sim, and its arm64 kernel no i2c-stub either.

IMAGE_PACKAGES="systemd,systemd-sysv,udev,kmod,dbus,openssh-server,sudo,i2c-tools,procps,e2fsprogs,libstdc++6,libi2c0"

image_key() {
    { echo "$IMAGE_PACKAGES $KABI $KARCH"; cat "$SYSTEM_DIR/image.sh" "$SYSTEM_DIR"/guest/*; } | sha256sum | cut -c1-12
}

# Sets IMAGE_DIR and builds the image there unless it is cached.
prepare_image() {
    IMAGE_DIR=$SYSTEM_CACHE/image-$KARCH-$KABI-$(image_key)
    if [ -f "$IMAGE_DIR/ready" ]; then
        log "guest image from cache $IMAGE_DIR"
        return 0
    fi
    local started root=$WORK/image-root
    started=$(date +%s)
    rm -rf "$IMAGE_DIR" && mkdir -p "$IMAGE_DIR"
    [ "$KARCH" = amd64 ] || register_binfmt
    log "building the Debian 12 $KARCH guest with mmdebstrap (a few minutes; cached in $IMAGE_DIR)"
    mmdebstrap --variant=minbase --architectures="$KARCH" --include="$IMAGE_PACKAGES" bookworm "$root" \
        "deb http://deb.debian.org/debian bookworm main" \
        "deb http://deb.debian.org/debian bookworm-updates main" \
        "deb http://deb.debian.org/debian-security bookworm-security main" >"$WORK/mmdebstrap.log" 2>&1 ||
        { tail -30 "$WORK/mmdebstrap.log"; die "mmdebstrap failed (log above); is Debian's archive reachable?"; }
    unpack_kernel "$root"
    customize_image "$root"
    cp "$root/boot/vmlinuz-$KABI-$KARCH" "$IMAGE_DIR/vmlinuz"
    build_boot_initrd "$root" "$IMAGE_DIR/initrd"
    # Nothing in the guest needs the documentation, the locales or the package lists; a smaller disk boots the same.
    rm -rf "$root"/usr/share/doc/* "$root"/usr/share/locale/* "$root"/usr/share/man/* "$root"/var/lib/apt/lists/*
    mkfs.ext4 -q -F -L headset-root -d "$root" "$IMAGE_DIR/disk.raw" 2G >"$WORK/mkfs.log" 2>&1 ||
        { cat "$WORK/mkfs.log"; die "mkfs.ext4 -d failed"; }
    rm -rf "$root"
    touch "$IMAGE_DIR/ready"
    log "guest image built in $(( $(date +%s) - started )) s"
}

# The kernel package is unpacked here rather than installed in the guest: its maintainer scripts would run
# depmod and mkinitramfs under qemu-user, which takes many minutes; this machine's depmod does the same in seconds.
# The boot's initramfs is the small one below, so nothing else of the package's scripts is needed.
unpack_kernel() { # root
    local dl=$WORK/kernel-deb
    mkdir -p "$dl"
    if [ "$KARCH" = amd64 ]; then
        (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "linux-image-$KABI-amd64" >"$WORK/kernel-download.log" 2>&1) ||
            { cat "$WORK/kernel-download.log"; die "could not download linux-image-$KABI-amd64"; }
    else
        arm64_download "$dl" "linux-image-$KABI-arm64"
    fi
    # --keep-directory-symlink: bookworm's /lib is a symlink to usr/lib, and the package ships /lib/modules.
    dpkg-deb --fsys-tarfile "$dl"/linux-image-*.deb | tar -x --keep-directory-symlink -C "$1" ||
        die "unpacking linux-image-$KABI-$KARCH failed"
    rm -rf "$dl"
}

# A foreign architecture's maintainer scripts run under qemu-user, which the kernel starts through binfmt_misc.
register_binfmt() {
    [ -d /proc/sys/fs/binfmt_misc ] || die "no /proc/sys/fs/binfmt_misc: this kernel cannot run arm64 programs through qemu-user"
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
        die "cannot mount binfmt_misc, which mmdebstrap needs to run the arm64 packages' scripts under qemu-user"
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        cat /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register ||
            die "registering qemu-aarch64 with binfmt_misc failed"
    fi
}

customize_image() { # root
    local root=$1 kver=$KABI-$KARCH g=$SYSTEM_DIR/guest
    echo headset >"$root/etc/hostname"
    printf '127.0.0.1 localhost\n127.0.1.1 headset\n' >"$root/etc/hosts"
    printf '/dev/vda / ext4 defaults,errors=remount-ro 0 1\n' >"$root/etc/fstab"
    # Network for ssh only: qemu's user-mode network answers DHCP.
    install -D -m 644 "$g/20-wired.network" "$root/etc/systemd/network/20-wired.network"
    systemctl --root="$root" enable systemd-networkd.service >/dev/null 2>&1
    # Timers that would wake apt or fsck jobs in the middle of a check under TCG.
    systemctl --root="$root" mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer >/dev/null 2>&1 || true

    # The user who deploys (passwordless sudo, a key), an app's user and a stranger for the socket's permissions.
    useradd --prefix "$root" --create-home --shell /bin/bash --comment "headset owner" pi
    useradd --prefix "$root" --create-home --shell /bin/bash app
    useradd --prefix "$root" --create-home --shell /bin/bash stranger
    printf 'pi ALL=(ALL) NOPASSWD:ALL\n' >"$root/etc/sudoers.d/pi" && chmod 440 "$root/etc/sudoers.d/pi"
    rm -f "$IMAGE_DIR/id_ed25519" "$IMAGE_DIR/id_ed25519.pub"
    ssh-keygen -q -t ed25519 -N '' -C headtrack-system-test -f "$IMAGE_DIR/id_ed25519"
    local uid gid
    uid=$(awk -F: '$1 == "pi" { print $3 }' "$root/etc/passwd")
    gid=$(awk -F: '$1 == "pi" { print $4 }' "$root/etc/passwd")
    install -d -m 700 -o "$uid" -g "$gid" "$root/home/pi/.ssh"
    install -m 600 -o "$uid" -g "$gid" "$IMAGE_DIR/id_ed25519.pub" "$root/home/pi/.ssh/authorized_keys"
    [ -f "$root/etc/ssh/ssh_host_ed25519_key.pub" ] || ssh-keygen -q -t ed25519 -N '' -f "$root/etc/ssh/ssh_host_ed25519_key"
    cp "$root/etc/ssh/ssh_host_ed25519_key.pub" "$IMAGE_DIR/host_key.pub"

    # The test bed: i2c-stub with the default chips loads with the other modules at boot (as the Pi's I2C driver
    # does), gpio-sim is configured before sysinit.target (the Pi's GPIO chip exists from early boot), and a
    # rule makes udev slow to finish /dev/i2c-* so a unit that starts before udev is done fails every boot.
    install -D -m 644 "$g/testbed-modules.conf" "$root/etc/modules-load.d/testbed.conf"
    install -D -m 644 "$g/testbed-modprobe.conf" "$root/etc/modprobe.d/testbed.conf"
    install -D -m 755 "$g/testbed-gpio-sim" "$root/usr/local/sbin/testbed-gpio-sim"
    install -D -m 644 "$g/testbed-gpio-sim.service" "$root/etc/systemd/system/testbed-gpio-sim.service"
    install -D -m 644 "$g/10-testbed-slow-i2c.rules" "$root/etc/udev/rules.d/10-testbed-slow-i2c.rules"
    install -D -m 755 "$g/testbed-chips" "$root/usr/local/sbin/testbed-chips"
    install -D -m 644 "$g/testbed-chips.service" "$root/etc/systemd/system/testbed-chips.service"
    systemctl --root="$root" enable testbed-gpio-sim.service testbed-chips.service >/dev/null 2>&1
    install -d "$root/lib/modules/$kver/updates"
    cp "$KDIR/modules/gpio-sim.ko" "$root/lib/modules/$kver/updates/"
    if [ -f "$KDIR/modules/i2c-stub.ko" ] && ! find "$root/lib/modules/$kver/kernel" -name 'i2c-stub.ko*' | grep -q .; then
        cp "$KDIR/modules/i2c-stub.ko" "$root/lib/modules/$kver/updates/"
    fi
    depmod -b "$root" "$kver"
}

# An initramfs that only loads the modules Debian builds for the virtio disk and ext4, mounts the root read-only
# and hands over to systemd (which checks and remounts it, as on any Debian boot).
build_boot_initrd() { # root out
    local root=$1 out=$2 kver=$KABI-$KARCH ir=$WORK/initrd-root moddir m rel order=()
    moddir=$root/lib/modules/$kver
    rm -rf "$ir" && mkdir -p "$ir"/{bin,dev,proc,sys,root,modules}
    if [ "$KARCH" = amd64 ]; then cp /bin/busybox "$ir/bin/busybox"; else cp "$KDIR/busybox" "$ir/bin/busybox"; fi
    chmod 755 "$ir/bin/busybox"
    add_module() { # name: dependencies first
        local rel deps d
        rel=$(sed -n "s|^\(.*/$1\.ko[.a-z]*\):.*|\1|p" "$moddir/modules.dep" | head -1)
        [ -n "$rel" ] || { grep -q "/$1\.ko" "$moddir/modules.builtin" && return 0; die "module $1 is neither in $moddir/modules.dep nor built in"; }
        deps=$(sed -n "s|^$rel: *||p" "$moddir/modules.dep")
        for d in $deps; do add_module "$(basename "$d" | sed 's/\.ko.*//')"; done
        case " ${order[*]} " in *" $rel "*) ;; *) order+=("$rel") ;; esac
    }
    # ext4 asks the crypto API for crc32c by name, so no module dependency pulls it in.
    for m in virtio_pci virtio_mmio virtio_blk crc32c_generic ext4; do add_module "$m"; done
    : >"$ir/modules/order"
    for rel in "${order[@]}"; do
        case $rel in
            *.ko.xz) xz -dc "$moddir/$rel" >"$ir/modules/$(basename "$rel" .xz)" ;;
            *) cp "$moddir/$rel" "$ir/modules/" ;;
        esac
        basename "${rel%.xz}" >>"$ir/modules/order"
    done
    install -m 755 "$SYSTEM_DIR/guest/initrd-init" "$ir/init"
    (cd "$ir" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
    rm -rf "$ir"
}

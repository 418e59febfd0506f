# Sourced by run.sh. The guest machine: a copy-on-write disk over the cached image, qemu in the background with
# the serial console kept as a log, ssh in through a forwarded port with the image's host key as the only known
# one, and the three ways a board stops: a reboot from inside, a power cut (qemu killed) and a clean power-off.

# KVM runs Debian's kernel only where /dev/kvm opens and is the hardware-assisted kind. A host whose KVM is PVM
# (the kvm_pvm module: nested virtualisation in software, as on this project's CI machine) runs only guest
# kernels built for PVM; Debian's hangs before its first console line there, so such a host uses TCG.
# HEADTRACK_SYSTEM_ACCEL=kvm|tcg overrides the choice.
kvm_usable() {
    case ${HEADTRACK_SYSTEM_ACCEL:-} in kvm) return 0 ;; tcg) return 1 ;; esac
    [ ! -d /sys/module/kvm_pvm ] && python3 -c 'import os; os.close(os.open("/dev/kvm", os.O_RDWR))' 2>/dev/null
}

# The machine for KARCH: QEMU_MACHINE (qemu and its CPU), GUEST_CONSOLE, ACCEL (what runs the guest's code).
if [ "$KARCH" = arm64 ]; then
    # cortex-a72: the Pi 4's core.
    QEMU_MACHINE=(qemu-system-aarch64 -M virt -cpu cortex-a72 -accel tcg,thread=multi) GUEST_CONSOLE=ttyAMA0 ACCEL=TCG
elif kvm_usable; then
    QEMU_MACHINE=(qemu-system-x86_64 -M q35 -cpu host -accel kvm) GUEST_CONSOLE=ttyS0 ACCEL=KVM
else
    QEMU_MACHINE=(qemu-system-x86_64 -M q35 -cpu max -accel tcg,thread=multi) GUEST_CONSOLE=ttyS0 ACCEL=TCG
fi

new_disk() { # path: a fresh overlay over the cached image (the image itself is never written)
    rm -f "$1"
    qemu-img create -q -f qcow2 -F raw -b "$IMAGE_DIR/disk.raw" "$1" || die "qemu-img create $1 failed"
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# vm_start DISK LOGNAME: boots the guest from DISK in the background; console in $WORK/console-LOGNAME.log.
vm_start() {
    local disk=$1 console=$WORK/console-$2.log
    PORT=$(free_port)
    printf '[127.0.0.1]:%s %s\n' "$PORT" "$(cut -d' ' -f1,2 "$IMAGE_DIR/host_key.pub")" >"$WORK/known_hosts"
    SSH=(ssh -p "$PORT" -i "$IMAGE_DIR/id_ed25519" -o UserKnownHostsFile="$WORK/known_hosts" -o StrictHostKeyChecking=yes
        -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=5 -o ServerAliveCountMax=6 -o LogLevel=ERROR)
    # Two vCPUs: the daemon's 200 Hz loop keeps one busy under TCG, the feeder and the LED sampler need the other
    # to keep their own timing.
    "${QEMU_MACHINE[@]}" -smp 2 -m 1024 \
        -nographic -nodefaults -display none \
        -kernel "$IMAGE_DIR/vmlinuz" -initrd "$IMAGE_DIR/initrd" \
        -append "console=$GUEST_CONSOLE root=/dev/vda ro quiet loglevel=4" \
        -drive "file=$disk,format=qcow2,if=none,id=disk0,cache=writeback" -device virtio-blk-pci,drive=disk0 \
        -netdev "user,id=net0,hostfwd=tcp:127.0.0.1:$PORT-:22" -device virtio-net-pci,netdev=net0 \
        -device virtio-rng-pci \
        -chardev "file,id=serial0,path=$console,append=on" -serial chardev:serial0 \
        </dev/null >>"$WORK/qemu.log" 2>&1 &
    QEMU_PID=$!
    VM_STARTED=$(date +%s)
}

# G COMMAND...: runs a shell command line in the guest as pi (ssh; the line is the guest shell's).
G() { "${SSH[@]}" pi@127.0.0.1 "$@"; }

boot_id() { G cat /proc/sys/kernel/random/boot_id 2>/dev/null; }

# wait_ssh SECONDS [OLD_BOOT_ID]: until ssh answers (from a boot other than OLD_BOOT_ID); sets BOOT_SECONDS.
wait_ssh() {
    local limit=$1 old=${2:-} t0 id
    t0=$(date +%s)
    while [ $(( $(date +%s) - t0 )) -lt "$limit" ]; do
        kill -0 "$QEMU_PID" 2>/dev/null || { log "qemu exited (see $WORK/qemu.log)"; return 1; }
        if id=$(boot_id) && [ -n "$id" ] && [ "$id" != "$old" ]; then
            BOOT_SECONDS=$(( $(date +%s) - t0 ))
            return 0
        fi
        sleep 2
    done
    return 1
}

# A clean stop: poweroff from inside, then wait for qemu to exit (killed after 120 s).
vm_poweroff() {
    G sudo systemctl poweroff >/dev/null 2>&1 || true
    local n=0
    while kill -0 "$QEMU_PID" 2>/dev/null && [ $n -lt 120 ]; do sleep 1; n=$((n + 1)); done
    vm_cut
}

# Power cut: the machine stops where it is; what the guest had not written to its disk is lost.
vm_cut() {
    [ -n "$QEMU_PID" ] || return 0
    kill -9 "$QEMU_PID" 2>/dev/null || true
    wait "$QEMU_PID" 2>/dev/null || true
    QEMU_PID=""
}

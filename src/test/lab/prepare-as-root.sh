#!/usr/bin/env bash
# Builds the lab's Debian guests with a full root (systemd, udev, kmod, openssh-server, pciutils,
# initramfs-tools, GRUB): the one lab step that needs root (mmdebstrap --mode=root). Run it as root
# before the tests (.ci/run does); the tests themselves run as any user. Usage:
#   sudo src/test/lab/prepare-as-root.sh [OUT]        (OUT defaults to target/lab of this checkout)
# Output: OUT/rootfs/KEY/{grub,pve}.img, raw ext4 disks already "installed" (first boot done: the
# guest's own update-initramfs and update-grub / proxmox-boot-tool stand-in ran), owned by the owner of
# the checkout (or LAB_OWNER=user:group). KEY = these scripts + the package versions; a second run with
# the same inputs does nothing.
#   src/test/lab/prepare-as-root.sh --where [OUT]     (any user: prints the built directory, exit 3 if not
#                                                      built; as root it builds it first)
source "$(dirname "$0")/lab-common.sh"
WHERE=0
if [ "${1:-}" = --where ]; then WHERE=1; shift; fi
PROJECT="$(cd "$LAB_DIR/../../.." && pwd)"
OUT="$(mkdir -p "${1:-$PROJECT/target/lab}" && cd "${1:-$PROJECT/target/lab}" && pwd)"
OWNER="${LAB_OWNER:-$(stat -c %u:%g "$PROJECT")}"
ensure_key "$OUT"
KPKG="$(kernel_package)"
# shellcheck disable=SC2086
KEY="$(cache_key "$LAB_DIR/lab-common.sh" "$LAB_DIR/build-root-tree.sh" "$LAB_DIR/prepare-as-root.sh" \
       "$LAB_DIR"/guest/* "$OUT/ssh/id_ed25519.pub" -- "$KPKG" $LAB_ROOT_PACKAGES)"
DEST="$OUT/rootfs/$KEY"
if [ -f "$DEST/done" ]; then echo "$DEST"; exit 0; fi
if [ "$WHERE" = 1 ] && [ "$(id -u)" != 0 ]; then
  echo "not built for these inputs: $DEST" >&2; exit 3
fi
[ "$(id -u)" = 0 ] || die "prepare-as-root.sh needs root (mmdebstrap --mode=root); run it with sudo"
chown -R "$OWNER" "$OUT/ssh"
for t in mke2fs:e2fsprogs debugfs:e2fsprogs qemu-system-x86_64:qemu-system-x86 \
         dpkg-deb:dpkg apt-get:apt xz:xz-utils; do need "${t%%:*}" "${t#*:}"; done
rm -rf "$DEST.tmp"; mkdir -p "$DEST.tmp"; W="$DEST.tmp"
START=$SECONDS

TREE="$(bash "$LAB_DIR/build-root-tree.sh" "$OUT")"
echo "lab: packages installed ($((SECONDS - START)) s)" >&2
mkdir -p "$W/debs"
download "$W/debs" "$KPKG"
VERSION="${KPKG#linux-image-}"
G="$LAB_DIR/guest"
T="$W/tree"
cp -a "$TREE" "$T"
rm -f "$T/.lab-done"
umount_all() { for m in dev/pts dev sys proc; do mountpoint -q "$T/$m" && umount "$T/$m"; done; return 0; }
trap umount_all EXIT
mount -t proc proc "$T/proc"; mount -t sysfs sys "$T/sys"; mount --bind /dev "$T/dev"; mount --bind /dev/pts "$T/dev/pts"
# the kernel: the same image package, unpacked as the fast guest's (the usr-merged /lib stays a link)
dpkg-deb --fsys-tarfile "$W/debs/${KPKG}"_*.deb | tar -x --keep-directory-symlink -C "$T"
chroot "$T" depmod -a "$VERSION"
# GRUB's defaults as grub-pc's postinst installs them, with a serial console and the IOMMU on
cp "$T/usr/share/grub/default/grub" "$T/etc/default/grub"
sed -i 's/^GRUB_CMDLINE_LINUX=.*/GRUB_CMDLINE_LINUX="console=ttyS0 panic=-1 no_timer_check intel_iommu=on"/; s/^GRUB_TIMEOUT=.*/GRUB_TIMEOUT=0/' \
  "$T/etc/default/grub"
echo "/dev/vda / ext4 errors=remount-ro 0 1" > "$T/etc/fstab"
echo lab > "$T/etc/hostname"
mkdir -p "$T/usr/local/lib/lab" "$T/root/.ssh" "$T/etc/systemd/network"
install -m 0755 "$G/install.sh" "$G/proxmox-boot-tool" "$G/proxmox-boot-sync" "$T/usr/local/lib/lab/"
install -m 0755 "$G/lab-exec" "$T/usr/local/sbin/lab-exec"
install -m 0644 "$G/lab-install.service" "$T/etc/systemd/system/lab-install.service"
install -m 0644 "$G/mgmt.network" "$T/etc/systemd/network/10-mgmt.network"
install -m 0644 "$G/lab-quiet.conf" "$T/etc/modprobe.d/lab-quiet.conf"
install -m 0600 "$OUT/ssh/id_ed25519.pub" "$T/root/.ssh/authorized_keys"
chmod 0700 "$T/root/.ssh"
printf 'ForceCommand /usr/local/sbin/lab-exec\nUseDNS no\n' > "$T/etc/ssh/sshd_config.d/lab.conf"
chroot "$T" dpkg-divert --local --rename --add /usr/sbin/update-initramfs
install -m 0755 "$G/update-initramfs" "$T/usr/sbin/update-initramfs"
# a lean initramfs (as on small appliances): only the root disk's drivers; every update-initramfs under
# emulation costs minutes with MODULES=most or dep. /etc/modprobe.d still goes in, as always.
echo "MODULES=list" > "$T/etc/initramfs-tools/conf.d/lab-modules"
printf '%s\n' virtio_pci virtio_blk ext4 >> "$T/etc/initramfs-tools/modules"
chroot "$T" update-initramfs -c -k "$VERSION"
# grub-install would create it; the lab has no MBR to install to, only grub.cfg to generate
mkdir -p "$T/boot/grub"
chroot "$T" systemctl enable systemd-networkd lab-install.service
chroot "$T" systemctl mask systemd-networkd-wait-online.service apt-daily.timer apt-daily-upgrade.timer \
  e2scrub_reap.service e2scrub_all.timer fstrim.timer getty@tty1.service getty-static.service \
  systemd-timesyncd.service
: > "$T/etc/machine-id"
umount_all
echo "lab: root configured ($((SECONDS - START)) s)" >&2

extract_vmlinux "$W/tree/boot/vmlinuz-$VERSION" "$W/vmlinux"
cp "$W/tree/boot/initrd.img-$VERSION" "$W/initrd-first"
mke2fs -q -t ext4 -L labroot -U 6b1a3c2e-0000-4000-8000-00000000a1ab -d "$W/tree" "$W/base.img" 3G
rm -rf "$W/tree"

# the installer's last step, on the guest's first boot, once per personality
for p in grub pve; do
  cp --sparse=always "$W/base.img" "$W/$p.img"
  timeout 2400 qemu-system-x86_64 -machine q35 -accel tcg -cpu max -smp 2 -m 1024 -nodefaults \
    -display none -monitor none -serial "file:$W/install-$p.log" -no-reboot \
    -kernel "$W/vmlinux" -initrd "$W/initrd-first" \
    -append "root=/dev/vda rw console=ttyS0 panic=-1 quiet lab.personality=$p" \
    -drive "file=$W/$p.img,if=none,id=d0,format=raw" -device virtio-blk-pci,drive=d0,addr=0x6 \
    -netdev user,id=n0,restrict=on -device virtio-net-pci,netdev=n0,romfile=,mac=52:54:00:12:34:56,addr=0x2 \
    || die "the first boot of the $p guest failed; see $W/install-$p.log"
  debugfs -R "stat /etc/lab-installed" "$W/$p.img" 2>/dev/null | grep -q "Inode:" \
    || die "the first boot of the $p guest did not finish its install; see $W/install-$p.log"
  echo "lab: $p guest installed ($((SECONDS - START)) s)" >&2
done
rm -f "$W/base.img" "$W/initrd-first" "$W/vmlinux"
echo "$VERSION" > "$W/version"
touch "$W/done"
rm -rf "$DEST"; mv "$W" "$DEST"
chown -R "$OWNER" "$OUT"
echo "$DEST"

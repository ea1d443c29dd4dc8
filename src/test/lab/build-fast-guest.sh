#!/usr/bin/env bash
# Builds the lab's busybox guest: the stock Debian kernel (apt-get download + dpkg-deb -x + depmod) and a small
# root disk (busybox, dropbear, kmod, the topology's drivers) with the lab's stand-ins for update-initramfs,
# update-grub and udev's coldplug (busybox/*). The disk is "installed" here, on the build machine, by those same
# stand-ins (LAB_ROOT=tree): /boot/initrd.img-VERSION and /boot/grub/grub.cfg exist before the first boot, so no
# boot is spent on it. No root needed. Cached under OUT/fast/KEY (KEY = these scripts + package versions);
# prints that directory, which holds disk.img (IOMMU on) and disk-iommu-off.img (scenario 2's host:
# intel_iommu=off in /etc/default/grub, grub.cfg regenerated). Usage: build-fast-guest.sh OUT
source "$(dirname "$0")/lab-common.sh"
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
for t in apt-get:apt dpkg-deb:dpkg depmod:kmod modprobe:kmod kmod:kmod cpio:cpio xz:xz-utils gzip:gzip \
         busybox:busybox dropbear:dropbear-bin dropbearkey:dropbear-bin mke2fs:e2fsprogs; do need "${t%%:*}" "${t#*:}"; done
ensure_key "$OUT"
KPKG="$(kernel_package)"
KEY="$(cache_key "$LAB_DIR/lab-common.sh" "$LAB_DIR/build-fast-guest.sh" "$LAB_DIR"/busybox/* "$LAB_DIR/guest/lab-exec" \
       "$OUT/ssh/id_ed25519.pub" -- "$KPKG" busybox dropbear-bin kmod libc6)"
DEST="$OUT/fast/$KEY"
if [ -f "$DEST/done" ]; then echo "$DEST"; exit 0; fi
START=$SECONDS
rm -rf "$DEST.tmp"; mkdir -p "$DEST.tmp"; W="$DEST.tmp"
VERSION="$(unpack_kernel "$W/kernel")"
K="$W/kernel/root"
echo "lab: kernel unpacked ($((SECONDS - START)) s)" >&2

R="$W/root"
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,usr/local/sbin,usr/lib/lab,etc/dropbear,etc/modprobe.d,etc/initramfs-tools} \
         "$R"/{etc/udev/rules.d,etc/default,etc/modules-load.d,root/.ssh,proc,sys,dev,run,tmp,boot,var/log,var/lib,lib/modules}
copy_with_libs "$R" "$(command -v busybox)" "$(command -v dropbear)" "$(command -v kmod)"
install -m 0755 "$(command -v busybox)" "$R/bin/busybox"
# busybox's applets, except what kmod does (softdeps: udev's modprobe honours them, busybox's does not) and lspci
# (gpuforge reads sysfs, not lspci, and must not need it)
for a in $(busybox --list); do
  case "$a" in modprobe|insmod|rmmod|lsmod|depmod|modinfo|lspci|init|linuxrc) continue ;; esac
  [ -e "$R/bin/$a" ] || ln -s busybox "$R/bin/$a"
done
for a in modprobe insmod rmmod lsmod depmod modinfo; do ln -sf "$(command -v kmod)" "$R/sbin/$a"; done
# what the stand-in update-initramfs puts into every initramfs: busybox and its libraries
{ echo /bin/busybox; ldd "$(command -v busybox)" | grep -oE '/[^ ]+'; } | sort -u > "$R/usr/lib/lab/initramfs-files"
while read -r f; do [ -e "$R$f" ] || install -D -m 0755 "$(readlink -f "$f")" "$R$f"; done < "$R/usr/lib/lab/initramfs-files"
# the topology's drivers, vfio and the root disk's, with their dependencies
MODS="virtio_pci virtio_net virtio_blk crc32c_generic ext4 e1000 e1000e snd_hda_intel bochs cirrus vfio_pci vfio_iommu_type1 vfio"
for m in $MODS; do
  modprobe -d "$K" -S "$VERSION" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r ko; do
  install -D -m 0644 "$ko" "$R${ko#"$K"}"
done
cp "$K/lib/modules/$VERSION"/modules.{order,builtin,builtin.modinfo} "$R/lib/modules/$VERSION/"
depmod -b "$R" "$VERSION"
cp "$K/boot/vmlinuz-$VERSION" "$R/boot/vmlinuz-$VERSION"
cp "$K/boot/config-$VERSION" "$R/boot/config-$VERSION" 2>/dev/null || true
install -m 0755 "$LAB_DIR/busybox/init" "$R/sbin/init"
install -m 0755 "$LAB_DIR/busybox/update-initramfs" "$R/usr/sbin/update-initramfs"
install -m 0755 "$LAB_DIR/busybox/update-grub" "$R/usr/sbin/update-grub"
install -m 0755 "$LAB_DIR/guest/lab-exec" "$R/usr/local/sbin/lab-exec"
dropbearkey -t ed25519 -f "$R/etc/dropbear/dropbear_ed25519_host_key" >/dev/null 2>&1
install -m 0600 "$OUT/ssh/id_ed25519.pub" "$R/root/.ssh/authorized_keys"
chmod 0700 "$R/root" "$R/root/.ssh"
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$R/etc/passwd"
printf 'root:x:0:\n' > "$R/etc/group"
printf '/bin/sh\n' > "$R/etc/shells"
printf 'PRETTY_NAME="GPUForge lab (busybox)"\nID=gpuforge-lab\n' > "$R/etc/os-release"
echo lab-busybox > "$R/etc/hostname"
echo "/dev/vda / ext4 rw 0 1" > "$R/etc/fstab"
printf '# /etc/modules: kernel modules to load at boot time.\n' > "$R/etc/modules"
printf '# List of modules that you want to include in your initramfs.\n' > "$R/etc/initramfs-tools/modules"
# GRUB's defaults as on a Debian install with a serial console and the IOMMU on
cat > "$R/etc/default/grub" <<'GRUB'
# If you change this file, run 'update-grub' afterwards to update
# /boot/grub/grub.cfg.
GRUB_DEFAULT=0
GRUB_TIMEOUT=0
GRUB_DISTRIBUTOR="GPUForge lab"
GRUB_CMDLINE_LINUX_DEFAULT="quiet"
# no_timer_check: under TCG on a loaded machine the kernel's IO-APIC timer check can fail and panic
GRUB_CMDLINE_LINUX="console=ttyS0 panic=-1 no_timer_check intel_iommu=on"
GRUB
# the "installer's last step", by the guest's own (stand-in) tools, here instead of on a first boot
LAB_ROOT="$R" sh "$R/usr/sbin/update-initramfs" -c -k all >&2
LAB_ROOT="$R" sh "$R/usr/sbin/update-grub" 2>/dev/null
mke2fs -q -t ext4 -O ^has_journal -L labroot -d "$R" "$W/disk.img" 96M
# scenario 2's host: the IOMMU off. Debian's kernel turns the Intel IOMMU on by default
# (CONFIG_INTEL_IOMMU_DEFAULT_ON_INTGPU_OFF=y), so leaving intel_iommu=on out is not enough: intel_iommu=off
sed -i 's/ intel_iommu=on/ intel_iommu=off/' "$R/etc/default/grub"
LAB_ROOT="$R" sh "$R/usr/sbin/update-grub" 2>/dev/null
mke2fs -q -t ext4 -O ^has_journal -L labroot -d "$R" "$W/disk-iommu-off.img" 96M
bash "$LAB_DIR/extract-vmlinux.sh" "$R/boot/vmlinuz-$VERSION" "$OUT/vmlinux" >/dev/null
echo "$VERSION" > "$W/version"
rm -rf "$W/kernel" "$R"
touch "$W/done"
rm -rf "$DEST"; mv "$W" "$DEST"
echo "lab: busybox guest built ($((SECONDS - START)) s)" >&2
echo "$DEST"

#!/usr/bin/env bash
# Builds the lab's fast guest: the stock Debian kernel (apt-get download + dpkg-deb -x + depmod) and a
# busybox + dropbear initramfs. No root needed. Cached under OUT/fast/KEY (KEY = these scripts + package
# versions); prints that directory. Usage: build-fast-guest.sh OUT
source "$(dirname "$0")/lab-common.sh"
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
for t in apt-get:apt dpkg-deb:dpkg depmod:kmod modprobe:kmod cpio:cpio xz:xz-utils gzip:gzip busybox:busybox \
         dropbear:dropbear-bin dropbearkey:dropbear-bin; do need "${t%%:*}" "${t#*:}"; done
ensure_key "$OUT"
KPKG="$(kernel_package)"
KEY="$(cache_key "$LAB_DIR/lab-common.sh" "$LAB_DIR/build-fast-guest.sh" "$OUT/ssh/id_ed25519.pub" -- \
       "$KPKG" busybox dropbear-bin libc6)"
DEST="$OUT/fast/$KEY"
if [ -f "$DEST/done" ]; then echo "$DEST"; exit 0; fi
rm -rf "$DEST.tmp"; mkdir -p "$DEST.tmp"; W="$DEST.tmp"
VERSION="$(unpack_kernel "$W/kernel")"
K="$W/kernel/root"
extract_vmlinux "$K/boot/vmlinuz-$VERSION" "$W/vmlinux"

R="$W/initramfs"
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,etc/dropbear,root/.ssh,proc,sys,dev,run,tmp,var/log,lib/modules}
copy_with_libs "$R" "$(command -v busybox)" "$(command -v dropbear)"
[ "$(command -v busybox)" = /bin/busybox ] || ln -sf "$(command -v busybox)" "$R/bin/busybox"
# the drivers of the topology's devices and vfio, with their dependencies
MODS="virtio_pci virtio_net e1000 e1000e snd_hda_intel bochs cirrus vfio_pci vfio_iommu_type1"
for m in $MODS; do
  modprobe -d "$K" -S "$VERSION" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r ko; do
  install -D -m 0644 "$ko" "$R${ko#"$K"}"
done
cp "$K/lib/modules/$VERSION"/modules.{order,builtin,builtin.modinfo} "$R/lib/modules/$VERSION/"
depmod -b "$R" "$VERSION"
dropbearkey -t ed25519 -f "$R/etc/dropbear/dropbear_ed25519_host_key" >/dev/null 2>&1
install -m 0600 "$OUT/ssh/id_ed25519.pub" "$R/root/.ssh/authorized_keys"
chmod 0700 "$R/root" "$R/root/.ssh"
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$R/etc/passwd"
printf 'root:x:0:\n' > "$R/etc/group"
printf '/bin/sh\n' > "$R/etc/shells"
printf 'PRETTY_NAME="GPUForge lab (busybox)"\nID=gpuforge-lab\n' > "$R/etc/os-release"
cat > "$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s
rm -f /bin/lspci /usr/bin/lspci /sbin/lspci
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /dev/pts; mount -t devpts devpts /dev/pts; mount -t tmpfs tmpfs /run
# no udev here: drivers from modalias, PCI first, then the virtio bus
for f in /sys/bus/pci/devices/*/modalias; do modprobe -q "$(cat "$f")" 2>/dev/null; done
for f in /sys/bus/virtio/devices/*/modalias; do modprobe -q "$(cat "$f")" 2>/dev/null; done
hostname lab-fast
echo lab-fast > /etc/hostname
ip link set lo up
for n in /sys/class/net/*; do
  if [ "$(cat "$n/address")" = "52:54:00:12:34:56" ]; then
    i="${n##*/}"; ip link set "$i" up; ip addr add 10.0.2.15/24 dev "$i"; ip route add default via 10.0.2.2
  fi
done
dropbear -s -r /etc/dropbear/dropbear_ed25519_host_key -p 22
echo "gpuforge-lab: ready"
while :; do sleep 3600; done
INIT
chmod 0755 "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$W/initramfs.cpio.gz"
echo "$VERSION" > "$W/version"
rm -rf "$W/kernel" "$R"
touch "$W/done"
rm -rf "$DEST"; mv "$W" "$DEST"
echo "$DEST"

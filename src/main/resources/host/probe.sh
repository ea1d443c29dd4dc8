# GPUForge host probe, format 1. Read-only: it prints every fact GPU passthrough depends on in one
# stream and changes nothing. POSIX sh (dash, busybox ash, bash); only sh builtins in the loops, so a
# 120-device host costs a handful of processes. Run as `sh -s < probe.sh` for the host itself, or as
# `sh -s -- DIR < probe.sh` to read DIR, a copy of a host's /. The root comes only from that argument,
# never from the environment: a variable set on a host must not redirect what GPUForge reads there.
R="${1:-}"
echo "@@gpuforge-probe 1"
echo "@@meta uid=$(id -u 2>/dev/null || echo unknown) root=${R:-/}"

inroot() { # under a root, a symbolic link to an absolute path means that path in the root, as on the host
  f="$1"; n=0
  while [ -L "$f" ] && [ "$n" -lt 40 ]; do
    n=$((n + 1)); l="$(readlink "$f")" || break
    case "$l" in /*) f="$R$l" ;; *) f="${f%/*}/$l" ;; esac
  done
  printf '%s\n' "$f"
}
emit() { # a file, each line prefixed with |
  f="$R$1"
  if [ -n "$R" ] && [ -L "$f" ]; then f="$(inroot "$f")"; fi
  if [ -f "$f" ] && [ -r "$f" ]; then
    echo "@@file $1"
    while IFS= read -r line || [ -n "$line" ]; do printf '|%s\n' "$line"; done < "$f"
    echo "@@end"
  fi
}
flag() { # a path that exists
  if [ -e "$R$1" ]; then echo "@@exists $1"; fi
}

for p in /etc/hostname /etc/os-release /usr/lib/os-release /proc/cmdline /proc/sys/kernel/osrelease \
         /proc/meminfo /etc/default/grub /etc/kernel/cmdline /proc/modules /etc/modules /proc/net/route \
         /proc/mounts /etc/initramfs-tools/modules /etc/mkinitcpio.conf /gpuforge/dmesg.txt \
         /gpuforge/proxmox-boot-tool-status.txt /gpuforge/zpool-status.txt \
         /etc/udev/rules.d/80-gpuforge-vfio.rules /etc/udev/rules.d/81-gpuforge-fix.rules \
         /var/lib/gpuforge/journal.json /proc/driver/nvidia/version \
         /usr/share/perl5/PVE/pvecfg.pm /etc/systemd/system/gpuforge-nvidia-nodes.service /proc/devices; do
  emit "$p"
done
for p in "$R"/etc/pve/lxc/*.conf; do
  [ -f "$p" ] && emit "${p#"$R"}"
done
for p in "$R"/proc/driver/nvidia/gpus/*/information; do
  [ -f "$p" ] && emit "${p#"$R"}"
done
# GPU sharing with containers: only the video and render groups of /etc/group (no user names)
if [ -r "$R/etc/group" ]; then
  echo "@@file /etc/group"
  while IFS= read -r line; do
    case "$line" in video:*|render:*) printf '|%s\n' "$line" ;; esac
  done < "$R/etc/group"
  echo "@@end"
fi
for d in /etc/modprobe.d /etc/modules-load.d /etc/dracut.conf.d /etc/default/grub.d; do
  for p in "$R$d"/*.conf "$R$d"/*.cfg; do
    [ -f "$p" ] && emit "${p#"$R"}"
  done
done
if [ -r "$R/proc/cpuinfo" ]; then
  echo "@@file /proc/cpuinfo"
  n=0
  while IFS= read -r line; do
    case "$line" in processor*) n=$((n + 1)) ;; esac
    if [ "$n" -le 1 ]; then printf '|%s\n' "$line"; fi
  done < "$R/proc/cpuinfo"
  echo "@@end"
  echo "@@cpus $n"
fi
for p in /sys/firmware/efi /sys/firmware/acpi/tables /sys/firmware/acpi/tables/DMAR \
         /sys/firmware/acpi/tables/IVRS /sys/kernel/iommu_groups /etc/pve /usr/sbin/update-initramfs \
         /etc/initramfs-tools /usr/bin/dracut /usr/sbin/dracut /usr/bin/mkinitcpio /usr/sbin/proxmox-boot-tool \
         /usr/sbin/update-grub /usr/sbin/grub-mkconfig /usr/sbin/grub2-mkconfig /usr/sbin/grubby /boot/grub \
         /boot/grub2 /boot/efi/loader/loader.conf /boot/loader/loader.conf /usr/share/misc/pci.ids \
         /usr/share/hwdata/pci.ids /dev/vfio/vfio /dev/nvidiactl /dev/nvidia-uvm /dev/nvidia-uvm-tools \
         /usr/bin/nvidia-modprobe /usr/bin/nvidia-smi; do
  flag "$p"
done
# the device nodes containers get, and which DRM nodes belong to which PCI function
for p in "$R"/dev/nvidia[0-9]* "$R"/dev/nvidia-caps/* "$R"/dev/dri/card* "$R"/dev/dri/renderD* \
         "$R"/sys/bus/pci/devices/*/drm/card* "$R"/sys/bus/pci/devices/*/drm/renderD*; do
  [ -e "$p" ] && echo "@@exists ${p#"$R"}"
done
if [ -d "$R/sys/kernel/iommu_groups" ]; then
  for g in "$R"/sys/kernel/iommu_groups/*; do
    [ -d "$g/devices" ] || continue
    printf '@@group %s' "${g##*/}"
    for m in "$g"/devices/*; do [ -e "$m" ] && printf ' %s' "${m##*/}"; done
    echo
  done
fi
ids=""
for d in "$R"/sys/bus/pci/devices/*; do
  [ -d "$d" ] || continue
  echo "@@dev ${d##*/}"
  if IFS= read -r v < "$d/vendor" 2>/dev/null && IFS= read -r w < "$d/device" 2>/dev/null; then
    ids="$ids ${v#0x}:${w#0x}"
  fi
  for k in vendor device subsystem_vendor subsystem_device class boot_vga reset_method power_state \
           sriov_totalvfs sriov_numvfs numa_node current_link_speed current_link_width max_link_speed \
           max_link_width d3cold_allowed driver_override; do
    if [ -r "$d/$k" ] && IFS= read -r v < "$d/$k" 2>/dev/null; then printf '%s=%s\n' "$k" "$v"; fi
  done
  if [ -r "$d/resource" ]; then
    while IFS= read -r v; do printf 'resource=%s\n' "$v"; done < "$d/resource"
  fi
  for p in "$d"/resource*_resize; do [ -e "$p" ] && echo "rebar=1" && break; done
  [ -e "$d/rom" ] && echo "rom=1"
  echo "@@end"
done
# symbolic links (driver, IOMMU group, SR-IOV parent, network and block devices), one process for all
echo "@@links"
ls -ld "$R"/sys/bus/pci/devices/*/driver "$R"/sys/bus/pci/devices/*/iommu_group \
       "$R"/sys/bus/pci/devices/*/physfn "$R"/sys/class/net/*/device "$R"/sys/class/net/*/brif/* \
       "$R"/sys/class/net/*/lower_* "$R"/sys/bus/virtio/devices/* "$R"/sys/class/block/* "$R"/sys/class/block/*/slaves/* \
       "$R"/sys/firmware/efi 2>/dev/null | while IFS= read -r line; do printf '|%s\n' "$line"; done
echo "@@end"
for dm in "$R"/sys/class/block/dm-*; do
  if [ -r "$dm/dm/name" ] && IFS= read -r v < "$dm/dm/name"; then echo "@@dm ${dm##*/} $v"; fi
done
# device names: lspci on a live host, else the host's pci.ids read once by awk for just these ids
if [ -r "$R/gpuforge/names.txt" ]; then
  echo "@@cmd pciids"
  while IFS= read -r line; do printf '|%s\n' "$line"; done < "$R/gpuforge/names.txt"
  echo "@@end"
elif [ -n "$R" ] || ! command -v lspci >/dev/null 2>&1; then
  for f in "$R/usr/share/misc/pci.ids" "$R/usr/share/hwdata/pci.ids"; do
    if [ -r "$f" ]; then
      echo "@@cmd pciids"
      awk -v want="$ids" 'BEGIN { n = split(want, a, " "); for (i = 1; i <= n; i++) { w[a[i]] = 1; v[substr(a[i], 1, 4)] = 1 } }
        /^C / { exit }
        /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / { vid = substr($0, 1, 4); vname = substr($0, 7); next }
        /^	[0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / { if (vid in v) { id = vid ":" substr($0, 2, 4); if (id in w) print id " " vname " " substr($0, 8) } }' \
        "$f" 2>/dev/null | while IFS= read -r line; do printf '|%s\n' "$line"; done
      echo "@@end"
      break
    fi
  done
fi
if [ -z "$R" ]; then
  if command -v lspci >/dev/null 2>&1; then
    echo "@@cmd lspci -Dnnmm"
    lspci -Dnnmm 2>/dev/null | while IFS= read -r line; do printf '|%s\n' "$line"; done
    echo "@@end"
  fi
  echo "@@cmd dmesg"
  dmesg 2>/dev/null | grep -iE 'DMAR|AMD-Vi|IOMMU|vfio|remapping|x2apic|BAR [0-9]+: .*(can.t|fail)|reset' \
    | while IFS= read -r line; do printf '|%s\n' "$line"; done
  echo "@@end"
  if command -v proxmox-boot-tool >/dev/null 2>&1; then
    echo "@@cmd proxmox-boot-tool status"
    proxmox-boot-tool status 2>&1 | while IFS= read -r line; do printf '|%s\n' "$line"; done
    echo "@@end"
  fi
  if command -v zpool >/dev/null 2>&1; then
    echo "@@cmd zpool status -PL"
    zpool status -PL 2>/dev/null | while IFS= read -r line; do printf '|%s\n' "$line"; done
    echo "@@end"
  fi
  if command -v lsinitramfs >/dev/null 2>&1 && [ -r "/boot/initrd.img-$(uname -r)" ]; then
    echo "@@cmd lsinitramfs"
    lsinitramfs "/boot/initrd.img-$(uname -r)" 2>/dev/null | grep -E '/vfio' | while IFS= read -r line; do
      printf '|%s\n' "$line"; done
    echo "@@end"
  fi
fi
echo "@@done"

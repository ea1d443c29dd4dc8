#!/bin/sh
# GPUForge lab: the installer's last step, run once on the guest's first boot (lab-install.service), as a
# Debian installer or the Proxmox installer would: build the initramfs for this machine and install the
# boot loader configuration. lab.personality=grub|pve on the kernel command line chooses which.
set -eux
personality="$(sed -n 's/.*lab\.personality=\([a-z]*\).*/\1/p' /proc/cmdline)"
root="UUID=$(findmnt -no UUID /)"
case "$personality" in
  grub)
    echo lab-grub > /etc/hostname
    update-initramfs -u -k all
    update-grub ;;
  pve)
    echo lab-pve > /etc/hostname
    mkdir -p /etc/pve
    install -m 0755 /usr/local/lib/lab/proxmox-boot-tool /usr/sbin/proxmox-boot-tool
    mkdir -p /etc/initramfs/post-update.d
    install -m 0755 /usr/local/lib/lab/proxmox-boot-sync /etc/initramfs/post-update.d/proxmox-boot-sync
    echo "root=$root ro console=ttyS0 panic=-1 no_timer_check intel_iommu=on quiet" > /etc/kernel/cmdline
    rm -f /etc/default/grub
    update-initramfs -u -k all
    proxmox-boot-tool init ;;
  *) echo "lab.personality= missing" >&2; exit 1 ;;
esac
touch /etc/lab-installed
sync
systemctl poweroff

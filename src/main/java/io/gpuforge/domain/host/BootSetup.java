package io.gpuforge.domain.host;

import java.util.Optional;

/**
 * How the host boots, which decides where the kernel command line is edited.
 *
 * @param grubCmdline the value of {@code GRUB_CMDLINE_LINUX_DEFAULT} in {@code /etc/default/grub}
 * @param kernelCmdlineFile the content of {@code /etc/kernel/cmdline} (systemd-boot / proxmox-boot-tool)
 */
public record BootSetup(Mode mode, Loader loader, Optional<String> grubCmdline, Optional<String> grubCmdlineLinux,
                        Optional<String> kernelCmdlineFile, Optional<String> loaderDetail) {

    public enum Mode { UEFI, LEGACY, UNKNOWN }

    public enum Loader { GRUB, SYSTEMD_BOOT, UNKNOWN }
}

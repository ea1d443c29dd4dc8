package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeText;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.BootSetup;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** UEFI or legacy, the boot loader, and its command line variables. */
class BootSetupReaderTest {

    private final List<String> unknowns = new ArrayList<>();

    private BootSetup read(ProbeText t) throws Exception {
        return new BootSetupReader(t.stream(), unknowns::add).read();
    }

    @Test
    void grubWithADropInThatWins() throws Exception {
        BootSetup b = read(new ProbeText().exists("/sys/firmware/efi", "/sys/firmware/acpi/tables", "/boot/grub")
                .file("/etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash\"\nGRUB_CMDLINE_LINUX=\"\"\n")
                .file("/etc/default/grub.d/50-cloudimg.cfg", "GRUB_CMDLINE_LINUX_DEFAULT=\"console=tty1 console=ttyS0\"\n"));
        assertThat(b.mode()).isEqualTo(BootSetup.Mode.UEFI);
        assertThat(b.loader()).isEqualTo(BootSetup.Loader.GRUB);
        assertThat(b.grubCmdline()).contains("console=tty1 console=ttyS0");
        assertThat(b.grubCmdlineLinux()).contains("");
        assertThat(b.kernelCmdlineFile()).isEmpty();
        assertThat(unknowns).isEmpty();
    }

    @Test
    void proxmoxBootToolSaysWhichLoader() throws Exception {
        BootSetup uefi = read(new ProbeText().file("/etc/kernel/cmdline", "root=ZFS=rpool/ROOT/pve-1 boot=zfs\n")
                .exists("/sys/firmware/efi", "/usr/sbin/proxmox-boot-tool")
                .cmd("proxmox-boot-tool status", "Re-executing '/usr/sbin/proxmox-boot-tool' in new private mount namespace..\n"
                        + "System currently booted with uefi\n2A5B-1C3D is configured with: uefi (versions: 6.8.12-4-pve)\n"));
        assertThat(uefi.loader()).isEqualTo(BootSetup.Loader.SYSTEMD_BOOT);
        assertThat(uefi.loaderDetail()).contains("proxmox-boot-tool (systemd-boot)");
        assertThat(uefi.kernelCmdlineFile()).contains("root=ZFS=rpool/ROOT/pve-1 boot=zfs");

        BootSetup grub = read(new ProbeText().file("/etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n")
                .exists("/sys/firmware/acpi/tables")
                .file("/gpuforge/proxmox-boot-tool-status.txt", "8A2C-11F0 is configured with: grub (versions: 6.8.12-4-pve)\n"));
        assertThat(grub.mode()).isEqualTo(BootSetup.Mode.LEGACY);
        assertThat(grub.loader()).isEqualTo(BootSetup.Loader.GRUB);
        assertThat(grub.loaderDetail()).contains("proxmox-boot-tool (GRUB)");
    }

    @Test
    void systemdBootFromItsLoaderConf() throws Exception {
        BootSetup b = read(new ProbeText().file("/etc/kernel/cmdline", "root=UUID=1 rw\n").exists("/boot/loader/loader.conf"));
        assertThat(b.loader()).isEqualTo(BootSetup.Loader.SYSTEMD_BOOT);
        assertThat(b.loaderDetail()).isEmpty();
        assertThat(b.mode()).isEqualTo(BootSetup.Mode.UNKNOWN);
    }

    @Test
    void neitherIsUnknownAndSaidSo() throws Exception {
        BootSetup b = read(new ProbeText().file("/etc/kernel/cmdline", "root=/dev/vda1\n"));
        assertThat(b.loader()).as("a cmdline file alone is no systemd-boot").isEqualTo(BootSetup.Loader.UNKNOWN);
        assertThat(unknowns).containsExactly("bootloader: neither /etc/default/grub nor systemd-boot configuration found");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"quiet splash\"|quiet splash",
        "'quiet splash'|quiet splash",
        "quiet # the default|quiet",
        "\"a # b\"|a # b",
        "\"unterminated|unterminated",
        "  bare  |bare"
    })
    void shellValues(String raw, String value) {
        assertThat(BootSetupReader.shellValue(raw)).isEqualTo(value);
    }

    @Test
    void anEmptyAssignment() {
        assertThat(BootSetupReader.shellValue("\"\"")).isEmpty();
        assertThat(BootSetupReader.shellValue("")).isEmpty();
    }
}

package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeText;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The kernel log lines about the IOMMU and interrupt remapping, as Intel and AMD kernels print them. */
class KernelLogReaderTest {

    private final List<String> unknowns = new ArrayList<>();

    private List<String> lines(ProbeText t) throws Exception {
        return new KernelLogReader(t.stream(), unknowns::add).lines();
    }

    @Test
    void onlyTheRelevantLinesWithoutPerDeviceNoise() throws Exception {
        List<String> log = lines(new ProbeText().cmd("dmesg", "[    0.000000] Linux version 6.8.12-4-pve\n"
                + "[    0.068878] DMAR: IOMMU enabled\n"
                + "[    0.152935] DMAR-IR: Enabled IRQ remapping in x2apic mode\n"
                + "[    0.701234] pci 0000:00:00.0: Adding to iommu group 0\n"
                + "[    0.812345] AMD-Vi: Interrupt remapping enabled\n"
                + "[    5.100000] vfio-pci 0000:01:00.0: vgaarb: deactivate vga console\n"
                + "[    6.000000] usb 1-1: new high-speed USB device\n"));
        assertThat(log).containsExactly("[    0.068878] DMAR: IOMMU enabled",
                "[    0.152935] DMAR-IR: Enabled IRQ remapping in x2apic mode",
                "[    0.812345] AMD-Vi: Interrupt remapping enabled",
                "[    5.100000] vfio-pci 0000:01:00.0: vgaarb: deactivate vga console");
        assertThat(KernelLogReader.interruptRemapping(log)).contains(true);
        assertThat(unknowns).isEmpty();
    }

    @Test
    void aSavedLogInASysrootIsReadToo() throws Exception {
        assertThat(lines(new ProbeText().file("/gpuforge/dmesg.txt", "[0.1] DMAR: IOMMU enabled\n")))
                .containsExactly("[0.1] DMAR: IOMMU enabled");
    }

    @Test
    void noLogIsUnknownAndSaidSo() throws Exception {
        assertThat(lines(new ProbeText().cmd("dmesg", ""))).isEmpty();
        assertThat(unknowns).containsExactly("kernel log (dmesg): not readable (needs root on most hosts)");
        assertThat(KernelLogReader.interruptRemapping(List.of())).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "DMAR-IR: IRQ remapping was disabled",
        "DMAR-IR: Failed to enable irq remapping",
        "AMD-Vi: Interrupt remapping is disabled",
        "x2apic: IRQ remapping doesn't support X2APIC mode",
        "DMAR: [Firmware Bug]: not enabling interrupt remapping"
    })
    void remappingOffWinsOverAnEnabledLine(String off) {
        assertThat(KernelLogReader.interruptRemapping(List.of("DMAR-IR: Enabled IRQ remapping in xapic mode", off)))
                .contains(false);
    }
}

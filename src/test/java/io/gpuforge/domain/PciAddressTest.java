package io.gpuforge.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import io.gpuforge.domain.pci.PciAddress;

/** The forms of a PCI address that Proxmox and libvirt take. */
class PciAddressTest {

    @ParameterizedTest
    @CsvSource({
        "0000:01:00.0, 0000:01:00, pci_0000_01_00_0",
        "01:00.1, 0000:01:00, pci_0000_01_00_1",
        "0000:81:1f.7, 0000:81:1f, pci_0000_81_1f_7",
        "000A:C1:0B.3, 000a:c1:0b, pci_000a_c1_0b_3"
    })
    void slotAndNodeDeviceName(String address, String slot, String nodeDevice) {
        PciAddress a = PciAddress.parse(address);
        assertThat(a.slotAddress()).isEqualTo(slot);
        assertThat(a.libvirtNodeDevice()).isEqualTo(nodeDevice);
    }

    @Test
    void theFunctionsOfOneCardShareTheirSlotAddress() {
        PciAddress gpu = PciAddress.parse("0000:0b:00.0");
        PciAddress audio = PciAddress.parse("0000:0b:00.1");
        PciAddress other = PciAddress.parse("0000:0c:00.0");
        assertThat(gpu.slotAddress()).isEqualTo(audio.slotAddress()).isNotEqualTo(other.slotAddress());
        assertThat(gpu.toString()).startsWith(gpu.slotAddress() + ".");
    }
}

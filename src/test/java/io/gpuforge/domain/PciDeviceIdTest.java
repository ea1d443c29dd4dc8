package io.gpuforge.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.pci.PciDevice;
import org.junit.jupiter.api.Test;

/** Vendor, device and class ids as sysfs, lspci and the Proxmox API write them. */
class PciDeviceIdTest {

    @Test
    void idsAreReadInEveryWritingAndKeptAsFourLowerCaseDigits() {
        assertThat(PciDevice.hex4("10de", "vendor")).isEqualTo("10de");
        assertThat(PciDevice.hex4(" 0x10DE\n", "vendor")).isEqualTo("10de");
        assertThat(PciDevice.hex4("0x2684", "device")).isEqualTo("2684");
        assertThat(PciDevice.hex4("0x030000", "class")).isEqualTo("0300");
    }

    @Test
    void anythingElseIsRefusedWithTheTextAsGiven() {
        for (String bad : new String[] {"10dg", "10d", "10de0", "", "0x", "１０de", "10 e"}) {
            assertThatThrownBy(() -> PciDevice.hex4(bad, "vendor"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("vendor id is not 4 hex digits: '" + bad + "'");
        }
        assertThat(PciDevice.isHex4("030a")).isTrue();
        assertThat(PciDevice.isHex4("030A")).as("upper case is made lower first, by hex4").isFalse();
        assertThat(PciDevice.isHex4("0300 ")).isFalse();
    }
}

package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;
import io.gpuforge.host.ProbeText;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code ls -ld} lines of a probe, as link path → target. */
class SysfsLinksTest {

    @Test
    void aSysrootPrefixIsRemovedAndOtherLinesIgnored() throws Exception {
        ProbeText t = new ProbeText().root("/srv/hosts/pve1")
                .link("/sys/bus/pci/devices/0000:01:00.0/driver", "../../../bus/pci/drivers/vfio-pci")
                .link("/sys/class/net/eno1/device", "../../../0000:41:00.0");
        Map<String, String> links = SysfsLinks.read(t.stream());
        assertThat(links).containsExactly(
                Map.entry("/sys/bus/pci/devices/0000:01:00.0/driver", "../../../bus/pci/drivers/vfio-pci"),
                Map.entry("/sys/class/net/eno1/device", "../../../0000:41:00.0"));
    }

    @Test
    void aLineWithoutAnArrowOrPathIsNotALink() throws Exception {
        String text = new ProbeText().text().replace("@@links\n",
                "@@links\n|ls: cannot access '/sys/class/block/*': No such file or directory\n|lrwxrwxrwx x -> y\n");
        assertThat(SysfsLinks.read(ProbeStream.parse(text))).isEmpty();
    }

    @Test
    void theBaseNameOfATarget() {
        assertThat(SysfsLinks.base("../../../bus/pci/drivers/nvidia")).isEqualTo("nvidia");
        assertThat(SysfsLinks.base("../../../kernel/iommu_groups/40/")).isEqualTo("40");
        assertThat(SysfsLinks.base("vfio-pci")).isEqualTo("vfio-pci");
    }
}

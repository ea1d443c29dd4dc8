package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.host.ProbeText;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GRUB: the kernel arguments in /etc/default/grub, regenerated with the distribution's tool. */
class GrubBootLoaderTest {

    private static final KernelArguments ARGS = new KernelArguments(List.of("intel_iommu=on", "iommu=pt"),
            List.of("intel_iommu=off", "amd_iommu=off", "iommu=off"), List.of());

    private static HostFacts grubHost(String grubFile) throws Exception {
        return new ProbeText().file("/etc/default/grub", grubFile).exists("/usr/sbin/update-grub").facts();
    }

    private static String after(String grubFile) throws Exception {
        PlanPart p = new GrubBootLoader().kernelArguments(grubHost(grubFile), ARGS);
        assertThat(p.edits()).hasSize(1);
        return p.edits().get(0).after();
    }

    @Test
    void theDefaultLineIsEditedAndTheRestKept() throws Exception {
        String before = "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash\"\nGRUB_CMDLINE_LINUX=\"\"\n";
        PlanPart p = new GrubBootLoader().kernelArguments(grubHost(before), ARGS);
        assertThat(p.edits()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("/etc/default/grub");
            assertThat(e.before()).contains(before);
            assertThat(e.after()).isEqualTo("GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on"
                    + " iommu=pt\"\nGRUB_CMDLINE_LINUX=\"\"\n");
        });
        assertThat(p.commands()).containsExactly("update-grub");
    }

    @Test
    void quotingIsKeptAndABareValueQuoted() throws Exception {
        assertThat(after("GRUB_CMDLINE_LINUX_DEFAULT='quiet'\n"))
                .isEqualTo("GRUB_CMDLINE_LINUX_DEFAULT='quiet intel_iommu=on iommu=pt'\n");
        assertThat(after("GRUB_CMDLINE_LINUX_DEFAULT=quiet\n"))
                .isEqualTo("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet intel_iommu=on iommu=pt\"\n");
    }

    @Test
    void anIommuTurnedOffIsTurnedOn() throws Exception {
        assertThat(after("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet intel_iommu=off iommu=soft\"\n"))
                .isEqualTo("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet intel_iommu=on iommu=pt\"\n");
    }

    @Test
    void anIommuTurnedOffInTheLinuxLineIsRemovedThereToo() throws Exception {
        // GRUB_CMDLINE_LINUX goes on every entry, recovery ones included: the kernel reads the last of two settings
        assertThat(after("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\nGRUB_CMDLINE_LINUX=\"console=ttyS0 intel_iommu=off\"\n"))
                .isEqualTo("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet intel_iommu=on iommu=pt\"\n"
                        + "GRUB_CMDLINE_LINUX=\"console=ttyS0\"\n");
    }

    @Test
    void aMissingDefaultLineIsAddedAtTheEnd() throws Exception {
        assertThat(after("GRUB_TIMEOUT=5")).isEqualTo("GRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX_DEFAULT=\"intel_iommu=on iommu=pt\"\n");
    }

    @Test
    void argumentsAlreadyThereChangeNothing() throws Exception {
        PlanPart p = new GrubBootLoader().kernelArguments(
                grubHost("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet intel_iommu=on iommu=pt\"\n"), ARGS);
        assertThat(p.edits()).isEmpty();
        assertThat(p.commands()).as("no update-grub without an edit").isEmpty();
    }

    @Test
    void anUnreadableGrubFileIsANoteNotAnEdit() throws Exception {
        HostFacts f = new ProbeText().exists("/boot/grub", "/usr/sbin/update-grub").facts();
        PlanPart p = new GrubBootLoader().kernelArguments(f, ARGS);
        assertThat(p.edits()).isEmpty();
        assertThat(p.commands()).isEmpty();
        assertThat(io.gpuforge.testing.English.english(p.notes())).containsExactly("GRUB is in use but /etc/default/grub could not be read: add intel_iommu=on"
                + " iommu=pt to the kernel command line yourself.");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
        "/usr/sbin/update-grub /usr/sbin/grub-mkconfig | update-grub",
        "/usr/sbin/grub2-mkconfig | grub2-mkconfig -o /boot/grub2/grub.cfg",
        "/usr/sbin/grub-mkconfig /boot/grub | grub-mkconfig -o /boot/grub/grub.cfg",
        "/boot/grub2 | grub2-mkconfig -o /boot/grub2/grub.cfg",
        "/boot/grub | update-grub"
    })
    void theRefreshCommandIsTheOneTheDistributionShips(String present, String command) throws Exception {
        HostFacts f = new ProbeText().file("/etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"\"\n")
                .exists(present.split(" ")).facts();
        assertThat(GrubBootLoader.refreshCommand(f)).isEqualTo(command);
        assertThat(new GrubBootLoader().kernelArguments(f, ARGS).commands()).containsExactly(command);
    }
}

package io.gpuforge.ui.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.vmcreate.TemplateService;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.ui.common.I18n;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The wizard's state without a window: which page a problem blocks, and how long a refusal stays. */
class CreateVmWizardModelTest {

    private static final long GIB = 1L << 30;

    private CreateVmWizardModel ready() {
        CreateVmWizardModel m = new CreateVmWizardModel(new I18n(Locale.ENGLISH));
        m.connection.set(new ConnectionInfo(1, "lab", ConnectionInfo.Kind.PROXMOX, "https://pve.example:8006", "root@pam",
                Optional.empty()));
        m.node.set("pve1");
        m.apply(TemplateService.loadBuiltIn().stream().filter(t -> t.id().equals("ubuntu-cuda")).findFirst()
                .orElseThrow());
        m.storage.set("local-zfs");
        m.network.set("vmbr0");
        m.sshKeys.set("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIF9nUH9yZ2UtdGVzdC1rZXktMDAwMDAwMDAwMDAw alice@laptop");
        VmInfo big = new VmInfo(new VmRef("pve1", "101"), "train-01", VmState.RUNNING, false, 16, 100 * GIB,
                Optional.empty());
        m.choices.set(new VmProvisioning.Choices(new NodeStatus("pve1", Optional.empty(), Optional.empty(),
                OptionalLong.empty(), OptionalDouble.empty(), 32, OptionalLong.of(128 * GIB), OptionalLong.of(48 * GIB)),
                List.of(new StorageInfo("local-zfs", "zfspool", List.of("images"), 1000 * GIB, 150 * GIB, true)),
                List.of(new NetworkInfo("vmbr0", "bridge", true)), List.of(), List.of(big), List.of()));
        m.memoryMiB.set(8192);
        m.diskGiB.set(100);
        return m;
    }

    @Test
    void aRefusedValueStaysAnErrorOnItsPageUntilThatFieldIsEdited() {
        CreateVmWizardModel m = ready();
        assertThat(m.errors).isEmpty();
        m.refused(Map.of(VmField.DNS, "nameserver: invalid format"));
        assertThat(m.pageValid(CreateVmWizardModel.Step.CLOUD_INIT)).isFalse();
        assertThat(m.pageValid(CreateVmWizardModel.Step.NAME)).isTrue();
        assertThat(m.firstPageWithError()).contains(CreateVmWizardModel.Step.CLOUD_INIT);
        m.name.set("other-name");
        m.gateway.set("192.0.2.1");
        assertThat(m.errors).containsEntry(VmField.DNS, "nameserver: invalid format");
        m.dns.set("192.0.2.53");
        assertThat(m.errors).doesNotContainKey(VmField.DNS);
        assertThat(m.pageValid(CreateVmWizardModel.Step.SUMMARY)).isTrue();
    }

    @Test
    void aDiskBiggerThanTheStorageBlocksResourcesWhileOverCommittedMemoryOnlyWarns() {
        CreateVmWizardModel m = ready();
        m.memoryMiB.set(40 * 1024);
        assertThat(m.warnings.get(VmField.MEMORY)).startsWith("Over-committed");
        assertThat(m.pageValid(CreateVmWizardModel.Step.RESOURCES)).isTrue();
        m.diskGiB.set(200);
        assertThat(m.errors.get(VmField.DISK)).isEqualTo("Not enough space on local-zfs: 200 GiB asked, 150.0 GiB free");
        assertThat(m.pageValid(CreateVmWizardModel.Step.RESOURCES)).isFalse();
        assertThat(m.pageValid(CreateVmWizardModel.Step.PLACEMENT)).isTrue();
        m.user.set("Bad User");
        assertThat(m.errors.get(VmField.CI_USER)).startsWith("A user name is lower-case");
        assertThat(m.firstPageWithError()).contains(CreateVmWizardModel.Step.RESOURCES);
    }
}

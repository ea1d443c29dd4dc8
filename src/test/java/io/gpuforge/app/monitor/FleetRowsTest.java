package io.gpuforge.app.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.telemetry.NvidiaSmiCsv;
import io.gpuforge.telemetry.NvidiaSmiFields;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A node's GPU read over its linked host is named by its NVIDIA UUID, the hypervisor lists it by PCI address: the
 * reading carries the address nvidia-smi gives, so the fleet puts it on the hypervisor's row (where the tree, the VM
 * and "no data since" are) instead of a second row for the same card.
 */
class FleetRowsTest {

    private final ConnectionInfo lab = new ConnectionInfo(2, "lab", ConnectionInfo.Kind.PROXMOX,
            "https://pve:8006", "root@pam!gpuforge", Optional.empty());

    private FleetGpu listed(String node, String address) {
        GpuSample placeholder = GpuSample.builder(new GpuId("proxmox:lab/" + node, address), 0, SourceKind.NVIDIA_SMI)
                .node(Optional.of(node)).build();
        return FleetRows.fromSample(placeholder, "lab", Optional.of(lab), new GpuTarget.Connection(lab));
    }

    @Test
    void aReadingByUuidLandsOnTheRowOfItsNodeAndAddress() {
        NvidiaSmiFields fields = NvidiaSmiFields.all();
        List<String> asked = fields.asked();
        String[] cells = new String[asked.size()];
        java.util.Arrays.fill(cells, "[N/A]");
        cells[asked.indexOf("index")] = "0";
        cells[asked.indexOf("name")] = "NVIDIA GeForce RTX 4080 SUPER";
        cells[asked.indexOf("uuid")] = "GPU-00000000-0000-0000-0000-000000000000";
        cells[asked.indexOf("pci.bus_id")] = "00000000:02:00.0";
        cells[asked.indexOf("temperature.gpu")] = "46";
        NvidiaSmiCsv.Row row = (NvidiaSmiCsv.Row) new NvidiaSmiCsv(fields).parse(String.join(", ", cells));
        GpuSample s = row.sample("ssh:root@pve2", 1000, SourceKind.NVIDIA_SMI).node(Optional.of("pve-4090")).build();
        assertThat(s.gpu().device()).isEqualTo("GPU-00000000-0000-0000-0000-000000000000");
        assertThat(s.address()).hasValue("0000:02:00.0");
        assertThat(s.raw(GpuMetric.TEMPERATURE_C)).isEqualTo(46);

        List<FleetGpu> rows = List.of(listed("pve-3090", "0000:02:00.0"), listed("pve-4090", "0000:01:00.0"),
                listed("pve-4090", "0000:02:00.0"));
        assertThat(FleetRows.match(rows, s, lab)).as("same node, same address").isEqualTo(2);
        GpuSample elsewhere = s.toBuilder().node(Optional.of("pve-9")).build();
        assertThat(FleetRows.match(rows, elsewhere, lab)).as("a node the hypervisor does not list").isEqualTo(-1);
        GpuSample noAddress = s.toBuilder().address(Optional.empty()).build();
        assertThat(FleetRows.match(rows, noAddress, lab)).as("a UUID alone names no listed row").isEqualTo(-1);
    }
}

package io.gpuforge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.domain.pci.PciInventory;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.hypervisor.libvirt.LibvirtConnection;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listing 1,000 domains and 300 PCI node devices on libvirt's test driver: GPUForge's connection against
 * {@code virsh list --all} plus {@code virsh nodedev-dumpxml} per device, in the same run (median of 5).
 * Writes target/bench/libvirt-inventory.json. Needs virsh (libvirt-clients).
 */
@Tag("bench")
class LibvirtInventoryBench {

    @TempDir
    Path dir;

    @Test
    void inventoryVersusVirsh() throws Exception {
        assertThat(new File("/usr/bin/virsh")).as("apt-get install libvirt-clients").exists();
        Path host = dir.resolve("big.xml");
        List<String> names = write(host, 1000, 300);
        String uri = "test://" + host;
        List<Long> ours = new ArrayList<>();
        List<Long> virsh = new ArrayList<>();
        int domains = 0;
        int devices = 0;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            try (LibvirtConnection c = LibvirtConnection.open(uri)) {
                List<VmInfo> vms = c.domains();
                PciInventory inv = c.pciInventory();
                domains = vms.size();
                devices = inv.devices().size();
            }
            ours.add((System.nanoTime() - t0) / 1_000_000);
            t0 = System.nanoTime();
            run(List.of("virsh", "-c", uri, "list", "--all"));
            StringBuilder script = new StringBuilder();
            for (String n : names) {
                script.append("virsh -c '").append(uri).append("' nodedev-dumpxml ").append(n).append(" > /dev/null\n");
            }
            run(List.of("sh", "-c", script.toString()));
            virsh.add((System.nanoTime() - t0) / 1_000_000);
        }
        ours.sort(Long::compare);
        virsh.sort(Long::compare);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "libvirt-inventory-1000-domains-300-pci-devices");
        out.put("domains", domains);
        out.put("pci_devices", devices);
        out.put("gpuforge_ms", ours);
        out.put("gpuforge_median_ms", ours.get(2));
        out.put("virsh_ms", virsh);
        out.put("virsh_median_ms", virsh.get(2));
        out.put("virsh_processes", 1 + names.size());
        out.put("speedup", Math.round(100.0 * virsh.get(2) / Math.max(1, ours.get(2))) / 100.0);
        Files.createDirectories(Path.of("target/bench"));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(
                Path.of("target/bench/libvirt-inventory.json").toFile(), out);
        assertThat(domains).isEqualTo(1000);
        assertThat(devices).isEqualTo(300);
    }

    private static void run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String o = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(o).isZero();
    }

    private static List<String> write(Path file, int domains, int devices) throws Exception {
        StringBuilder x = new StringBuilder("<node>\n");
        for (int i = 0; i < domains; i++) {
            x.append("<domain type='test'><name>vm").append(i).append("</name><memory unit='MiB'>2048</memory><vcpu>2</vcpu>"
                    + "<os><type arch='x86_64' machine='q35'>hvm</type></os></domain>\n");
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < devices; i++) {
            int bus = 1 + i / 8;
            int fn = i % 8;
            String name = String.format(Locale.ROOT, "pci_0000_%02x_00_%d", bus, fn);
            names.add(name);
            x.append("<device><name>").append(name).append("</name><parent>computer</parent><capability type='pci'>")
                    .append("<class>0x").append(fn == 0 ? "030000" : "040300").append("</class><domain>0</domain><bus>")
                    .append(bus).append("</bus><slot>0</slot><function>").append(fn)
                    .append("</function><product id='0x2204'>GA102</product><vendor id='0x10de'>NVIDIA Corporation</vendor>")
                    .append("<iommuGroup number='").append(bus).append("'><address domain='0x0000' bus='0x")
                    .append(String.format(Locale.ROOT, "%02x", bus)).append("' slot='0x00' function='0x").append(fn)
                    .append("'/></iommuGroup></capability></device>\n");
        }
        x.append("</node>\n");
        Files.writeString(file, x.toString());
        return names;
    }
}

package io.gpuforge.cli;

import io.gpuforge.domain.HostSummary;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gpuforge inventory}: hosts, VMs and GPUs of a connection. This build knows "This computer". */
@Command(name = "inventory", mixinStandardHelpOptions = true,
        description = "Show the hosts, VMs and GPUs of a connection (this build: the local computer).")
final class InventoryCommand implements Callable<Integer> {

    static final class Source {
        @Option(names = "--local", description = "This computer (the default).")
        boolean local;

        @Option(names = "--sysroot", paramLabel = "DIR", description = "A directory that mirrors a host's /.")
        Path sysroot;


        @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt connection (qemu:///system, qemu+ssh://…).")
        String libvirt;
    }

    @ArgGroup(exclusive = true)
    Source source = new Source();

    @Mixin
    PveOptions pve = new PveOptions();

    @Option(names = "--node", paramLabel = "NODE", description = "With --pve: only this node, its VMs and GPUs.")
    String node;

    @Mixin
    JsonOption json = new JsonOption();

    private final CliServices services;

    InventoryCommand(CliServices services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        if (pve.present()) {
            return pve();
        }
        if (source.libvirt != null) {
            return libvirt(source.libvirt);
        }
        HostSummary s = services.hosts(Optional.ofNullable(source.sysroot)).thisComputer();
        if (json.enabled()) {
            services.output().json(toJson(s, source.sysroot == null ? "local" : "sysroot:" + source.sysroot));
        } else {
            CliOutput o = services.output();
            o.line("This computer: " + s.hostname());
            o.line("  OS:      " + s.operatingSystem().orElse("unknown"));
            o.line("  Kernel:  " + s.kernel().orElse("unknown") + " (" + s.architecture() + ")");
            o.line("  CPU:     " + s.cpuModel().orElse("unknown")
                    + (s.logicalCpus() > 0 ? ", " + s.logicalCpus() + " threads" : ""));
            o.line("  Memory:  " + s.memoryBytes().map(b -> String.format("%.1f GiB", b / 1073741824.0)).orElse("unknown"));
            o.line("  IOMMU:   " + s.iommu().json() + (s.iommuGroups() > 0 ? " (" + s.iommuGroups() + " groups)" : ""));
        }
        return 0;
    }

    private int pve() {
        String url = pve.url;
        try {
            io.gpuforge.hypervisor.proxmox.PveInventory inv = io.gpuforge.hypervisor.proxmox.PveInventory.read(
                    pve.client(services));
            if (node != null) {
                inv = new io.gpuforge.hypervisor.proxmox.PveInventory(inv.version(), inv.clusterName(),
                        inv.nodes().stream().filter(n -> n.name().equals(node)).toList(),
                        inv.vms().stream().filter(v -> v.node().equals(node)).toList(),
                        inv.gpus().stream().filter(g -> g.node().equals(node)).toList());
            }
            if (json.enabled()) {
                Map<String, Object> root = new LinkedHashMap<>();
                root.put("source", "pve:" + url);
                root.put("version", inv.version());
                root.put("cluster", inv.clusterName());
                root.put("nodes", inv.nodes());
                root.put("vms", inv.vms());
                java.util.List<Object> gpus = new java.util.ArrayList<>();
                for (var g : inv.gpus()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("mapping", g.id());
                    m.put("node", g.node());
                    m.put("path", g.path());
                    m.put("ids", g.ids());
                    m.put("iommu_group", g.iommuGroup().orElse(null));
                    gpus.add(m);
                }
                root.put("gpus", gpus);
                services.output().json(root);
            } else {
                services.output().line("Proxmox VE " + inv.version() + " cluster " + inv.clusterName() + ": " + inv.nodes().size()
                        + " nodes, " + inv.vms().size() + " VMs, " + inv.gpus().size() + " mapped GPUs");
                inv.gpus().forEach(g -> services.output().line("  " + g.id() + "  " + g.node() + "  " + g.path() + "  " + g.ids()));
            }
            return 0;
        } catch (io.gpuforge.hypervisor.proxmox.PveApiException | java.io.IOException e) {
            services.output().error("gpuforge inventory: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            services.output().error("gpuforge inventory: " + e.getMessage());
            return 2;
        }
    }

    private int libvirt(String uri) {
        try (io.gpuforge.hypervisor.libvirt.LibvirtConnection c = io.gpuforge.hypervisor.libvirt.LibvirtConnection.open(uri)) {
            io.gpuforge.domain.PciInventory inv = c.pciInventory();
            List<io.gpuforge.domain.VmInfo> vms = c.domains();
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("name", c.hostname());
            node.put("versions", c.versions());
            node.put("iommu_support", c.iommuSupport().orElse(null));
            node.put("pci_devices", inv.devices().size());
            node.put("iommu_groups", inv.groups().size());
            java.util.List<Object> vmList = new java.util.ArrayList<>();
            for (io.gpuforge.domain.VmInfo v : vms) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", v.ref().id());
                m.put("name", v.name());
                m.put("state", v.state().json());
                m.put("vcpus", v.vcpus());
                m.put("memory_kib", v.memoryBytes() / 1024);
                m.put("machine", v.details().flatMap(d -> d.machine()).orElse(""));
                m.put("firmware", v.details().map(d -> d.firmware().json()).orElse("unknown"));
                m.put("host_devices", v.hostDevices().stream().map(Object::toString).toList());
                m.put("disks", v.details().map(d -> d.disks().stream().map(x -> (x.slot() + " " + (x.cdrom() ? "cdrom" : "disk")
                        + " " + x.source()).strip()).toList()).orElse(List.of()));
                m.put("nics", v.details().map(d -> d.nics().stream().map(x -> (x.model() + " " + x.mac() + " " + x.network())
                        .strip()).toList()).orElse(List.of()));
                vmList.add(m);
            }
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("source", "libvirt:" + uri);
            root.put("nodes", List.of(node));
            root.put("vms", vmList);
            root.put("gpus", IommuJson.of("libvirt:" + uri, io.gpuforge.domain.IommuState.UNKNOWN, inv).get("gpus"));
            if (json.enabled()) {
                services.output().json(root);
            } else {
                services.output().line(node.get("name") + " (" + node.get("versions") + "): " + inv.devices().size()
                        + " PCI devices, " + inv.groups().size() + " IOMMU groups, " + vms.size() + " domains");
                for (io.gpuforge.domain.VmInfo v : vms) {
                    services.output().line("  " + v.name() + "  " + v.state().json() + "  " + v.vcpus() + " vCPU  "
                            + v.memoryBytes() / 1048576 + " MiB  " + v.details().flatMap(d -> d.machine()).orElse("")
                            + "  " + v.details().map(d -> d.firmware().json()).orElse("")
                            + (v.hostDevices().isEmpty() ? "" : "  GPU/PCI: " + v.hostDevices()));
                }
            }
            return 0;
        } catch (io.gpuforge.hypervisor.libvirt.LibvirtBackendException e) {
            services.output().error("gpuforge inventory: " + e.getMessage());
            return 1;
        }
    }

    static Map<String, Object> toJson(HostSummary s, String sourceName) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("name", s.hostname());
        node.put("os", s.operatingSystem().orElse(null));
        node.put("kernel", s.kernel().orElse(null));
        node.put("arch", s.architecture());
        node.put("cpu", s.cpuModel().orElse(null));
        node.put("cpu_vendor", s.cpuVendor().orElse(null));
        node.put("logical_cpus", s.logicalCpus());
        node.put("memory_bytes", s.memoryBytes().orElse(null));
        node.put("iommu", s.iommu().json());
        node.put("iommu_groups", s.iommuGroups());
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("source", sourceName);
        root.put("nodes", List.of(node));
        root.put("vms", List.of());
        root.put("gpus", List.of());
        return root;
    }
}

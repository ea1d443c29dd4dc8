package io.gpuforge.lab;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What the guest's kernel itself says about its PCI devices, read from sysfs by the lab's shell. */
record GuestTruth(Map<String, Device> devices) {

    /** One PCI function as sysfs shows it. */
    record Device(String address, Optional<Integer> group, String vendor, String device, Optional<String> driver,
                  boolean bootVga) {
    }

    /**
     * Two processes, whatever the number of devices: under emulation each fork costs tens of milliseconds, and a
     * readlink and a cat per attribute of each function took 5–7 s a read.
     */
    private static final String SCRIPT = "cd /sys/bus/pci/devices && ls -l */iommu_group */driver 2>/dev/null;"
            + " echo @@; grep -H . */vendor */device */boot_vga 2>/dev/null";

    static GuestTruth read(LabMachine m) throws IOException {
        Map<String, String> groups = new HashMap<>();
        Map<String, String> drivers = new HashMap<>();
        Map<String, Map<String, String>> attrs = new TreeMap<>();
        boolean links = true;
        for (String line : m.sh(SCRIPT).split("\n")) {
            if (line.strip().equals("@@")) {
                links = false;
            } else if (links && line.contains(" -> ")) {
                // lrwxrwxrwx 1 root root 0 Dec  1 21:00 0000:01:00.0/iommu_group -> ../../../kernel/iommu_groups/9
                String[] ends = line.split(" -> ");
                String name = ends[0].substring(ends[0].lastIndexOf(' ') + 1);
                String target = ends[1].strip().substring(ends[1].strip().lastIndexOf('/') + 1);
                String address = name.substring(0, name.indexOf('/'));
                (name.endsWith("/iommu_group") ? groups : drivers).put(address, target);
            } else if (!links && line.contains("/") && line.contains(":")) {
                // 0000:01:00.0/vendor:0x1234
                String address = line.substring(0, line.indexOf('/'));
                String rest = line.substring(line.indexOf('/') + 1);
                int colon = rest.indexOf(':');
                attrs.computeIfAbsent(address, k -> new HashMap<>()).put(rest.substring(0, colon), rest.substring(colon + 1).strip());
            }
        }
        Map<String, Device> out = new LinkedHashMap<>();
        attrs.forEach((address, a) -> out.put(address, new Device(address,
                Optional.ofNullable(groups.get(address)).map(Integer::parseInt),
                a.getOrDefault("vendor", "").replace("0x", ""), a.getOrDefault("device", "").replace("0x", ""),
                Optional.ofNullable(drivers.get(address)), "1".equals(a.get("boot_vga")))));
        return new GuestTruth(out);
    }

    Device device(String address) {
        Device d = devices.get(address);
        if (d == null) {
            throw new AssertionError("the lab machine has no PCI device " + address + "; it has " + devices.keySet());
        }
        return d;
    }

    String driver(String address) {
        return device(address).driver().orElse("(none)");
    }

    int group(String address) {
        return device(address).group().orElseThrow(() -> new AssertionError(address + " is in no IOMMU group"));
    }
}

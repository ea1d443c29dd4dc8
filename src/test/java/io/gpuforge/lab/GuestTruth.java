package io.gpuforge.lab;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** What the guest's kernel itself says about its PCI devices, read from sysfs by the lab's shell. */
record GuestTruth(Map<String, Device> devices) {

    /** One PCI function as sysfs shows it. */
    record Device(String address, Optional<Integer> group, String vendor, String device, Optional<String> driver,
                  boolean bootVga) {
    }

    private static final String SCRIPT = "for d in /sys/bus/pci/devices/*; do a=${d##*/};"
            + " g=$(readlink $d/iommu_group); g=${g##*/};"
            + " r=$(readlink $d/driver); r=${r##*/};"
            + " b=$(cat $d/boot_vga 2>/dev/null);"
            + " echo \"$a ${g:--} $(cat $d/vendor) $(cat $d/device) ${r:--} ${b:-0}\"; done";

    static GuestTruth read(LabMachine m) throws IOException {
        Map<String, Device> out = new LinkedHashMap<>();
        for (String line : m.sh(SCRIPT).strip().split("\n")) {
            String[] f = line.strip().split("\\s+");
            out.put(f[0], new Device(f[0], f[1].equals("-") ? Optional.empty() : Optional.of(Integer.parseInt(f[1])),
                    f[2].replace("0x", ""), f[3].replace("0x", ""), f[4].equals("-") ? Optional.empty() : Optional.of(f[4]),
                    f[5].equals("1")));
        }
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

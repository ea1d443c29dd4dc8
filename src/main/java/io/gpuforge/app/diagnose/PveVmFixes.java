package io.gpuforge.app.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.VmFix;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.passthrough.UnifiedDiff;
import io.gpuforge.domain.vm.VmConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The configuration keys a cause's fix changes on a Proxmox VE VM, from the configuration as it is: only what is not
 * so already, each earlier value kept for the rollback. Pure.
 */
final class PveVmFixes {

    /** OVMF's 64-bit MMIO window of 64 GiB, the QEMU argument the mmio-window fix adds. */
    static final String MMIO_ARG = "-fw_cfg opt/ovmf/X-PciMmio64Mb,string=65536";
    private static final Pattern HOSTPCI = Pattern.compile("hostpci\\d+");
    private static final Pattern FUNCTION = Pattern.compile("^(?:host=)?((?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2})"
            + "\\.[0-7]$");

    private PveVmFixes() {
    }

    static VmFix of(String cause, VmConfig c) {
        Map<String, String> s = c.settings();
        Map<String, Optional<String>> set = new LinkedHashMap<>();
        List<Message> notDone = new ArrayList<>();
        switch (cause) {
            case "vga-slot-conflict" -> {
                if (!"none".equals(first(s.get("vga")))) {
                    set.put("vga", Optional.of("none"));
                }
            }
            case "dma-map-failed" -> {
                if (!"0".equals(s.get("balloon"))) {
                    set.put("balloon", Optional.of("0"));
                }
                String hotplug = s.get("hotplug");
                if (hotplug != null && Arrays.asList(hotplug.split(",")).contains("memory")) {
                    String rest = Arrays.stream(hotplug.split(",")).filter(x -> !x.equals("memory"))
                            .collect(Collectors.joining(","));
                    set.put("hotplug", Optional.of(rest.isEmpty() ? "0" : rest));
                }
                notDone.add(Message.of("fix.hugepages.proxmox"));
            }
            case "hypervisor-visible-to-driver" -> {
                String cpu = s.get("cpu");
                if (cpu == null) {
                    set.put("cpu", Optional.of("host,hidden=1"));
                    notDone.add(Message.of("fix.cpuHost"));
                } else if (!Arrays.asList(cpu.split(",")).contains("hidden=1")) {
                    set.put("cpu", Optional.of(cpu + ",hidden=1"));
                }
                notDone.add(Message.of("fix.driver465"));
            }
            case "mmio-window-too-small" -> {
                String args = s.get("args");
                if (args == null || !args.contains("X-PciMmio64Mb")) {
                    set.put("args", Optional.of(args == null ? MMIO_ARG : args + " " + MMIO_ARG));
                    notDone.add(Message.of("fix.argsRootOnly"));
                }
                notDone.add(Message.of("fix.above4g"));
            }
            case "no-interrupt" -> {
                String machine = s.getOrDefault("machine", "");
                if (!first(machine).contains("q35")) {
                    set.put("machine", Optional.of("q35"));
                }
                new TreeMap<>(s).forEach((k, v) -> {
                    if (HOSTPCI.matcher(k).matches() && !Arrays.asList(v.split(",")).contains("pcie=1")) {
                        set.put(k, Optional.of(v + ",pcie=1"));
                    }
                });
                notDone.add(Message.of("fix.msi"));
            }
            case "group-split" -> wholeCard(s, set, notDone);
            default -> {
            }
        }
        return fix(cause, c, set, notDone);
    }

    /** The functions of one card given as separate hostpci entries become one entry without a function number. */
    private static void wholeCard(Map<String, String> s, Map<String, Optional<String>> set, List<Message> notDone) {
        Map<String, List<String>> bySlot = new TreeMap<>();
        new TreeMap<>(s).forEach((k, v) -> {
            Matcher m = HOSTPCI.matcher(k).matches() ? FUNCTION.matcher(first(v)) : null;
            if (m != null && m.matches()) {
                bySlot.computeIfAbsent(m.group(1), x -> new ArrayList<>()).add(k);
            }
        });
        bySlot.forEach((slot, keys) -> {
            if (keys.size() < 2) {
                return;
            }
            String kept = keys.get(0);
            String options = s.get(kept).contains(",") ? s.get(kept).substring(s.get(kept).indexOf(',')) : "";
            set.put(kept, Optional.of(slot + options));
            keys.subList(1, keys.size()).forEach(k -> set.put(k, Optional.empty()));
        });
        if (set.isEmpty()) {
            notDone.add(Message.of("fix.noSplitEntries"));
        } else {
            notDone.add(Message.of("fix.rawPciRootOnly"));
        }
    }

    private static VmFix fix(String cause, VmConfig c, Map<String, Optional<String>> set, List<Message> notDone) {
        if (set.isEmpty()) {
            return new VmFix(cause, c.ref(), c.version(), Optional.empty(), Optional.empty(), "", notDone);
        }
        Map<String, Optional<String>> undo = new LinkedHashMap<>();
        set.keySet().forEach(k -> undo.put(k, Optional.ofNullable(c.settings().get(k))));
        Map<String, String> after = new TreeMap<>(c.settings());
        set.forEach((k, v) -> {
            if (v.isPresent()) {
                after.put(k, v.get());
            } else {
                after.remove(k);
            }
        });
        // the file Proxmox VE keeps it in, as an admin knows it
        String name = "/etc/pve/qemu-server/" + c.ref().id() + ".conf";
        return new VmFix(cause, c.ref(), c.version(), Optional.of(new ConfigChange.Settings(set)),
                Optional.of(new ConfigChange.Settings(undo)), UnifiedDiff.of(name, lines(c.settings()), lines(after)),
                notDone);
    }

    /** The configuration as {@code key: value} lines, as {@code qm config} prints it (no digest). */
    static String lines(Map<String, String> settings) {
        StringBuilder out = new StringBuilder();
        new TreeMap<>(settings).forEach((k, v) -> {
            if (!k.equals("digest")) {
                out.append(k).append(": ").append(v.replace("\n", "\\n")).append('\n');
            }
        });
        return out.toString();
    }

    /** The first field of a property string ({@code std,memory=32} → {@code std}), without {@code type=}. */
    private static String first(String v) {
        if (v == null) {
            return "";
        }
        String f = v.split(",", 2)[0];
        int eq = f.indexOf('=');
        return eq >= 0 && !f.startsWith("0000") ? f.substring(eq + 1) : f;
    }
}

package io.gpuforge.passthrough;

import io.gpuforge.domain.BootSetup;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.PciDevice;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plans GPU passthrough of one card on one host: kernel command line for the boot loader in use, vfio
 * modules for the initramfs tool, vfio-pci binding (by ids, or by address when an identical card stays
 * with the host), softdeps, and the VM-side changes. Pure: facts in, plan out.
 */
public final class Planner {

    public static final String MODPROBE_FILE = "/etc/modprobe.d/gpuforge-vfio.conf";
    public static final String UDEV_FILE = "/etc/udev/rules.d/80-gpuforge-vfio.rules";
    public static final String DRACUT_FILE = "/etc/dracut.conf.d/gpuforge-vfio.conf";
    private static final Pattern GRUB_LINE = Pattern.compile("^(\\s*GRUB_CMDLINE_LINUX_DEFAULT=)(\"[^\"]*\"|'[^']*'|\\S*)(.*)$",
            Pattern.MULTILINE);
    private static final Pattern MKINIT = Pattern.compile("^(MODULES=\\()([^)]*)(\\))", Pattern.MULTILINE);

    /** What the user chose beyond the device. */
    public record Options(Readiness.Overrides overrides, boolean blacklistDrivers, Optional<String> vmId) {
        public static Options defaults() {
            return new Options(Readiness.Overrides.none(), false, Optional.empty());
        }
    }

    /** The device cannot be passed through as things stand; the checks say why. */
    public static final class BlockedException extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Readiness.Report report;

        BlockedException(String message, Readiness.Report report) {
            super(message);
            this.report = report;
        }

        public Readiness.Report report() {
            return report;
        }
    }

    private Planner() {
    }

    public static PassthroughPlan plan(HostFacts f, PciAddress device, Options o) throws BlockedException {
        Readiness.Report report = Readiness.evaluate(f, Optional.of(device), o.overrides());
        Verdict v = report.verdict().orElseThrow();
        if (v.kind() == Verdict.Kind.BLOCKED) {
            throw new BlockedException("Passthrough of " + device + " is blocked by " + String.join(", ", v.because()), report);
        }
        PciDevice gpu = f.pci().device(device).orElseThrow();
        // all functions of the slot; the rest of a shared group only with the explicit override
        Set<PciAddress> functions = new TreeSet<>(Readiness.slotFunctions(f, device));
        if (o.overrides().allowSharedGroup() && gpu.iommuGroup().isPresent()) {
            f.pci().group(gpu.iommuGroup().getAsInt()).ifPresent(g -> g.members().stream()
                    .filter(m -> !f.pci().device(m).map(PciDevice::isBridge).orElse(false)).forEach(functions::add));
        }
        List<PciDevice> devs = functions.stream().map(a -> f.pci().device(a).orElseThrow()).toList();
        List<PassthroughPlan.FileEdit> edits = new ArrayList<>();
        List<String> commands = new ArrayList<>();
        List<String> notes = new ArrayList<>();

        cmdlineEdit(f, devs, edits, commands, notes);
        modulesEdit(f, edits, commands);
        bindingEdit(f, devs, o, edits, notes);
        boolean initramfsNeeded = edits.stream().anyMatch(e -> !e.path().equals("/etc/default/grub")
                && !e.path().equals("/etc/kernel/cmdline"));
        if (initramfsNeeded) {
            commands.add(initramfsCommand(f));
        }
        boolean bound = devs.stream().allMatch(d -> d.driver().map("vfio-pci"::equals).orElse(true));
        boolean reboot = !edits.isEmpty() || !bound;
        List<PassthroughPlan.VmChange> vm = vmChanges(f, gpu, devs, o);
        String id = id(f, device, edits);
        return new PassthroughPlan(id, f.summary().hostname(), new ArrayList<>(functions), edits, dedupe(commands),
                reboot, vm, notes);
    }

    private static List<String> dedupe(List<String> c) {
        return new ArrayList<>(new LinkedHashSet<>(c));
    }

    private static void cmdlineEdit(HostFacts f, List<PciDevice> devs, List<PassthroughPlan.FileEdit> edits,
                                    List<String> commands, List<String> notes) {
        List<String> add = new ArrayList<>();
        List<String> remove = List.of("intel_iommu=off", "amd_iommu=off", "iommu=off");
        boolean intel = f.summary().cpuVendor().map("Intel"::equals).orElse(false);
        String running = f.cmdline().orElse("");
        if (intel && f.pci().groups().isEmpty() && !running.contains("intel_iommu=on")) {
            add.add("intel_iommu=on");
        }
        add.add("iommu=pt");
        boolean bootGpu = devs.stream().anyMatch(d -> d.details().bootVga().orElse(false));
        if (bootGpu) {
            add.add(KernelVersion.atLeast(f.summary().kernel().orElse(""), 5, 15) ? "initcall_blacklist=sysfb_init"
                    : "video=efifb:off");
            notes.add("The GPU is the boot console: the host loses its local screen after the reboot; use SSH.");
        }
        BootSetup b = f.boot();
        if (b.loader() == BootSetup.Loader.SYSTEMD_BOOT && b.kernelCmdlineFile().isPresent()) {
            String before = f.files().getOrDefault("/etc/kernel/cmdline", b.kernelCmdlineFile().get() + "\n");
            String after = KernelCmdline.edit(b.kernelCmdlineFile().get(), add, remove) + "\n";
            if (!after.strip().equals(b.kernelCmdlineFile().get().strip())) {
                edits.add(new PassthroughPlan.FileEdit("/etc/kernel/cmdline", Optional.of(before), after));
                commands.add("proxmox-boot-tool refresh");
            }
        } else if (b.loader() == BootSetup.Loader.GRUB) {
            String before = f.files().get("/etc/default/grub");
            if (before == null) {
                notes.add("GRUB is in use but /etc/default/grub could not be read: add " + String.join(" ", add)
                        + " to the kernel command line yourself.");
                return;
            }
            Matcher m = GRUB_LINE.matcher(before);
            String after;
            if (m.find()) {
                String raw = m.group(2);
                char q = raw.startsWith("'") ? '\'' : '"';
                String value = raw.startsWith("\"") || raw.startsWith("'") ? raw.substring(1, raw.length() - 1) : raw;
                String edited = KernelCmdline.edit(value, add, remove);
                after = before.substring(0, m.start()) + m.group(1) + q + edited + q + m.group(3) + before.substring(m.end());
            } else {
                after = before + (before.endsWith("\n") || before.isEmpty() ? "" : "\n")
                        + "GRUB_CMDLINE_LINUX_DEFAULT=\"" + KernelCmdline.edit("", add, remove) + "\"\n";
            }
            if (!after.equals(before)) {
                edits.add(new PassthroughPlan.FileEdit("/etc/default/grub", Optional.of(before), after));
                commands.add(grubCommand(f));
            }
        } else {
            notes.add("The boot loader is unknown: add " + String.join(" ", add) + " to the kernel command line yourself.");
        }
    }

    static String grubCommand(HostFacts f) {
        if (f.present().contains("/usr/sbin/update-grub")) {
            return "update-grub";
        }
        if (f.present().contains("/usr/sbin/grub2-mkconfig")) {
            return "grub2-mkconfig -o /boot/grub2/grub.cfg";
        }
        if (f.present().contains("/usr/sbin/grub-mkconfig")) {
            return "grub-mkconfig -o /boot/grub/grub.cfg";
        }
        return f.present().contains("/boot/grub2") ? "grub2-mkconfig -o /boot/grub2/grub.cfg" : "update-grub";
    }

    private static void modulesEdit(HostFacts f, List<PassthroughPlan.FileEdit> edits, List<String> commands) {
        boolean modern = KernelVersion.atLeast(f.summary().kernel().orElse(""), 6, 2);
        List<String> wanted = new ArrayList<>(List.of("vfio", "vfio_iommu_type1", "vfio_pci"));
        if (!modern) {
            wanted.add("vfio_virqfd");
        }
        switch (f.initramfs().tool()) {
            case DRACUT: {
                String after = "# Written by GPUForge: vfio in the initramfs, so vfio-pci binds before the GPU drivers\n"
                        + "force_drivers+=\" " + String.join(" ", wanted) + " \"\n";
                Optional<String> before = Optional.ofNullable(f.files().get(DRACUT_FILE));
                if (!before.equals(Optional.of(after))) {
                    edits.add(new PassthroughPlan.FileEdit(DRACUT_FILE, before, after));
                }
                break;
            }
            case MKINITCPIO: {
                String before = f.files().get("/etc/mkinitcpio.conf");
                if (before != null) {
                    Matcher m = MKINIT.matcher(before);
                    if (m.find()) {
                        List<String> mods = new ArrayList<>();
                        for (String w : wanted) {
                            mods.add(w);
                        }
                        for (String x : m.group(2).strip().split("\\s+")) {
                            if (!x.isEmpty() && !mods.contains(x)) {
                                mods.add(x);
                            }
                        }
                        String after = before.substring(0, m.start()) + m.group(1) + String.join(" ", mods) + m.group(3)
                                + before.substring(m.end());
                        if (!after.equals(before)) {
                            edits.add(new PassthroughPlan.FileEdit("/etc/mkinitcpio.conf", Optional.of(before), after));
                        }
                    }
                }
                break;
            }
            default: {
                Optional<String> before = Optional.ofNullable(f.modprobe().files().get("/etc/modules"));
                List<String> lines = new ArrayList<>(List.of(before.orElse("").split("\n", -1)));
                if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
                    lines.remove(lines.size() - 1);
                }
                if (modern) {
                    lines.removeIf(l -> l.strip().equals("vfio_virqfd") || l.strip().equals("vfio-virqfd"));
                }
                for (String w : wanted) {
                    boolean present = lines.stream().anyMatch(l -> l.strip().split("\\s+")[0].replace('-', '_').equals(w));
                    if (!present) {
                        lines.add(w);
                    }
                }
                String after = String.join("\n", lines) + "\n";
                if (!Optional.of(after).equals(before)) {
                    edits.add(new PassthroughPlan.FileEdit("/etc/modules", before, after));
                }
            }
        }
    }

    private static void bindingEdit(HostFacts f, List<PciDevice> devs, Options o, List<PassthroughPlan.FileEdit> edits,
                                    List<String> notes) {
        Set<String> ids = new TreeSet<>();
        for (PciDevice d : devs) {
            if (d.vendorId() != null) {
                ids.add(d.vendorId() + ":" + d.deviceId());
            }
        }
        Set<PciAddress> chosen = new TreeSet<>();
        devs.forEach(d -> chosen.add(d.address()));
        // an identical card that stays with the host: ids= would take it too, so bind by address
        boolean split = f.pci().devices().stream().anyMatch(d -> !chosen.contains(d.address()) && d.vendorId() != null
                && ids.contains(d.vendorId() + ":" + d.deviceId()));
        Set<String> drivers = new TreeSet<>();
        for (PciDevice d : devs) {
            d.driver().filter(x -> !x.equals("vfio-pci")).map(Planner::module).ifPresent(drivers::add);
        }
        StringBuilder conf = new StringBuilder("# Written by GPUForge for passthrough of " + devs.get(0).address()
                + ": vfio-pci claims the card before its host drivers.\n");
        if (!split) {
            conf.append("options vfio-pci ids=").append(String.join(",", ids)).append('\n');
        }
        for (String d : drivers) {
            conf.append("softdep ").append(d).append(" pre: vfio-pci\n");
        }
        if (o.blacklistDrivers()) {
            for (String d : drivers) {
                conf.append("blacklist ").append(d).append('\n');
            }
        }
        String before = f.modprobe().files().get(MODPROBE_FILE);
        String after = merge(before, conf.toString());
        boolean hasDirectives = after.lines().anyMatch(l -> !l.isBlank() && !l.startsWith("#"));
        if (hasDirectives && !after.equals(before)) {
            edits.add(new PassthroughPlan.FileEdit(MODPROBE_FILE, Optional.ofNullable(before), after));
        }
        if (split) {
            notes.add("An identical card stays with the host, so vfio-pci is bound by PCI address (udev rule), not by ids.");
            StringBuilder rules = new StringBuilder("# Written by GPUForge: these functions go to vfio-pci, identical"
                    + " cards elsewhere stay with the host.\n");
            for (PciAddress a : chosen) {
                rules.append("ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"").append(a)
                        .append("\", ATTR{driver_override}=\"vfio-pci\"\n");
            }
            String ub = f.files().get(UDEV_FILE);
            if (!rules.toString().equals(ub)) {
                edits.add(new PassthroughPlan.FileEdit(UDEV_FILE, Optional.ofNullable(ub), rules.toString()));
            }
        }
    }

    /** Keeps lines of an existing GPUForge file that the new content lacks (another card planned before). */
    private static String merge(String before, String fresh) {
        if (before == null) {
            return fresh;
        }
        List<String> out = new ArrayList<>(List.of(fresh.split("\n")));
        for (String line : before.split("\n")) {
            if (!line.startsWith("#") && !line.isBlank() && !out.contains(line) && !line.startsWith("options vfio-pci ids=")) {
                out.add(line);
            }
        }
        // union of ids with an earlier plan
        Matcher old = Pattern.compile("^options vfio-pci ids=(\\S+)", Pattern.MULTILINE).matcher(before);
        if (old.find()) {
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).startsWith("options vfio-pci ids=")) {
                    Set<String> all = new TreeSet<>(List.of(old.group(1).split(",")));
                    all.addAll(List.of(out.get(i).substring("options vfio-pci ids=".length()).split(",")));
                    out.set(i, "options vfio-pci ids=" + String.join(",", all));
                }
            }
        }
        if (before.startsWith("# Written by GPUForge")) {
            out.set(0, before.split("\n")[0]);
        }
        return String.join("\n", out) + "\n";
    }

    /** sysfs driver name → module name for modprobe. */
    static String module(String driver) {
        switch (driver) {
            case "nvidia-gpu":
                return "i2c_nvidia_gpu";
            case "xhci_hcd":
                return "xhci_pci";
            default:
                return driver.replace('-', '_').toLowerCase(Locale.ROOT);
        }
    }

    static String initramfsCommand(HostFacts f) {
        switch (f.initramfs().tool()) {
            case DRACUT:
                return "dracut -f --regenerate-all";
            case MKINITCPIO:
                return "mkinitcpio -P";
            default:
                return "update-initramfs -u -k all";
        }
    }

    private static List<PassthroughPlan.VmChange> vmChanges(HostFacts f, PciDevice gpu, List<PciDevice> devs, Options o) {
        List<PassthroughPlan.VmChange> out = new ArrayList<>();
        String slot = String.format(Locale.ROOT, "%04x:%02x:%02x", gpu.address().domain(), gpu.address().bus(),
                gpu.address().slot());
        String vm = o.vmId().orElse("<vmid>");
        if (f.proxmox()) {
            String mapping = String.format(Locale.ROOT, "gpu-%02x-%02x", gpu.address().bus(), gpu.address().slot());
            out.add(new PassthroughPlan.VmChange("proxmox", "PCI resource mapping (works with API tokens)",
                    "pvesh create /cluster/mapping/pci --id " + mapping + " --map node=" + f.summary().hostname()
                            + ",path=" + slot + ",id=" + gpu.vendorId() + ":" + gpu.deviceId()
                            + gpu.iommuGroup().stream().mapToObj(g -> ",iommugroup=" + g).findFirst().orElse("")));
            out.add(new PassthroughPlan.VmChange("proxmox", "VM " + vm + " configuration",
                    "hostpci0: mapping=" + mapping + ",pcie=1\nmachine: q35\nbios: ovmf\nefidisk0: <storage>:1,efitype=4m,"
                            + "pre-enrolled-keys=0\nballoon: 0"));
        } else {
            StringBuilder xml = new StringBuilder();
            for (PciDevice d : devs) {
                xml.append(String.format(Locale.ROOT, "<hostdev mode='subsystem' type='pci' managed='yes'>%n"
                        + "  <source><address domain='0x%04x' bus='0x%02x' slot='0x%02x' function='0x%x'/></source>%n"
                        + "</hostdev>%n", d.address().domain(), d.address().bus(), d.address().slot(), d.address().function()));
            }
            out.add(new PassthroughPlan.VmChange("libvirt", "host devices of domain " + vm
                    + " (q35 machine, OVMF firmware)", xml.toString().strip()));
        }
        return out;
    }

    private static String id(HostFacts f, PciAddress device, List<PassthroughPlan.FileEdit> edits) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update((f.summary().hostname() + "|" + device).getBytes(StandardCharsets.UTF_8));
            for (PassthroughPlan.FileEdit e : edits) {
                md.update((e.path() + "|" + e.before().orElse("") + "|" + e.after()).getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

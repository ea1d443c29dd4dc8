package io.gpuforge.diagnose;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The causes of a failed GPU VM start and the lines that show them: one table, in rank order (the cause that makes
 * the others happen first, so when a log shows several the first matched is named and the rest are "also seen").
 * Patterns run on {@link LogLines#plain} text: lower case, plain quotes, one blank between words; they match
 * anywhere in a line, so prefixes (timestamps, journal fields, {@code kvm:}, {@code TASK ERROR:}) do not matter, and
 * they end early enough that a line cut by the paste still matches.
 *
 * <p>A <em>strong</em> pattern names the cause by itself; a <em>supporting</em> one only adds its lines to a cause
 * a strong one found (a framebuffer in {@code /proc/iomem}, a large-BAR card, a {@code CmpltTO} status bit).
 */
final class Signatures {

    /**
     * Whose lines can show a cause: the host's (its kernel, QEMU, libvirt, Proxmox: a guest's kernel has no vfio, no
     * host IOMMU, no host PCIe port), a guest's (its NVIDIA driver, its Device Manager), or either's.
     */
    enum Side { HOST, GUEST, EITHER }

    /**
     * One cause: its id (the JSON {@code cause}; its words are {@code cause.<id>.*} in the bundle), whose lines show
     * it, how much one of its strong lines weighs ({@link #DECISIVE}, {@link #CLEAR}, {@link #SYMPTOM}), its
     * patterns, and those of its strong patterns that weigh only {@link #SYMPTOM} (lines healthy boots print too).
     */
    record Cause(String id, Side side, int weight, List<Pattern> strong, List<Pattern> supporting, Set<Pattern> weak) {

        /** What one line the pattern matched weighs. */
        int weight(Pattern p) {
            return weak.contains(p) ? SYMPTOM : weight;
        }
    }

    /** The error that stopped the start, written only when it happens ({@code group 12 is not viable}). */
    static final int DECISIVE = 3;
    /** A fault that stops a start, but whose line may be a consequence of another ({@code stuck in D3}). */
    static final int CLEAR = 2;
    /**
     * What many causes end in ({@code Code 43}, {@code RmInitAdapter failed}), or a line healthy boots print too
     * ({@code BAR 0: can't reserve} before vfio-pci took the card, {@code not ready 1023ms after FLR; waiting}).
     */
    static final int SYMPTOM = 1;

    /** Lines that say something went wrong. */
    static final Pattern ERROR = p("\\b(error|fail(ed|ure|s)?|fatal|unable|cannot|can't|couldn't|not viable|timed? ?out"
            + "|refused|denied|busy)\\b");

    /** Lines worth showing when no cause was found: errors, vfio, KVM, IOMMU, AER, the NVIDIA driver, guests. */
    static final Pattern RELEVANT = p(ERROR.pattern() + "|vfio|\\bkvm\\b|qemu|dmar|amd-vi|\\baer\\b|iommu|nvrm|\\bcode ?\\d{1,2}\\b"
            + "|reset|\\bd3(cold|hot)?\\b|hostpci|mdev");

    /** A harmless line often next to real faults: an Intel iGPU has no ROM BAR (named, never blamed). */
    static final Pattern HARMLESS_ROM = p("invalid pci rom header signature");

    /** "exited with code 1", "exit code 10": a process's status, never a Windows Device Manager code. */
    private static final String NOT_EXIT = "(?<!exit )(?<!exited with )(?<!exit status )(?<!return )";

    /**
     * The text a line must hold for a pattern made by {@link #after} or {@link #inToken}, whose rewritten form hides
     * it from {@link RequiredText}. Before the table, which fills it.
     */
    private static final Map<String, String> HINTS = new java.util.HashMap<>();

    /** The strong patterns {@link #weak} marked. Before the table, which fills it. */
    private static final Set<String> WEAK = new java.util.HashSet<>();

    static final List<Cause> TABLE = List.of(
            cause("iommu-off", Side.HOST, DECISIVE,
                    strong("no iommu_group found", "iommu not (present|enabled|found|active)",
                            inToken("/sys/kernel/iommu_groups", "/?\\S* (is empty|: no such file)"),
                            inToken("iommu_group", "\\S*: no such file or directory"),
                            "no iommu groups", "dmar: iommu disabled", "no available iommu models",
                            "host doesn't support passthrough of host pci devices", "no iommu detected"),
                    support("intel_iommu=off", "amd_iommu=off", "\\biommu=off")),
            cause("vgpu-unsupported-gpu", Side.HOST, DECISIVE,
                    strong("vgpu is supported only on vgx capable boards"),
                    support("nvidia-vgpu", "vgpu")),
            cause("mdev-start-failed", Side.HOST, DECISIVE,
                    strong("error getting device from group \\d+: input/output error",
                            "failed to read device config space: bad address",
                            "waited \\d+ seconds for mediated device driver",
                            inToken("mdev", "\\S*: (failed|error|cannot)")),
                    support("sysfsdev=/sys/bus/mdev/devices/", "actively clean up mediated device", "nvidia-vgpu-mgr")),
            cause("vga-slot-conflict", Side.HOST, DECISIVE,
                    strong("slot \\d+ function 0 not available for vfio-pci,? in use by vga"),
                    support("x-igd-", "host=0*:?00:02\\.0")),
            cause("group-not-viable", Side.HOST, DECISIVE,
                    strong("group \\d+ is not viable",
                            "please ensure all devices within the iommu_group are bound to their vfio bus driver",
                            "failed to open /dev/vfio/\\d+:? no such file"),
                    support("kernel driver in use: (?!vfio-pci)\\S+")),
            cause("group-split", Side.HOST, DECISIVE,
                    strong("group \\d+ used in multiple address spaces",
                            "cannot reset device \\S+,? depends on group \\d+ which is not owned"),
                    support()),
            cause("vfio-device-busy", Side.HOST, DECISIVE,
                    strong("/dev/vfio/\\d+:? device or resource busy", "pci device \\S+ is in use by driver qemu"),
                    support("ebusy")),
            cause("bar-reserved-by-framebuffer", Side.HOST, CLEAR,
                    strong(weak("bar \\d+: can't reserve \\[mem"), inToken("vfio", "\\S* \\S+: bar \\d+: can't reserve"),
                            inToken("vfio", "\\S* \\S+: bar \\d+ \\[mem [^\\]]{0,120}\\]:? can't reserve")),
                    support("efifb", "simpledrm", "vesafb", "bootfb", "efi-framebuffer", "simple-framebuffer",
                            "boot vga device", "vtcon\\d")),
            cause("reset-bug", Side.HOST, CLEAR,
                    strong("\\bcmpltto\\b", "completion timeout", "amd-vi: completion-wait loop timed out",
                            "not ready \\d+ ?ms after \\S+;? giving up", weak("not ready \\d+ ?ms aft"),
                            weak("not ready \\d+ ?ms \\S* ?(flr|bus reset|after)"),
                            "failed to reset (the )?(gpu|device)",
                            "vfio_bar_restore: reset recovery"),
                    support("aer: uncorrected", "pcie bus error", "vendor-reset")),
            cause("power-state", Side.HOST, CLEAR,
                    strong("stuck in d3", "unable to change power state from d3(cold|hot)? to d0",
                            "unable to change power state from d\\w+ to d\\w+,? device inaccessible",
                            "unknown pci header type '?127'?", "timed out waiting for pending transaction",
                            "refused to change power state",
                            "config space (is |reads? )?(all )?(ones|inaccessible|0xff)"),
                    support("disable_idle_d3", "d3cold_allowed", "d3cold")),
            cause("no-reset-mechanism", Side.HOST, DECISIVE,
                    strong("cannot reset device \\S+,? no available reset mechanism", "no available reset mechanism"),
                    support()),
            cause("dma-map-failed", Side.HOST, DECISIVE,
                    strong(after("vfio_dma_map\\(", "= ?-(22|12|14)"), "vfio_map_dma failed", "vfio_map_dma: -\\d+",
                            after("vfio_container_dma_map\\(", "= ?-(22|12|14)"), after("vfio_container_dma_map", "cannot allocate"),
                            "cannot limit locked memory", after("vfio_dma_map", "cannot allocate"),
                            "kvm_set_user_memory_region failed", "rlimit_memlock", "locked memory limit",
                            "memory listener initialization failed", after("qmp socket", "time ?out"),
                            after("start failed:", "got timeout")),
                    support("cannot allocate memory", "hugepages", "memlock", "balloon")),
            cause("dmar-fault", Side.HOST, CLEAR,
                    strong("dmar: \\[dma (read|write)", "pte (read|write) access is not set",
                            "amd-vi: event logged \\[io_page_fault", "io_page_fault device=", "dmar: drhd: handling fault"),
                    support("rmrr", "fault addr", "fault reason")),
            cause("mmio-window-too-small", Side.EITHER, DECISIVE,
                    strong(NOT_EXIT + "\\bcode ?12\\b", "nvrm: bar\\d is 0m", "bar\\d is 0m\\b",
                            "cannot find enough free resources"),
                    support("\\b(16|20|24|32|40|48|80|94|96|141) ?gb\\b", "resizable bar", "above 4g", "pcimmio64",
                            "large bar", "ovmf")),
            cause("hypervisor-visible-to-driver", Side.GUEST, CLEAR,
                    strong(after("unable to determine the device handle for gpu", "unknown error")),
                    support("geforce", "hidden=1", "kvm hidden")),
            cause("no-interrupt", Side.GUEST, DECISIVE,
                    strong("nvrm: can't find an irq for your nvidia card", "can't find an irq for your nvidia"),
                    support("msi", "intx")),
            cause("guest-code-43", Side.GUEST, SYMPTOM,
                    strong(NOT_EXIT + "\\bcode ?43\\b", NOT_EXIT + "\\bcode ?10\\b", "rminitadapter failed",
                            "no devices were found", "this device cannot start", "windows has stopped this device"),
                    support("romfile", "rombar", "x-vga", "laptop", "optimus", "vbios", "\\brom\\b")));

    /** For each pattern of the table, the text a line must hold to match it ({@link RequiredText}). */
    private static final Map<Pattern, String> REQUIRED = required();

    private Signatures() {
    }

    /** Whether {@code p} is worth running on a line: the line holds the text every match of it contains. */
    static boolean mayMatch(Pattern p, String plain) {
        String needed = REQUIRED.get(p);
        return needed == null || plain.contains(needed);
    }

    /**
     * The message a match of {@code p} says, without what the line had before it: a pattern made by {@link #after}
     * matches from the line's start (its timestamp, {@code kvm: -device …}, {@code TASK ERROR: …}), so its match is
     * taken from the text it requires.
     */
    static String message(Pattern p, String matched) {
        String needed = REQUIRED.get(p);
        int at = needed == null || !p.pattern().startsWith("^(?>") ? -1 : matched.indexOf(needed);
        return at > 0 ? matched.substring(at) : matched;
    }

    private static Map<Pattern, String> required() {
        Map<Pattern, String> out = new IdentityHashMap<>();
        for (Cause c : TABLE) {
            for (List<Pattern> ps : List.of(c.strong(), c.supporting())) {
                ps.forEach(p -> Optional.ofNullable(HINTS.get(p.pattern())).or(() -> RequiredText.of(p.pattern()))
                        .ifPresent(t -> out.put(p, t)));
            }
        }
        return out;
    }

    /**
     * {@code first.*rest} searched in linear time: {@code first} where it first occurs (atomic, so a line of many
     * repeats is not tried again from each), then {@code rest} anywhere after it. The same lines match: if any
     * occurrence of {@code first} (a literal) is followed by {@code rest}, the first one is.
     */
    private static String after(String first, String rest) {
        String regex = "^(?>.*?" + first + ").*" + rest;
        RequiredText.of(first).ifPresent(t -> HINTS.put(regex, t));
        return regex;
    }

    /**
     * {@code first\S*…} searched in linear time: tried only where a word starts, {@code first} where it first occurs in
     * that word (atomic), then {@code rest}, which goes on in the same word ({@code \S*…}). The same lines match: a
     * later occurrence of {@code first} in the word reaches nothing the first one does not.
     */
    private static String inToken(String first, String rest) {
        String regex = "(?<!\\S)(?>\\S*?" + first + ")" + rest;
        RequiredText.of(first).ifPresent(t -> HINTS.put(regex, t));
        return regex;
    }

    /** A strong pattern that weighs only {@link #SYMPTOM}. */
    private static String weak(String regex) {
        WEAK.add(regex);
        return regex;
    }

    private static Cause cause(String id, Side side, int weight, List<Pattern> strong, List<Pattern> supporting) {
        Set<Pattern> weak = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        strong.stream().filter(p -> WEAK.contains(p.pattern())).forEach(weak::add);
        return new Cause(id, side, weight, strong, supporting, Set.copyOf(weak));
    }

    private static List<Pattern> strong(String... regexes) {
        return Arrays.stream(regexes).map(Signatures::p).toList();
    }

    private static List<Pattern> support(String... regexes) {
        return Arrays.stream(regexes).map(Signatures::p).toList();
    }

    private static Pattern p(String regex) {
        return Pattern.compile(regex);
    }
}

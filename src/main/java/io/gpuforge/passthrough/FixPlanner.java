package io.gpuforge.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The host side of a diagnosis's fix as a plan, like passthrough's: kernel arguments through the host's boot loader,
 * modprobe options in GPUForge's fix file, udev rules in its fix rules file, the initramfs rebuilt when modprobe
 * changed (vfio-pci reads its options from there). The fix's commands are not run: they install software (vendor-reset
 * from its source) and are listed for the user. A fix already on the host yields no edits. The VM's side of the fix
 * is not part of this plan: the fix's own VM change carries it. Pure: facts in, plan out.
 */
public final class FixPlanner {

    /** GPUForge's modprobe.d file for a diagnosis's fixes (the passthrough plan's own file is another). */
    public static final String MODPROBE_FILE = "/etc/modprobe.d/gpuforge-fix.conf";
    /** GPUForge's udev rules for a diagnosis's fixes, after the passthrough plan's 80-gpuforge-vfio.rules. */
    public static final String UDEV_FILE = "/etc/udev/rules.d/81-gpuforge-fix.rules";

    private static final List<String> IOMMU_OFF = List.of("intel_iommu=off", "amd_iommu=off", "iommu=off");

    private FixPlanner() {
    }

    /**
     * The plan of {@code fix} (for the cause {@code cause}) on the host of {@code f}.
     *
     * @param functions the GPU's functions the fix is for: verify checks them on vfio-pci after the reboot when the
     *                  fix binds them (modprobe {@code ids=})
     */
    public static PassthroughPlan plan(HostFacts f, String cause, FixPlan fix, List<PciAddress> functions) {
        PlanPart host = PlanPart.none();
        // intel_iommu= switches Intel's VT-d only: not added on an AMD-Vi host
        List<String> arguments = fix.kernelArguments().stream()
                .filter(a -> !a.startsWith("intel_iommu=") || KernelArguments.vtd(f)).toList();
        if (!arguments.isEmpty()) {
            boolean iommu = arguments.stream().anyMatch(a -> a.endsWith("_iommu=on"));
            KernelArguments args = new KernelArguments(arguments, iommu ? IOMMU_OFF : List.of(), List.of());
            host = host.and(BootLoader.forHost(f).kernelArguments(f, args));
            if (iommu && !f.acpiDmar().orElse(false) && !f.acpiIvrs().orElse(false)) {
                host = host.and(PlanPart.note(Message.of("note.noFirmwareIommu")));
            }
        }
        PlanPart modprobe = file(MODPROBE_FILE, f.modprobe().files().get(MODPROBE_FILE), cause, fix.modprobe());
        host = host.and(modprobe);
        if (!modprobe.editsNothing()) {
            host = host.withCommand(InitramfsTool.forHost(f).rebuildCommand());
        }
        host = host.and(file(UDEV_FILE, f.files().get(UDEV_FILE), cause, fix.udevRules()));
        for (String c : fix.commands()) {
            host = host.and(PlanPart.note(Message.of("note.byHand", c)));
        }
        boolean binds = fix.modprobe().stream().anyMatch(l -> l.startsWith("options vfio-pci ids="));
        return new PassthroughPlan(id(f, cause, host.edits()), f.summary().hostname(), binds ? functions : List.of(),
                host.edits(), new ArrayList<>(new LinkedHashSet<>(host.commands())), !host.editsNothing(),
                List.of(), host.notes());
    }

    /** The fix file with the lines it lacks added under a comment naming the cause; none when it has them all. */
    static PlanPart file(String path, String before, String cause, List<String> lines) {
        if (lines.isEmpty()) {
            return PlanPart.none();
        }
        Set<String> present = new LinkedHashSet<>(before == null ? List.of() : before.lines().map(String::strip)
                .toList());
        List<String> missing = lines.stream().filter(l -> !present.contains(l.strip())).distinct().toList();
        if (missing.isEmpty()) {
            return PlanPart.none();
        }
        StringBuilder after = new StringBuilder(before == null ? "" : before);
        if (after.length() > 0 && after.charAt(after.length() - 1) != '\n') {
            after.append('\n');
        }
        after.append("# Written by GPUForge to fix ").append(cause).append('\n');
        missing.forEach(l -> after.append(l).append('\n'));
        return PlanPart.edit(new PassthroughPlan.FileEdit(path, Optional.ofNullable(before), after.toString()));
    }

    private static String id(HostFacts f, String cause, List<PassthroughPlan.FileEdit> edits) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update((f.summary().hostname() + "|fix|" + cause).getBytes(StandardCharsets.UTF_8));
            for (PassthroughPlan.FileEdit e : edits) {
                md.update((e.path() + "|" + e.before().orElse("") + "|" + e.after()).getBytes(StandardCharsets.UTF_8));
            }
            return "fix-" + HexFormat.of().formatHex(md.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Plans GPU passthrough of one card on one host, from strategies the facts pick: the {@link BootLoader} gets the
 * kernel arguments, the {@link InitramfsTool} the vfio modules, a {@link VfioBinding} binds the functions (by
 * ids, or by address when an identical card stays with the host), and a {@link VmChangeBuilder} writes the VM
 * side. Pure: facts in, plan out.
 */
public final class Planner {

    public static final String MODPROBE_FILE = VfioModprobeFile.PATH;
    public static final String UDEV_FILE = BindByAddress.UDEV_FILE;
    public static final String DRACUT_FILE = Dracut.FILE;



    /**
     * The readiness checks every plan takes care of, so a warning of theirs needs no acknowledgement: each plan
     * loads the vfio modules at boot ({@code modules.vfio}) and binds the GPU's functions to vfio-pci ahead of the
     * host drivers ({@code driver.binding}), then reboots.
     */
    public static final Set<String> FIXES = Set.of("modules.vfio", "driver.binding");

    private Planner() {
    }

    public static PassthroughPlan plan(HostFacts f, PciAddress device, PlanOptions o) throws PlanBlockedException {
        ReadinessReport report = Readiness.evaluate(f, Optional.of(device), o.overrides());
        Verdict v = report.verdict().orElseThrow();
        if (v.kind() == Verdict.Kind.BLOCKED) {
            throw new PlanBlockedException("Passthrough of " + device + " is blocked by " + String.join(", ", v.because()), report);
        }
        PciDevice gpu = f.pci().device(device).orElseThrow();
        Set<PciAddress> functions = functions(f, gpu, o);
        List<PciDevice> devs = functions.stream().map(a -> f.pci().device(a).orElseThrow()).toList();

        KernelArguments args = KernelArguments.forPassthrough(f, devs);
        PlanPart boot = PlanPart.notes(args.notes()).and(BootLoader.forHost(f).kernelArguments(f, args));
        InitramfsTool initramfs = InitramfsTool.forHost(f);
        PlanPart modules = initramfs.addModules(f, VfioModules.forKernel(f.summary().kernel().orElse("")));
        PlanPart binding = VfioBinding.forFunctions(f, devs).bind(f, devs, o.blacklistDrivers());
        PlanPart host = boot.and(modules).and(binding);
        // modules and modprobe/udev files are read from the initramfs at boot: rebuild it after any of them changed
        if (!modules.editsNothing() || !binding.editsNothing()) {
            host = host.withCommand(initramfs.rebuildCommand());
        }

        boolean bound = devs.stream().allMatch(d -> d.driver().map("vfio-pci"::equals).orElse(true));
        boolean reboot = !host.editsNothing() || !bound;
        List<PassthroughPlan.VmChange> vm = VmChangeBuilder.forHost(f).changes(f, gpu, devs, o.vmId().orElse("<vmid>"));
        return new PassthroughPlan(id(f, device, host.edits()), f.summary().hostname(), new ArrayList<>(functions),
                host.edits(), new ArrayList<>(new LinkedHashSet<>(host.commands())), reboot, vm, host.notes());
    }

    /** All functions of the card's slot; the rest of a shared group only with the explicit override. */
    private static Set<PciAddress> functions(HostFacts f, PciDevice gpu, PlanOptions o) {
        Set<PciAddress> functions = new TreeSet<>(Readiness.slotFunctions(f, gpu.address()));
        if (o.overrides().allowSharedGroup() && gpu.iommuGroup().isPresent()) {
            f.pci().group(gpu.iommuGroup().getAsInt()).ifPresent(g -> g.members().stream()
                    .filter(m -> !f.pci().device(m).map(PciDevice::isBridge).orElse(false)).forEach(functions::add));
        }
        return functions;
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

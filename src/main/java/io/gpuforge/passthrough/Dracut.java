package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import java.util.Optional;

/**
 * dracut (Fedora, RHEL, openSUSE): a drop-in in {@code /etc/dracut.conf.d} forces the modules into the
 * image; {@code dracut -f --regenerate-all} rebuilds every kernel's.
 */
final class Dracut implements InitramfsTool {

    static final String FILE = "/etc/dracut.conf.d/gpuforge-vfio.conf";

    @Override
    public PlanPart addModules(HostFacts f, VfioModules modules) {
        String after = "# Written by GPUForge: vfio in the initramfs, so vfio-pci binds before the GPU drivers\n"
                + "force_drivers+=\" " + String.join(" ", modules.names()) + " \"\n";
        Optional<String> before = Optional.ofNullable(f.files().get(FILE));
        if (before.equals(Optional.of(after))) {
            return PlanPart.none();
        }
        return PlanPart.edit(new PassthroughPlan.FileEdit(FILE, before, after));
    }

    @Override
    public String rebuildCommand() {
        return "dracut -f --regenerate-all";
    }
}

package io.gpuforge.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.passthrough.VerifyItem;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** After the reboot: is the running host what the apply intended? Each item passes or fails on its own. */
public final class Verifier {


    private Verifier() {
    }

    public static List<VerifyItem> verify(HostFacts f, List<PciAddress> functions, List<String> kernelArgs) {
        List<VerifyItem> out = new ArrayList<>();
        String cmdline = " " + f.cmdline().orElse("") + " ";
        for (String arg : kernelArgs) {
            boolean ok = cmdline.contains(" " + arg + " ");
            out.add(new VerifyItem("cmdline." + arg, ok, Message.of(ok ? "verify.cmdline.has" : "verify.cmdline.lacks",
                    arg)));
        }
        boolean groups = !f.pci().groups().isEmpty();
        out.add(new VerifyItem("iommu.groups", groups, groups ? Message.of("verify.groups", f.pci().groups().size())
                : Message.of("verify.noGroups")));
        for (PciAddress a : functions) {
            Optional<PciDevice> d = f.pci().device(a);
            Optional<String> driver = d.flatMap(PciDevice::driver);
            boolean ok = driver.map("vfio-pci"::equals).orElse(false);
            out.add(new VerifyItem("driver." + a, ok, d.isEmpty() ? Message.of("verify.gone", a.toString())
                    : ok ? Message.of("verify.onVfio", a.toString()) : Message.of("verify.onOther", a.toString(),
                    driver.<Object>map(x -> x).orElse(Message.of("verify.noDriver")))));
        }
        List<String> errors = new ArrayList<>();
        for (String line : f.dmesg()) {
            String l = line.toLowerCase(Locale.ROOT);
            if (l.contains("vfio") && (l.contains("error") || l.contains("fail") || l.contains("can't") || l.contains("cannot"))) {
                errors.add(line);
            }
        }
        out.add(new VerifyItem("dmesg.vfio", errors.isEmpty(), errors.isEmpty() ? Message.of("verify.noVfioErrors")
                : Message.of("verify.vfioErrors", String.join("\n", errors))));
        return out;
    }
}

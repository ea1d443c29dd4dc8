package io.gpuforge.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * mkinitcpio (Arch): the vfio modules go first in {@code MODULES=(…)} of {@code /etc/mkinitcpio.conf}, the
 * modules already there follow; {@code mkinitcpio -P} rebuilds every preset.
 */
final class Mkinitcpio implements InitramfsTool {

    static final String FILE = "/etc/mkinitcpio.conf";
    private static final Pattern MODULES = Pattern.compile("^(MODULES=\\()([^)]*)(\\))", Pattern.MULTILINE);

    @Override
    public PlanPart addModules(HostFacts f, VfioModules modules) {
        String before = f.files().get(FILE);
        if (before == null) {
            return PlanPart.note(Message.of("note.mkinitcpioUnreadable", FILE,
                    String.join(" ", modules.names())));
        }
        Matcher m = MODULES.matcher(before);
        if (!m.find()) {
            String after = before + (before.endsWith("\n") || before.isEmpty() ? "" : "\n") + "MODULES=("
                    + String.join(" ", modules.names()) + ")\n";
            return PlanPart.edit(new PassthroughPlan.FileEdit(FILE, Optional.of(before), after));
        }
        List<String> mods = new ArrayList<>(modules.names());
        for (String x : m.group(2).strip().split("\\s+")) {
            if (!x.isEmpty() && !mods.contains(x)) {
                mods.add(x);
            }
        }
        String after = before.substring(0, m.start()) + m.group(1) + String.join(" ", mods) + m.group(3)
                + before.substring(m.end());
        if (after.equals(before)) {
            return PlanPart.none();
        }
        return PlanPart.edit(new PassthroughPlan.FileEdit(FILE, Optional.of(before), after));
    }

    @Override
    public String rebuildCommand() {
        return "mkinitcpio -P";
    }
}

package io.gpuforge.passthrough;

import io.gpuforge.domain.HostFacts;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GRUB: the arguments go into {@code GRUB_CMDLINE_LINUX_DEFAULT} in {@code /etc/default/grub}, keeping its
 * quoting, and the configuration is regenerated with the tool the distribution ships ({@code update-grub},
 * {@code grub2-mkconfig}, {@code grub-mkconfig}).
 */
final class GrubBootLoader implements BootLoader {

    static final String FILE = "/etc/default/grub";
    private static final Pattern LINE = Pattern.compile("^(\\s*GRUB_CMDLINE_LINUX_DEFAULT=)(\"[^\"]*\"|'[^']*'|\\S*)(.*)$",
            Pattern.MULTILINE);

    @Override
    public PlanPart kernelArguments(HostFacts f, KernelArguments args) {
        String before = f.files().get(FILE);
        if (before == null) {
            return PlanPart.note("GRUB is in use but " + FILE + " could not be read: add " + args.joined()
                    + " to the kernel command line yourself.");
        }
        String after = edited(before, args);
        if (after.equals(before)) {
            return PlanPart.none();
        }
        return PlanPart.edit(new PassthroughPlan.FileEdit(FILE, Optional.of(before), after))
                .withCommand(refreshCommand(f));
    }

    /** The file with the arguments in its {@code GRUB_CMDLINE_LINUX_DEFAULT} (added at the end when missing). */
    static String edited(String grubFile, KernelArguments args) {
        Matcher m = LINE.matcher(grubFile);
        if (!m.find()) {
            return grubFile + (grubFile.endsWith("\n") || grubFile.isEmpty() ? "" : "\n")
                    + "GRUB_CMDLINE_LINUX_DEFAULT=\"" + args.applyTo("") + "\"\n";
        }
        String raw = m.group(2);
        boolean quoted = raw.startsWith("\"") || raw.startsWith("'");
        char q = raw.startsWith("'") ? '\'' : '"';
        String value = quoted ? raw.substring(1, raw.length() - 1) : raw;
        return grubFile.substring(0, m.start()) + m.group(1) + q + args.applyTo(value) + q + m.group(3)
                + grubFile.substring(m.end());
    }

    /** Debian's wrapper where it exists, else the mkconfig the host has, writing where that distribution boots from. */
    static String refreshCommand(HostFacts f) {
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
}

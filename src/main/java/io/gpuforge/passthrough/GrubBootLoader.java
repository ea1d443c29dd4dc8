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
 * GRUB: the arguments go into {@code GRUB_CMDLINE_LINUX_DEFAULT} in {@code /etc/default/grub}, keeping its
 * quoting, and the configuration is regenerated with the tool the distribution ships ({@code update-grub},
 * {@code grub2-mkconfig}, {@code grub-mkconfig}).
 */
final class GrubBootLoader implements BootLoader {

    static final String FILE = "/etc/default/grub";
    /** Drop-ins that grub-mkconfig reads after {@link #FILE}; a later assignment wins. */
    static final String DROP_INS = "/etc/default/grub.d/";
    private static final Pattern LINE = Pattern.compile("^(\\s*GRUB_CMDLINE_LINUX_DEFAULT=)(\"[^\"]*\"|'[^']*'|\\S*)(.*)$",
            Pattern.MULTILINE);
    /** The arguments of every entry, recovery ones included: an IOMMU turned off here must go too. */
    private static final Pattern LINUX_LINE = Pattern.compile("^(\\s*GRUB_CMDLINE_LINUX=)(\"[^\"]*\"|'[^']*'|\\S*)(.*)$",
            Pattern.MULTILINE);

    @Override
    public PlanPart kernelArguments(HostFacts f, KernelArguments args) {
        String main = f.files().get(FILE);
        if (main == null) {
            return PlanPart.note(Message.of("note.grubUnreadable", FILE, args.joined()));
        }
        // grub-mkconfig sources /etc/default/grub, then grub.d/*.cfg in order: the last assignment wins
        List<String> assigning = new ArrayList<>();
        for (String file : files(f)) {
            if (LINE.matcher(f.files().get(file)).find()) {
                assigning.add(file);
            }
        }
        String target = assigning.isEmpty() ? FILE : assigning.get(assigning.size() - 1);
        KernelArguments onlyRemove = new KernelArguments(List.of(), args.remove(), List.of());
        PlanPart part = PlanPart.none();
        for (String file : files(f)) {
            String before = f.files().get(file);
            String after = removedFromLinuxLine(file.equals(target) ? edited(before, args)
                    : assigning.contains(file) ? edited(before, onlyRemove) : before, args.remove());
            if (!after.equals(before)) {
                part = part.and(PlanPart.edit(new PassthroughPlan.FileEdit(file, Optional.of(before), after)));
            }
        }
        if (part.edits().isEmpty()) {
            return part;
        }
        if (!target.equals(FILE)) {
            part = part.and(PlanPart.note(Message.of("note.grubDropIn", target, FILE)));
        }
        return part.withCommand(refreshCommand(f));
    }

    /** {@code /etc/default/grub} and its drop-ins, in the order grub-mkconfig reads them. */
    static List<String> files(HostFacts f) {
        List<String> out = new ArrayList<>(List.of(FILE));
        f.files().keySet().stream().filter(p -> p.startsWith(DROP_INS) && p.endsWith(".cfg")).sorted().forEach(out::add);
        return out;
    }

    /** The file with {@code remove} taken out of each {@code GRUB_CMDLINE_LINUX} line it has (nothing added there). */
    static String removedFromLinuxLine(String grubFile, List<String> remove) {
        Matcher m = LINUX_LINE.matcher(grubFile);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String raw = m.group(2);
            boolean quoted = raw.startsWith("\"") || raw.startsWith("'");
            char q = raw.startsWith("'") ? '\'' : '"';
            String value = quoted ? raw.substring(1, raw.length() - 1) : raw;
            String edited = KernelCmdline.edit(value, List.of(), remove);
            String line = edited.equals(value) ? m.group() : m.group(1) + q + edited + q + m.group(3);
            m.appendReplacement(out, Matcher.quoteReplacement(line));
        }
        m.appendTail(out);
        return out.toString();
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

package io.gpuforge.host.apply;

import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.passthrough.FixPlanner;
import io.gpuforge.passthrough.Planner;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import io.gpuforge.share.LegacyMigration;
import io.gpuforge.share.SharePlanner;

/**
 * What a GPUForge journal (and the manifest of its backups) can hold: only the files GPUForge's planner writes,
 * by their absolute normalised paths; only the refresh commands it runs; its backups under
 * {@code /var/lib/gpuforge/backups/}. A journal is read from the host, where anyone with root (or a bug) can have
 * changed it; rollback restores, deletes and runs as root what it says, so anything else is refused before
 * anything is touched.
 */
public final class JournalPolicy {

    public static final String BACKUPS = "/var/lib/gpuforge/backups/";

    /** Every file the planners edit (boot loader, initramfs and binding strategies; a diagnosis's fix files). */
    static final Set<String> FILES = Set.of("/etc/default/grub", "/etc/kernel/cmdline", "/etc/modules",
            "/etc/mkinitcpio.conf", Planner.MODPROBE_FILE, Planner.UDEV_FILE, Planner.DRACUT_FILE,
            FixPlanner.MODPROBE_FILE, FixPlanner.UDEV_FILE);

    /** Every refresh command the planner asks for (boot loader, then initramfs). */
    static final Set<String> COMMANDS = Set.of("update-grub", "grub-mkconfig -o /boot/grub/grub.cfg",
            "grub2-mkconfig -o /boot/grub2/grub.cfg", "proxmox-boot-tool refresh", "update-initramfs -u -k all",
            "dracut -f --regenerate-all", "mkinitcpio -P");

    /** GRUB drop-ins the planner edits when one of them sets the kernel command line. */
    static final Pattern GRUB_DROP_IN = Pattern.compile("/etc/default/grub\\.d/[A-Za-z0-9._-]{1,64}\\.cfg");
    /** The systemd unit that keeps a GPU's power limit after reboots (telemetry's PowerLimits writes it). */
    static final Pattern POWER_LIMIT_UNIT = Pattern.compile(
            "/etc/systemd/system/gpuforge-power-limit-[A-Za-z0-9-]{1,40}\\.service");
    /** The one command of a power-limit plan: it enables the unit when its file is there and removes it when not. */
    private static final Pattern POWER_LIMIT_COMMAND = Pattern.compile("systemctl daemon-reload && if \\[ -f"
            + " /etc/systemd/system/(gpuforge-power-limit-[A-Za-z0-9-]{1,40}\\.service) \\]; then systemctl enable \\1"
            + " && systemctl restart \\1; else rm -f /etc/systemd/system/multi-user\\.target\\.wants/\\1;"
            + " systemctl daemon-reload; fi");
    /** The boot unit that makes NVIDIA's device nodes for containers, and its one command (share's SharePlanner). */
    static final String SHARE_UNIT = SharePlanner.UNIT_PATH;
    private static final String SHARE_COMMAND = SharePlanner.command();
    private static final Pattern PLAN_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern JOURNAL_ID = Pattern.compile("[0-9]{8}-[0-9]{6}-[A-Za-z0-9._-]{1,64}");
    private static final Pattern KERNEL_ARG = Pattern.compile("[\\x21-\\x7e]{1,256}");

    private JournalPolicy() {
    }

    /** Where GPUForge keeps its state on a host (the journal, the backups, the detached commits). */
    static final String STATE_DIR = "/var/lib/gpuforge/";

    /**
     * A file of the detached commit of the journal {@code id} ({@code /var/lib/gpuforge/commit-<id><suffix>}: its
     * script, status file, log); refused for an id GPUForge cannot have made.
     */
    static String commitFile(String id, String suffix) {
        if (id == null || !JOURNAL_ID.matcher(id).matches() || !suffix.matches("\\.[a-z]{2,6}")) {
            throw new IllegalArgumentException("not a commit file of a GPUForge journal: " + id + suffix);
        }
        return STATE_DIR + "commit-" + id + suffix;
    }

    /** What is wrong with the journal, naming the entry; empty when GPUForge could have written it. */
    public static Optional<String> problem(Journal j) {
        if (j.id == null || !JOURNAL_ID.matcher(j.id).matches()) {
            return bad("id", j.id, "not a journal id (time and plan id)");
        }
        if (j.planId == null || !PLAN_ID.matcher(j.planId).matches()) {
            return bad("planId", j.planId, "not a plan id");
        }
        if (j.state == null) {
            return Optional.of("it has no state");
        }
        if (!(BACKUPS + j.id).equals(j.backupDir)) {
            return bad("backupDir", j.backupDir, "not where GPUForge keeps the backups of " + j.id + " ("
                    + BACKUPS + j.id + ", /etc/default/grub.d/*.cfg)");
        }
        if (j.files == null || j.commands == null) {
            return Optional.of("it has no list of files or of commands");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < j.files.size(); i++) {
            Journal.FileEntry f = j.files.get(i);
            String where = "files[" + i + "].path";
            Optional<String> p = path(where, f == null ? null : f.path);
            if (p.isPresent()) {
                return p;
            }
            if (!seen.add(f.path)) {
                return bad(where, f.path, "listed twice");
            }
        }
        Optional<String> c = commands("commands", j.commands);
        if (c.isEmpty() && j.commandsStarted != null) {
            c = subset("commandsStarted", j.commandsStarted, j.commands);
        }
        if (c.isEmpty() && j.commandsRerun != null) {
            c = subset("commandsRerun", j.commandsRerun, j.commands);
        }
        if (c.isEmpty() && j.unfinishedCommand != null && !j.commands.contains(j.unfinishedCommand)) {
            c = bad("unfinishedCommand", j.unfinishedCommand, "not one of the journal's commands");
        }
        if (c.isPresent()) {
            return c;
        }
        for (int i = 0; j.functions != null && i < j.functions.size(); i++) {
            try {
                PciAddress.parse(j.functions.get(i));
            } catch (IllegalArgumentException e) {
                return bad("functions[" + i + "]", j.functions.get(i), "not a PCI address");
            }
        }
        for (int i = 0; j.kernelArgs != null && i < j.kernelArgs.size(); i++) {
            String a = j.kernelArgs.get(i);
            if (a == null || !KERNEL_ARG.matcher(a).matches()) {
                return bad("kernelArgs[" + i + "]", a, "not a kernel argument");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> path(String where, String p) {
        if (p == null || !p.startsWith("/")) {
            return bad(where, p, "not an absolute path");
        }
        if (!Path.of(p).normalize().toString().equals(p)) {
            return bad(where, p, "not a normalised path (it has '.', '..', '//' or a trailing '/')");
        }
        if (!FILES.contains(p) && !GRUB_DROP_IN.matcher(p).matches() && !POWER_LIMIT_UNIT.matcher(p).matches()
                && !SHARE_UNIT.equals(p) && !LegacyMigration.CONFIG.matcher(p).matches()) {
            return bad(where, p, "not a file GPUForge writes (" + String.join(", ", FILES.stream().sorted().toList())
                    + ")");
        }
        return Optional.empty();
    }

    private static Optional<String> commands(String where, List<String> commands) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < commands.size(); i++) {
            String c = commands.get(i);
            if (c == null || !COMMANDS.contains(c) && !POWER_LIMIT_COMMAND.matcher(c).matches()
                    && !SHARE_COMMAND.equals(c)) {
                return bad(where + "[" + i + "]", c, "not a refresh command GPUForge runs ("
                        + String.join(", ", COMMANDS.stream().sorted().toList()) + ")");
            }
            if (!seen.add(c)) {
                return bad(where + "[" + i + "]", c, "listed twice");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> subset(String where, List<String> part, List<String> all) {
        for (int i = 0; i < part.size(); i++) {
            if (!all.contains(part.get(i))) {
                return bad(where + "[" + i + "]", part.get(i), "not one of the journal's commands");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> bad(String where, String value, String why) {
        return Optional.of(where + " " + (value == null ? "is missing" : "'" + shorten(value) + "' is " + why));
    }

    private static String shorten(String s) {
        String t = s.replaceAll("\\p{Cntrl}", "?");
        return t.length() > 200 ? t.substring(0, 197) + "…" : t;
    }

    /** Where a manifest disagrees with its journal (another apply's, or edited); empty when they agree. */
    static Optional<String> disagreement(Journal journal, Journal manifest) {
        Optional<String> p = problem(manifest);
        if (p.isPresent()) {
            return p;
        }
        if (!journal.id.equals(manifest.id) || !journal.backupDir.equals(manifest.backupDir)) {
            return Optional.of("it belongs to " + manifest.id + ", not " + journal.id);
        }
        List<String> a = journal.files.stream().map(f -> f.path + (f.existed ? "" : " (new)")).toList();
        List<String> b = manifest.files.stream().map(f -> f.path + (f.existed ? "" : " (new)")).toList();
        if (!a.equals(b)) {
            return Optional.of("it lists the files " + b + ", the journal " + a);
        }
        return Optional.empty();
    }
}

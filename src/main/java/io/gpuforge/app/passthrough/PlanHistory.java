package io.gpuforge.app.passthrough;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostScripts;
import io.gpuforge.app.host.HostTarget;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.host.apply.Journal;
import io.gpuforge.host.apply.JournalPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Every plan applied on a host, newest first, and their rollback. The host's journal records the last apply only;
 * each apply also leaves its manifest (the journal as it was last written) in its backup directory
 * ({@code /var/lib/gpuforge/backups/<id>/manifest.json}), so the manifests there are the history. Only manifests
 * GPUForge can have written count ({@code JournalPolicy}); others are named, never used. Rolling back goes newest
 * first: an older plan is rolled back once every newer one is, by making its manifest the journal again and
 * rolling that back. Blocking: background threads only.
 */
public final class PlanHistory {

    /** One applied plan: when, for which device, which files, and how far it is now. */
    public record AppliedPlan(String id, String planId, Instant at, JournalState state, List<PciAddress> functions,
                              List<String> files, List<String> newFiles, List<String> kernelArgs, String backupDir,
                              boolean current) {
        public AppliedPlan {
            Objects.requireNonNull(id);
            functions = List.copyOf(functions);
            files = List.copyOf(files);
            newFiles = List.copyOf(newFiles);
            kernelArgs = List.copyOf(kernelArgs);
        }

        public boolean rolledBack() {
            return state == JournalState.ROLLED_BACK;
        }
    }

    /** The history, and the manifests that were not GPUForge's (path and why). */
    public record History(List<AppliedPlan> plans, List<String> ignored) {
        public History {
            plans = List.copyOf(plans);
            ignored = List.copyOf(ignored);
        }

        public Optional<AppliedPlan> plan(String id) {
            return plans.stream().filter(p -> p.id().equals(id)).findFirst();
        }

        /** Why {@code id} cannot be rolled back now (already is; a newer one is not yet); empty when it can. */
        public Optional<String> cannotRollBack(String id) {
            Optional<AppliedPlan> p = plan(id);
            if (p.isEmpty()) {
                return Optional.of("no applied plan " + id + " on this host");
            }
            if (p.get().rolledBack()) {
                return Optional.of(id + " is rolled back already");
            }
            for (AppliedPlan newer : plans) {
                if (newer.id().equals(id)) {
                    break;
                }
                if (!newer.rolledBack()) {
                    return Optional.of("roll back " + newer.id() + " first: it was applied after " + id
                            + " and changed the same host");
                }
            }
            return Optional.empty();
        }
    }

    /**
     * Lists the manifests and the journal, each through {@code target}: under a sysroot, one that resolves outside it
     * (a link in a mounted disk) is named as such and not read.
     */
    private static final String LIST = "b=\"$(target \"$R/var/lib/gpuforge/backups\")\"\n"
            + "for d in \"$b\"/*; do\n"
            + "  [ -f \"$d/manifest.json\" ] || [ -L \"$d\" ] || [ -L \"$d/manifest.json\" ] || continue\n"
            + "  if m=\"$(target \"$d/manifest.json\" 2>/dev/null)\"; then\n"
            + "    [ -f \"$m\" ] || continue\n"
            + "    printf '@@manifest %s\\n' \"${d##*/}\"\n    base64 < \"$m\"\n    echo '@@end'\n"
            + "  else printf '@@outside %s\\n' \"${d##*/}\"; fi\n"
            + "done\n"
            + "j=\"$(target \"$R/var/lib/gpuforge/journal.json\")\"\n"
            + "if [ -f \"$j\" ]; then echo '@@journal'; base64 < \"$j\"; echo '@@end'; fi";
    private final HostAccess access;
    private final PassthroughService passthrough;
    private final ObjectMapper json = new ObjectMapper();

    PlanHistory(HostAccess access, PassthroughService passthrough) {
        this.access = access;
        this.passthrough = passthrough;
    }

    /** The applied plans of the host, newest first. */
    public History list(HostTarget target, HostKeyPrompt prompt) throws HostException {
        try (HostAccess.Opened h = access.open(target, prompt)) {
            return read(h);
        }
    }

    private History read(HostAccess.Opened h) throws HostException {
        String out = HostScripts.run(h, "Reading the backups' manifests", LIST);
        List<AppliedPlan> plans = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        String current = null;
        String name = null;
        StringBuilder body = null;
        for (String line : out.split("\n")) {
            if (line.startsWith("@@outside ")) {
                ignored.add(JournalPolicy.BACKUPS + line.substring("@@outside ".length()).strip() + "/manifest.json:"
                        + " it resolves outside the host's root (a link out of the sysroot); not read");
            } else if (line.startsWith("@@manifest ")) {
                name = line.substring("@@manifest ".length()).strip();
                body = new StringBuilder();
            } else if (line.equals("@@journal")) {
                name = "@@journal";
                body = new StringBuilder();
            } else if (line.equals("@@end") && body != null) {
                Optional<Journal> j = parse(body.toString(), name, ignored);
                if (name.equals("@@journal")) {
                    current = j.map(x -> x.id).orElse(null);
                } else if (j.isPresent() && !j.get().id.equals(name)) {
                    ignored.add(JournalPolicy.BACKUPS + name + "/manifest.json: it names " + j.get().id);
                } else {
                    j.ifPresent(x -> plans.add(plan(x, false)));
                }
                body = null;
            } else if (body != null) {
                body.append(line);
            }
        }
        String cur = current;
        List<AppliedPlan> marked = plans.stream().map(p -> p.id().equals(cur) ? withCurrent(p) : p)
                .sorted(Comparator.comparing(AppliedPlan::at).thenComparing(AppliedPlan::id).reversed()).toList();
        return new History(marked, ignored);
    }

    private Optional<Journal> parse(String base64, String name, List<String> ignored) {
        String where = name.equals("@@journal") ? Journal.PATH : JournalPolicy.BACKUPS + name + "/manifest.json";
        try {
            Journal j = json.readValue(Base64.getMimeDecoder().decode(base64), Journal.class);
            Optional<String> problem = j == null ? Optional.of("it is empty") : JournalPolicy.problem(j);
            if (problem.isPresent()) {
                ignored.add(where + ": not one GPUForge wrote (" + problem.get() + ")");
                return Optional.empty();
            }
            return Optional.of(j);
        } catch (IOException | IllegalArgumentException e) {
            ignored.add(where + ": damaged (" + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    private static AppliedPlan plan(Journal j, boolean current) {
        List<PciAddress> functions = j.functions == null ? List.of() : j.functions.stream().map(PciAddress::parse).toList();
        List<String> files = j.files.stream().map(f -> f.path).toList();
        List<String> fresh = j.files.stream().filter(f -> !f.existed).map(f -> f.path).toList();
        return new AppliedPlan(j.id, j.planId, Instant.ofEpochMilli(j.createdAtMillis), j.state, functions, files, fresh,
                j.kernelArgs == null ? List.of() : j.kernelArgs, j.backupDir, current);
    }

    private static AppliedPlan withCurrent(AppliedPlan p) {
        return new AppliedPlan(p.id(), p.planId(), p.at(), p.state(), p.functions(), p.files(), p.newFiles(),
                p.kernelArgs(), p.backupDir(), true);
    }

    /**
     * What rolling back {@code id} does to each file, as diffs from the file now to what it will be again (the backup,
     * or no file for one the apply made).
     */
    public List<PassthroughPlan.FileEdit> diffBack(HostTarget target, String id, HostKeyPrompt prompt) throws HostException {
        try (HostAccess.Opened h = access.open(target, prompt)) {
            AppliedPlan p = read(h).plan(id).orElseThrow(() -> new HostException("no applied plan " + id + " on "
                    + h.describe()));
            List<PassthroughPlan.FileEdit> out = new ArrayList<>();
            for (String f : p.files()) {
                Optional<String> now = file(h, f);
                String back = p.newFiles().contains(f) ? "" : file(h, p.backupDir() + "/files" + f).orElseThrow(() ->
                        new HostException("the backup of " + f + " is missing in " + p.backupDir() + ": this plan"
                                + " cannot be rolled back"));
                if (!now.map(back::equals).orElse(back.isEmpty())) {
                    out.add(new PassthroughPlan.FileEdit(f, now, back));
                }
            }
            return out;
        }
    }

    private static Optional<String> file(HostAccess.Opened h, String path) throws HostException {
        String out = HostScripts.run(h, "Reading " + path, "f=\"$(target \"$R\"" + HostScripts.q(path) + ")\""
                + "\nif [ -f \"$f\" ]; then echo EXISTS; base64 < \"$f\"; else echo ABSENT; fi");
        if (out.startsWith("ABSENT")) {
            return Optional.empty();
        }
        return Optional.of(new String(Base64.getMimeDecoder().decode(out.substring("EXISTS".length()).strip()),
                StandardCharsets.UTF_8));
    }

    /**
     * Rolls back {@code id}: the host's last apply directly; an older one (every newer one rolled back) by making its
     * manifest the journal again first. Files come back byte for byte and the refresh commands run again.
     */
    public ApplyOutcome rollback(HostTarget target, String id, ApplyProgress progress, HostKeyPrompt prompt)
            throws HostException {
        try (HostAccess.Opened h = access.open(target, prompt)) {
            History history = read(h);
            Optional<String> no = history.cannotRollBack(id);
            if (no.isPresent()) {
                throw new HostException("Nothing was changed: " + no.get());
            }
            AppliedPlan p = history.plan(id).orElseThrow();
            if (!p.current()) {
                String m = p.backupDir() + "/manifest.json";
                HostScripts.run(h, "Making " + m + " the journal again", "m=\"$(target \"$R\"" + HostScripts.q(m)
                        + ")\"\nj=\"$(target \"$R\"" + HostScripts.q(Journal.PATH) + ")\"\ncp -p -- \"$m\" \"$j.gpuforge-tmp\"\n"
                        + "{ sync -- \"$j.gpuforge-tmp\" 2>/dev/null || sync; }\nmv -f -- \"$j.gpuforge-tmp\" \"$j\"");
            }
        }
        return passthrough.rollback(target, Optional.of(id), progress, prompt);
    }
}

package io.gpuforge.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.passthrough.PassthroughPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Applies a {@link PassthroughPlan} on a host and rolls it back. Changes nothing the plan does not show;
 * backs every edited file up under {@code /var/lib/gpuforge/backups/<time>-<id>/} (with a manifest); writes
 * atomically keeping mode and owner; journals each step so an interrupted apply can be rolled back; is
 * idempotent (the same plan again changes nothing and says so). If an apply fails part way it restores
 * what it wrote before reporting. With a sysroot it edits files under it and lists the commands.
 */
public final class HostConfigurator {

    /** What an apply or rollback did. */
    public record Outcome(String journalId, Status status, List<String> filesChanged, List<String> commandsRun,
                          List<String> commandsNotRun, Optional<String> backupDir) {
        public enum Status { APPLIED, NOTHING_TO_DO, ROLLED_BACK }
    }

    private static final String BACKUPS = "/var/lib/gpuforge/backups/";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private final RemoteFiles files;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * @param sysroot a directory standing for the host's {@code /} (files edited there, commands only listed);
     *                empty for the host itself
     */
    public HostConfigurator(HostShell shell, Optional<String> sysroot, boolean sudo, Clock clock) {
        this.files = new RemoteFiles(shell, sysroot.orElse(""), sudo);
        this.clock = clock;
    }

    public Optional<Journal> journal() throws ProbeException {
        Optional<byte[]> raw = files.read(Journal.PATH);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(json.readValue(raw.get(), Journal.class));
        } catch (IOException e) {
            throw new ProbeException("The journal " + Journal.PATH + " on the host is damaged: " + e.getMessage(), e);
        }
    }

    private void save(Journal j) throws ProbeException {
        try {
            byte[] data = json.writeValueAsBytes(j);
            files.write(Journal.PATH, data);
            files.write(j.backupDir + "/manifest.json", data);
        } catch (IOException e) {
            throw new ProbeException("The journal could not be serialised", e);
        }
    }

    public Outcome apply(PassthroughPlan plan) throws ApplyException {
        Journal j;
        try {
            Optional<Journal> previous = journal();
            if (previous.isPresent() && (previous.get().state == Journal.State.APPLYING
                    || previous.get().state == Journal.State.ROLLING_BACK)) {
                throw new ApplyException("An earlier apply (" + previous.get().id + ") on " + files.describe()
                        + " was interrupted. Run 'gpuforge rollback' first; it restores the files from "
                        + previous.get().backupDir + ".");
            }
            List<PassthroughPlan.FileEdit> todo = new ArrayList<>();
            for (PassthroughPlan.FileEdit e : plan.edits()) {
                Optional<byte[]> now = files.read(e.path());
                byte[] after = e.after().getBytes(StandardCharsets.UTF_8);
                if (now.isPresent() && Arrays.equals(now.get(), after)) {
                    continue;
                }
                Optional<byte[]> before = e.before().map(b -> b.getBytes(StandardCharsets.UTF_8));
                boolean asPlanned = now.isEmpty() ? before.isEmpty() : before.isPresent() && Arrays.equals(now.get(), before.get());
                if (!asPlanned) {
                    throw new ApplyException(e.path() + " on " + files.describe() + " changed since the plan was made;"
                            + " nothing was changed. Make the plan again.");
                }
                todo.add(e);
            }
            if (todo.isEmpty()) {
                return new Outcome(previous.map(p -> p.id).orElse(plan.id()), Outcome.Status.NOTHING_TO_DO, List.of(),
                        List.of(), List.of(), previous.map(p -> p.backupDir));
            }
            j = new Journal();
            j.id = STAMP.format(clock.instant()) + "-" + plan.id();
            j.planId = plan.id();
            j.state = Journal.State.APPLYING;
            j.backupDir = BACKUPS + j.id;
            j.createdAtMillis = clock.millis();
            j.commands = new ArrayList<>(plan.commands());
            plan.functions().forEach(f -> j.functions.add(f.toString()));
            j.kernelArgs = kernelArgs(plan);
            for (PassthroughPlan.FileEdit e : todo) {
                j.files.add(new Journal.FileEntry(e.path(), files.read(e.path()).isPresent()));
            }
            save(j);
        } catch (ProbeException e) {
            throw new ApplyException("Nothing was changed: " + e.getMessage(), e);
        }
        List<String> changed = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        List<String> listed = new ArrayList<>();
        try {
            for (Journal.FileEntry f : j.files) {
                if (f.existed) {
                    files.copy(f.path, j.backupDir + "/files" + f.path);
                }
            }
            for (Journal.FileEntry f : j.files) {
                String after = plan.edits().stream().filter(e -> e.path().equals(f.path)).findFirst().orElseThrow().after();
                f.written = true; // journaled before the write: a crash in between is rolled back as written
                save(j);
                files.write(f.path, after.getBytes(StandardCharsets.UTF_8));
                changed.add(f.path);
            }
            for (String c : j.commands) {
                if (files.command(c)) {
                    ran.add(c);
                } else {
                    listed.add(c);
                }
            }
            j.state = Journal.State.APPLIED;
            save(j);
        } catch (ProbeException e) {
            try {
                restore(j);
            } catch (ProbeException again) {
                throw new ApplyException("The apply failed (" + e.getMessage() + ") and restoring the files failed too ("
                        + again.getMessage() + "). The journal on the host records it: run 'gpuforge rollback'"
                        + " when the host is reachable; backups are in " + j.backupDir + ".", e);
            }
            throw new ApplyException("The apply failed and every file was restored: " + e.getMessage(), e);
        }
        return new Outcome(j.id, Outcome.Status.APPLIED, changed, ran, listed, Optional.of(j.backupDir));
    }

    /** Rolls back the journaled apply (the last one); {@code id} must match when given. */
    public Outcome rollback(Optional<String> id) throws ApplyException {
        try {
            Journal j = journal().orElseThrow(() -> new ApplyException("Nothing to roll back on " + files.describe()
                    + ": no GPUForge journal."));
            if (id.isPresent() && !id.get().equals(j.id) && !id.get().equals(j.planId)) {
                throw new ApplyException("The last apply on the host is " + j.id + ", not " + id.get());
            }
            if (j.state == Journal.State.ROLLED_BACK) {
                return new Outcome(j.id, Outcome.Status.NOTHING_TO_DO, List.of(), List.of(), List.of(),
                        Optional.of(j.backupDir));
            }
            List<String> restored = restore(j);
            List<String> ran = new ArrayList<>();
            List<String> listed = new ArrayList<>();
            for (String c : j.commands) {
                if (files.command(c)) {
                    ran.add(c);
                } else {
                    listed.add(c);
                }
            }
            return new Outcome(j.id, Outcome.Status.ROLLED_BACK, restored, ran, listed, Optional.of(j.backupDir));
        } catch (ProbeException e) {
            throw new ApplyException("The rollback did not finish: " + e.getMessage() + ". Run it again; it is safe to"
                    + " repeat.", e);
        }
    }

    /** Puts every journaled file back byte for byte (or removes it if it did not exist). Safe to repeat. */
    private List<String> restore(Journal j) throws ProbeException {
        j.state = Journal.State.ROLLING_BACK;
        save(j);
        List<String> restored = new ArrayList<>();
        for (Journal.FileEntry f : j.files) {
            if (!f.written) {
                continue;
            }
            if (f.existed) {
                files.copy(j.backupDir + "/files" + f.path, f.path);
            } else {
                files.delete(f.path);
            }
            restored.add(f.path);
        }
        j.state = Journal.State.ROLLED_BACK;
        save(j);
        return restored;
    }

    /** Kernel arguments the plan adds: what verify looks for in /proc/cmdline after the reboot. */
    static List<String> kernelArgs(PassthroughPlan plan) {
        Set<String> added = new LinkedHashSet<>();
        for (PassthroughPlan.FileEdit e : plan.edits()) {
            if (e.path().equals("/etc/default/grub") || e.path().equals("/etc/kernel/cmdline")) {
                Set<String> before = tokens(e.before().orElse(""));
                for (String t : tokens(e.after())) {
                    if (!before.contains(t) && !t.startsWith("GRUB_")) {
                        added.add(t);
                    }
                }
            }
        }
        return new ArrayList<>(added);
    }

    private static Set<String> tokens(String s) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : s.replace('"', ' ').replace('\'', ' ').split("\\s+")) {
            String x = t.replaceFirst("^GRUB_CMDLINE_LINUX(_DEFAULT)?=", "").strip();
            if (!x.isEmpty()) {
                out.add(x);
            }
        }
        return out;
    }
}

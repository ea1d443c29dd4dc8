package io.gpuforge.app.vmcreate;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.Redaction;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.vm.VmRef;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A template's cloud-init user-data handed to the guest's own cloud-init after the VM's first boot, over the QEMU
 * guest agent: for a Proxmox VE VM whose user-data could not go to the node as a snippet. It waits for the agent
 * (a ping with backoff, up to a generous limit, cancellable), makes {@value #USER_DATA_DIR} root-only (also when an
 * earlier run or the image left it open: {@code mkdir -m} does not change a directory that is there), writes the
 * user-data with the agent's file-write to {@value #USER_DATA_FILE}, then runs
 * {@code cloud-init --file FILE single --name MODULE --frequency always} for each module the user-data's keys need
 * (read from the parsed YAML), in cloud-init's own order, and removes the file again however the run ended: it
 * holds the password's hash and the template's secrets. Each step's exit code and the tail of its output go to the
 * progress; the first module that fails stops it. No secret goes to a line ({@link Redaction}). Blocking.
 */
public final class FirstBootProvisioning {

    /** Where the user-data goes in the guest (the directory made owner-only first: it may hold a password). */
    public static final String USER_DATA_DIR = "/var/lib/gpuforge";
    public static final String USER_DATA_FILE = USER_DATA_DIR + "/user-data.yaml";
    /** How long a first boot may take until the agent answers (a cloud image grows its disk, installs the agent). */
    public static final Duration AGENT_WAIT = Duration.ofMinutes(10);
    /** How long one module may run (package installs of a CUDA stack take a while). */
    public static final Duration MODULE_TIMEOUT = Duration.ofMinutes(45);
    private static final Duration PING_TIMEOUT = Duration.ofSeconds(10);
    private static final long FIRST_PAUSE_MILLIS = 500;
    private static final long LAST_PAUSE_MILLIS = 15_000;
    private static final int TAIL_LINES = 6;
    private static final Duration SHORT_STEP = Duration.ofSeconds(30);

    /** cloud-init's modules in the order its stages run them, each with the top-level keys it acts on. */
    private static final Map<String, List<String>> MODULES = modules();

    private final Duration agentWait;

    public FirstBootProvisioning() {
        this(AGENT_WAIT);
    }

    /** @param agentWait how long to wait for the guest agent to answer after the start */
    public FirstBootProvisioning(Duration agentWait) {
        this.agentWait = Objects.requireNonNull(agentWait);
    }

    /**
     * How it went: every module ran ({@code ok}), or where it stopped: the agent did not answer, the file could not
     * be written, or a module failed ({@code failedModule}, with the guest's output tail in {@code message}).
     */
    public record Outcome(boolean ok, List<String> modulesRun, Optional<String> failedModule, String message) {
        public Outcome {
            modulesRun = List.copyOf(modulesRun);
            Objects.requireNonNull(failedModule);
        }
    }

    private static Map<String, List<String>> modules() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("bootcmd", List.of("bootcmd"));
        m.put("write_files", List.of("write_files"));
        m.put("set_hostname", List.of("hostname", "fqdn", "prefer_fqdn_over_hostname"));
        m.put("update_etc_hosts", List.of("manage_etc_hosts"));
        m.put("users_groups", List.of("users", "groups"));
        m.put("ssh", List.of("ssh_authorized_keys", "ssh_keys", "ssh_deletekeys", "ssh_genkeytypes", "disable_root"));
        m.put("set_passwords", List.of("ssh_pwauth", "chpasswd", "password"));
        m.put("ca_certs", List.of("ca_certs"));
        m.put("apt_configure", List.of("apt"));
        m.put("timezone", List.of("timezone"));
        m.put("ntp", List.of("ntp"));
        m.put("runcmd", List.of("runcmd"));
        m.put("package_update_upgrade_install", List.of("packages", "package_update", "package_upgrade",
                "package_reboot_if_required"));
        m.put("write_files_deferred", List.of());
        m.put("scripts_user", List.of());
        m.put("power_state_change", List.of("power_state"));
        return m;
    }

    /**
     * The modules to run for {@code userData}, in cloud-init's order: each module whose keys it has, the deferred
     * files after the packages, and {@code scripts_user} (which runs what {@code runcmd} wrote) after them. None for
     * a text that is not a cloud-config ({@link #run} says why).
     */
    public static List<String> modulesFor(String userData) {
        try {
            return modulesFor(CloudConfigYaml.parse(userData));
        } catch (CloudConfigYaml.Invalid e) {
            return List.of();
        }
    }

    private static List<String> modulesFor(CloudConfigYaml doc) {
        Set<String> keys = doc.keys();
        List<String> out = new ArrayList<>();
        MODULES.forEach((module, used) -> {
            boolean wanted = used.stream().anyMatch(keys::contains)
                    || module.equals("write_files_deferred") && doc.hasDeferredFiles()
                    || module.equals("scripts_user") && keys.contains("runcmd");
            if (wanted) {
                out.add(module);
            }
        });
        return out;
    }

    /** The keys of {@code doc} that no module run here acts on. */
    private static List<String> unhandled(CloudConfigYaml doc) {
        Set<String> known = MODULES.values().stream().flatMap(List::stream).collect(Collectors.toSet());
        return doc.keys().stream().filter(k -> !known.contains(k)).toList();
    }

    /** The guest's command for one module. */
    public static List<String> command(String module) {
        return List.of("cloud-init", "--file", USER_DATA_FILE, "single", "--name", module, "--frequency", "always");
    }

    /**
     * Waits for the agent of the (started) VM, writes {@code userData}, runs its modules and removes the file.
     *
     * @param secrets  values never to show in a line (the password's hash, secret variables)
     * @param later    the command that runs it again later, named when the agent did not answer
     */
    public Outcome run(ConnectionSession s, VmRef vm, String userData, Redaction secrets, String later,
                       TaskListener progress, BooleanSupplier cancelled) throws InterruptedException {
        TaskListener out = secrets.wrap(progress);
        CloudConfigYaml doc;
        try {
            doc = CloudConfigYaml.parse(userData);
        } catch (CloudConfigYaml.Invalid e) {
            String m = secrets.apply("The template's user-data is " + e.getMessage() + "; nothing was run in VM "
                    + vm.id());
            out.line(m);
            return new Outcome(false, List.of(), Optional.empty(), m);
        }
        Optional<String> noAgent = waitForAgent(s, vm, out, cancelled);
        if (noAgent.isPresent()) {
            String m = noAgent.get() + " The template's setup did not run; once the agent answers, run it with: " + later;
            out.line(m);
            return new Outcome(false, List.of(), Optional.empty(), m);
        }
        byte[] bytes = userData.getBytes(StandardCharsets.UTF_8);
        try {
            step(s, vm, List.of("mkdir", "-p", "-m", "0700", USER_DATA_DIR), SHORT_STEP, out);
            step(s, vm, List.of("chmod", "0700", USER_DATA_DIR), SHORT_STEP, out);
        } catch (BackendException | StepFailed e) {
            String m = secrets.apply("The directory " + USER_DATA_DIR + " could not be made root-only in VM " + vm.id()
                    + ": " + e.getMessage() + "; the user-data was not written. Run it later with: " + later);
            out.line(m);
            return new Outcome(false, List.of(), Optional.empty(), m);
        }
        try {
            return runModules(s, vm, doc, bytes, secrets, later, out, cancelled);
        } finally {
            remove(s, vm, out);
        }
    }

    private Outcome runModules(ConnectionSession s, VmRef vm, CloudConfigYaml doc, byte[] bytes, Redaction secrets,
                               String later, TaskListener out, BooleanSupplier cancelled) throws InterruptedException {
        try {
            s.guestFileWrite(vm, USER_DATA_FILE, bytes);
            out.line("Wrote the template's user-data (" + bytes.length + " bytes) to " + USER_DATA_FILE + " in VM "
                    + vm.id() + " over the guest agent");
        } catch (BackendException e) {
            String m = secrets.apply("The template's user-data could not be written into VM " + vm.id() + ": "
                    + e.getMessage() + ". Run it later with: " + later);
            out.line(m);
            return new Outcome(false, List.of(), Optional.empty(), m);
        }
        unhandled(doc).forEach(k -> out.line("cloud-init: the key '" + k + "' has no module GPUForge runs after"
                + " the first boot; the guest's own cloud-init does not see it either"));
        List<String> ran = new ArrayList<>();
        for (String module : modulesFor(doc)) {
            if (cancelled.getAsBoolean()) {
                String m = "Cancelled before the cloud-init module " + module + "; ran: " + String.join(", ", ran)
                        + ". Run the rest with: " + later;
                out.line(m);
                return new Outcome(false, ran, Optional.of(module), m);
            }
            try {
                step(s, vm, command(module), MODULE_TIMEOUT, out);
                ran.add(module);
            } catch (BackendException | StepFailed e) {
                String m = "The cloud-init module " + module + " failed in VM " + vm.id() + " (" + secrets.apply(
                        e.getMessage()) + ")" + (ran.isEmpty() ? "" : "; ran before it: " + String.join(", ", ran))
                        + ". The VM is kept; fix the cause and run it again with: " + later;
                out.line(m);
                return new Outcome(false, ran, Optional.of(module), m);
            }
        }
        String m = "cloud-init ran " + String.join(", ", ran) + " in VM " + vm.id() + " over the guest agent";
        out.line(m);
        return new Outcome(true, ran, Optional.empty(), m);
    }

    /**
     * Removes the user-data from the guest (it holds the password's hash and the template's secrets); a removal
     * that fails is said, with the file, so the user can remove it.
     */
    private static void remove(ConnectionSession s, VmRef vm, TaskListener out) throws InterruptedException {
        try {
            step(s, vm, List.of("rm", "-f", USER_DATA_FILE), SHORT_STEP, out);
            out.line("Removed " + USER_DATA_FILE + " from VM " + vm.id() + " (it held the template's secrets)");
        } catch (BackendException | StepFailed e) {
            out.line("Could not remove " + USER_DATA_FILE + " from VM " + vm.id() + " (" + e.getMessage() + "): remove"
                    + " it yourself (sudo rm -f " + USER_DATA_FILE + "); it holds the password's hash and the"
                    + " template's secrets");
        }
    }

    /** A step that ran and did not succeed; its message has the exit code and the output's tail. */
    private static final class StepFailed extends Exception {
        private static final long serialVersionUID = 1L;

        StepFailed(String message) {
            super(message);
        }
    }

    private static void step(ConnectionSession s, VmRef vm, List<String> argv, Duration timeout, TaskListener out)
            throws BackendException, InterruptedException, StepFailed {
        out.line("$ " + String.join(" ", argv));
        GuestExecResult r = s.guestExec(vm, argv, timeout);
        String tail = tail(r.stdout() + (r.stderr().isEmpty() ? "" : (r.stdout().endsWith("\n") || r.stdout().isEmpty()
                ? "" : "\n") + r.stderr()), TAIL_LINES);
        if (!tail.isEmpty()) {
            Arrays.stream(tail.split("\n")).forEach(l -> out.line("  " + l));
        }
        if (!r.exited()) {
            throw new StepFailed("still running after " + timeout.toMinutes() + " min");
        }
        int code = r.exitCode().orElse(-1);
        out.line("  exit " + code);
        if (code != 0) {
            String why = tail(r.stderr().isBlank() ? r.stdout() : r.stderr(), 3);
            throw new StepFailed("exit " + code + (why.isEmpty() ? "" : ": " + why.replace("\n", " | ")));
        }
    }

    /** Pings (runs {@code true}) with backoff until the agent answers; empty when it does, else why not. */
    private Optional<String> waitForAgent(ConnectionSession s, VmRef vm, TaskListener out, BooleanSupplier cancelled)
            throws InterruptedException {
        out.line("Waiting for the QEMU guest agent of VM " + vm.id() + " (the first boot; up to "
                + minutes(agentWait) + ")");
        long start = System.nanoTime();
        long deadline = start + agentWait.toNanos();
        long pause = FIRST_PAUSE_MILLIS;
        String last = "";
        while (true) {
            try {
                GuestExecResult r = s.guestExec(vm, List.of("true"), PING_TIMEOUT);
                if (r.exited()) {
                    out.line("The guest agent of VM " + vm.id() + " answered after "
                            + (System.nanoTime() - start) / 1_000_000_000L + " s");
                    return Optional.empty();
                }
            } catch (BackendException e) {
                last = String.valueOf(e.getMessage());
                if (last.toLowerCase(Locale.ROOT).contains("no qemu guest agent configured")) {
                    return Optional.of(last);
                }
            }
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return Optional.of("The QEMU guest agent of VM " + vm.id() + " did not answer within "
                        + minutes(agentWait) + " of the start" + (last.isEmpty() ? "." : " (" + last.strip() + ")")
                        + " Is qemu-guest-agent installed and running in the guest (apt install qemu-guest-agent;"
                        + " systemctl enable --now qemu-guest-agent)?");
            }
            for (long slept = 0, wait = Math.min(pause, left); slept < wait; slept += 100) {
                if (cancelled.getAsBoolean()) {
                    return Optional.of("Cancelled while waiting for the guest agent of VM " + vm.id() + ".");
                }
                Thread.sleep(Math.min(100, wait - slept));
            }
            pause = Math.min(pause * 2, LAST_PAUSE_MILLIS);
        }
    }

    private static String minutes(Duration d) {
        return d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
    }

    private static String tail(String text, int count) {
        List<String> lines = Arrays.stream(text.split("\n")).filter(l -> !l.isBlank()).toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

}

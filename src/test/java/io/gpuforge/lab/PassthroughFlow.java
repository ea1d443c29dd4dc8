package io.gpuforge.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * plan → apply → reboot → verify, and rollback → reboot, through the CLI on a Debian lab guest, with the
 * guest's own view (sysfs, /proc/cmdline, /dev/vfio, its boot configuration) as the judge. Remembers what the
 * host was before the apply so that the rollback can be held to "byte for byte".
 */
final class PassthroughFlow {

    private final LabExtension lab;
    private final LabHost host;
    private JsonNode plan;
    private Map<String, Optional<byte[]>> before;
    private String argsBefore;
    private String cmdlineBefore;
    private GuestTruth truthBefore;

    PassthroughFlow(LabExtension lab, LabHost.Boot boot) {
        this.lab = lab;
        this.host = new LabHost(lab.machine(), boot);
    }

    LabHost host() {
        return host;
    }

    JsonNode plan() {
        return plan;
    }

    /** Plans (through the CLI) and records the state before anything changes. */
    JsonNode planAndRemember(String device, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("plan", "--device", device, "--json"));
        args.addAll(List.of(options));
        plan = lab.cli().json(args.toArray(new String[0]));
        before = host.snapshot(LabHost.paths(plan));
        argsBefore = host.nextBootArgs();
        cmdlineBefore = host.runningCmdline();
        truthBefore = host.truth();
        return plan;
    }

    /** apply --yes as planned; the files are as planned afterwards. */
    JsonNode apply(String device, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("apply", "--device", device, "--yes", "--json"));
        args.addAll(List.of(options));
        JsonNode applied = lab.cli().json(args.toArray(new String[0]));
        assertThat(applied.get("status").asText()).isEqualTo("applied");
        host.assertFilesAre(LabHost.planned(plan), "as planned after the apply");
        return applied;
    }

    /** Kernel arguments the plan adds, as the planned boot configuration file shows them. */
    List<String> plannedArgs() {
        List<String> out = new ArrayList<>();
        for (JsonNode e : plan.get("edits")) {
            String path = e.get("path").asText();
            if (path.equals("/etc/default/grub") || path.equals("/etc/kernel/cmdline")) {
                String b = cmdlineLines(e.get("before").isNull() ? "" : e.get("before").asText());
                for (String t : cmdlineLines(e.get("after").asText()).replace('"', ' ').split("\\s+")) {
                    String x = t.replaceFirst("^GRUB_CMDLINE_LINUX(_DEFAULT)?=", "");
                    if (!x.isBlank() && !(" " + b.replace('"', ' ') + " ").contains(" " + x + " ")) {
                        out.add(x);
                    }
                }
            }
        }
        return out;
    }

    /** The command-line part of a boot configuration file: GRUB's GRUB_CMDLINE_LINUX* lines, or all of it. */
    private static String cmdlineLines(String file) {
        if (!file.contains("GRUB_")) {
            return file;
        }
        StringBuilder out = new StringBuilder();
        file.lines().filter(l -> l.strip().startsWith("GRUB_CMDLINE_LINUX")).forEach(l -> out.append(l).append(' '));
        return out.toString();
    }

    /** Reboot, then: the command line as planned, and gpuforge verify. */
    JsonNode rebootAndVerify() throws IOException {
        lab.machine().reboot();
        String running = " " + host.runningCmdline() + " ";
        for (String a : plannedArgs()) {
            assertThat(running).as("/proc/cmdline after the reboot has the planned %s", a).contains(" " + a + " ");
        }
        return lab.cli().run("verify", "--json").json();
    }

    /** rollback, then every planned file byte-identical to before and the boot configuration as before. */
    JsonNode rollback() throws IOException {
        JsonNode back = lab.cli().json("rollback", "--json");
        assertThat(back.get("status").asText()).isEqualTo("rolled-back");
        host.assertFilesAre(before, "byte-identical to before the apply, after the rollback");
        assertThat(host.nextBootArgs()).as("the boot configuration after the rollback").isEqualTo(argsBefore);
        assertThat(host.nextInitramfsHasVfioOptions()).as("the initramfs still carries gpuforge-vfio.conf").isFalse();
        return back;
    }

    /** After the rollback's reboot: the original command line and every function back on its original driver. */
    void rebootAndExpectTheOriginal() throws IOException {
        lab.machine().reboot();
        assertThat(host.runningCmdline()).isEqualTo(cmdlineBefore);
        GuestTruth now = host.truth();
        for (JsonNode f : plan.get("functions")) {
            String a = f.asText();
            assertThat(now.driver(a)).as("driver of %s after rollback and reboot", a).isEqualTo(truthBefore.driver(a));
        }
        host.assertFilesAre(before, "byte-identical to before the apply, after the rollback's reboot");
    }

    Map<String, Optional<byte[]>> before() {
        return before;
    }

    String argsBefore() {
        return argsBefore;
    }

    String cmdlineBefore() {
        return cmdlineBefore;
    }

    GuestTruth truthBefore() {
        return truthBefore;
    }
}

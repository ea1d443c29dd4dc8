package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/**
 * 'gpuforge rollback --status' after an apply whose SSH connection was cut while its commit ran on the host: it says
 * fully applied, untouched (restored), still running or interrupted; and 'gpuforge apply' itself reaches the host
 * again after the cut and prints how the commit ended. Real CLI, real sshd-core server on loopback, real cuts.
 */
class ApplyStatusCliTest {

    @TempDir
    Path dir;

    private static final String PW = SysrootSshServer.PASSWORD + "\n";

    /** One CLI run: its exit status, stdout and stderr (runs may overlap: nothing shared). */
    private record Run(int code, String out, String err) {
    }

    private Run run(SysrootSshServer server, String... args) {
        String[] ssh = {"--ssh", "root@127.0.0.1:" + server.port(), "--known-hosts", dir.resolve("kh").toString(),
            "--accept-new-host-key", "--password-stdin"};
        String[] all = Arrays.copyOf(args, args.length + ssh.length);
        System.arraycopy(ssh, 0, all, args.length, ssh.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = GpuForgeCli.run(all, AppPaths.underHome(dir.resolve("home")), new CliOutput(new PrintWriter(out),
                new PrintWriter(err)), new ByteArrayInputStream(PW.getBytes(StandardCharsets.UTF_8)));
        return new Run(code, out.toString(), err.toString());
    }

    private static Map<String, String> files(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (String f : new String[] {"etc/default/grub", "etc/modules", "etc/modprobe.d/gpuforge-vfio.conf",
            "boot/grub/grub.cfg", "boot/initrd.img-5.19.0-41-generic"}) {
            Path p = root.resolve(f);
            out.put(f, Files.exists(p) ? Files.readString(p) : "(absent)");
        }
        return out;
    }

    /** Starts 'gpuforge apply' and cuts every connection once update-initramfs of its commit has written a line. */
    private CompletableFuture<Run> applyCutAtInitramfs(SysrootSshServer server, Path root) throws Exception {
        CompletableFuture<Run> apply = CompletableFuture.supplyAsync(() -> run(server, "apply", "--device",
                "0000:01:00.0", "--yes"));
        for (int i = 0; i < 600 && !log(root).contains("update-initramfs: Generating"); i++) {
            Thread.sleep(50);
        }
        assertThat(log(root)).as("the commit reached update-initramfs").contains("update-initramfs: Generating");
        server.dropSessions();
        return apply;
    }

    private static String log(Path root) throws IOException {
        return commitFile(root, ".log").map(p -> {
            try {
                return Files.readString(p);
            } catch (IOException e) {
                return "";
            }
        }).orElse("");
    }

    private static Optional<Path> commitFile(Path root, String suffix) throws IOException {
        Path d = root.resolve("var/lib/gpuforge");
        if (!Files.isDirectory(d)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> p.getFileName().toString().startsWith("commit-") && p.toString().endsWith(suffix))
                    .findFirst();
        }
    }

    @Test
    void afterACutTheStatusSaysStillRunningAndApplyItselfReportsTheEnd() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        HostTrees.toolSwitch(root, "await", "update-initramfs", "on"); // waits after its first line until "seen"
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"))) {
            Run none = run(server, "rollback", "--status");
            assertThat(none.out()).contains("no GPUForge apply on this host");

            CompletableFuture<Run> apply = applyCutAtInitramfs(server, root);
            Run running = run(server, "rollback", "--status");
            assertThat(running.code()).as(running.err()).isEqualTo(3);
            assertThat(running.out()).contains(": still running").contains("update-initramfs -u -k all");

            Files.writeString(root.resolve(HostTrees.SWITCHES).resolve("seen"), "seen");
            Run applied = apply.get();
            assertThat(applied.err()).contains("continues on the host by itself").contains("rollback --status")
                    .contains("reached the host again; the commit has ended");
            assertThat(applied.out()).contains(": fully applied");
            assertThat(applied.code()).isZero();

            Run status = run(server, "rollback", "--status", "--json");
            JsonNode j = new ObjectMapper().readTree(status.out());
            assertThat(j.get("state").asText()).isEqualTo("applied");
            assertThat(j.get("said").asText()).isEqualTo("fully applied");
            assertThat(status.code()).isZero();
        }
        assertThat(root.resolve("boot/grub/grub.cfg")).content().contains("iommu=pt");
    }

    @Test
    void aCommitThatRestoredTheHostIsUntouched() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> before = files(root);
        HostTrees.toolSwitch(root, "await", "update-initramfs", "on");
        HostTrees.toolSwitch(root, "fail", "update-initramfs", "once");
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"))) {
            CompletableFuture<Run> apply = applyCutAtInitramfs(server, root);
            Files.writeString(root.resolve(HostTrees.SWITCHES).resolve("seen"), "seen"); // it goes on, and fails
            Run cut = apply.get();
            assertThat(cut.out()).contains(": untouched (restored)");
            assertThat(cut.code()).isEqualTo(1);

            Run status = run(server, "rollback", "--status");
            assertThat(status.out()).contains(": untouched (restored)");
            assertThat(status.code()).isZero();
        }
        assertThat(files(root)).as("every file and boot file as before").isEqualTo(before);
    }

    @Test
    void aCommitWhoseProcessDiedIsInterruptedAndRollbackFinishesTheJob() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> before = files(root);
        HostTrees.toolSwitch(root, "await", "update-initramfs", "on");
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"))) {
            CompletableFuture<Run> apply = applyCutAtInitramfs(server, root);
            String pid = Files.readAllLines(commitFile(root, ".status").orElseThrow()).stream()
                    .filter(l -> l.startsWith("pid ")).findFirst().orElseThrow().substring(4);
            ProcessHandle script = ProcessHandle.of(Long.parseLong(pid)).orElseThrow();
            script.descendants().forEach(ProcessHandle::destroyForcibly); // the host's power went, say
            script.destroyForcibly();
            script.onExit().get();

            Run cut = apply.get();
            assertThat(cut.out()).contains(": interrupted: run gpuforge rollback");
            Run status = run(server, "rollback", "--status");
            assertThat(status.out()).contains(": interrupted: run gpuforge rollback");
            assertThat(status.code()).isEqualTo(1);

            HostTrees.clearSwitches(root); // update-initramfs no longer waits: the rollback re-runs it
            Run back = run(server, "rollback");
            assertThat(back.code()).as(back.err()).isZero();
            assertThat(run(server, "rollback", "--status").out()).contains(": untouched (restored)");
        }
        assertThat(files(root)).as("every file and boot file as before").isEqualTo(before);
    }
}

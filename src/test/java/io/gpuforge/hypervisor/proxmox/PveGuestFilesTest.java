package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.testing.Eventually;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The guest agent's {@code agent/file-write} through {@link PveApi} against the simulator, and the simulated guest's
 * answers to what first-boot provisioning runs in it: {@code mkdir -p}, {@code cat}, {@code cloud-init … single},
 * and the agent that answers only some time after the VM started.
 */
class PveGuestFilesTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private PveSimulator sim;
    private PveApi api;
    private PveClient c;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.contractLab());
        c = sim.tokenClient(PveContract.load());
        api = new PveApi(c);
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    private PveApi.ExecStatus run(int vmid, List<String> argv) throws Exception {
        long pid = api.agentExec("pve-4090", vmid, argv);
        long until = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < until) {
            PveApi.ExecStatus s = api.agentExecStatus("pve-4090", vmid, pid);
            if (s.exited()) {
                return s;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(argv + " did not exit");
    }

    @Test
    void aFileIsWrittenByteForByteIntoADirectoryThatExistsInTheGuest() throws Exception {
        byte[] content = "#cloud-config\npackages: [\"nvidia-driver-550\"]\n# ünïcode \u2603\n\u0000\u00ff"
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> api.agentFileWrite("pve-4090", 101, "/var/lib/gpuforge/user-data.yaml", content))
                .hasMessageContaining("No such file or directory");
        assertThat(run(101, List.of("mkdir", "-p", "-m", "0700", "/var/lib/gpuforge")).exitCode()).hasValue(0);
        api.agentFileWrite("pve-4090", 101, "/var/lib/gpuforge/user-data.yaml", content);
        assertThat(sim.cluster().guestFile(101, "/var/lib/gpuforge/user-data.yaml")).hasValue(content);
        assertThat(run(101, List.of("cat", "/var/lib/gpuforge/user-data.yaml")).out())
                .isEqualTo(new String(content, StandardCharsets.UTF_8));
    }

    @Test
    void aWriteIsRefusedWhereTheAgentCannotAnswerOrTheContentIsTooLong() throws Exception {
        assertThatThrownBy(() -> api.agentFileWrite("pve-4090", 102, "/tmp/x", new byte[] {1}))
                .hasMessageContaining("No QEMU guest agent configured");
        assertThatThrownBy(() -> api.agentFileWrite("pve-4090", 101, "/tmp/x", new byte[50_000]))
                .isInstanceOfSatisfying(PveApiException.class, e -> assertThat(e.errors()).containsKey("content"));
        assertThatThrownBy(() -> c.post("/nodes/pve-4090/qemu/101/agent/file-write", Map.of("file", "/tmp/x",
                "content", "a".repeat(PveApi.FILE_WRITE_MAX_CHARS + 1)))).as("the simulator holds PVE's limit too")
                .isInstanceOfSatisfying(PveApiException.class, e -> assertThat(e.errors()).containsKey("content"));
        assertThat(sim.cluster().guestFile(101, "/tmp/x")).isEmpty();
    }

    /** The simulated guest's disk is bounded too: writes past 4 MiB fail as on a full disk, not fill the heap. */
    @Test
    void aGuestsWrittenFilesAreBoundedLikeADisk() throws Exception {
        byte[] block = new byte[40_000]; // 40 KB each (53 KB of base64: under PVE's limit per write)
        int written = 0;
        Throwable full = null;
        while (full == null && written < 1000) {
            int i = written;
            full = org.assertj.core.api.Assertions.catchThrowable(() -> api.agentFileWrite("pve-4090", 101,
                    "/tmp/f" + i, block));
            if (full == null) {
                written++;
            }
        }
        assertThat(full).as("after %d files", written).hasMessageContaining("No space left on device");
        assertThat(written * (long) block.length).isLessThanOrEqualTo(4L << 20).isGreaterThan(3L << 20);
        api.agentFileWrite("pve-4090", 101, "/tmp/f0", new byte[10]); // rewriting a file frees its old size
    }

    @Test
    void cloudInitRunsTheModulesAskedForWithTheFileAndOneCanBeMadeToFail() throws Exception {
        api.agentFileWrite("pve-4090", 101, "/tmp/u.yaml", "#cloud-config\nruncmd: [\"true\"]\n"
                .getBytes(StandardCharsets.UTF_8));
        PveApi.ExecStatus ok = run(101, List.of("cloud-init", "--file", "/tmp/u.yaml", "single", "--name", "runcmd",
                "--frequency", "always"));
        assertThat(ok.exitCode()).hasValue(0);
        assertThat(ok.out()).contains("running 'single'");
        assertThat(run(101, List.of("cloud-init", "--file", "/tmp/missing.yaml", "single", "--name", "runcmd"))
                .exitCode()).as("a file the guest does not have").hasValue(1);
        sim.cluster().failCloudInitModule("scripts_user", "E: Unable to locate package nvidia-driver-550");
        PveApi.ExecStatus failed = run(101, List.of("cloud-init", "--file", "/tmp/u.yaml", "single", "--name",
                "scripts_user", "--frequency", "always"));
        assertThat(failed.exitCode()).hasValue(1);
        assertThat(failed.err()).contains("Unable to locate package nvidia-driver-550");
        assertThat(sim.cluster().cloudInitRuns(101)).containsExactly("runcmd", "scripts_user");
    }

    @Test
    void theAgentOfAStartedVmAnswersOnlyOnceItsGuestHasBooted() throws Exception {
        sim.cluster().agentBootMillis(4_000);
        c.put("/nodes/pve-4090/qemu/102/config", Map.of("agent", "1"));
        Upid u = new PveVms(c).action("pve-4090", 102, PveVms.Action.START);
        assertThat(new PveTasks(c, Duration.ofMillis(50)).await(u, l -> { }, () -> false, WAIT).ok()).isTrue();
        assertThat(api.agentPing("pve-4090", 102)).as("just started: the guest still boots").isFalse();
        assertThatThrownBy(() -> api.agentFileWrite("pve-4090", 102, "/tmp/x", new byte[] {1}))
                .hasMessageContaining("QEMU guest agent is not running");
        Eventually.untilHolds("the guest agent answers once the guest booted", WAIT,
                () -> api.agentPing("pve-4090", 102));
    }
}

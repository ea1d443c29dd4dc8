package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guest-exec conversation with a QEMU guest agent, over answers recorded from a real Ubuntu 22.04 guest
 * through libvirt (shared/fixtures/agent/06, 07): the command sent, the polling until {@code "exited": true},
 * the base64 output decoded; and answers that make no sense refused with what was wrong.
 */
class GuestAgentTest {

    private final ObjectMapper json = new ObjectMapper();

    /** Answers each command with the next prepared answer and remembers the commands. */
    private static final class Scripted implements GuestAgent.Channel {
        final List<String> sent = new ArrayList<>();
        final List<Integer> seconds = new ArrayList<>();
        final Deque<String> answers = new ArrayDeque<>();
        String last;

        Scripted(String... answers) {
            this.answers.addAll(List.of(answers));
        }

        @Override
        public String command(String command, int within) {
            sent.add(command);
            seconds.add(within);
            if (!answers.isEmpty()) {
                last = answers.poll();
            }
            return last;
        }
    }

    private static String fixture(String name) throws Exception {
        return new String(SharedFixtures.read("agent/" + name), StandardCharsets.UTF_8);
    }

    private static final String STILL_RUNNING = "{\"return\":{\"exited\":false}}";

    @Test
    void aCommandIsStartedPolledUntilItExitsAndItsOutputDecoded() throws Exception {
        Scripted agent = new Scripted(fixture("06-libvirt-guest-exec-return-pid-ubuntu2204.json"), STILL_RUNNING,
                fixture("07-libvirt-guest-exec-status-ls-root-ubuntu2204.json"));
        GuestExecResult r = new GuestAgent().exec("web1", agent, List.of("ls", "/"), Duration.ofSeconds(20));
        assertThat(r.exited()).isTrue();
        assertThat(r.exitCode()).hasValue(0);
        assertThat(r.stdout().lines()).contains("bin", "boot", "lost+found", "var").hasSize(25);
        assertThat(r.stderr()).isEmpty();
        JsonNode exec = json.readTree(agent.sent.get(0));
        assertThat(exec.path("execute").asText()).isEqualTo("guest-exec");
        assertThat(exec.at("/arguments/path").asText()).isEqualTo("ls");
        assertThat(exec.at("/arguments/arg/0").asText()).isEqualTo("/");
        assertThat(exec.at("/arguments/capture-output").asBoolean()).isTrue();
        assertThat(agent.sent.subList(1, agent.sent.size())).hasSize(2).allSatisfy(s -> {
            JsonNode status = json.readTree(s);
            assertThat(status.path("execute").asText()).isEqualTo("guest-exec-status");
            assertThat(status.at("/arguments/pid").asLong()).isEqualTo(3409);
        });
    }

    /** libvirt is never asked to wait for ever (-2) or by its default (-1, for ever too): each call has a deadline. */
    @Test
    void everyAgentCallHasADeadlineWithinTheWait() throws Exception {
        Scripted agent = new Scripted(fixture("06-libvirt-guest-exec-return-pid-ubuntu2204.json"), STILL_RUNNING,
                STILL_RUNNING, fixture("07-libvirt-guest-exec-status-ls-root-ubuntu2204.json"));
        new GuestAgent().exec("web1", agent, List.of("ls", "/"), Duration.ofSeconds(60));
        assertThat(agent.seconds).hasSize(4).allSatisfy(s -> assertThat(s).isBetween(1, GuestAgent.CALL_SECONDS));
        Scripted shortWait = new Scripted(fixture("06-libvirt-guest-exec-return-pid-ubuntu2204.json"), STILL_RUNNING);
        new GuestAgent().exec("web1", shortWait, List.of("ls", "/"), Duration.ofMillis(1500));
        assertThat(shortWait.seconds).as("no call may outlast the wait by more than its rounding")
                .allSatisfy(s -> assertThat(s).isBetween(1, 2));
    }

    @Test
    void aCommandStillRunningWhenTheWaitEndsHasNoExitCode() throws Exception {
        Scripted agent = new Scripted(fixture("06-libvirt-guest-exec-return-pid-ubuntu2204.json"), STILL_RUNNING);
        GuestExecResult r = new GuestAgent().exec("web1", agent, List.of("sleep", "600"), Duration.ofMillis(200));
        assertThat(r.exited()).isFalse();
        assertThat(r.exitCode()).isEmpty();
    }

    @Test
    void answersThatMakeNoSenseAreRefusedWithWhatWasWrong() throws Exception {
        assertThatThrownBy(() -> new GuestAgent().exec("web1", new Scripted("{\"return\":{\"pid\":"), List.of("ls"),
                Duration.ofSeconds(1))).isInstanceOfSatisfying(LibvirtBackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.PROTOCOL);
                    assertThat(e.getMessage()).contains("web1").contains("not JSON");
                });
        assertThatThrownBy(() -> new GuestAgent().exec("web1", new Scripted("{\"return\":{}}"), List.of("ls"),
                Duration.ofSeconds(1))).isInstanceOfSatisfying(LibvirtBackendException.class,
                        e -> assertThat(e.getMessage()).contains("no process id"));
        assertThatThrownBy(() -> new GuestAgent().exec("web1", new Scripted(
                fixture("06-libvirt-guest-exec-return-pid-ubuntu2204.json"),
                "{\"return\":{\"exited\":true,\"exitcode\":0,\"out-data\":\"%%%\"}}"), List.of("ls"), Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(LibvirtBackendException.class,
                        e -> assertThat(e.getMessage()).contains("out-data").contains("base64"));
        assertThatThrownBy(() -> new GuestAgent().exec("web1", new Scripted(
                "{\"error\":{\"class\":\"GenericError\",\"desc\":\"Failed to execute child process\"}}"), List.of("nvidia-smi"),
                Duration.ofSeconds(1))).isInstanceOfSatisfying(LibvirtBackendException.class,
                        e -> assertThat(e.getMessage()).contains("refused").contains("Failed to execute child process"));
    }

    @Test
    void aCommandNamesAProgram() {
        assertThatThrownBy(() -> new GuestAgent().exec("web1", new Scripted(), List.of(), Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(LibvirtBackendException.class,
                        e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.INVALID));
    }
}

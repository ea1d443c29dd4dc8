package io.gpuforge.hypervisor.libvirt;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.vm.GuestExecResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.libvirt.Error;
import org.libvirt.LibvirtException;

/**
 * A command run inside a guest by its QEMU guest agent: {@code guest-exec} with {@code capture-output}, then
 * {@code guest-exec-status} until the agent says {@code "exited": true} or the wait is over; the output comes
 * base64-encoded in {@code out-data}/{@code err-data}.
 */
final class GuestAgent {

    /**
     * The way to the agent of one domain: a JSON command in, libvirt's JSON answer out, within {@code seconds} (libvirt
     * gives up on an agent that does not answer by then; never its "block" or "default", which block for ever).
     */
    @FunctionalInterface
    interface Channel {
        String command(String json, int seconds) throws LibvirtBackendException;
    }

    /** The most one agent command may take: the start, and each look at whether the program has ended. */
    static final int CALL_SECONDS = 10;

    static final String CHANNEL_HINT = "add <channel type='unix'><target type='virtio' name='org.qemu.guest_agent.0'/>"
            + "</channel> to its <devices> (virt-manager: Add Hardware, Channel, org.qemu.guest_agent.0), restart it, and"
            + " install and start qemu-guest-agent inside the guest";

    private static final long FIRST_POLL_MS = 20;
    private static final long MAX_POLL_MS = 500;

    private final ObjectMapper json = new ObjectMapper();

    GuestExecResult exec(String vm, Channel agent, List<String> argv, Duration timeout)
            throws LibvirtBackendException, InterruptedException {
        if (argv.isEmpty() || argv.get(0).isBlank()) {
            throw new LibvirtBackendException(Kind.INVALID, "a command to run in " + vm + " names a program", null);
        }
        ObjectNode cmd = json.createObjectNode().put("execute", "guest-exec");
        ObjectNode args = cmd.putObject("arguments").put("path", argv.get(0)).put("capture-output", true);
        argv.subList(1, argv.size()).forEach(args.putArray("arg")::add);
        long deadline = System.nanoTime() + timeout.toNanos();
        long pid = answer(vm, agent.command(cmd.toString(), seconds(deadline))).path("pid").asLong(-1);
        if (pid < 0) {
            throw new LibvirtBackendException(Kind.PROTOCOL, "the guest agent of " + vm + " started " + argv.get(0)
                    + " but named no process id", null);
        }
        String status = json.createObjectNode().put("execute", "guest-exec-status")
                .set("arguments", json.createObjectNode().put("pid", pid)).toString();
        long pause = FIRST_POLL_MS;
        while (true) {
            JsonNode s = answer(vm, agent.command(status, seconds(deadline)));
            if (s.path("exited").asBoolean(false)) {
                OptionalInt code = s.has("exitcode") ? OptionalInt.of(s.get("exitcode").asInt())
                        : s.has("signal") ? OptionalInt.of(128 + s.get("signal").asInt()) : OptionalInt.empty();
                return new GuestExecResult(true, code, decode(vm, s, "out-data"), decode(vm, s, "err-data"));
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return new GuestExecResult(false, OptionalInt.empty(), decode(vm, s, "out-data"), decode(vm, s, "err-data"));
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(pause)));
            pause = Math.min(MAX_POLL_MS, pause * 2);
        }
    }

    /** Seconds one command may take: what is left of the wait, at least 1 and at most {@link #CALL_SECONDS}. */
    private static int seconds(long deadline) {
        long left = TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime() + 999_999_999L);
        return (int) Math.max(1, Math.min(CALL_SECONDS, left));
    }

    private JsonNode answer(String vm, String text) throws LibvirtBackendException {
        JsonNode root;
        try {
            root = json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new LibvirtBackendException(Kind.PROTOCOL, "the guest agent of " + vm + " answered something that is"
                    + " not JSON: " + e.getOriginalMessage(), e);
        }
        if (root != null && root.has("error")) {
            throw new LibvirtBackendException(Kind.FAILED, "the guest agent of " + vm + " refused: "
                    + root.get("error").path("desc").asText(root.get("error").toString()), null);
        }
        if (root == null || !root.path("return").isObject()) {
            throw new LibvirtBackendException(Kind.PROTOCOL, "the guest agent of " + vm + " answered without a"
                    + " \"return\" object: " + text, null);
        }
        return root.get("return");
    }

    private static String decode(String vm, JsonNode status, String field) throws LibvirtBackendException {
        if (!status.hasNonNull(field)) {
            return "";
        }
        try {
            String text = status.get(field).asText().replaceAll("\\s", "");
            return new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new LibvirtBackendException(Kind.PROTOCOL, "the guest agent of " + vm + " sent " + field
                    + " that is not base64: " + e.getMessage(), e);
        }
    }

    /** libvirt's refusal of an agent command, said in terms of what the user can do about it. */
    static LibvirtBackendException refused(String vm, LibvirtException e) {
        Error err = e.getError();
        String libvirt = err != null && err.getMessage() != null ? err.getMessage() : String.valueOf(e.getMessage());
        Error.ErrorNumber code = err == null ? null : err.getCode();
        if (code == Error.ErrorNumber.VIR_ERR_OPERATION_INVALID) {
            return new LibvirtBackendException(Kind.INVALID, "the QEMU guest agent of " + vm + " cannot be reached: " + vm
                    + " is not running; start it and wait until the guest has booted (" + libvirt + ")", e);
        }
        if (code == Error.ErrorNumber.VIR_ERR_ARGUMENT_UNSUPPORTED) {
            return new LibvirtBackendException(Kind.INVALID, vm + " has no QEMU guest agent channel: " + CHANNEL_HINT
                    + " (" + libvirt + ")", e);
        }
        if (code == Error.ErrorNumber.VIR_ERR_AGENT_UNRESPONSIVE || code == Error.ErrorNumber.VIR_ERR_AGENT_UNSYNCED) {
            return new LibvirtBackendException(Kind.FAILED, "the QEMU guest agent in " + vm + " is not running or not"
                    + " connected: install and start qemu-guest-agent inside the guest (e.g. apt install"
                    + " qemu-guest-agent; systemctl enable --now qemu-guest-agent) (" + libvirt + ")", e);
        }
        return LibvirtErrors.wrap("run a command through the guest agent of " + vm, e);
    }
}

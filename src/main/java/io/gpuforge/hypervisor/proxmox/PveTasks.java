package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Long Proxmox operations return a task (UPID). {@link #await} follows one to its end on the caller's
 * (background) thread, reporting each new log line, and stops it on the server when cancelled.
 */
public final class PveTasks {

    /** How a task ended. {@code ok} is PVE's exit status "OK". */
    public record Outcome(Upid upid, boolean ok, String exitStatus, List<String> log) {
        public Outcome {
            log = List.copyOf(log);
        }
    }

    private final PveClient client;
    private final Duration poll;

    public PveTasks(PveClient client, Duration poll) {
        this.client = client;
        this.poll = poll;
    }

    public Outcome await(Upid upid, Consumer<String> progress, BooleanSupplier cancelled, Duration timeout)
            throws PveApiException, InterruptedException {
        String base = "/nodes/" + upid.node() + "/tasks/" + upid.raw();
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> log = new ArrayList<>();
        while (true) {
            JsonNode status = client.get(base + "/status", Map.of());
            log.addAll(newLines(base, log.size(), progress));
            if ("stopped".equals(PveValues.text(status, "status").orElse(""))) {
                String exit = PveValues.text(status, "exitstatus").orElse("");
                log.addAll(newLines(base, log.size(), progress));
                return new Outcome(upid, exit.equals("OK"), exit, log);
            }
            if (cancelled.getAsBoolean() || System.nanoTime() > deadline) {
                client.delete(base, Map.of());
                String why = cancelled.getAsBoolean() ? "cancelled" : "timed out after " + timeout.toSeconds() + " s";
                return new Outcome(upid, false, why, log);
            }
            Thread.sleep(poll.toMillis());
        }
    }

    private List<String> newLines(String base, int seen, Consumer<String> progress) throws PveApiException {
        List<String> out = new ArrayList<>();
        for (JsonNode line : client.get(base + "/log", Map.of("start", String.valueOf(seen), "limit", "0"))) {
            String t = PveValues.text(line, "t").orElse("");
            out.add(t);
            progress.accept(t);
        }
        return out;
    }
}

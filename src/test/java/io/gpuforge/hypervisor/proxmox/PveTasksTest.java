package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Clone from a template, tasks that take simulated time, progress, cancel, and the nextid race. */
class PveTasksTest {

    private PveSimulator sim;
    private PveClient c;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        c = sim.tokenClient(PveContract.load());
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    @Test
    void cloneAwaitAndStart() throws Exception {
        PveVms.Clone clone = new PveVms(c).cloneTemplate("pve-3090", 9000, "llm-01", true);
        assertThat(clone.vmid()).isEqualTo(100);
        assertThat(clone.task().type()).isEqualTo("qmclone");
        List<String> seen = new ArrayList<>();
        PveTasks tasks = new PveTasks(c, Duration.ofMillis(50));
        PveTasks.Outcome done = tasks.await(clone.task(), seen::add, () -> false, Duration.ofSeconds(10));
        assertThat(done.ok()).isTrue();
        assertThat(seen).first().asString().startsWith("starting qmclone 9000");
        assertThat(seen).last().isEqualTo("TASK OK");
        JsonNode cfg = c.get("/nodes/pve-3090/qemu/100/config", Map.of());
        assertThat(cfg.get("name").asText()).isEqualTo("llm-01");
        assertThat(cfg.has("template")).isFalse();

        Upid start = Upid.parse(c.post("/nodes/pve-3090/qemu/100/status/start", Map.of()).asText());
        assertThat(tasks.await(start, l -> { }, () -> false, Duration.ofSeconds(10)).ok()).isTrue();
        assertThat(c.get("/nodes/pve-3090/qemu/100/status/current", Map.of()).get("status").asText()).isEqualTo("running");
    }

    @Test
    void aTakenIdIsRetriedWithTheNextOne() throws Exception {
        sim.cluster().raceNextClone();
        PveVms.Clone clone = new PveVms(c).cloneTemplate("pve-3090", 9000, "llm-02", false);
        // nextid said 100, someone took it before the clone; 101 exists already: the retry gets 102
        assertThat(clone.vmid()).isEqualTo(102);
        assertThat(c.get("/nodes/pve-3090/qemu/100/config", Map.of()).get("name").asText()).isEqualTo("someone-else");
    }

    @Test
    void cancellingStopsTheTaskOnTheServer() throws Exception {
        Upid stop = Upid.parse(c.post("/nodes/pve-4090/qemu/101/status/stop", Map.of()).asText());
        AtomicBoolean cancel = new AtomicBoolean(true);
        PveTasks.Outcome o = new PveTasks(c, Duration.ofMillis(20)).await(stop, l -> { }, cancel::get, Duration.ofSeconds(5));
        assertThat(o.ok()).isFalse();
        assertThat(o.exitStatus()).isEqualTo("cancelled");
        assertThat(c.get("/nodes/pve-4090/tasks/" + stop.raw() + "/status", Map.of()).get("exitstatus").asText())
                .isEqualTo("interrupted by signal");
        assertThat(c.get("/nodes/pve-4090/qemu/101/status/current", Map.of()).get("status").asText())
                .as("the stop never happened").isEqualTo("running");
    }
}

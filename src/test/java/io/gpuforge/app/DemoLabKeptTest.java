package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.testing.CliProcess;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Demo lab remembers: what a user made in it (a VM, an applied plan on a node's simulated host) is there at the
 * next run, in the window's process and in a command's alike, also while both run at once; a reset starts it afresh
 * everywhere.
 */
class DemoLabKeptTest {

    @TempDir
    Path dir;

    private AppContext open() throws Exception {
        return TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH);
    }

    private static VmRef cloneVm(AppContext ctx, ConnectionInfo demo, String name) throws Exception {
        TaskOutcome t = ctx.sessions().of(demo).cloneVm(new CloneRequest(new VmRef("pve-3090", "9000"), name,
                Optional.empty(), false, Optional.empty()), TaskListener.none(), () -> false);
        assertThat(t.ok()).as(t.status()).isTrue();
        return t.created().orElseThrow();
    }

    private static Optional<VmInfo> vm(AppContext ctx, ConnectionInfo demo, String name) throws BackendException {
        return ctx.sessions().of(demo).inventory().vms().stream().filter(v -> v.name().equals(name)).findFirst();
    }

    @Test
    void aVmAndAnAppliedPlanAreThereAtTheNextRun() throws Exception {
        ConnectionInfo demo;
        try (AppContext ctx = open()) {
            demo = ctx.connections().addDemo("Demo lab");
            cloneVm(ctx, demo, "kept-01");
            ctx.passthrough().apply(new HostTarget.Linked(demo, "pve-3090"), PciAddress.parse("0000:02:00.0"),
                    PlanOptions.defaults(), p -> true, ApplyProgress.NONE, (h, t, f) -> false).orElseThrow();
        }
        try (AppContext ctx = open()) {
            assertThat(vm(ctx, demo, "kept-01")).as("the VM made in the last run").isPresent();
            assertThat(ctx.passthrough().history().list(new HostTarget.Linked(demo, "pve-3090"), (h, t, f) -> false)
                    .plans()).as("the plan applied on the simulated host").hasSize(1);
            assertThat(Files.readString(ctx.demoLab().host("pve-3090").orElseThrow().root()
                    .resolve("etc/kernel/cmdline"))).contains("iommu=pt");

            ctx.demoLab().reset();
            assertThat(vm(ctx, demo, "kept-01")).as("reset: as the first time").isEmpty();
            assertThat(ctx.passthrough().history().list(new HostTarget.Linked(demo, "pve-3090"), (h, t, f) -> false)
                    .plans()).isEmpty();
            assertThat(ctx.sessions().of(demo).inventory().vms()).extracting(VmInfo::name).contains("train-01",
                    "render-02");
        }
    }

    @Test
    void theWindowAndACommandRunningAtOnceSeeEachOthersChanges() throws Exception {
        CliProcess cli = new CliProcess(dir.resolve("user"), dir.resolve("home"));
        try (AppContext window = open()) {
            ConnectionInfo demo = window.connections().addDemo("Demo lab");
            assertThat(window.sessions().of(demo).inventory().vms()).hasSize(6); // the window's lab runs
            cloneVm(window, demo, "from-window");

            CliProcess.Result seen = cli.run(Map.of(), "", "vm", "config", "from-window", "--connection", "Demo lab");
            assertThat(seen.exit()).as(seen.err()).isZero();
            assertThat(seen.out()).contains("name: from-window");

            CliProcess.Result made = cli.run(Map.of(), "", "vm", "clone", "9000", "from-cli", "--connection",
                    "Demo lab", "--node", "pve-3090");
            assertThat(made.exit()).as(made.err()).isZero();
            assertThat(vm(window, demo, "from-cli")).as("the command's VM, in the running window's lab").isPresent();

            CliProcess.Result reset = cli.run(Map.of(), "", "connection", "add", "Demo lab", "--demo", "--reset");
            assertThat(reset.exit()).as(reset.err()).isZero();
            assertThat(reset.out()).contains("reset Demo lab");
            assertThat(window.sessions().of(demo).inventory().vms()).extracting(VmInfo::name)
                    .doesNotContain("from-window", "from-cli").contains("train-01");
        }
    }

    @Test
    void aDamagedStateSaysHowToStartAfresh() throws Exception {
        try (AppContext ctx = open()) {
            ConnectionInfo demo = ctx.connections().addDemo("Demo lab");
            ctx.sessions().of(demo).inventory();
        }
        Path state = AppPaths.underHome(dir.resolve("home")).dataDir().resolve("demo-lab/cluster.json");
        assertThat(state).exists();
        Files.writeString(state, "{\"vms\": [ {\"vmid\": \"cut off");
        try (AppContext ctx = open()) {
            ConnectionInfo demo = ctx.connections().all().get(0);
            assertThatThrownBy(() -> ctx.sessions().of(demo).inventory()).hasMessageContaining("damaged")
                    .hasMessageContaining("--reset");
            ctx.demoLab().reset();
            assertThat(ctx.sessions().of(demo).inventory().vms()).extracting(VmInfo::name).contains("train-01");
        }
    }
}

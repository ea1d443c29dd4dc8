package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.LocalShell;
import io.gpuforge.testing.HostTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge gpu power-limit --persist}: the systemd unit that keeps a power limit after reboots, applied on a
 * copy of a host's {@code /} through the real HostConfigurator (journal, backups; commands listed, not run, on a
 * sysroot) and rolled back byte for byte, also over a unit that was there before.
 */
class PowerLimitPersistenceTest {

    private static final String GPU = "GPU-5d1e0f3a-8c4b-4f0e-9b7a-2a1c3d4e5f60";

    @TempDir
    Path dir;

    /** Every regular file of the tree (GPUForge's own journal and backups left out) with its mode and bytes. */
    private static Map<String, String> state(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String rel = root.relativize(p).toString();
                if (rel.startsWith("var/lib/gpuforge/") || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                out.put(rel, PosixFilePermissions.toString(Files.getPosixFilePermissions(p)) + "\n"
                        + new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    private static HostConfigurator configurator(Path root) {
        return new HostConfigurator(new LocalShell(), Optional.of(root.toString()), false, Clock.systemUTC());
    }

    private static Optional<String> unit(Path root) throws IOException {
        Path p = root.resolve(PowerLimits.unitPath(GPU).substring(1));
        return Files.exists(p) ? Optional.of(Files.readString(p)) : Optional.empty();
    }

    @Test
    void theUnitIsWrittenThroughTheJournalListedWithItsCommandAndRolledBackByteForByte() throws Exception {
        Path root = HostTrees.proxmoxSystemdBoot(dir.resolve("host"));
        Files.createDirectories(root.resolve("etc/systemd/system"));
        Map<String, String> before = state(root);
        HostConfigurator c = configurator(root);

        PassthroughPlan plan = PowerLimits.persistentPlan("sysroot " + root, GPU, 300, unit(root));
        ApplyOutcome applied = c.apply(plan);
        assertThat(applied.status()).isEqualTo(ApplyOutcome.Status.APPLIED);
        assertThat(applied.filesChanged()).containsExactly(PowerLimits.unitPath(GPU));
        assertThat(applied.commandsNotRun()).as("on a copy of / the commands are listed for the user")
                .singleElement().asString().contains("systemctl enable " + PowerLimits.unitName(GPU));
        assertThat(unit(root)).hasValueSatisfying(u -> assertThat(u)
                .contains("ExecStart=/usr/bin/nvidia-smi -i " + GPU + " -pl 300.00").contains("WantedBy=multi-user.target"));
        assertThat(PowerLimits.persistentPlan("sysroot", GPU, 300, unit(root)).edits())
                .as("the same limit again: nothing to do").isEmpty();

        ApplyOutcome back = c.rollback(Optional.of(applied.journalId()));
        assertThat(back.status()).isEqualTo(ApplyOutcome.Status.ROLLED_BACK);
        assertThat(unit(root)).as("the unit is gone").isEmpty();
        assertThat(state(root)).isEqualTo(before);
    }

    @Test
    void aNewLimitOverAnEarlierUnitIsRolledBackToThatUnitWithItsMode() throws Exception {
        Path root = HostTrees.proxmoxSystemdBoot(dir.resolve("host"));
        Files.createDirectories(root.resolve("etc/systemd/system"));
        HostConfigurator c = configurator(root);
        c.apply(PowerLimits.persistentPlan("sysroot", GPU, 250, Optional.empty()));
        Path file = root.resolve(PowerLimits.unitPath(GPU).substring(1));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Files.writeString(file, Files.readString(file) + "# tuned by hand\n");
        Map<String, String> before = state(root);

        PassthroughPlan plan = PowerLimits.persistentPlan("sysroot", GPU, 320, unit(root));
        assertThat(plan.edits()).singleElement().satisfies(e -> assertThat(e.diff()).contains("-pl 250.00")
                .contains("-pl 320.00"));
        ApplyOutcome applied = c.apply(plan);
        assertThat(unit(root)).hasValueSatisfying(u -> assertThat(u).contains("-pl 320.00").doesNotContain("by hand"));

        c.rollback(Optional.of(applied.journalId()));
        assertThat(state(root)).isEqualTo(before);
    }

    @Test
    void twoLimitsAppliedWithinOneSecondAreTwoAppliesWithTheirOwnBackups() throws Exception {
        Path root = HostTrees.proxmoxSystemdBoot(dir.resolve("host"));
        Files.createDirectories(root.resolve("etc/systemd/system"));
        // one clock second for both: the plans share their id (the GPU's), so the journal ids would too
        HostConfigurator c = new HostConfigurator(new LocalShell(), Optional.of(root.toString()), false,
                Clock.fixed(Instant.parse("2026-12-01T20:30:00Z"), ZoneOffset.UTC));
        ApplyOutcome first = c.apply(PowerLimits.persistentPlan("sysroot", GPU, 250, Optional.empty()));
        Map<String, String> between = state(root);

        ApplyOutcome second = c.apply(PowerLimits.persistentPlan("sysroot", GPU, 320, unit(root)));

        assertThat(second.journalId()).isNotEqualTo(first.journalId());
        assertThat(second.backupDir()).isNotEqualTo(first.backupDir());
        assertThat(unit(root)).hasValueSatisfying(u -> assertThat(u).contains("-pl 320.00"));
        c.rollback(Optional.of(second.journalId()));
        assertThat(state(root)).as("back to the first limit's unit").isEqualTo(between);
    }
}

package io.gpuforge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.CostProfile;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.Tariff;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The monitor's alert rules and cost profile in a real SQLite file, kept across reopening. */
class AlertRuleRepositoryTest {

    @TempDir
    Path dir;

    @Test
    void rulesAreKeptAcrossRunsChangedAndRemoved() throws Exception {
        GpuId gpu = new GpuId("demo:Demo lab/pve-4090", "0000:01:00.0");
        AlertRule hot;
        AlertRule lost;
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            AlertRuleRepository repo = new AlertRuleRepository(db);
            hot = repo.save(AlertRule.of(Optional.of(gpu), AlertRule.Kind.TEMPERATURE, 83, Duration.ofSeconds(30)));
            lost = repo.save(AlertRule.of(Optional.empty(), AlertRule.Kind.SOURCE_LOST, 0, Duration.ofSeconds(10)));
            assertThat(hot.id()).isPositive();
            assertThat(lost.id()).isGreaterThan(hot.id());
        }
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            AlertRuleRepository repo = new AlertRuleRepository(db);
            assertThat(repo.all()).containsExactly(hot, lost);
            assertThat(repo.all().get(0).hysteresis()).isEqualTo(3);
            repo.save(hot.withEnabled(false));
            assertThat(repo.all().get(0).enabled()).isFalse();
            assertThat(repo.remove(lost.id())).isTrue();
            assertThat(repo.all()).extracting(AlertRule::id).containsExactly(hot.id());
            assertThatThrownBy(() -> repo.save(lost)).hasMessageContaining("not there");
        }
    }

    @Test
    void aDamagedRuleIsNamedNotSkipped() throws Exception {
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            db.with(c -> {
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO alert_rule (kind, threshold, hold_ms) VALUES ('temperature', 900, 0)")) {
                    return ps.executeUpdate();
                }
            });
            assertThatThrownBy(() -> new AlertRuleRepository(db).all()).hasMessageContaining("alert rule 1 is damaged")
                    .hasMessageContaining("1 to 150 °C");
        }
    }

    @Test
    void theCostProfileIsKeptWithItsPeakHoursAndCloudPrice() throws Exception {
        CostProfile p = new CostProfile(new Tariff("CNY", 0.35, Optional.of(new Tariff.Peak(LocalTime.of(8, 0),
                LocalTime.of(22, 0), 1.05)), ZoneId.of("Asia/Shanghai")), 15_000, 1, 1095, OptionalDouble.of(9.5));
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            CostProfileRepository repo = new CostProfileRepository(db);
            assertThat(repo.get()).isEmpty();
            repo.put(p);
        }
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            CostProfileRepository repo = new CostProfileRepository(db);
            assertThat(repo.get()).contains(p);
            CostProfile flat = CostProfile.energyOnly(Tariff.flat("EUR", 0.3));
            repo.put(flat);
            assertThat(repo.get()).contains(flat);
        }
    }

    @Test
    void theMigrationMadeBothTables() throws Exception {
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            List<String> tables = db.with(c -> {
                try (var rs = c.createStatement().executeQuery(
                        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
                    List<String> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                    return out;
                }
            });
            assertThat(tables).contains("alert_rule", "cost_profile");
        }
    }
}

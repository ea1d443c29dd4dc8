package io.gpuforge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.tasks.AppEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {

    @TempDir
    Path dir;

    @Test
    void openingAppliesMigrationsInWalMode() throws Exception {
        try (Database db = Database.open(dir.resolve("data/gpuforge.db"))) {
            assertThat(db.schemaVersion()).isEqualTo(Database.MIGRATIONS.size());
            assertThat(db.journalMode()).isEqualTo("wal");
            List<String> tables = db.with(c -> {
                try (var rs = c.createStatement().executeQuery(
                        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
                    List<String> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                    return out;
                }
            });
            assertThat(tables).contains("connection", "event").containsExactlyInAnyOrderElementsOf(tablesCreatedByMigrations());
        }
    }

    /** Every table the migration scripts create, so that a new migration's tables are expected too. */
    private static Set<String> tablesCreatedByMigrations() throws Exception {
        Set<String> out = new TreeSet<>();
        Pattern create = Pattern.compile("(?i)CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)");
        for (String name : Database.MIGRATIONS) {
            Matcher m = create.matcher(Files.readString(Path.of("src/main/resources/db/migration", name)));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    @Test
    void reopeningKeepsDataAndDoesNotReapply() throws Exception {
        Path file = dir.resolve("gpuforge.db");
        try (Database db = Database.open(file)) {
            new EventRepository(db).append(AppEvent.of(AppEvent.Level.WARN, "test", "kept"));
        }
        try (Database db = Database.open(file)) {
            List<AppEvent> events = new EventRepository(db).latest(10);
            assertThat(events).extracting(AppEvent::message).containsExactly("kept");
            assertThat(events.get(0).level()).isEqualTo(AppEvent.Level.WARN);
            assertThat(events.get(0).id()).isPositive();
        }
    }

    @Test
    void aDatabaseFromANewerVersionIsRefused() throws Exception {
        Path file = dir.resolve("gpuforge.db");
        try (Database db = Database.open(file)) {
            db.with(c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("PRAGMA user_version = 99");
                }
                return null;
            });
        }
        assertThatThrownBy(() -> Database.open(file)).isInstanceOf(StoreException.class)
                .hasMessageContaining("schema version 99").hasMessageContaining("newer");
    }

    @Test
    void latestReturnsTheNewestInOrder() throws Exception {
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            EventRepository repo = new EventRepository(db);
            for (int i = 0; i < 30; i++) {
                repo.append(AppEvent.of(AppEvent.Level.INFO, "s", "e" + i));
            }
            assertThat(repo.latest(3)).extracting(AppEvent::message).containsExactly("e27", "e28", "e29");
        }
    }

    @Test
    void theConnectionTableHasNoColumnForSecrets() throws Exception {
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            List<String> columns = db.with(c -> {
                try (var rs = c.createStatement().executeQuery("PRAGMA table_info(connection)")) {
                    List<String> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(rs.getString("name"));
                    }
                    return out;
                }
            });
            assertThat(columns).contains("secret_ref").noneMatch(c -> c.contains("password") || c.equals("secret")
                    || c.contains("token"));
        }
    }

    @Test
    void everyMigrationFileIsListedInOrder() throws Exception {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted(
                    (a, b) -> Integer.compare(version(a), version(b))).collect(Collectors.toList());
            assertThat(Database.MIGRATIONS).isEqualTo(names);
            for (int i = 0; i < names.size(); i++) {
                assertThat(version(names.get(i))).isEqualTo(i + 1);
            }
        }
    }

    private static int version(String name) {
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }

    @Test
    void scriptSplitterHandlesCommentsAndMultiLineStatements() {
        assertThat(Database.splitStatements("-- c\nCREATE TABLE a (\n x INT\n);\n\nINSERT INTO a VALUES (1);\n"))
                .containsExactly("CREATE TABLE a (\n x INT\n)", "INSERT INTO a VALUES (1)");
    }
}
